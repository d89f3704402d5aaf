// The direct-score method (issue 35): the aspect's definition and the item, one call per item, no
// rubric. Its scores are what the judge said, read by the shared answer reader from the answers
// real models give (a bare number, "Score: 4", markdown, a <think> block, a reasoning field, an
// OpenAI reasoning model); an answer without one score is asked again once and then stored as
// unparsed, never guessed; a refused item is recorded as failed and asked again on request; a
// second run pays for nothing.

#include "ChatStyle.h"
#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "methods/MethodRegistry.h"
#include "runs/Run.h"
#include "store/RubricStore.h"

#include <QJsonObject>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

namespace {

/// The judge of these tests: the output's human score rounded, in one of four plain forms chosen
/// by the output's hash (so a replay answers the same), or what `special` says for an output.
struct DirectJudge
{
    explicit DirectJudge(QHash<QString, double> human)
        : humanByOutput(std::move(human))
    {
    }

    QString outputOf(const QJsonObject &body) const
    {
        const QString prompt = promptText(body);
        if (!prompt.contains(QLatin1String("Answer with the score only.")))
            return {};
        for (auto it = humanByOutput.cbegin(); it != humanByOutput.cend(); ++it)
            if (prompt.contains(it.key()))
                return it.key();
        return {};
    }

    /// The score this judge means for an output (the rounded human score).
    int intended(const QString &output) const { return int(std::lround(humanByOutput.value(output))); }

    FakeAnswer answer(const QJsonObject &body) const
    {
        FakeAnswer a;
        const QString output = outputOf(body);
        if (output.isEmpty()) {
            a.text = QStringLiteral("not a direct-score prompt");
            return a;
        }
        if (auto it = special.constFind(output); it != special.constEnd())
            return *it;
        const int s = intended(output);
        switch (qHash(output) % 4) {
        case 0:
            a.text = QString::number(s);
            break;
        case 1:
            a.text = QStringLiteral("Score: %1").arg(s);
            break;
        case 2:
            a.text = QStringLiteral("**Score (1-5):** %1\n\nThe sentences follow from one another.").arg(s);
            break;
        default:
            a.text = QStringLiteral("I would rate this a %1 out of 5.").arg(s);
            break;
        }
        return a;
    }

    QHash<QString, double> humanByOutput;
    QHash<QString, FakeAnswer> special; ///< output → the answer it always gets
};

enum class Kind { Plain, Markdown, ThinkInline, ReasoningField, Reasoning };

} // namespace

class TestDirectMethod : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void registeredLikeEveryMethod();
    void scoresWhatTheJudgeSaid_data();
    void scoresWhatTheJudgeSaid();
    void unreadableAnswerIsUnparsedNotGuessed();
    void refusedItemIsFailedThenAskedAgain();
    void badParameterRefusedBeforeAnythingIsRecorded();

private:
    TempProjects m_projects;
};

void TestDirectMethod::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestDirectMethod::registeredLikeEveryMethod()
{
    const MethodInfo *m = MethodRegistry::find(QStringLiteral("direct"));
    QVERIFY(m);
    QCOMPARE(m->title, QStringLiteral("Direct score"));
    QCOMPARE(m->phases, QStringList{QStringLiteral("evaluate")});
    QVERIFY(m->param(QStringLiteral("temperature")));
    QVERIFY(m->param(QStringLiteral("max_tokens")));
    QVERIFY(Run::methods().contains(QStringLiteral("direct")));
}

void TestDirectMethod::scoresWhatTheJudgeSaid_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("plain") << int(Kind::Plain);
    QTest::newRow("markdown") << int(Kind::Markdown);
    QTest::newRow("think") << int(Kind::ThinkInline);
    QTest::newRow("reasoning-field") << int(Kind::ReasoningField);
    QTest::newRow("reasoning") << int(Kind::Reasoning);
}

void TestDirectMethod::scoresWhatTheJudgeSaid()
{
    QFETCH(int, kind);
    auto fx = makeProject(m_projects.next(), 24);
    QVERIFY(fx);
    DirectJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    if (Kind(kind) == Kind::Markdown)
        server.setJudge([&judge](const QJsonObject &body) { return chatStyled(judge.answer(body), body); });
    else
        server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    if (Kind(kind) == Kind::ThinkInline)
        server.setModelKind(FakeModelKind::ThinkInline);
    else if (Kind(kind) == Kind::ReasoningField)
        server.setModelKind(FakeModelKind::ReasoningField);
    else if (Kind(kind) == Kind::Reasoning)
        server.setModelKind(FakeModelKind::OpenAiReasoning);
    QVERIFY(server.listen());
    const RunSpec s = spec(QStringLiteral("direct"), QStringLiteral("direct"), server.baseUrl());

    Run before(fx->project.get(), s);
    const auto e = before.estimate();
    QVERIFY2(e, qPrintable(e.errorString()));
    QCOMPARE(e->calls, int(fx->testIds.size())); // one call per test item (outputs are distinct)
    QCOMPARE(e->perPhase.value(QStringLiteral("evaluate")).toInt(), e->calls);
    QVERIFY(e->cost >= 0);

    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("scored")).toInt(), int(fx->testIds.size()));
    QCOMPARE(result.value(QStringLiteral("missing")).toInt(), 0);
    QCOMPARE(result.value(QStringLiteral("failed")).toInt(), 0);

    // Every test item's score is the one the judge meant, whatever the dress.
    const auto scores = fx->project->judgeScores(s.judge, QStringLiteral("coherence"));
    QCOMPARE(int(scores.size()), int(fx->testIds.size()));
    for (const QString &id : std::as_const(fx->testIds)) {
        const Item *item = nullptr;
        const auto items = fx->project->items();
        for (const Item &it : items)
            if (it.id == id)
                item = &it;
        QVERIFY(item);
        QCOMPARE(scores.value(id), double(judge.intended(item->output)));
    }
    // The rubric is the aspect alone, and its scores are the criterion's.
    const RubricStore store(fx->project.get());
    const auto rubric = store.load(s.judge);
    QVERIFY(rubric);
    QCOMPARE(rubric->method(), QStringLiteral("direct"));
    QCOMPARE(int(rubric->criteria().size()), 1);
    const auto rows = store.readCriterionScores(s.judge);
    QVERIFY(rows);
    QCOMPARE(int(rows->size()), int(fx->testIds.size()));
    for (const ItemCriterionScores &r : *rows) {
        QCOMPARE(r.criterionKey, QStringLiteral("aspect"));
        QCOMPARE(r.parseStatus, QStringLiteral("ok"));
        QVERIFY2(!r.raw.contains(QLatin1String("<think>")), "the stored answer is the answer, not the thinking");
    }

    // The same command on the finished judge pays for nothing and scores the same items (issue
    // 33.6: it used to ask the 30 train items nobody asked for); the first version's train figure
    // is measured only when its run scores the train items.
    const int requests = server.requestCount();
    RunSpec resumed = s;
    resumed.resume = true;
    for (int again = 0; again < 2; ++again) {
        Run second(fx->project.get(), resumed);
        const auto e2 = second.estimate();
        QVERIFY2(e2, qPrintable(e2.errorString()));
        QCOMPARE(e2->calls, 0);
        const Outcome o2 = runToEnd(fx->project.get(), resumed);
        QVERIFY2(o2.ok, qPrintable(o2.error));
        QCOMPARE(server.requestCount(), requests);
        QCOMPARE(fx->project->judgeScores(s.judge, QStringLiteral("coherence")).size(), fx->testIds.size());
    }
    const auto after = fx->project->judgeScores(s.judge, QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx->testIds))
        QCOMPARE(after.value(id), scores.value(id));
}

void TestDirectMethod::unreadableAnswerIsUnparsedNotGuessed()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    DirectJudge judge(fx->humanByOutput);
    const auto items = fx->project->items();
    QString vagueId, vagueOutput;
    for (const Item &it : items)
        if (it.id == fx->testIds.first()) {
            vagueId = it.id;
            vagueOutput = it.output;
        }
    FakeAnswer vague;
    vague.text = QStringLiteral("Somewhere between 3 or 4, the second paragraph drifts.");
    judge.special.insert(vagueOutput, vague);
    int vagueAsked = 0;
    FakeLlmServer server;
    server.setJudge([&judge, &vagueAsked, vagueOutput](const QJsonObject &body) {
        if (judge.outputOf(body) == vagueOutput)
            ++vagueAsked;
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    const RunSpec s = spec(QStringLiteral("direct-vague"), QStringLiteral("direct"), server.baseUrl());
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("missing")).toInt(), 1);
    QCOMPARE(result.value(QStringLiteral("scored")).toInt(), int(fx->testIds.size()) - 1);
    QCOMPARE(vagueAsked, 2); // asked once more, then left unscored
    const auto scores = fx->project->judgeScores(s.judge, QStringLiteral("coherence"));
    QVERIFY(!scores.contains(vagueId) || std::isnan(scores.value(vagueId)));
    const auto rows = RubricStore(fx->project.get()).readCriterionScores(s.judge);
    QVERIFY(rows);
    bool seen = false;
    for (const ItemCriterionScores &r : *rows)
        if (r.itemId == vagueId) {
            seen = true;
            QCOMPARE(r.parseStatus, QStringLiteral("unparsed"));
            QVERIFY(r.raw.contains(QLatin1String("3 or 4"))); // the paid answer is kept
        }
    QVERIFY(seen);
}

void TestDirectMethod::refusedItemIsFailedThenAskedAgain()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    DirectJudge judge(fx->humanByOutput);
    QString refusedId, refusedOutput;
    for (const Item &it : fx->project->items())
        if (it.id == fx->testIds.last()) {
            refusedId = it.id;
            refusedOutput = it.output;
        }
    FakeAnswer refusal;
    refusal.httpStatus = 400;
    refusal.errorMessage = QStringLiteral("The response was filtered due to the prompt triggering a content policy.");
    judge.special.insert(refusedOutput, refusal);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("direct-refused"), QStringLiteral("direct"), server.baseUrl());
    s.items = SplitFilter::All; // train items too: the version's train figure comes with the first run
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("failed")).toInt(), 1);
    QVERIFY(std::isnan(fx->project->judgeScores(s.judge, QStringLiteral("coherence")).value(refusedId, qQNaN())));

    // The endpoint takes it now: --retry-failed asks that item alone again.
    judge.special.clear();
    const int before = server.requestCount();
    s.resume = true;
    s.retryFailed = true;
    const Outcome again = runToEnd(fx->project.get(), s);
    QVERIFY2(again.ok, qPrintable(again.error));
    QCOMPARE(server.requestCount() - before, 1);
    QCOMPARE(fx->project->judgeScores(s.judge, QStringLiteral("coherence")).value(refusedId),
             double(judge.intended(refusedOutput)));
}

void TestDirectMethod::badParameterRefusedBeforeAnythingIsRecorded()
{
    auto fx = makeProject(m_projects.next(), 4);
    QVERIFY(fx);
    FakeLlmServer server;
    QVERIFY(server.listen());
    for (const auto &[key, value] : {std::pair{"temperature", "3"}, std::pair{"max_tokens", "0"},
                                     std::pair{"max_tokens", "many"}, std::pair{"top_p", "0.9"}}) {
        RunSpec s = spec(QStringLiteral("direct-bad"), QStringLiteral("direct"), server.baseUrl());
        s.settings.insert(QString::fromLatin1(key), QString::fromLatin1(value));
        Run run(fx->project.get(), s);
        const auto started = run.start();
        QVERIFY(!started);
        QVERIFY2(started.errorString().contains(QString::fromLatin1(key)), qPrintable(started.errorString()));
        QVERIFY(!fx->project->judge(s.judge)); // nothing recorded
    }
    QCOMPARE(server.requestCount(), 0);
}

QTEST_GUILESS_MAIN(TestDirectMethod)
#include "TestDirectMethod.moc"
