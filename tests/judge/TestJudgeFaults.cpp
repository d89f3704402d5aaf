// The judge engine when the endpoint misbehaves: retries, Retry-After, timeouts, client errors,
// rate limits, keys.
#include "FakeLlmServer.h"
#include "JudgeTestUtil.h"
#include "ProjectTestAccess.h"
#include "judge/AnswerParser.h"
#include "judge/JudgeEngine.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestJudgeFaults : public QObject
{
    Q_OBJECT
private slots:
    void faultsAreRetriedAndNothingIsLost();
    void errorsAreNotCached();
    void unreadableCacheFailsTheCallUnsent();
    void clientErrorsFailFast_data();
    void clientErrorsFailFast();
    void retryAfterIsHonoured();
    void givesUpAfterMaxRetries();
    void timeoutIsRetriedThenReported();
    void requestsPerMinuteIsEnforced();
    void anthropicRefusesSeveralChoices();
    void keyReachesServerButNoFile_data();
    void keyReachesServerButNoFile();
    void missingKeyVariableFails();
};

void TestJudgeFaults::faultsAreRetriedAndNothingIsLost()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(5);
    server.setRetryAfterSeconds(0);
    server.setFaultRates(0.05, 0.05, 0.05, 0.05); // 20 % of requests fail one way or another
    ProviderProfile profile = profileFor(server, 32);
    profile.maxRetries = 12;
    JudgeEngine engine(profile, project->get());
    engine.setRetryBackoff(2, 20);
    Collector c(engine);
    const int n = 2000;
    engine.submit(batch(n));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 240000);

    QCOMPARE(c.answers.size(), n);
    QSet<QString> tags;
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
        QCOMPARE(r.text(), QStringLiteral("Rating: [[3]]"));
        tags.insert(r.tag);
    }
    QCOMPARE(tags.size(), n);
    const int faults = server.totalFaults();
    QVERIFY2(faults > n / 10, qPrintable(QString::number(faults)));
    QCOMPARE(server.faultCount(FakeFault::Drop) > 0 && server.faultCount(FakeFault::Truncated) > 0
                     && server.faultCount(FakeFault::RateLimited) > 0 && server.faultCount(FakeFault::ServerError) > 0,
             true);
    // Every fault costs exactly one more request. Most are retried by the engine; when a reused
    // keep-alive connection is dropped before any byte of the answer, Qt itself re-sends once.
    const JudgeStats s = engine.stats();
    QCOMPARE(server.requestCount(), n + faults);
    QCOMPARE(s.sent, n + s.retries);
    const int resentByQt = server.requestCount() - s.sent;
    qInfo("faults %d: engine retries %d, re-sent by Qt on dropped connections %d", faults, s.retries, resentByQt);
    QVERIFY(resentByQt >= 0 && resentByQt <= server.faultCount(FakeFault::Drop));
    QVERIFY(s.retries >= faults - server.faultCount(FakeFault::Drop));
    int retriesInAnswers = 0;
    for (const JudgeResponse &r : std::as_const(c.answers))
        retriesInAnswers += r.retries;
    QCOMPARE(retriesInAnswers, s.retries);
    CallStore store(project->get());
    QCOMPARE(store.cacheSize().value(), n);
    const auto totals = store.totals();
    QVERIFY2(totals.ok(), qPrintable(totals.errorString()));
    QCOMPARE(totals->retries, s.retries);
    QCOMPARE(totals->calls, n);
}

void TestJudgeFaults::errorsAreNotCached()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.scriptFaults({FakeFault::BadRequest});
    JudgeEngine engine(profileFor(server), project->get());
    Collector c(engine);
    const auto one = batch(1);
    engine.submit(one);
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.size(), 1);
    QCOMPARE(c.answers[0].status, JudgeStatus::Failed);
    QVERIFY(!engine.isCached(one[0]).value());
    CallStore store(project->get());
    QCOMPARE(store.cacheSize().value(), 0);
    c.idle = false;
    engine.submit(one);
    QTRY_VERIFY(c.idle);
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(c.answers[1].status, JudgeStatus::Ok);
    QVERIFY(engine.isCached(one[0]).value());
}

void TestJudgeFaults::clientErrorsFailFast_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    QTest::newRow("400 bad request") << 400 << QStringLiteral("model 'nope' does not exist");
    QTest::newRow("401 unauthorised") << 401 << QStringLiteral("invalid api key");
    QTest::newRow("404 not found") << 404 << QStringLiteral("no such route");
}

void TestJudgeFaults::clientErrorsFailFast()
{
    QFETCH(int, status);
    QFETCH(QString, message);
    FakeLlmServer server;
    QVERIFY(server.listen());
    FakeAnswer a;
    a.httpStatus = status;
    a.errorMessage = message;
    server.setAnswer(a);
    JudgeEngine engine(profileFor(server), nullptr);
    engine.setRetryBackoff(1, 1);
    Collector c(engine);
    engine.submit(batch(1));
    QTRY_VERIFY(c.idle);
    QCOMPARE(server.requestCount(), 1); // no retry
    const JudgeResponse r = c.answers.value(0);
    QCOMPARE(r.status, JudgeStatus::Failed);
    QCOMPARE(r.httpStatus, status);
    QCOMPARE(r.retries, 0);
    QVERIFY2(r.error.contains(QString::number(status)) && r.error.contains(message), qPrintable(r.error));
}

void TestJudgeFaults::retryAfterIsHonoured()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setRetryAfterSeconds(1);
    server.scriptFaults({FakeFault::RateLimited});
    JudgeEngine engine(profileFor(server), nullptr);
    engine.setRetryBackoff(1, 1); // the backoff alone would retry at once
    Collector c(engine);
    QElapsedTimer t;
    t.start();
    engine.submit(batch(1));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 10000);
    QVERIFY2(t.elapsed() >= 1000, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(c.answers.value(0).status, JudgeStatus::Ok);
    QCOMPARE(c.answers.value(0).retries, 1);
    QCOMPARE(server.requestCount(), 2);
}

void TestJudgeFaults::givesUpAfterMaxRetries()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.scriptFaults({FakeFault::ServerError, FakeFault::ServerError, FakeFault::InvalidJson, FakeFault::None});
    ProviderProfile p = profileFor(server);
    p.maxRetries = 2;
    JudgeEngine engine(p, nullptr);
    engine.setRetryBackoff(1, 5);
    Collector c(engine);
    engine.submit(batch(1));
    QTRY_VERIFY(c.idle);
    QCOMPARE(server.requestCount(), 3);
    const JudgeResponse r = c.answers.value(0);
    QCOMPARE(r.status, JudgeStatus::Failed);
    QCOMPARE(r.retries, 2);
    QVERIFY2(r.error.contains(QStringLiteral("3 attempts")) && r.error.contains(QStringLiteral("JSON")),
             qPrintable(r.error));
    QVERIFY(r.choices.isEmpty()); // a failure is never turned into an answer
}

void TestJudgeFaults::timeoutIsRetriedThenReported()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(3000);
    ProviderProfile p = profileFor(server);
    p.timeoutMs = 150;
    p.maxRetries = 1;
    JudgeEngine engine(p, nullptr);
    engine.setRetryBackoff(1, 5);
    Collector c(engine);
    QElapsedTimer t;
    t.start();
    engine.submit(batch(1));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 5000);
    QVERIFY(t.elapsed() < 2500);
    const JudgeResponse r = c.answers.value(0);
    QCOMPARE(r.status, JudgeStatus::Failed);
    QCOMPARE(r.retries, 1);
    QVERIFY2(r.error.contains(QStringLiteral("150 ms")), qPrintable(r.error));
    QCOMPARE(server.requestCount(), 2);
}

void TestJudgeFaults::requestsPerMinuteIsEnforced()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    ProviderProfile p = profileFor(server, 16);
    p.requestsPerMinute = 120; // 2 per second after a burst of 20 (ten seconds' worth)
    JudgeEngine engine(p, nullptr);
    Collector c(engine);
    QElapsedTimer t;
    t.start();
    engine.submit(batch(24));
    QTRY_COMPARE(server.requestCount(), 20);
    QVERIFY(t.elapsed() < 1000);
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 10000);
    QCOMPARE(server.requestCount(), 24);
    QVERIFY2(t.elapsed() >= 1900, qPrintable(QString::number(t.elapsed()))); // 4 more at 2/s
}

void TestJudgeFaults::anthropicRefusesSeveralChoices()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    ProviderProfile p = profileFor(server);
    p.kind = ProviderKind::Anthropic;
    JudgeEngine engine(p, nullptr);
    Collector c(engine);
    JudgeRequest r = batch(1).first();
    r.n = 3;
    engine.submit({r});
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.value(0).status, JudgeStatus::Failed);
    QVERIFY(c.answers.value(0).error.contains(QStringLiteral("sampleIndex")));
    QCOMPARE(server.requestCount(), 0);
}

void TestJudgeFaults::keyReachesServerButNoFile_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("prefix");
    QTest::newRow("openai bearer") << int(ProviderKind::OpenAI) << QByteArray("authorization") << QByteArray("Bearer ");
    QTest::newRow("anthropic x-api-key") << int(ProviderKind::Anthropic) << QByteArray("x-api-key") << QByteArray();
}

void TestJudgeFaults::keyReachesServerButNoFile()
{
    QFETCH(int, kind);
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, prefix);
    const QByteArray key = "sk-test-7f3a9c1e5b2d4068a";
    qputenv("RUBRIC_TEST_JUDGE_KEY", key);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.rubric"));
    auto project = Project::open(path);
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setRecording(true);
    // The second request fails with a server message that echoes the key back.
    server.setJudge([key](const QJsonObject &body) {
        FakeAnswer a;
        if (body.value(QStringLiteral("messages"))
                    .toArray()
                    .last()
                    .toObject()
                    .value(QStringLiteral("content"))
                    .toString()
                    .contains(QStringLiteral("#1"))) {
            a.httpStatus = 401;
            a.errorMessage = QStringLiteral("Incorrect API key provided: ") + QString::fromLatin1(key);
        }
        return a;
    });
    ProviderProfile p = profileFor(server);
    p.kind = ProviderKind(kind);
    p.apiKeyEnv = QStringLiteral("RUBRIC_TEST_JUDGE_KEY");
    QStringList errors;
    {
        JudgeEngine engine(p, project->get());
        engine.setRunName(QStringLiteral("secret-run"));
        Collector c(engine);
        engine.submit(batch(2));
        QTRY_VERIFY(c.idle);
        QCOMPARE(c.answers.size(), 2);
        for (const JudgeResponse &r : std::as_const(c.answers))
            errors << r.error;
    }
    const auto rec = server.recorded();
    QCOMPARE(rec.size(), 2);
    QCOMPARE(rec[0].headers.value(header), prefix + key);
    if (p.kind == ProviderKind::Anthropic) {
        QCOMPARE(rec[0].path, QByteArray("/v1/messages"));
        QVERIFY(!rec[0].headers.value("anthropic-version").isEmpty());
        QVERIFY(!rec[0].headers.contains("authorization"));
    } else {
        QCOMPARE(rec[0].path, QByteArray("/v1/chat/completions"));
    }
    const QString joined = errors.join(QLatin1Char('\n'));
    QVERIFY(joined.contains(QStringLiteral("Incorrect API key provided")));
    QVERIFY2(!joined.contains(QString::fromLatin1(key)), qPrintable(joined));
    // Every byte the project wrote (main file, WAL, shared memory).
    project->reset();
    int scanned = 0;
    for (const QFileInfo &fi : QDir(dir.path()).entryInfoList(QDir::Files)) {
        const QByteArray bytes = readAll(fi.absoluteFilePath());
        scanned += bytes.isEmpty() ? 0 : 1;
        QVERIFY2(!bytes.contains(key), qPrintable(fi.fileName()));
    }
    QVERIFY(scanned >= 1);
    qunsetenv("RUBRIC_TEST_JUDGE_KEY");
}

void TestJudgeFaults::missingKeyVariableFails()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    qunsetenv("RUBRIC_TEST_NO_SUCH_KEY");
    ProviderProfile p = profileFor(server);
    p.apiKeyEnv = QStringLiteral("RUBRIC_TEST_NO_SUCH_KEY");
    JudgeEngine engine(p, nullptr);
    Collector c(engine);
    engine.submit(batch(3));
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.size(), 3);
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QCOMPARE(r.status, JudgeStatus::Failed);
        QVERIFY(r.error.contains(QStringLiteral("RUBRIC_TEST_NO_SUCH_KEY")));
    }
    QCOMPARE(server.requestCount(), 0);
}

void TestJudgeFaults::unreadableCacheFailsTheCallUnsent()
{
    // Issue 18.8: a cache that cannot be read is not an empty cache. Asking again as if nothing
    // were cached would pay for every answer a second time; the call fails with the SQL error.
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    QSqlQuery q(ProjectTestAccess::database(*(*project)));
    QVERIFY2(q.exec(QStringLiteral("DROP TABLE judge_cache")), qPrintable(q.lastError().text()));
    FakeLlmServer server;
    QVERIFY(server.listen());
    JudgeEngine engine(profileFor(server), project->get());
    Collector c(engine);
    const auto one = batch(2);
    QVERIFY(!engine.isCached(one[0]).ok());
    QVERIFY(!engine.cached(one[0]).ok());
    engine.submit(one);
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.size(), 2);
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QCOMPARE(r.status, JudgeStatus::Failed);
        QVERIFY2(r.error.contains(QLatin1String("cannot read the judge cache")), qPrintable(r.error));
        QVERIFY2(r.error.contains(QLatin1String("no such table: judge_cache")), qPrintable(r.error));
    }
    QCOMPARE(server.requestCount(), 0);
}

QTEST_GUILESS_MAIN(TestJudgeFaults)
#include "TestJudgeFaults.moc"
