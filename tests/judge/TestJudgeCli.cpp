#include "FakeLlmServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using namespace rubric::test;

/// End-to-end: the `rubric` binary against a loopback fake endpoint started by the test.
class TestJudgeCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("RUBRIC_CLI").isEmpty(), "run through ctest, which sets RUBRIC_CLI");
    }
    void judgeTestReportsOneCall();
    void judgeTestFailsWithTheServerMessage();
    void judgeTestReportsWhatItAdapted();
    void judgeTestSendsTheSchema();
    void benchJudgePrintsTheContract();
    void benchJudgeCountsEachReplica();

private:
    /// Runs the CLI while this thread's event loop keeps serving the fake server.
    static QJsonObject runJson(const QStringList &args, int *exitCode);
};

QJsonObject TestJudgeCli::runJson(const QStringList &args, int *exitCode)
{
    QProcess p;
    p.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    if (!p.waitForStarted())
        return {};
    // The fake server lives in this thread, so wait by spinning the event loop until the child ends.
    QSignalSpy finished(&p, &QProcess::finished);
    if (p.state() != QProcess::NotRunning && !finished.wait(60000))
        return {};
    *exitCode = p.exitCode();
    const QByteArray out = p.readAllStandardOutput();
    return QJsonDocument::fromJson(out.trimmed()).object();
}

void TestJudgeCli::judgeTestReportsOneCall()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setRecording(true);
    FakeAnswer a;
    a.text = QStringLiteral("4");
    a.topLogprobs = {{{QStringLiteral("4"), std::log(0.5)}, {QStringLiteral("5"), std::log(0.5)}}};
    a.promptTokens = 40;
    a.completionTokens = 1;
    server.setAnswer(a);
    qputenv("RUBRIC_CLI_TEST_KEY", "sk-cli-0123456789");
    int rc = -1;
    const QJsonObject o = runJson({QStringLiteral("judge-test"), QStringLiteral("--base-url"), server.baseUrl(),
                                   QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--api-key-env"),
                                   QStringLiteral("RUBRIC_CLI_TEST_KEY"), QStringLiteral("--json")},
                                  &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(o.value(QStringLiteral("answer")).toString(), QStringLiteral("4"));
    QCOMPARE(o.value(QStringLiteral("logprobs")).toBool(), true);
    QCOMPARE(o.value(QStringLiteral("tokens_in")).toInt(), 40);
    QCOMPARE(o.value(QStringLiteral("score")).toDouble(), 4.5);
    QVERIFY(o.value(QStringLiteral("latency_ms")).toDouble() > 0);
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(server.recorded().value(0).headers.value("authorization"), QByteArray("Bearer sk-cli-0123456789"));
}

void TestJudgeCli::judgeTestSendsTheSchema()
{
    // --structured: the test call goes with the score's schema in the mode's form, and the JSON
    // that comes back is read.
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setRecording(true);
    FakeAnswer a;
    a.text = QStringLiteral(R"({"reasoning": "A plain, correct sentence.", "score": 4})");
    server.setAnswer(a);
    int rc = -1;
    const QJsonObject o = runJson({QStringLiteral("judge-test"), QStringLiteral("--base-url"), server.baseUrl(),
                                   QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--structured"),
                                   QStringLiteral("llama_grammar"), QStringLiteral("--json")},
                                  &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(o.value(QStringLiteral("score")).toDouble(), 4.0);
    QVERIFY(!server.recorded().isEmpty());
    const QJsonObject body = QJsonDocument::fromJson(server.recorded().first().body).object();
    const QJsonObject schema = body.value(QStringLiteral("json_schema")).toObject();
    QCOMPARE(schema.value(QStringLiteral("required")).toArray(),
             (QJsonArray{QStringLiteral("reasoning"), QStringLiteral("score")}));
    QVERIFY(!body.contains(QStringLiteral("logprobs")));

    runJson({QStringLiteral("judge-test"), QStringLiteral("--base-url"), server.baseUrl(), QStringLiteral("--model"),
             QStringLiteral("m"), QStringLiteral("--structured"), QStringLiteral("grammar")},
            &rc);
    QCOMPARE(rc, 2);
}

void TestJudgeCli::judgeTestFailsWithTheServerMessage()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    FakeAnswer a;
    a.httpStatus = 404;
    a.errorMessage = QStringLiteral("The model 'm' does not exist");
    server.setAnswer(a);
    int rc = -1;
    const QJsonObject o = runJson({QStringLiteral("judge-test"), QStringLiteral("--base-url"), server.baseUrl(),
                                   QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--json")},
                                  &rc);
    QCOMPARE(rc, 1);
    QCOMPARE(o.value(QStringLiteral("ok")).toBool(), false);
    QCOMPARE(o.value(QStringLiteral("http_status")).toInt(), 404);
    QVERIFY(o.value(QStringLiteral("error")).toString().contains(QStringLiteral("does not exist")));
}

void TestJudgeCli::judgeTestReportsWhatItAdapted()
{
    // An OpenAI reasoning model: the test adapts (max_tokens, temperature, logprobs, the budget its
    // thinking needs) and the JSON says so, with the requests that took.
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setModelKind(FakeModelKind::OpenAiReasoning);
    server.setReasoningTokens(100);
    FakeAnswer a;
    a.text = QStringLiteral("4");
    server.setAnswer(a);
    int rc = -1;
    const QJsonObject o = runJson({QStringLiteral("judge-test"), QStringLiteral("--base-url"), server.baseUrl(),
                                   QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--reasoning-budget"),
                                   QStringLiteral("512"), QStringLiteral("--json")},
                                  &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(o.value(QStringLiteral("answer")).toString(), QStringLiteral("4"));
    QStringList adapted;
    for (const QJsonValue &v : o.value(QStringLiteral("adapted")).toArray())
        adapted << v.toString();
    QCOMPARE(adapted,
             (QStringList{QStringLiteral("max_tokens refused: sending max_completion_tokens"),
                          QStringLiteral("temperature 0 refused: using the endpoint's default (1)"),
                          QStringLiteral("logprobs refused: asking without them"),
                          QStringLiteral("reasoning model: 512-token budget on top of each request's max_tokens")}));
    QCOMPARE(o.value(QStringLiteral("sent")).toInt(), 5);
    QCOMPARE(server.requestCount(), 5);
}

void TestJudgeCli::benchJudgePrintsTheContract()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(10);
    int rc = -1;
    const QJsonObject o = runJson({QStringLiteral("bench"), QStringLiteral("judge"), QStringLiteral("--base-url"),
                                   server.baseUrl(), QStringLiteral("--model"), QStringLiteral("m"),
                                   QStringLiteral("--requests"), QStringLiteral("300"), QStringLiteral("--concurrency"),
                                   QStringLiteral("16"), QStringLiteral("--json")},
                                  &rc);
    QCOMPARE(rc, 0);
    for (const char *k : {"requests", "concurrency", "wall_s", "rps", "errors", "retries", "p50_ms", "p99_ms"})
        QVERIFY2(o.contains(QLatin1String(k)), k);
    QCOMPARE(o.value(QStringLiteral("requests")).toInt(), 300);
    QCOMPARE(o.value(QStringLiteral("concurrency")).toInt(), 16);
    QCOMPARE(o.value(QStringLiteral("errors")).toInt(), 0);
    QVERIFY(o.value(QStringLiteral("p50_ms")).toDouble() >= 10);
    QVERIFY(o.value(QStringLiteral("p99_ms")).toDouble() >= o.value(QStringLiteral("p50_ms")).toDouble());
    QCOMPARE(server.requestCount(), 300); // distinct prompts, cache off
    QCOMPARE(server.maxConcurrent(), 16);
}

void TestJudgeCli::benchJudgeCountsEachReplica()
{
    FakeLlmServer a, b;
    QVERIFY(a.listen());
    QVERIFY(b.listen());
    a.setLatencyMs(10);
    b.setLatencyMs(10);
    int rc = -1;
    const QJsonObject o = runJson({QStringLiteral("bench"), QStringLiteral("judge"), QStringLiteral("--base-url"),
                                   a.baseUrl(), QStringLiteral("--base-url"), b.baseUrl(), QStringLiteral("--set"),
                                   QStringLiteral("pool.weights=2,1"), QStringLiteral("--model"), QStringLiteral("m"),
                                   QStringLiteral("--requests"), QStringLiteral("300"), QStringLiteral("--concurrency"),
                                   QStringLiteral("4"), QStringLiteral("--json")},
                                  &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(o.value(QStringLiteral("in_flight_max")).toInt(), 12);
    const QJsonArray replicas = o.value(QStringLiteral("replicas")).toArray();
    QCOMPARE(replicas.size(), 2);
    const FakeLlmServer *servers[] = {&a, &b};
    for (int i = 0; i < 2; ++i) {
        const QJsonObject r = replicas[i].toObject();
        QCOMPARE(r.value(QStringLiteral("url")).toString(), servers[i]->baseUrl());
        QCOMPARE(r.value(QStringLiteral("in_flight")).toInt(), 4 * (2 - i));
        QCOMPARE(r.value(QStringLiteral("answered")).toInt(), servers[i]->answeredCount());
        QVERIFY(servers[i]->maxConcurrent() <= 4 * (2 - i));
    }
    QCOMPARE(a.requestCount() + b.requestCount(), 300);
    QVERIFY2(a.requestCount() > b.requestCount() * 3 / 2, qPrintable(QString::number(a.requestCount())));

    // A credential in any of the URLs is refused before anything is sent.
    (void)runJson({QStringLiteral("bench"), QStringLiteral("judge"), QStringLiteral("--base-url"), a.baseUrl(),
                   QStringLiteral("--base-url"), QStringLiteral("http://u:sk-pw-123456@127.0.0.1:9/v1"),
                   QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--json")},
                  &rc);
    QCOMPARE(rc, 2);
    QCOMPARE(a.requestCount() + b.requestCount(), 300);
}

QTEST_GUILESS_MAIN(TestJudgeCli)
#include "TestJudgeCli.moc"
