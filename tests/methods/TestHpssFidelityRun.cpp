// Issue 32 end to end against the loopback fake judge: one unparsed-answer policy on both splits
// (the paper's 2.51 after one ask), the test correlation without validation items, SummEval's
// summary-level Spearman named in the result, the paper's auxiliary prompts with the task's words,
// and a Topical-Chat project imported with our own preset that HPSS runs from its origin at scale 3.

#include "CliRun.h"
#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "methods/hpss/PromptAssembly.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

namespace {

bool isScoring(const QString &prompt)
{
    return prompt.contains(QLatin1String("Please act as an impartial judge"))
           && prompt.contains(QLatin1String("\"[[rating]]\""));
}

} // namespace

class TestHpssFidelityRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void unparsedPolicyAndTestSplit();
    void topicalChatPresetRunsFromScaleThree();
    void hpssDaggerAveragesTwentySamples();

private:
    TempProjects m_projects;
};

// Points 3, 6, 7: --items all, two validation and two test outputs the judge never rates.
void TestHpssFidelityRun::unparsedPolicyAndTestSplit()
{
    auto fx = makeProject(m_projects.next(), 10);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    const QStringList trainIds = fx->project->itemIds(SplitFilter::Train);
    QSet<QString> unreadable{fx->project->item(trainIds[0])->output, fx->project->item(trainIds[1])->output,
                             fx->project->item(fx->testIds[0])->output, fx->project->item(fx->testIds[1])->output};
    QHash<QString, QString> testOutputGroup;
    for (const QString &id : std::as_const(fx->testIds))
        testOutputGroup.insert(fx->project->item(id)->output, fx->project->item(id)->group);
    int scoring = 0;
    QHash<QString, double> testScore; // the test outputs' scores as the judge gave them (2.51 unread)
    QStringList auxPrompts;
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        const QString prompt = promptText(body);
        if (!isScoring(prompt)) {
            auxPrompts.append(prompt);
            return judge.answer(body);
        }
        ++scoring;
        for (const QString &out : std::as_const(unreadable))
            if (prompt.contains(QStringLiteral("[The Start of the Summary]\n") + out + QLatin1Char('\n'))) {
                if (testOutputGroup.contains(out))
                    testScore.insert(out, 2.51);
                return FakeAnswer{QStringLiteral("I cannot rate this summary."), {}};
            }
        const FakeAnswer a = judge.answer(body);
        for (auto it = testOutputGroup.cbegin(); it != testOutputGroup.cend(); ++it)
            if (prompt.contains(QStringLiteral("[The Start of the Summary]\n") + it.key() + QLatin1Char('\n'))) {
                static const QRegularExpression n(QStringLiteral("\\[\\[([0-9.]+)\\]\\]"));
                testScore.insert(it.key(), n.match(a.text).captured(1).toDouble());
            }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("h"), QStringLiteral("hpss"), server.baseUrl());
    s.items = SplitFilter::All;
    s.settings.insert(QStringLiteral("search"), QStringLiteral("random"));
    s.settings.insert(QStringLiteral("budget"), QStringLiteral("2"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();

    // One ask per item and strategy, unread answers included: the search's 2 × 30 and the winner's
    // 10 test items (its 30 validation prompts were the search's: answered from the judge cache).
    QCOMPARE(scoring, 2 * 30 + 10);
    QCOMPARE(result.value(QStringLiteral("validation_parse_failures")).toInt(), 2 * 2);
    // The level and metric are named; the test correlation has the 10 test items only (the two
    // unread ones at 2.51), never the 30 validation items the run also scored.
    QCOMPARE(result.value(QStringLiteral("level")).toString(), QStringLiteral("summary"));
    QCOMPARE(result.value(QStringLiteral("metric")).toString(), QStringLiteral("spearman"));
    QCOMPARE(result.value(QStringLiteral("test_n")).toInt(), 10);
    // Recomputed from the judge's answers: per document, then averaged over the defined ones.
    QHash<QString, std::pair<std::vector<double>, std::vector<double>>> byDoc;
    for (auto it = testScore.cbegin(); it != testScore.cend(); ++it) {
        auto &d = byDoc[testOutputGroup.value(it.key())];
        d.first.push_back(it.value());
        d.second.push_back(fx->humanByOutput.value(it.key()));
    }
    QCOMPARE(testScore.size(), 10);
    double sum = 0;
    int defined = 0;
    for (const auto &d : std::as_const(byDoc))
        if (d.first.size() >= 2)
            if (const double r = stats::spearman(d.first, d.second); std::isfinite(r)) {
                sum += r;
                ++defined;
            }
    if (defined > 0)
        QCOMPARE(result.value(QStringLiteral("test_spearman")).toDouble(), sum / defined);
    else
        QVERIFY(result.value(QStringLiteral("test_spearman")).isNull());

    // Point 6: the paper's auxiliary prompts, with SummEval's words.
    const auto any = [&auxPrompts](const QString &needle) {
        return std::any_of(auxPrompts.begin(), auxPrompts.end(),
                           [&needle](const QString &p) { return p.contains(needle); });
    };
    QVERIFY(any(QStringLiteral("Please summarize the following text:\n")));
    QVERIFY(any(QStringLiteral("\n\n## Article:\n")));
    QVERIFY(any(QStringLiteral("is a good summary for a given news article on its coherence")));
    QVERIFY(any(QStringLiteral("evaluate the quality of the summary of the news article on its coherence and rate the "
                               "summary on a scale of 1 to 10.")));
    QVERIFY(!any(QStringLiteral("Source Text")));
}

// Points 4 and 8: `rubric import --preset topical-chat`, then HPSS with task=topical_chat. The fact
// reaches the prompt and the search starts at the origin on scale 3.
void TestHpssFidelityRun::topicalChatPresetRunsFromScaleThree()
{
    QFile data(QStringLiteral(RUBRIC_SHARED_DATA "/topical-chat/topical_chat.json"));
    if (!data.open(QIODevice::ReadOnly))
        QSKIP("../shared/data/topical-chat is not here");
    const QJsonArray all = QJsonDocument::fromJson(data.readAll()).array();
    QJsonArray few;
    for (int i = 0; i < 24 && i < all.size(); ++i)
        few.append(all[i]);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("tc.json"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(few).toJson());
    }
    const QString path = m_projects.next();
    CliResult r = runCli({QStringLiteral("import"), file, QStringLiteral("--project"), path, QStringLiteral("--preset"),
                          QStringLiteral("topical-chat")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({QStringLiteral("split"), QStringLiteral("--project"), path, QStringLiteral("--train"),
                QStringLiteral("12"), QStringLiteral("--seed"), QStringLiteral("3")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto opened = Project::open(path, Project::OpenMode::OpenExisting);
    QVERIFY(opened);
    auto project = std::move(opened).value();
    const QString firstId = project->itemIds(SplitFilter::All).first();
    const QString fact = project->item(firstId)->context.value(QStringLiteral("fact")).toString();
    QVERIFY2(!fact.isEmpty(), "the preset stores the fact under context key 'fact'");

    QHash<QString, double> humanByOutput;
    const auto human = project->humanScores(QStringLiteral("coherence"));
    for (const QString &id : project->itemIds(SplitFilter::All))
        humanByOutput.insert(project->item(id)->output, human.value(id));
    SyntheticJudge judge(humanByOutput);
    QStringList scoringPrompts;
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        const QString prompt = promptText(body);
        if (isScoring(prompt))
            scoringPrompts.append(prompt);
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("tc"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("task"), QStringLiteral("topical_chat"));
    s.settings.insert(QStringLiteral("search"), QStringLiteral("random"));
    s.settings.insert(QStringLiteral("budget"), QStringLiteral("2"));
    const Outcome o = runToEnd(project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QVERIFY(!scoringPrompts.isEmpty());
    // The first evaluation is the origin: MT-Bench on Topical-Chat's own scale 1-3.
    QVERIFY(scoringPrompts.first().contains(QStringLiteral("on a scale of 1 to 3 by strictly following")));
    QVERIFY(std::any_of(scoringPrompts.begin(), scoringPrompts.end(), [&fact](const QString &p) {
        return p.contains(QStringLiteral("[Corresponding Fact]\n") + fact + QLatin1Char('\n'));
    }));
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("level")).toString(), QStringLiteral("dataset"));
}

// HPSS†: --set samples=20 asks the winner 20 times per test item at temperature 1 and scores the
// item with the mean. The fake judge answers a test prompt's k-th sample with 1 + k mod 5: mean 3.
void TestHpssFidelityRun::hpssDaggerAveragesTwentySamples()
{
    auto fx = makeProject(m_projects.next(), 4);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    QSet<QString> testOutputs;
    for (const QString &id : std::as_const(fx->testIds))
        testOutputs.insert(fx->project->item(id)->output);
    QHash<QString, int> asked;
    int hot = 0;
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        const QString prompt = promptText(body);
        if (isScoring(prompt))
            for (const QString &out : std::as_const(testOutputs))
                if (prompt.contains(QStringLiteral("[The Start of the Summary]\n") + out + QLatin1Char('\n'))) {
                    hot += body.value(QStringLiteral("temperature")).toDouble() == 1.0 ? 1 : 0;
                    const int k = asked[out]++;
                    return FakeAnswer{QStringLiteral("Rating: [[%1]]").arg(1 + k % 5), {}};
                }
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("dagger"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("search"), QStringLiteral("random"));
    s.settings.insert(QStringLiteral("budget"), QStringLiteral("2"));
    s.settings.insert(QStringLiteral("samples"), QStringLiteral("20"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(hot, 4 * 20);
    for (const QString &out : std::as_const(testOutputs))
        QCOMPARE(asked.value(out), 20);
    const QHash<QString, double> scores
            = fx->project->judgeScores(QStringLiteral("dagger"), QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx->testIds))
        QCOMPARE(scores.value(id), 3.0);
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("samples")).toInt(), 20);
}

QTEST_GUILESS_MAIN(TestHpssFidelityRun)
#include "TestHpssFidelityRun.moc"
