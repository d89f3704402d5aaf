// G-Eval against endpoints that do not do what OpenAI's does (issue 17): one that ignores `n`
// (Ollama, the llama.cpp server) and one that never returns logprobs. The stored scores are still
// means of 20 samples, the run says which scoring it used, and the next run asks in the way the
// endpoint can answer.

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "judge/EndpointCapabilities.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestGEvalEndpoints : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void endpointIgnoringN();
    void endpointWithoutLogprobs();
    void openAiReasoningModel();

private:
    TempProjects m_projects;
};

namespace {

bool isScorePrompt(const QJsonObject &body)
{
    return promptText(body).contains(QLatin1String("Evaluation Form"));
}

/// Every item's stored samples: 20 per item (indices 0 … 19), and the judge score their mean.
void checkTwentySamples(Project *project, const QString &judge, int items)
{
    const QVector<CriterionScore> rows = RubricStore(project).sampleScores(judge);
    QHash<QString, QVector<double>> byItem;
    for (const CriterionScore &r : rows) {
        QCOMPARE(r.parseStatus, QStringLiteral("ok"));
        byItem[r.itemId].append(r.score);
        QVERIFY(r.sample >= 0 && r.sample < 20);
    }
    QCOMPARE(int(byItem.size()), items);
    const QHash<QString, double> scores = project->judgeScores(judge, QStringLiteral("coherence"));
    QCOMPARE(int(scores.size()), items);
    for (auto it = byItem.begin(); it != byItem.end(); ++it) {
        QCOMPARE(it->size(), 20);
        double sum = 0;
        for (double v : std::as_const(*it))
            sum += v;
        QVERIFY(qFuzzyCompare(scores.value(it.key()), sum / 20));
    }
}

} // namespace

void TestGEvalEndpoints::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestGEvalEndpoints::endpointIgnoringN()
{
    auto fx = makeProject(m_projects.next(), 6);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setIgnoreN(true);
    int withN = 0, scoreCalls = 0;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (isScorePrompt(body)) {
            ++scoreCalls;
            withN += body.value(QStringLiteral("n")).toInt(1) > 1 ? 1 : 0;
            a.text = QString::number(1 + scoreCalls % 5); // samples differ, so a mean of 20 shows
            a.topLogprobs.clear();
        }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("n1"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("samples"), 20);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    checkTwentySamples(fx->project.get(), QStringLiteral("n1"), 6);
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("scoring")).toString(), QStringLiteral("samples"));
    QVERIFY2(result.value(QStringLiteral("scoring_reason")).toString().contains(QLatin1String("whatever n asks")),
             qPrintable(result.value(QStringLiteral("scoring_reason")).toString()));
    QVERIFY(withN >= 1);          // it asked with n first
    QCOMPARE(scoreCalls, 6 * 20); // an item asked with n got its 19 missing samples one by one

    // The project remembers: the next judge on this endpoint asks one at a time from the start.
    withN = 0;
    scoreCalls = 0;
    s.judge = QStringLiteral("n2");
    s.evaluator.model = QStringLiteral("synthetic");                         // the same endpoint and model
    s.settings.insert(QStringLiteral("temperature"), QStringLiteral("0.9")); // other prompts: nothing cached
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(withN, 0);
    QCOMPARE(scoreCalls, 6 * 20);
    checkTwentySamples(fx->project.get(), QStringLiteral("n2"), 6);
}

void TestGEvalEndpoints::endpointWithoutLogprobs()
{
    auto fx = makeProject(m_projects.next(), 6);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    int logprobCalls = 0, scoreCalls = 0;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (isScorePrompt(body)) {
            ++scoreCalls;
            logprobCalls += body.value(QStringLiteral("logprobs")).toBool() ? 1 : 0;
            a.topLogprobs.clear(); // a local server without logprobs
            a.text = QStringLiteral("3");
            a.moreChoices.clear();
            for (int i = 1; i < 20; ++i)
                a.moreChoices << QString::number(1 + i % 5);
        }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("l1"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    s.settings.insert(QStringLiteral("samples"), 20);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    checkTwentySamples(fx->project.get(), QStringLiteral("l1"), 6);
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("scoring")).toString(), QStringLiteral("samples"));
    QVERIFY2(result.value(QStringLiteral("scoring_reason")).toString().contains(QLatin1String("returned none")),
             qPrintable(result.value(QStringLiteral("scoring_reason")).toString()));
    QVERIFY(logprobCalls >= 1);

    // The next --logprobs judge on this endpoint goes to the samples at once, and says why.
    logprobCalls = 0;
    scoreCalls = 0;
    s.judge = QStringLiteral("l2");
    s.settings.insert(QStringLiteral("temperature"), QStringLiteral("0.9"));
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(logprobCalls, 0);
    QCOMPARE(scoreCalls, 6); // one request with n = 20 per item
    checkTwentySamples(fx->project.get(), QStringLiteral("l2"), 6);
    QVERIFY(o.summary.value(QStringLiteral("result"))
                    .toMap()
                    .value(QStringLiteral("scoring_reason"))
                    .toString()
                    .contains(QLatin1String("logprobs")));
}

void TestGEvalEndpoints::openAiReasoningModel()
{
    // G-Eval with --logprobs against an OpenAI reasoning model: it refuses max_tokens, temperature 0
    // and logprobs, and thinks G-Eval's 5 tokens away. The run learns each once (one refused call
    // each, one empty paid answer), falls back to samples, and says what it adapted; the project
    // remembers, so the next run on the endpoint sends nothing it refuses.
    auto fx = makeProject(m_projects.next(), 6);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setModelKind(FakeModelKind::OpenAiReasoning);
    server.setRecording(true);
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (isScorePrompt(body)) {
            a.topLogprobs.clear();
            a.text = QStringLiteral("3");
            a.moreChoices.clear();
            for (int i = 1; i < 20; ++i)
                a.moreChoices << QString::number(1 + i % 5);
        }
        return a;
    });
    QVERIFY(server.listen());
    const auto refusedAndThoughtOut = [&server] {
        int refused = 0, thoughtOut = 0;
        for (const RecordedRequest &r : server.recorded()) {
            const QJsonObject body = QJsonDocument::fromJson(r.body).object();
            if (body.contains(QStringLiteral("max_tokens")) || body.contains(QStringLiteral("temperature"))
                || body.contains(QStringLiteral("logprobs")) || body.contains(QStringLiteral("top_logprobs")))
                ++refused;
            else if (body.value(QStringLiteral("max_completion_tokens")).toInt() < server.reasoningTokens() + 10)
                ++thoughtOut;
        }
        return std::pair{refused, thoughtOut};
    };
    RunSpec s = spec(QStringLiteral("r1"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    s.settings.insert(QStringLiteral("samples"), 20);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    checkTwentySamples(fx->project.get(), QStringLiteral("r1"), 6);
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("scoring")).toString(),
             QStringLiteral("samples"));
    const QStringList adapted = o.summary.value(QStringLiteral("adapted")).toStringList();
    for (const char *why :
         {"max_tokens refused: sending max_completion_tokens",
          "temperature 0 refused: using the endpoint's default (1)", "logprobs refused: asking without them",
          "reasoning model: 2,048-token budget on top of each request's max_tokens"})
        QVERIFY2(adapted.contains(QLatin1String(why)), qPrintable(adapted.join(QLatin1Char('|'))));
    QCOMPARE(adapted.size(), 4);
    QVERIFY(o.summary.value(QStringLiteral("tokens_reasoning")).toLongLong() > 0);
    const auto [refused, thoughtOut] = refusedAndThoughtOut();
    QCOMPARE(refused, 3);    // one refused call per parameter
    QCOMPARE(thoughtOut, 1); // one empty, paid answer
    const auto stored = endpoint::adaptations(*fx->project, s.evaluator);
    QVERIFY(stored.ok());
    QCOMPARE(stored->list().size(), 4);

    // The estimate of the next judge counts the thinking budget of every call as output.
    s.judge = QStringLiteral("r2");
    s.settings.insert(QStringLiteral("temperature"), QStringLiteral("0.9")); // other prompts: nothing cached
    {
        Run estimating(fx->project.get(), s);
        const auto e = estimating.estimate();
        QVERIFY2(e.ok(), qPrintable(e.errorString()));
        QVERIFY(e->calls > 0);
        QVERIFY2(e->tokensOut >= qint64(e->calls) * 2048, qPrintable(QString::number(e->tokensOut)));
    }
    server.resetCounts();
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    checkTwentySamples(fx->project.get(), QStringLiteral("r2"), 6);
    const auto [refusedAgain, thoughtOutAgain] = refusedAndThoughtOut();
    QCOMPARE(refusedAgain, 0);
    QCOMPARE(thoughtOutAgain, 0);
    QVERIFY(server.requestCount() > 0);
    QCOMPARE(o.summary.value(QStringLiteral("adapted")).toStringList().size(), 4); // still in effect
}

QTEST_GUILESS_MAIN(TestGEvalEndpoints)
#include "TestGEvalEndpoints.moc"
