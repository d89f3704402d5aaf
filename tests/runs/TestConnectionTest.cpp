#include "FakeLlmServer.h"
#include "runs/ConnectionTest.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestConnectionTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<rubric::ConnectionTestResult>(); }
    void answersWithLatencyTokensAndScore();
    void httpErrorCarriesStatusAndBody();
    void closedPortIsAnErrorWithoutStatus();
    void missingKeyVariableIsReported();
    void reportsWhatItAdapted();

private:
    static ConnectionTestResult runTest(const ProviderProfile &profile);
};

namespace {
ProviderProfile profileFor(const QString &url)
{
    ProviderProfile p;
    p.name = QStringLiteral("fake");
    p.baseUrl = url;
    p.model = QStringLiteral("m");
    p.timeoutMs = 5000;
    return p;
}
} // namespace

ConnectionTestResult TestConnectionTest::runTest(const ProviderProfile &profile)
{
    ConnectionTest test(profile);
    QSignalSpy finished(&test, &ConnectionTest::finished);
    test.start();
    [&] { QVERIFY(finished.isEmpty()); }(); // never from inside start()
    if (!finished.wait(20000))
        return {};
    [&] { QCOMPARE(finished.size(), 1); }();
    return finished.first().first().value<ConnectionTestResult>();
}

void TestConnectionTest::answersWithLatencyTokensAndScore()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(15);
    FakeAnswer a;
    a.text = QStringLiteral("4");
    a.topLogprobs = {{{QStringLiteral("4"), -0.1}, {QStringLiteral("5"), -2.5}}};
    server.setAnswer(a);
    const ConnectionTestResult r = runTest(profileFor(server.baseUrl()));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.httpStatus, 200);
    QCOMPARE(r.answer, QStringLiteral("4"));
    QVERIFY(r.latencyMs >= 15);
    QVERIFY(r.tokensIn > 0);
    QVERIFY(r.logprobs);
    QVERIFY(r.scored);
    QVERIFY(r.score > 3.5 && r.score < 5);
    QCOMPARE(server.requestCount(), 1);
}

void TestConnectionTest::httpErrorCarriesStatusAndBody()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    FakeAnswer a;
    a.httpStatus = 400;
    a.errorMessage = QStringLiteral("model 'm' does not exist");
    server.setAnswer(a);
    const ConnectionTestResult r = runTest(profileFor(server.baseUrl()));
    QVERIFY(!r.ok);
    QCOMPARE(r.httpStatus, 400);
    QVERIFY2(r.error.contains(QLatin1String("model 'm' does not exist")), qPrintable(r.error));
    QVERIFY(r.error.contains(QLatin1String("400")));
    QCOMPARE(server.requestCount(), 1); // a 400 is not retried
}

void TestConnectionTest::closedPortIsAnErrorWithoutStatus()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    ProviderProfile p = profileFor(QStringLiteral("http://127.0.0.1:%1/v1").arg(port));
    p.maxRetries = 0;
    const ConnectionTestResult r = runTest(p);
    QVERIFY(!r.ok);
    QCOMPARE(r.httpStatus, 0);
    QVERIFY(!r.error.isEmpty());
}

void TestConnectionTest::missingKeyVariableIsReported()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    ProviderProfile p = profileFor(server.baseUrl());
    p.apiKeyEnv = QStringLiteral("RUBRIC_TEST_NO_SUCH_VARIABLE_4711");
    qunsetenv("RUBRIC_TEST_NO_SUCH_VARIABLE_4711");
    const ConnectionTestResult r = runTest(p);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("RUBRIC_TEST_NO_SUCH_VARIABLE_4711")), qPrintable(r.error));
    QCOMPARE(server.requestCount(), 0);
}

void TestConnectionTest::reportsWhatItAdapted()
{
    // An OpenAI reasoning model refuses max_tokens, temperature 0 and logprobs, and thinks its
    // 16 tokens away: the test adapts as a run would, answers, and says what it had to adapt.
    FakeLlmServer server;
    server.setModelKind(FakeModelKind::OpenAiReasoning);
    FakeAnswer a;
    a.text = QStringLiteral("4");
    server.setAnswer(a);
    QVERIFY(server.listen());
    const ConnectionTestResult r = runTest(profileFor(server.baseUrl()));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.answer, QStringLiteral("4"));
    QVERIFY(r.scored);
    QCOMPARE(r.adapted,
             (QStringList{QStringLiteral("max_tokens refused: sending max_completion_tokens"),
                          QStringLiteral("temperature 0 refused: using the endpoint's default (1)"),
                          QStringLiteral("logprobs refused: asking without them"),
                          QStringLiteral("reasoning model: 2,048-token budget on top of each request's max_tokens")}));
    QCOMPARE(r.retries, 0);
    QCOMPARE(server.requestCount(), 5); // four lessons, then the answer
    QCOMPARE(r.sent, 5);
}

QTEST_GUILESS_MAIN(TestConnectionTest)
#include "TestConnectionTest.moc"
