// Issue 33: an endpoint is not trusted. Against loopback endpoints that misbehave on purpose
// (HostileServer), over real HTTP through the judge engine: a 100,000-deep JSON answer, a 300 MB
// body, a byte a second, negative usage, `Retry-After: inf`, a redirect to another origin, and a
// batch whose results_url names another host. Each call ends with a clear error (or its answer),
// the process neither crashes nor grows, the money spent is never negative, and no credential
// leaves the profile's origin.
#include "HostileServer.h"
#include "JudgeTestUtil.h"
#include "judge/BatchClient.h"
#include "judge/EndpointJson.h"
#include "judge/Provider.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QElapsedTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

namespace {

/// The process's peak resident memory (VmHWM) in MB.
double peakRssMb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return -1;
}

ProviderProfile hostileProfile(const HostileServer &server)
{
    ProviderProfile p;
    p.name = QStringLiteral("hostile");
    p.baseUrl = server.baseUrl();
    p.model = QStringLiteral("m");
    p.concurrency = 4;
    p.timeoutMs = 10000;
    p.maxRetries = 2;
    p.pricePerMillionIn = 3.0;
    p.pricePerMillionOut = 15.0;
    return p;
}

/// Submits `n` requests and waits for the answers.
QVector<JudgeResponse> ask(JudgeEngine &engine, int n, int timeoutMs = 60000)
{
    Collector c(engine);
    QSignalSpy idle(&engine, &JudgeEngine::idle);
    engine.setRetryBackoff(2, 20);
    engine.submit(batch(n));
    if (!c.idle)
        idle.wait(timeoutMs);
    return c.answers;
}

} // namespace

class TestHostileEndpoints : public QObject
{
    Q_OBJECT
private slots:
    void depthIsMeasuredOutsideStrings();
    void deepAnswersAreRefusedUnparsed();
    void deepAnswerOverHttpFailsTheCall();
    void hugeBodyIsCutAtTheCap();
    void tricklingEndpointHitsTheDeadline();
    void negativeUsageCostsNothing();
    void retryAfterInfinityFallsBackToBackoff();
    void redirectToAnotherOriginCarriesNoKey();
    void resultsUrlOnAnotherHostGetsNoKey();
    void unreadableResultLinesAreSkipped();
};

void TestHostileEndpoints::depthIsMeasuredOutsideStrings()
{
    const auto depth
            = [](const QByteArray &text) { return endpointJson::nesting(text.constBegin(), text.constEnd(), 1000); };
    QCOMPARE(depth("{}"), 1);
    QCOMPARE(depth("{\"a\":[1,{\"b\":[]}]}"), 4);
    QCOMPARE(depth("{\"a\":\"[[[[[[\\\"[[[\"}"), 1); // brackets in strings, an escaped quote
    QCOMPARE(depth(QByteArray(5000, '[')), 1001);    // stops counting past the limit
    QCOMPARE(endpointJson::retryAfterMs("inf"), -1);
    QCOMPARE(endpointJson::retryAfterMs("nan"), -1);
    QCOMPARE(endpointJson::retryAfterMs("-3"), -1);
    QCOMPARE(endpointJson::retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT"), -1);
    QCOMPARE(endpointJson::retryAfterMs("2.5"), 2500);
    QCOMPARE(endpointJson::retryAfterMs("1e300"), 3600 * 1000);
}

void TestHostileEndpoints::deepAnswersAreRefusedUnparsed()
{
    // Before: parsed, then copied recursively (`value("content")`, `dump()`): a stack overflow.
    const QByteArray nest = QByteArray(100000, '[') + QByteArray(100000, ']');
    const QByteArray openAi = R"({"choices":[{"message":{"role":"assistant","content":)" + nest + "}}]}";
    const QByteArray anthropic = R"({"content":[{"type":"text","text":"x","extra":)" + nest + "}]}";
    for (const auto &[kind, body] :
         {std::pair{ProviderKind::OpenAI, openAi}, std::pair{ProviderKind::Anthropic, anthropic}}) {
        const auto provider = Provider::create(kind);
        const auto parsed = provider->parseResponse(body);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.errorString().contains(QStringLiteral("deeper than 128")), qPrintable(parsed.errorString()));
        QVERIFY(!provider->errorMessage(body).isEmpty());
    }
    const auto poll = BatchClient::parsePoll(ProviderKind::OpenAI, R"({"status":"completed","x":)" + nest + "}");
    QVERIFY(!poll.ok());
    const QByteArray line = R"({"custom_id":"a","response":{"status_code":200,"body":)" + nest + "}}";
    const auto results = BatchClient::parseResults(ProviderKind::OpenAI, line + "\n");
    QCOMPARE(results.outcomes.size(), 0);
    QCOMPARE(results.unreadable.size(), 1);
    QVERIFY2(results.unreadable.first().contains(QStringLiteral("line 1")), qPrintable(results.unreadable.first()));
}

void TestHostileEndpoints::deepAnswerOverHttpFailsTheCall()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    HostileServer server(Hostility::DeepJson);
    QVERIFY(server.listen());
    JudgeEngine engine(hostileProfile(server), project->get());
    const auto answers = ask(engine, 3);
    QCOMPARE(answers.size(), 3);
    for (const JudgeResponse &r : answers) {
        QCOMPARE(r.status, JudgeStatus::Failed);
        QVERIFY2(r.error.contains(QStringLiteral("deeper than 128")), qPrintable(r.error));
    }
    QCOMPARE(CallStore(project->get()).cacheSize().value(), 0);
}

void TestHostileEndpoints::hugeBodyIsCutAtTheCap()
{
    // Before: read whole (300 MB, copied as it was read and parsed).
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    HostileServer server(Hostility::HugeBody);
    QVERIFY(server.listen());
    ProviderProfile p = hostileProfile(server);
    QCOMPARE(p.maxResponseBytes, 32LL * 1024 * 1024); // the default cap
    JudgeEngine engine(p, project->get());
    const auto answers = ask(engine, 2);
    QCOMPARE(answers.size(), 2);
    for (const JudgeResponse &r : answers) {
        QCOMPARE(r.status, JudgeStatus::Failed);
        QVERIFY2(r.error.contains(QStringLiteral("larger than 32 MB")), qPrintable(r.error));
    }
    QCOMPARE(server.requestCount(), 2); // refused as it came, not asked again
    QVERIFY2(peakRssMb() < 500, qPrintable(QString::number(peakRssMb())));
}

void TestHostileEndpoints::tricklingEndpointHitsTheDeadline()
{
    // Before: a byte a second never stalls, so the call waited for ever.
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    HostileServer server(Hostility::Trickle);
    QVERIFY(server.listen());
    ProviderProfile p = hostileProfile(server);
    p.deadlineMs = 2500;
    JudgeEngine engine(p, project->get());
    QElapsedTimer t;
    t.start();
    const auto answers = ask(engine, 2, 30000);
    QCOMPARE(answers.size(), 2);
    for (const JudgeResponse &r : answers) {
        QCOMPARE(r.status, JudgeStatus::Failed);
        QVERIFY2(r.error.contains(QStringLiteral("within 2.5 s")), qPrintable(r.error));
    }
    QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed()))); // not retried into minutes
}

void TestHostileEndpoints::negativeUsageCostsNothing()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    HostileServer server(Hostility::NegativeUsage);
    QVERIFY(server.listen());
    JudgeEngine engine(hostileProfile(server), project->get());
    const auto answers = ask(engine, 4);
    QCOMPARE(answers.size(), 4);
    for (const JudgeResponse &r : answers) {
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
        QCOMPARE(r.tokensIn, 0);
        QCOMPARE(r.tokensOut, 0);
        QCOMPARE(r.tokensCached, 0);
        QCOMPARE(r.tokensReasoning, 0);
        QVERIFY(r.cost >= 0);
    }
    QVERIFY(engine.stats().cost >= 0);
    const auto ledger = CallStore(project->get()).ledger();
    QVERIFY(ledger.ok());
    for (const LedgerEntry &e : *ledger)
        QVERIFY(e.cost >= 0 && e.tokensIn >= 0 && e.tokensOut >= 0);
}

void TestHostileEndpoints::retryAfterInfinityFallsBackToBackoff()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    HostileServer server(Hostility::RetryAfterInf);
    QVERIFY(server.listen());
    ProviderProfile p = hostileProfile(server);
    p.concurrency = 1;
    JudgeEngine engine(p, project->get());
    const auto answers = ask(engine, 3, 20000);
    QCOMPARE(answers.size(), 3);
    for (const JudgeResponse &r : answers)
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
}

void TestHostileEndpoints::redirectToAnotherOriginCarriesNoKey()
{
    // Before: Qt's default policy followed the redirect to the other host with the original
    // headers, the key among them.
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    HostileServer listener(Hostility::Record);
    QVERIFY(listener.listen());
    HostileServer server(Hostility::Redirect);
    QVERIFY(server.listen());
    server.setRedirectTo(listener.baseUrl() + QStringLiteral("/chat/completions"));
    qputenv("RUBRIC_HOSTILE_TEST_KEY", "sk-hostile-secret");
    ProviderProfile p = hostileProfile(server);
    p.apiKeyEnv = QStringLiteral("RUBRIC_HOSTILE_TEST_KEY");
    JudgeEngine engine(p, project->get());
    const auto answers = ask(engine, 2);
    QCOMPARE(answers.size(), 2);
    for (const JudgeResponse &r : answers) {
        QCOMPARE(r.status, JudgeStatus::Failed);
        QVERIFY2(r.error.contains(QStringLiteral("redirected the call to another origin (")
                                  + listener.baseUrl().left(listener.baseUrl().size() - 3)),
                 qPrintable(r.error));
    }
    QCOMPARE(server.requestCount(), 2);                               // not asked again
    QVERIFY(server.received().first().contains("sk-hostile-secret")); // the profile's own host has it
    for (const QByteArray &request : listener.received())
        QVERIFY2(!request.contains("sk-hostile-secret"), request.constData());
}

void TestHostileEndpoints::resultsUrlOnAnotherHostGetsNoKey()
{
    HostileServer endpoint(Hostility::Record);
    QVERIFY(endpoint.listen());
    HostileServer elsewhere(Hostility::Record);
    QVERIFY(elsewhere.listen());
    QNetworkAccessManager nam;
    BatchClient client(ProviderKind::Anthropic, endpoint.baseUrl(),
                       {{QByteArrayLiteral("x-api-key"), QByteArrayLiteral("sk-ant-hostile-secret")}}, 5000, &nam,
                       [](const QString &s) { return s; });
    BatchClient::Poll poll;
    poll.status = QStringLiteral("ended");
    poll.ended = true;
    poll.output = elsewhere.baseUrl() + QStringLiteral("/messages/batches/msgbatch_1/results");
    bool done = false;
    QString error;
    client.results(poll, [&](Result<BatchClient::Results> r) {
        done = true;
        error = r.ok() ? QString() : r.errorString();
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 5000);
    QVERIFY2(error.contains(QStringLiteral("not on the endpoint's origin")), qPrintable(error));
    // Refused before any request is made: nothing is in flight that could still arrive there.
    QCOMPARE(elsewhere.requestCount(), 0);
    // Plain http on the same host and port as an https endpoint is another origin too.
    QVERIFY(!BatchClient::sameOrigin(QUrl(QStringLiteral("http://api.example.com/r")),
                                     QUrl(QStringLiteral("https://api.example.com/v1"))));
    QVERIFY(BatchClient::sameOrigin(QUrl(QStringLiteral("https://API.example.com:443/r")),
                                    QUrl(QStringLiteral("https://api.example.com/v1"))));
}

void TestHostileEndpoints::unreadableResultLinesAreSkipped()
{
    const QByteArray file = R"({"custom_id":"a","response":{"status_code":200,"body":{"choices":[]}}})"
                            "\n{\"custom_id\": \"cut\n"
                            R"({"custom_id":"b","response":{"status_code":200,"body":{"choices":[]}}})"
                            "\n\n";
    const auto results = BatchClient::parseResults(ProviderKind::OpenAI, file);
    QCOMPARE(results.outcomes.size(), 2);
    QCOMPARE(results.outcomes[0].customId, QStringLiteral("a"));
    QCOMPARE(results.outcomes[1].customId, QStringLiteral("b"));
    QCOMPARE(results.unreadable, QStringList{QStringLiteral("line 2: not a result with a custom_id")});
}

QTEST_GUILESS_MAIN(TestHostileEndpoints)
#include "TestHostileEndpoints.moc"
