// The judge engine over real HTTP to the loopback fake server: concurrency, cache, ledger,
// sampling parameters, cancel and kill.
#include "FakeLlmServer.h"
#include "JudgeTestUtil.h"
#include "judge/AnswerParser.h"
#include "judge/JudgeEngine.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestJudgeEngine : public QObject
{
    Q_OBJECT
private slots:
    void beatsThePerHostConnectionCap();
    void secondIdenticalBatchSendsNothing();
    void duplicatesInOneBatchAreSentOnce();
    void requestCarriesSamplingParameters();
    void ledgerRecordsEveryCall();
    void promptCacheReadsArePricedAtTheCachedRate_data();
    void promptCacheReadsArePricedAtTheCachedRate();
    void probabilityWeightedScoreThroughHttp();
    void syntheticJudgeDerivesAnswersFromPrompt();
    void cancelKeepsReceivedAnswers();
    void killMidBatchResendsOnlyInFlight();
    void cacheKeyCoversEverySamplingParameter();
    void headerValuesComeFromTheEnvironmentAndAreRedacted();
    void encodedHeaderValuesAreRedacted();
    void keychainHeaderThatCannotBeReadFailsUnsent();
    void credentialInBaseUrlIsNeverSentNorStored();
};

namespace {
// Everything the project wrote (the database and its write-ahead log).
QByteArray projectBytes(const QTemporaryDir &dir)
{
    QByteArray all;
    for (const QString &f : QDir(dir.path()).entryList(QDir::Files))
        all += readAll(dir.filePath(f));
    return all;
}
} // namespace

void TestJudgeEngine::beatsThePerHostConnectionCap()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(100);
    JudgeEngine engine(profileFor(server, 32), nullptr);
    QCOMPARE(engine.connectionPools(), 6);
    Collector c(engine);
    engine.submit(batch(128));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 30000);
    QCOMPARE(c.answers.size(), 128);
    // Qt alone would keep six requests in flight per host; the engine keeps 32.
    QCOMPARE(server.maxConcurrent(), 32);
}

void TestJudgeEngine::secondIdenticalBatchSendsNothing()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    {
        JudgeEngine engine(profileFor(server), project->get());
        Collector c(engine);
        engine.submit(batch(50));
        QTRY_VERIFY(c.idle);
        QCOMPARE(server.requestCount(), 50);
    }
    JudgeEngine engine(profileFor(server), project->get());
    Collector c(engine);
    engine.submit(batch(50));
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.size(), 50);
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QCOMPARE(r.status, JudgeStatus::Cached);
        QCOMPARE(r.text(), QStringLiteral("Rating: [[3]]"));
    }
    QCOMPARE(server.requestCount(), 50);
    QCOMPARE(engine.stats().cacheHits, 50);
    QCOMPARE(engine.stats().sent, 0);
    // With the cache off the same batch is sent again.
    JudgeEngine uncached(profileFor(server), project->get());
    uncached.setCacheEnabled(false);
    Collector u(uncached);
    uncached.submit(batch(50));
    QTRY_VERIFY(u.idle);
    QCOMPARE(server.requestCount(), 100);
}

void TestJudgeEngine::duplicatesInOneBatchAreSentOnce()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(20);
    JudgeEngine engine(profileFor(server), project->get());
    Collector c(engine);
    QVector<JudgeRequest> twice = batch(10) + batch(10);
    engine.submit(twice);
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.size(), 20);
    QCOMPARE(server.requestCount(), 10);
    int cached = 0;
    for (const JudgeResponse &r : std::as_const(c.answers))
        cached += r.status == JudgeStatus::Cached ? 1 : 0;
    QCOMPARE(cached, 10);
}

void TestJudgeEngine::requestCarriesSamplingParameters()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setRecording(true);
    JudgeEngine engine(profileFor(server), nullptr);
    Collector c(engine);
    JudgeRequest r = batch(1).first();
    r.temperature = 0.7;
    r.topP = 0.9;
    r.maxTokens = 7;
    r.n = 3;
    r.seed = 42;
    r.stop = {QStringLiteral("\n\n")};
    r.logprobs = true;
    r.topLogprobs = 5;
    r.responseFormat = QStringLiteral("json_object");
    engine.submit({r});
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.value(0).choices.size(), 3);
    const QJsonObject body = QJsonDocument::fromJson(server.recorded().value(0).body).object();
    QCOMPARE(body.value(QStringLiteral("model")).toString(), QStringLiteral("fake-judge"));
    QCOMPARE(body.value(QStringLiteral("temperature")).toDouble(), 0.7);
    QCOMPARE(body.value(QStringLiteral("top_p")).toDouble(), 0.9);
    QCOMPARE(body.value(QStringLiteral("max_tokens")).toInt(), 7);
    QCOMPARE(body.value(QStringLiteral("n")).toInt(), 3);
    QCOMPARE(body.value(QStringLiteral("seed")).toInt(), 42);
    QCOMPARE(body.value(QStringLiteral("stop")).toArray().first().toString(), QStringLiteral("\n\n"));
    QCOMPARE(body.value(QStringLiteral("logprobs")).toBool(), true);
    QCOMPARE(body.value(QStringLiteral("top_logprobs")).toInt(), 5);
    QCOMPARE(body.value(QStringLiteral("response_format")).toObject().value(QStringLiteral("type")).toString(),
             QStringLiteral("json_object"));
    QCOMPARE(body.value(QStringLiteral("messages")).toArray().size(), 2);
}

void TestJudgeEngine::ledgerRecordsEveryCall()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    FakeAnswer a;
    a.promptTokens = 1000;
    a.completionTokens = 10;
    server.setAnswer(a);
    server.setRetryAfterSeconds(0);
    server.scriptFaults({FakeFault::RateLimited, FakeFault::None, FakeFault::None, FakeFault::BadRequest});
    ProviderProfile p = profileFor(server, 1);
    p.pricePerMillionIn = 2.0;
    p.pricePerMillionOut = 8.0;
    JudgeEngine engine(p, project->get());
    engine.setRunName(QStringLiteral("run-a"));
    Collector c(engine);
    engine.submit(batch(3));
    QTRY_VERIFY(c.idle);
    CallStore store(project->get());
    const auto ledger = store.ledger(QStringLiteral("run-a"));
    QVERIFY2(ledger.ok(), qPrintable(ledger.errorString()));
    const QVector<LedgerEntry> &rows = *ledger;
    QCOMPARE(rows.size(), 3);
    int ok = 0, failed = 0, retries = 0;
    for (const LedgerEntry &e : rows) {
        QCOMPARE(e.model, QStringLiteral("fake-judge"));
        QVERIFY(e.latencyMs > 0);
        retries += e.retries;
        if (e.outcome == QLatin1String("ok")) {
            ++ok;
            QCOMPARE(e.tokensIn, 1000);
            QCOMPARE(e.tokensOut, 10);
            QCOMPARE(e.cost, (1000 * 2.0 + 10 * 8.0) / 1e6);
        } else {
            ++failed;
            QCOMPARE(e.httpStatus, 400);
            QVERIFY(e.error.contains(QStringLiteral("does not exist")));
        }
    }
    QCOMPARE(ok, 2);
    QCOMPARE(failed, 1);
    QCOMPARE(retries, 1);
    const auto totals = store.totals(QStringLiteral("run-a"));
    QVERIFY2(totals.ok(), qPrintable(totals.errorString()));
    const LedgerTotals &t = *totals;
    QCOMPARE(t.calls, 3);
    QCOMPARE(t.failed, 1);
    QCOMPARE(t.tokensIn, 2000);
    QCOMPARE(engine.stats().tokensIn, 2000);
}

void TestJudgeEngine::promptCacheReadsArePricedAtTheCachedRate_data()
{
    QTest::addColumn<int>("kindValue");
    QTest::newRow("openai") << int(ProviderKind::OpenAI);
    QTest::newRow("anthropic") << int(ProviderKind::Anthropic);
}

void TestJudgeEngine::promptCacheReadsArePricedAtTheCachedRate()
{
    QFETCH(int, kindValue);
    const auto kind = ProviderKind(kindValue);
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    FakeAnswer a;
    a.promptTokens = 1000;
    a.cachedTokens = 800; // the static prefix, read from the provider's prompt cache
    a.completionTokens = 10;
    server.setAnswer(a);
    server.setRecording(true);
    ProviderProfile p = profileFor(server, 1);
    p.kind = kind;
    p.pricePerMillionIn = 2.0;
    p.pricePerMillionCached = 0.5;
    p.pricePerMillionOut = 8.0;
    JudgeEngine engine(p, project->get());
    engine.setRunName(QStringLiteral("cached"));
    Collector c(engine);
    QVector<JudgeRequest> one = batch(1);
    one.first().messages.prepend({QStringLiteral("system"), QStringLiteral("Rate the summary's coherence.")});
    engine.submit(one);
    QTRY_VERIFY(c.idle);
    const double expected = (200 * 2.0 + 800 * 0.5 + 10 * 8.0) / 1e6;
    const auto ledger = CallStore(project->get()).ledger(QStringLiteral("cached"));
    QVERIFY2(ledger.ok(), qPrintable(ledger.errorString()));
    QCOMPARE(ledger->size(), 1);
    QCOMPARE(ledger->first().tokensIn, 1000); // every input token, the cached ones included
    QCOMPARE(ledger->first().tokensCached, 800);
    QCOMPARE(ledger->first().cost, expected);
    const auto totals = CallStore(project->get()).totals(QStringLiteral("cached"));
    QVERIFY(totals.ok());
    QCOMPARE(totals->tokensCached, qint64(800));
    QCOMPARE(engine.stats().tokensCached, qint64(800));
    QCOMPARE(engine.stats().cost, expected);
    if (kind == ProviderKind::Anthropic) {
        // The static system block carries the cache breakpoint.
        QCOMPARE(server.recorded().size(), 1);
        const QJsonObject body = QJsonDocument::fromJson(server.recorded().first().body).object();
        const QJsonArray system = body.value(QStringLiteral("system")).toArray();
        QCOMPARE(system.size(), 1);
        QVERIFY(system.first()
                        .toObject()
                        .value(QStringLiteral("text"))
                        .toString()
                        .startsWith(QStringLiteral("Rate the summary's coherence.\n\n")));
        QCOMPARE(system.first()[QStringLiteral("cache_control")][QStringLiteral("type")].toString(),
                 QStringLiteral("ephemeral"));
    }
    // Without a cached price, cached tokens cost what the other input tokens cost.
    p.pricePerMillionCached = -1;
    QCOMPARE(p.cost(1000, 10, 800), (1000 * 2.0 + 10 * 8.0) / 1e6);
}

void TestJudgeEngine::probabilityWeightedScoreThroughHttp()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    // Distribution over 1..5 (with some mass on a non-scale token): 0.1, 0.2, 0.4, 0.15, 0.05; "x": 0.1.
    const QVector<double> probs{0.1, 0.2, 0.4, 0.15, 0.05};
    FakeAnswer a;
    a.text = QStringLiteral("3");
    QVector<TokenLogprob> alts;
    alts.append({QStringLiteral("3"), std::log(0.4)});
    for (int v : {2, 4, 1, 5})
        alts.append({QString::number(v), std::log(probs[v - 1])});
    alts.append({QStringLiteral("x"), std::log(0.1)});
    a.topLogprobs = {alts};
    server.setAnswer(a);
    JudgeEngine engine(profileFor(server), nullptr);
    Collector c(engine);
    JudgeRequest r = batch(1).first();
    r.logprobs = true;
    r.topLogprobs = 20;
    engine.submit({r});
    QTRY_VERIFY(c.idle);
    const ParsedAnswer p = AnswerParser::scoreOf(c.answers.value(0), 1, 5);
    QVERIFY(p.ok);
    QVERIFY(p.usedLogprobs());
    double expected = 0;
    for (int v = 1; v <= 5; ++v)
        expected += v * probs[v - 1] / 0.9;
    QVERIFY2(std::abs(p.score - expected) < 1e-9, qPrintable(QStringLiteral("%1 vs %2").arg(p.score).arg(expected)));
    // Without logprobs the same endpoint's n samples are averaged, and that is visible.
    FakeAnswer b;
    b.text = QStringLiteral("Rating: [[2]]");
    b.moreChoices = {QStringLiteral("Rating: [[3]]"), QStringLiteral("Rating: [[5]]")};
    server.setAnswer(b);
    c.idle = false;
    JudgeRequest s = batch(1, QStringLiteral("other")).first();
    s.n = 3;
    s.temperature = 1.0;
    engine.submit({s});
    QTRY_VERIFY(c.idle);
    const ParsedAnswer m = AnswerParser::scoreOf(c.answers.value(1), 1, 5);
    QCOMPARE(m.method, ParsedAnswer::Method::SampleMean);
    QCOMPARE(m.score, 10.0 / 3.0);
}

void TestJudgeEngine::syntheticJudgeDerivesAnswersFromPrompt()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setJudge([](const QJsonObject &body) {
        const QString prompt = body.value(QStringLiteral("messages"))
                                       .toArray()
                                       .last()
                                       .toObject()
                                       .value(QStringLiteral("content"))
                                       .toString();
        const int hash = prompt.indexOf(QLatin1Char('#'));
        const int item = prompt.mid(hash + 1).section(QLatin1Char(' '), 0, 0).toInt();
        FakeAnswer a;
        a.text = QStringLiteral("Final score: %1").arg(1 + item % 5);
        return a;
    });
    JudgeEngine engine(profileFor(server, 4), nullptr);
    Collector c(engine);
    engine.submit(batch(20));
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.size(), 20);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QCOMPARE(AnswerParser::parseScore(r.text()).score, double(1 + r.tag.toInt() % 5));
}

void TestJudgeEngine::cancelKeepsReceivedAnswers()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(30);
    JudgeEngine engine(profileFor(server, 4), project->get());
    Collector c(engine);
    engine.submit(batch(100));
    QTRY_VERIFY(server.answeredCount() >= 12);
    engine.cancel();
    QVERIFY(c.idle);
    QCOMPARE(c.answers.size(), 100);
    int ok = 0, cancelled = 0;
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        ok += r.status == JudgeStatus::Ok ? 1 : 0;
        cancelled += r.status == JudgeStatus::Cancelled ? 1 : 0;
    }
    QCOMPARE(ok + cancelled, 100);
    QVERIFY(ok >= 8);
    CallStore store(project->get());
    QCOMPARE(store.cacheSize().value(), ok); // every answer reported as received is in the cache
    QCOMPARE(engine.pending(), 0);
}

void TestJudgeEngine::killMidBatchResendsOnlyInFlight()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kill.rubric"));
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setLatencyMs(40);
    const int n = 600, concurrency = 16;
    const QStringList args{QStringLiteral("--base-url"),    server.baseUrl(),
                           QStringLiteral("--project"),     path,
                           QStringLiteral("--requests"),    QString::number(n),
                           QStringLiteral("--concurrency"), QString::number(concurrency),
                           QStringLiteral("--flush-ms"),    QStringLiteral("50")};
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    child.start(QStringLiteral(JUDGE_BATCH_CHILD), args);
    QVERIFY(child.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= n / 2, 60000);
    child.kill(); // SIGKILL
    QVERIFY(child.waitForFinished());
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    // Let the server read what the dead child had already sent before its sockets closed.
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 10000);
    const int sentBeforeKill = server.requestCount();

    int cached = 0;
    {
        auto project = Project::open(path);
        QVERIFY(project.ok());
        cached = CallStore(project->get()).cacheSize().value();
    }
    // Requests the server saw but whose answers did not reach the file: those in flight plus
    // those answered within the last flush interval (50 ms at ~320 answers/s ≈ 16; the bound
    // allows twice that for a timer delayed on a loaded machine).
    const int lost = sentBeforeKill - cached;
    qInfo("sent before kill %d, cached %d, to re-send %d", sentBeforeKill, cached, lost);
    QVERIFY(cached > 0);
    QVERIFY2(lost <= concurrency + 32, qPrintable(QString::number(lost)));

    server.resetCounts();
    server.setRecording(true);
    QProcess again;
    again.setProcessChannelMode(QProcess::ForwardedChannels);
    again.start(QStringLiteral(JUDGE_BATCH_CHILD), args);
    QVERIFY(again.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(again.state() == QProcess::NotRunning, 60000);
    QCOMPARE(again.exitCode(), 0);
    // The restart asks exactly for the prompts that were not cached. On a loaded machine a few
    // requests of the killed child can still sit in the kernel's accept queue and reach the
    // server after the reset; they are for in-flight (uncached) prompts, so they show up only
    // as repeats of prompts the restart also asked for, never as a cached prompt sent again.
    QSet<QByteArray> distinct;
    for (const RecordedRequest &r : server.recorded())
        distinct.insert(r.body);
    QCOMPARE(int(distinct.size()), n - cached);
    QVERIFY2(server.requestCount() - int(distinct.size()) <= concurrency,
             qPrintable(QString::number(server.requestCount())));
    auto project = Project::open(path);
    QVERIFY(project.ok());
    QCOMPARE(CallStore(project->get()).cacheSize().value(), n);
}

void TestJudgeEngine::cacheKeyCoversEverySamplingParameter()
{
    ProviderProfile p;
    p.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
    p.model = QStringLiteral("m");
    JudgeEngine engine(p, nullptr);
    const JudgeRequest base = batch(1).first();
    QSet<QString> keys{engine.cacheKey(base)};
    auto vary = [&](auto change) {
        JudgeRequest r = base;
        change(r);
        keys.insert(engine.cacheKey(r));
    };
    vary([](JudgeRequest &r) { r.temperature = 0.5; });
    vary([](JudgeRequest &r) { r.topP = 0.5; });
    vary([](JudgeRequest &r) { r.maxTokens = 5; });
    vary([](JudgeRequest &r) { r.n = 2; });
    vary([](JudgeRequest &r) { r.seed = 1; });
    vary([](JudgeRequest &r) { r.stop = {QStringLiteral("x")}; });
    vary([](JudgeRequest &r) { r.logprobs = true; });
    vary([](JudgeRequest &r) { r.responseFormat = QStringLiteral("json_object"); });
    vary([](JudgeRequest &r) { r.sampleIndex = 1; });
    vary([](JudgeRequest &r) { r.messages[1].content += QLatin1Char(' '); });
    vary([](JudgeRequest &r) { r.messages[0].role = QStringLiteral("user"); });
    QCOMPARE(keys.size(), 12);
    JudgeRequest tagged = base;
    tagged.tag = QStringLiteral("other tag");
    QCOMPARE(engine.cacheKey(tagged), engine.cacheKey(base));
    p.model = QStringLiteral("m2");
    JudgeEngine other(p, nullptr);
    QVERIFY(other.cacheKey(base) != engine.cacheKey(base));
    p.model = QStringLiteral("m");
    p.baseUrl = QStringLiteral("http://127.0.0.1:1/v1/"); // the same endpoint
    JudgeEngine slash(p, nullptr);
    QCOMPARE(slash.cacheKey(base), engine.cacheKey(base));
    QCOMPARE(engine.cacheKey(base).size(), 64);
}

void TestJudgeEngine::headerValuesComeFromTheEnvironmentAndAreRedacted()
{
    const QByteArray secret = "hdr-secret-4711";
    qputenv("RUBRIC_TEST_TEAM_HEADER", secret);
    QTemporaryDir dir;
    {
        auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
        QVERIFY(project.ok());
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.setRecording(true);
        FakeAnswer a;
        a.httpStatus = 403;
        a.errorMessage = QStringLiteral("team %1 may not use this model").arg(QString::fromLatin1(secret));
        server.setAnswer(a);
        ProviderProfile p = profileFor(server, 1);
        p.maxRetries = 0;
        p.headers = {{QStringLiteral("X-Team"), QStringLiteral("env:RUBRIC_TEST_TEAM_HEADER")}};
        JudgeEngine engine(p, project->get());
        Collector c(engine);
        engine.submit(batch(1));
        QTRY_VERIFY(c.idle);
        QCOMPARE(c.answers.size(), 1);
        QCOMPARE(c.answers[0].status, JudgeStatus::Failed);
        // The header carries the variable's value, and no message shows it.
        QCOMPARE(server.recorded().value(0).headers.value("x-team"), secret);
        QVERIFY2(!c.answers[0].error.contains(QString::fromLatin1(secret)), qPrintable(c.answers[0].error));
        QVERIFY(c.answers[0].error.contains(QStringLiteral("[redacted]")));
        QCOMPARE(engine.profile().headers.value(QStringLiteral("X-Team")).toString(),
                 QStringLiteral("env:RUBRIC_TEST_TEAM_HEADER"));
    }
    QVERIFY(!projectBytes(dir).contains(secret)); // nor the ledger

    // A variable that is not set fails the calls before anything is sent, naming the variable.
    qunsetenv("RUBRIC_TEST_TEAM_HEADER");
    FakeLlmServer server;
    QVERIFY(server.listen());
    ProviderProfile p = profileFor(server, 1);
    p.headers = {{QStringLiteral("X-Team"), QStringLiteral("env:RUBRIC_TEST_TEAM_HEADER")}};
    JudgeEngine engine(p, nullptr);
    Collector c(engine);
    engine.submit(batch(1));
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.value(0).status, JudgeStatus::Failed);
    QVERIFY(c.answers[0].error.contains(QStringLiteral("RUBRIC_TEST_TEAM_HEADER")));
    QCOMPARE(server.requestCount(), 0);
}

void TestJudgeEngine::encodedHeaderValuesAreRedacted()
{
    // A server that echoes the request (its URL or headers) percent-encoded in an error: the
    // message shows neither the value nor its encoded form (issue 18.9).
    const QByteArray secret = "tok/en+secret==4711";
    const QByteArray encoded = secret.toPercentEncoding(); // tok%2Fen%2Bsecret%3D%3D4711
    qputenv("RUBRIC_TEST_ENCODED_HEADER", secret);
    QTemporaryDir dir;
    {
        auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
        QVERIFY(project.ok());
        FakeLlmServer server;
        QVERIFY(server.listen());
        server.setRecording(true);
        FakeAnswer a;
        a.httpStatus = 403;
        a.errorMessage = QStringLiteral("GET /v1/models?team=%1 refused").arg(QString::fromLatin1(encoded).toLower());
        server.setAnswer(a);
        ProviderProfile p = profileFor(server, 1);
        p.maxRetries = 0;
        p.headers = {{QStringLiteral("X-Team"), QStringLiteral("env:RUBRIC_TEST_ENCODED_HEADER")}};
        JudgeEngine engine(p, project->get());
        Collector c(engine);
        engine.submit(batch(1));
        QTRY_VERIFY(c.idle);
        QCOMPARE(c.answers.size(), 1);
        QCOMPARE(c.answers[0].status, JudgeStatus::Failed);
        QCOMPARE(server.recorded().value(0).headers.value("x-team"), secret);
        const QString error = c.answers[0].error;
        QVERIFY2(!error.contains(QString::fromLatin1(encoded), Qt::CaseInsensitive), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("team=[redacted] refused")), qPrintable(error));
    }
    QVERIFY(!projectBytes(dir).toLower().contains(encoded.toLower())); // nor the ledger
    qunsetenv("RUBRIC_TEST_ENCODED_HEADER");
}

void TestJudgeEngine::keychainHeaderThatCannotBeReadFailsUnsent()
{
    // A header kept in the keychain (keychain:NAME) is read from it when the engine starts. Tests
    // run without a keychain service (no D-Bus secret service), so this covers the path where it
    // cannot be read: the calls fail before anything is sent, naming the header, and the
    // reference is never sent as the value. The successful keychain read is not exercised here.
    FakeLlmServer server;
    QVERIFY(server.listen());
    ProviderProfile p = profileFor(server, 1);
    p.headers = {{QStringLiteral("X-Team"), QStringLiteral("keychain:rubric-test-nobody:X-Team")}};
    JudgeEngine engine(p, nullptr);
    Collector c(engine);
    engine.submit(batch(1));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 60000);
    QCOMPARE(c.answers.size(), 1);
    QCOMPARE(c.answers[0].status, JudgeStatus::Failed);
    QVERIFY2(c.answers[0].error.contains(QStringLiteral("X-Team")), qPrintable(c.answers[0].error));
    QVERIFY2(c.answers[0].error.contains(QStringLiteral("keychain")), qPrintable(c.answers[0].error));
    QCOMPARE(server.requestCount(), 0);
}

void TestJudgeEngine::credentialInBaseUrlIsNeverSentNorStored()
{
    FakeLlmServer server;
    QVERIFY(server.listen());
    const QString port = QString::number(server.port());
    for (const QString &url : {QStringLiteral("http://alice:pw-secret-9@127.0.0.1:%1/v1").arg(port),
                               QStringLiteral("http://127.0.0.1:%1/v1?key=pw-secret-9").arg(port),
                               QStringLiteral("http://127.0.0.1:%1/v1?api-version=1&api_key=pw-secret-9").arg(port)}) {
        QTemporaryDir dir;
        {
            auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
            QVERIFY(project.ok());
            ProviderProfile p = profileFor(server, 1);
            p.baseUrl = url;
            JudgeEngine engine(p, project->get());
            QVERIFY(!engine.keyError().isEmpty());
            QVERIFY(!engine.cacheKey(batch(1).first()).isEmpty());
            QVERIFY(!engine.canonicalRequest(batch(1).first()).contains(QStringLiteral("pw-secret-9")));
            Collector c(engine);
            engine.submit(batch(2));
            QTRY_VERIFY(c.idle);
            QCOMPARE(c.answers.size(), 2);
            QCOMPARE(c.answers[0].status, JudgeStatus::Failed);
            QVERIFY2(c.answers[0].error.contains(QStringLiteral("environment variable")),
                     qPrintable(c.answers[0].error));
            QVERIFY(!c.answers[0].error.contains(QStringLiteral("pw-secret-9")));
        }
        QCOMPARE(server.requestCount(), 0);
        QVERIFY(!projectBytes(dir).contains("pw-secret-9"));
    }
}

QTEST_GUILESS_MAIN(TestJudgeEngine)
#include "TestJudgeEngine.moc"
