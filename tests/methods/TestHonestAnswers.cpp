// Issue 18, "honest numbers": answers that are no answers, and HypoEval on scales other than 1–5.
// - An HTTP 200 whose answer is empty or cut off at max_tokens is asked once more (max_tokens
//   doubled when it was cut off), the run says so, and a re-run reads both from the cache.
// - G-Eval's logprobs answer at max_tokens 5 hits the limit by design and is not asked again.
// - HypoEval scores an item only when a majority of its hypotheses gave a score (min_hypotheses).
// - HypoEval on a Topical-Chat-like naturalness aspect (1–3) names the aspect's scale in every
//   prompt and scales θ and b: at least 95 % of the test items are scored on the scale.

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "judge/AnthropicProvider.h"
#include "judge/OpenAiProvider.h"
#include "stats/Correlation.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QSet>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestHonestAnswers : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void providersReadTheStopReason();
    void cutOffAnswerIsAskedAgain_data();
    void cutOffAnswerIsAskedAgain();
    void emptyAnswerIsAskedAgainAndCached();
    void logprobsAtTheLimitAreNotAskedAgain();
    void hypoEvalNeedsAMajorityOfHypotheses();
    void hypoEvalOnAThreePointScale();

private:
    TempProjects m_projects;
};

namespace {

bool isScorePrompt(const QJsonObject &body)
{
    return promptText(body).contains(QLatin1String("Evaluation Form"));
}

int reasked(const QVariantMap &summary, const QString &why)
{
    return summary.value(QStringLiteral("reasked")).toMap().value(why).toInt();
}

/// A Topical-Chat-like project (USR naturalness, the mean of three annotators on 1–3): 30 train
/// and `testItems` test items, every response distinct, task "dialogue".
struct DialogueProject
{
    std::unique_ptr<Project> project;
    QHash<QString, double> humanByOutput;
    QStringList testIds;
};

std::unique_ptr<DialogueProject> makeDialogueProject(const QString &path, int testItems)
{
    auto fx = std::make_unique<DialogueProject>();
    auto p = Project::open(path);
    if (!p)
        return nullptr;
    fx->project = std::move(p).value();
    static const char *const topics[] = {"the olympics", "jazz", "mars rovers", "chess", "football", "coffee"};
    static const double means[] = {1.0, 1.0 + 1.0 / 3, 1.0 + 2.0 / 3, 2.0, 2.0 + 1.0 / 3, 2.0 + 2.0 / 3, 3.0};
    QVector<Item> items;
    QVector<Annotation> notes;
    QHash<QString, SplitRole> split;
    for (int i = 0; i < 30 + testItems; ++i) {
        Item it;
        it.id = QStringLiteral("tc%1").arg(i);
        it.group = QStringLiteral("ctx%1").arg(i / 6);
        it.system = QStringLiteral("sys%1").arg(i % 6);
        const QString topic = QString::fromLatin1(topics[(i / 6) % 6]);
        it.source = QStringLiteral("speaker a: do you follow %1 ?\nspeaker b: a little , why do you ask ? (%2)")
                            .arg(topic)
                            .arg(i / 6);
        it.output = QStringLiteral("i heard that %1 story number %2 is really something , did you know ?")
                            .arg(topic)
                            .arg(i);
        it.position = i;
        const double human = means[(i * 5 + i / 7) % 7];
        fx->humanByOutput.insert(it.output, human);
        notes.append(Annotation{it.id, QStringLiteral("naturalness"), QStringLiteral("usr"), human, {}, {}});
        split.insert(it.id, i < 30 ? SplitRole::Train : SplitRole::Test);
        if (i >= 30)
            fx->testIds.append(it.id);
        items.append(it);
    }
    if (!fx->project->setMeta(QStringLiteral("task"), QStringLiteral("dialogue")) || !fx->project->addItems(items)
        || !fx->project->upsertAspect(
                Aspect{QStringLiteral("naturalness"), QStringLiteral("is the response naturally written?"), 1, 3})
        || !fx->project->addAnnotations(notes) || !fx->project->setSplit(split))
        return nullptr;
    return fx;
}

} // namespace

void TestHonestAnswers::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestHonestAnswers::providersReadTheStopReason()
{
    const auto openai = OpenAiProvider().parseResponse(
            R"({"choices":[{"index":0,"message":{"role":"assistant","content":"Step 1:"},"finish_reason":"length"}]})");
    QVERIFY(openai);
    QCOMPARE(openai->choices.first().finishReason, QStringLiteral("length"));
    QVERIFY(openai->choices.first().cutOff());
    const auto anthropic = AnthropicProvider().parseResponse(
            R"({"content":[{"type":"text","text":"Step 1:"}],"stop_reason":"max_tokens"})");
    QVERIFY(anthropic);
    QCOMPARE(anthropic->choices.first().finishReason, QStringLiteral("max_tokens"));
    QVERIFY(anthropic->choices.first().cutOff());
    const auto done
            = AnthropicProvider().parseResponse(R"({"content":[{"type":"text","text":"4"}],"stop_reason":"end_turn"})");
    QVERIFY(done && !done->choices.first().cutOff());
}

void TestHonestAnswers::cutOffAnswerIsAskedAgain_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::newRow("openai: finish_reason length") << false;
    QTest::newRow("anthropic: stop_reason max_tokens") << true;
}

void TestHonestAnswers::cutOffAnswerIsAskedAgain()
{
    QFETCH(bool, anthropic);
    auto fx = makeProject(m_projects.next(), 6);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    int firstMaxTokens = 0, scoreCalls = 0, doubled = 0;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (!isScorePrompt(body))
            return a;
        ++scoreCalls;
        a.topLogprobs.clear();
        const int maxTokens = body.value(QStringLiteral("max_tokens")).toInt();
        if (firstMaxTokens == 0)
            firstMaxTokens = maxTokens;
        if (maxTokens == firstMaxTokens) { // a long chain of thought that stops before the score
            a.text = QStringLiteral("Let me think about the summary step by step. First");
            a.cutOff = true;
        } else {
            doubled += maxTokens == 2 * firstMaxTokens ? 1 : 0;
            a.text = QStringLiteral("Let me think. Rating: [[4]]");
        }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("cut"), QStringLiteral("geval"), server.baseUrl());
    if (anthropic)
        s.evaluator.kind = ProviderKind::Anthropic;
    s.settings.insert(QStringLiteral("logprobs"), false);
    s.settings.insert(QStringLiteral("samples"), 1);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(scoreCalls, 12); // every item asked twice
    QCOMPARE(doubled, 6);     // the second time with max_tokens doubled
    QCOMPARE(reasked(o.summary, QStringLiteral("cut off at max_tokens")), 6);
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("scored")).toInt(), 6);
    QCOMPARE(result.value(QStringLiteral("missing")).toInt(), 0);
    const auto scores = fx->project->judgeScores(QStringLiteral("cut"), QStringLiteral("coherence"));
    QCOMPARE(int(scores.size()), 6);
    for (double v : scores)
        QCOMPARE(v, 4.0);
}

void TestHonestAnswers::emptyAnswerIsAskedAgainAndCached()
{
    auto fx = makeProject(m_projects.next(), 6);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    QHash<QString, int> asked; // prompt → times asked
    int scoreCalls = 0;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (!isScorePrompt(body))
            return a;
        ++scoreCalls;
        a.topLogprobs.clear();
        a.text = asked[promptText(body)]++ == 0 ? QString() : QStringLiteral("3");
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("e1"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), false);
    s.settings.insert(QStringLiteral("samples"), 1);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(scoreCalls, 12);
    QCOMPARE(reasked(o.summary, QStringLiteral("empty answer")), 6);
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("scored")).toInt(), 6);

    // A re-run (another judge, the same prompts) reads both answers from the cache: nothing is
    // sent, and the items are scored, not missing as the cached empty answer would leave them.
    s.judge = QStringLiteral("e2");
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(scoreCalls, 12);
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("scored")).toInt(), 6);
    QCOMPARE(reasked(o.summary, QStringLiteral("empty answer")), 6);
    QCOMPARE(int(fx->project->judgeScores(QStringLiteral("e2"), QStringLiteral("coherence")).size()), 6);
}

void TestHonestAnswers::logprobsAtTheLimitAreNotAskedAgain()
{
    auto fx = makeProject(m_projects.next(), 6);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    int scoreCalls = 0;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (isScorePrompt(body)) {
            ++scoreCalls;
            a.text = QStringLiteral("4 - the"); // stopped at max_tokens 5, logprobs came back
            a.cutOff = true;
        }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("lp"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(scoreCalls, 6);
    QVERIFY(!o.summary.contains(QStringLiteral("reasked")));
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("scoring")).toString(),
             QStringLiteral("logprobs"));
}

void TestHonestAnswers::hypoEvalNeedsAMajorityOfHypotheses()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    QSet<QString> testOutputs;
    for (const QString &id : std::as_const(fx->testIds))
        testOutputs.insert(fx->project->item(id)->output);
    // On a test item, the first two hypothesis prompts get a score; every other one (and its
    // re-ask) an answer without one.
    QHash<QString, QSet<QString>> readable;
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        const QString prompt = promptText(body);
        if (!prompt.contains(QLatin1String("Pattern: ")))
            return a;
        for (const QString &out : std::as_const(testOutputs))
            if (prompt.contains(out)) {
                static const QRegularExpression pattern(QStringLiteral("Pattern: (.*)\n"));
                const QString hyp = pattern.match(prompt).captured(1);
                QSet<QString> &ok = readable[out];
                if (!ok.contains(hyp) && ok.size() < 2)
                    ok.insert(hyp);
                if (!ok.contains(hyp))
                    a.text = QStringLiteral("The trait is unclear here; I cannot decide.");
            }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("h"), QStringLiteral("hypoeval"), server.baseUrl());
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("hypotheses")).toInt(), 5);
    QCOMPARE(result.value(QStringLiteral("min_hypotheses")).toInt(), 3); // a majority of 5
    QCOMPARE(result.value(QStringLiteral("hypotheses_parsed")).toMap().value(QStringLiteral("2")).toInt(), 8);
    QCOMPARE(result.value(QStringLiteral("too_few_hypotheses")).toInt(), 8);
    QCOMPARE(result.value(QStringLiteral("scored")).toInt(), 0);
    QCOMPARE(result.value(QStringLiteral("missing")).toInt(), 8);
    QCOMPARE(reasked(o.summary, QStringLiteral("unreadable answer")), 8 * 3);
    QVERIFY(fx->project->judgeScores(QStringLiteral("h"), QStringLiteral("coherence")).isEmpty());

    // min_hypotheses=2 accepts two of five: every item scored, from the cache.
    s.judge = QStringLiteral("h2");
    s.settings.insert(QStringLiteral("min_hypotheses"), QStringLiteral("2"));
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("min_hypotheses")).toInt(), 2);
    QCOMPARE(result.value(QStringLiteral("scored")).toInt(), 8);
    QCOMPARE(int(fx->project->judgeScores(QStringLiteral("h2"), QStringLiteral("coherence")).size()), 8);
}

void TestHonestAnswers::hypoEvalOnAThreePointScale()
{
    auto fx = makeDialogueProject(m_projects.next(), 40);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    QStringList hypothesisPrompts;
    server.setJudge([&](const QJsonObject &body) {
        const QString prompt = promptText(body);
        if (prompt.contains(QLatin1String("hypotheses:")))
            hypothesisPrompts.append(prompt);
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("nat"), QStringLiteral("hypoeval"), server.baseUrl());
    s.aspect = QStringLiteral("naturalness");
    // As the run pane sends them: the paper's values, on its 1–5 scale.
    s.settings.insert(QStringLiteral("theta"), QStringLiteral("0.5"));
    s.settings.insert(QStringLiteral("b"), QStringLiteral("0.0625"));
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));

    // Every generation and refinement prompt names the aspect's scale, one to three.
    QVERIFY(!hypothesisPrompts.isEmpty());
    for (const QString &p : std::as_const(hypothesisPrompts)) {
        QVERIFY2(p.contains(QLatin1String("a score of one, two, or three.")), qPrintable(p.left(2000)));
        QVERIFY2(!p.contains(QLatin1String("five")), qPrintable(p.left(2000)));
    }
    // θ and b scaled from the range of 4 to the range of 2: θ = 0.25, b = 1/4.
    const auto rubric = RubricStore(fx->project.get()).load(QStringLiteral("nat"));
    QVERIFY(rubric);
    const QVariantMap params = rubric->find(QStringLiteral("aspect"))->stats.value(QStringLiteral("params")).toMap();
    QCOMPARE(params.value(QStringLiteral("theta")).toDouble(), 0.25);
    QCOMPARE(params.value(QStringLiteral("b")).toDouble(), 0.25);

    // At least 95 % of the test items scored, on the aspect's scale, from parsed hypothesis scores.
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    const auto scores = fx->project->judgeScores(QStringLiteral("nat"), QStringLiteral("naturalness"));
    QVERIFY2(result.value(QStringLiteral("scored")).toInt() >= 38, qPrintable(QString::number(scores.size())));
    QVERIFY(scores.size() >= 38);
    for (double v : scores)
        QVERIFY2(v >= 1 && v <= 3, qPrintable(QString::number(v)));
    int rows = 0, parsed = 0;
    for (const CriterionScore &r : RubricStore(fx->project.get()).sampleScores(QStringLiteral("nat")))
        if (fx->testIds.contains(r.itemId)) {
            ++rows;
            parsed += r.parseStatus == QLatin1String("ok") ? 1 : 0;
        }
    QVERIFY(rows >= 40 * 5);
    QVERIFY2(parsed >= rows * 95 / 100, qPrintable(QStringLiteral("%1 of %2").arg(parsed).arg(rows)));
    // The scores follow the human ones (the selected SIGNAL hypotheses answer on the scale).
    std::vector<double> x, y;
    const auto human = fx->project->humanScores(QStringLiteral("naturalness"));
    for (auto it = scores.begin(); it != scores.end(); ++it) {
        x.push_back(it.value());
        y.push_back(human.value(it.key()));
    }
    QVERIFY2(stats::pearson(x, y) > 0.5, qPrintable(QString::number(stats::pearson(x, y))));
}

QTEST_GUILESS_MAIN(TestHonestAnswers)
#include "TestHonestAnswers.moc"
