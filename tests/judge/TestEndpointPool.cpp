// A pool of replicas of one model (issue 16.2): EndpointPool's bookkeeping on an injected clock,
// then the engine over real HTTP (QNetworkAccessManager) to loopback FakeLlmServer replicas this
// test starts: spreading by weight and free capacity, draining a replica that fails or goes away
// and trying it again later, and one cache for every replica.
#include "FakeLlmServer.h"
#include "JudgeTestUtil.h"
#include "judge/CacheKey.h"
#include "judge/EndpointPool.h"
#include "judge/JudgeEngine.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace rubric;
using namespace rubric::test;

class TestEndpointPool : public QObject
{
    Q_OBJECT
private slots:
    void capacityFollowsWeights();
    void drainsRestsAndProbes();
    void aloneNeverRests();
    void spreadsByWeight_data();
    void spreadsByWeight();
    void slowReplicaGetsLess();
    void failingReplicaIsDrainedAndRetriedLater_data();
    void failingReplicaIsDrainedAndRetriedLater();
    void cacheKeyNamesTheModelNotTheReplica();
    void credentialInAnyUrlIsRefused();
};

namespace {

ProviderProfile poolOf(const QStringList &urls, int concurrency, const QVector<double> &weights = {})
{
    ProviderProfile p;
    p.name = QStringLiteral("pool");
    p.baseUrl = urls.first();
    p.replicaUrls = urls.mid(1);
    p.replicaWeights = weights;
    p.model = QStringLiteral("fake-judge");
    p.concurrency = concurrency;
    p.timeoutMs = 10000;
    return p;
}

QStringList urlsOf(const std::vector<std::unique_ptr<FakeLlmServer>> &servers)
{
    QStringList urls;
    for (const auto &s : servers)
        urls << s->baseUrl();
    return urls;
}

std::vector<std::unique_ptr<FakeLlmServer>> startServers(int n, int latencyMs)
{
    std::vector<std::unique_ptr<FakeLlmServer>> servers;
    for (int i = 0; i < n; ++i) {
        servers.push_back(std::make_unique<FakeLlmServer>());
        if (!servers.back()->listen())
            return {};
        servers.back()->setLatencyMs(latencyMs);
    }
    return servers;
}

} // namespace

void TestEndpointPool::capacityFollowsWeights()
{
    qint64 now = 0;
    ProviderProfile p = poolOf({QStringLiteral("http://a/v1/"), QStringLiteral("http://b/v1")}, 4, {2, 1});
    EndpointPool pool(p, [&now] { return now; });
    QCOMPARE(pool.size(), 2);
    QCOMPARE(pool.baseUrl(0), QStringLiteral("http://a/v1"));
    QCOMPARE(pool.capacity(0), 8);
    QCOMPARE(pool.capacity(1), 4);
    QCOMPARE(pool.totalCapacity(), 12);
    // Filling it: the largest free share goes first, so the first takes two in three.
    int taken[2] = {0, 0};
    for (int i = 0; i < 12; ++i) {
        qint64 wait = 0;
        const int r = pool.pick(1, 0, &wait);
        QVERIFY(r >= 0);
        pool.sent(r, 1);
        ++taken[r];
        if (i == 2)
            QCOMPARE(taken[0], 2); // 2 : 1 already while the pool is far from full
    }
    QCOMPARE(taken[0], 8);
    QCOMPARE(taken[1], 4);
    qint64 wait = 0;
    QCOMPARE(pool.pick(1, 0, &wait), -1);
    QCOMPARE(wait, -1); // only a reply can free a slot
    pool.released(1);
    QCOMPARE(pool.pick(1, 0, &wait), 1);
}

void TestEndpointPool::drainsRestsAndProbes()
{
    qint64 now = 1000;
    EndpointPool pool(poolOf({QStringLiteral("http://a/v1"), QStringLiteral("http://b/v1")}, 2),
                      [&now] { return now; });
    pool.setRest(100, 1000);
    for (int i = 0; i < 4; ++i)
        pool.sent(pool.pick(1, 0, nullptr), 1);
    QCOMPARE(pool.inFlight(0), 2);
    QCOMPARE(pool.inFlight(1), 2);
    // b fails both requests in flight: the first drains it, the second (sent before) does not
    // lengthen the rest.
    const qint64 sentAt = now;
    now += 10;
    pool.released(1);
    QVERIFY(pool.failed(1, sentAt));
    pool.released(1);
    QVERIFY(!pool.failed(1, sentAt));
    QCOMPARE(pool.stats()[1].drained, 1);
    QVERIFY(pool.stats()[1].resting);
    // a request that failed on b goes to a, and waits for a slot there rather than going back
    pool.released(0);
    QCOMPARE(pool.pick(1, 0b10, nullptr), 0);
    pool.sent(0, 1);
    qint64 wait = 0;
    QCOMPARE(pool.pick(1, 0b10, &wait), -1);
    QCOMPARE(wait, -1); // a reply at a frees a slot; b stays out of its way
    QCOMPARE(pool.pick(1, 0, &wait), -1);
    QCOMPARE(wait, 100); // b's rest
    QVERIFY(pool.hasLiveReplica(0b10));
    QVERIFY(!pool.hasLiveReplica(0b01));
    // after its rest, b takes one request at a time (a probe) …
    now += 100;
    QVERIFY(!pool.stats()[1].resting);
    QCOMPARE(pool.pick(1, 0, nullptr), 1);
    pool.sent(1, 1);
    QCOMPARE(pool.pick(1, 0, &wait), -1);
    // … which fails: a longer rest (2 × 100 ms) …
    pool.released(1);
    QVERIFY(pool.failed(1, now));
    now += 150;
    QVERIFY(pool.stats()[1].resting);
    now += 50;
    // … then one that is answered gives it its whole capacity back.
    const qint64 probe = now;
    pool.sent(pool.pick(1, 0, nullptr), 1);
    pool.released(1);
    pool.succeeded(1, probe);
    now += 1;
    pool.released(0);
    pool.released(0);
    for (int i = 0; i < 4; ++i)
        pool.sent(pool.pick(1, 0, nullptr), 1);
    QCOMPARE(pool.inFlight(1), 2);
    const ReplicaStats b = pool.stats()[1];
    QCOMPARE(b.sent, 6);
    QCOMPARE(b.failed, 3);
    QCOMPARE(b.answered, 1);
    QCOMPARE(b.drained, 2);
}

void TestEndpointPool::aloneNeverRests()
{
    qint64 now = 0;
    EndpointPool pool(poolOf({QStringLiteral("http://a/v1")}, 3), [&now] { return now; });
    pool.sent(0, 1);
    pool.released(0);
    QVERIFY(!pool.failed(0, now));
    QCOMPARE(pool.pick(1, 0b1, nullptr), 0); // its own failures do not keep a request from it
    QVERIFY(!pool.stats()[0].resting);
}

void TestEndpointPool::spreadsByWeight_data()
{
    QTest::addColumn<QVector<double>>("weights");
    QTest::newRow("two equal") << QVector<double>{1, 1};
    QTest::newRow("two to one") << QVector<double>{2, 1};
    QTest::newRow("four equal") << QVector<double>{1, 1, 1, 1};
    QTest::newRow("one, one, two") << QVector<double>{1, 1, 2};
}

void TestEndpointPool::spreadsByWeight()
{
    QFETCH(QVector<double>, weights);
    auto servers = startServers(int(weights.size()), 20);
    QVERIFY(!servers.empty());
    const int concurrency = 3;
    JudgeEngine engine(poolOf(urlsOf(servers), concurrency, weights), nullptr);
    Collector c(engine);
    const int n = 600;
    engine.submit(batch(n));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 60000);
    QCOMPARE(int(c.answers.size()), n);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    double weightSum = 0;
    for (double w : weights)
        weightSum += w;
    int total = 0;
    const QVector<ReplicaStats> stats = engine.replicaStats();
    for (size_t i = 0; i < servers.size(); ++i) {
        const FakeLlmServer &s = *servers[i];
        const double expected = n * weights[qsizetype(i)] / weightSum;
        const QString what = QStringLiteral("replica %1: %2 requests (expected about %3), at most %4 at once")
                                     .arg(i)
                                     .arg(s.requestCount())
                                     .arg(expected)
                                     .arg(s.maxConcurrent());
        QVERIFY2(std::abs(s.requestCount() - expected) <= 0.2 * expected, qPrintable(what));
        // each replica's own concurrency: the profile's, times its weight
        QVERIFY2(s.maxConcurrent() <= int(concurrency * weights[qsizetype(i)]), qPrintable(what));
        QCOMPARE(stats[qsizetype(i)].sent, s.requestCount());
        QCOMPARE(stats[qsizetype(i)].answered, s.answeredCount());
        QCOMPARE(stats[qsizetype(i)].failed, 0);
        total += s.requestCount();
    }
    QCOMPARE(total, n); // nothing sent twice
}

void TestEndpointPool::slowReplicaGetsLess()
{
    auto servers = startServers(2, 10);
    QVERIFY(!servers.empty());
    servers[1]->setLatencyMs(60);
    JudgeEngine engine(poolOf(urlsOf(servers), 2), nullptr);
    Collector c(engine);
    const int n = 300;
    engine.submit(batch(n));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 60000);
    QCOMPARE(int(c.answers.size()), n);
    // Its slots stay taken six times as long, so it takes about one request in seven (one in four
    // measured on a loaded machine, where the client's own turns lengthen the fast replica's).
    QVERIFY2(servers[0]->requestCount() > 2 * servers[1]->requestCount(),
             qPrintable(QStringLiteral("%1 vs %2").arg(servers[0]->requestCount()).arg(servers[1]->requestCount())));
    QCOMPARE(servers[0]->requestCount() + servers[1]->requestCount(), n);
}

void TestEndpointPool::failingReplicaIsDrainedAndRetriedLater_data()
{
    QTest::addColumn<bool>("goesAway");
    QTest::newRow("answers 500") << false;
    QTest::newRow("goes away mid-run") << true;
}

void TestEndpointPool::failingReplicaIsDrainedAndRetriedLater()
{
    QFETCH(bool, goesAway);
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    auto servers = startServers(3, 5);
    QVERIFY(!servers.empty());
    const QStringList urls = urlsOf(servers);
    FakeLlmServer &bad = *servers[1];
    if (goesAway) { // it answers its first 30 requests, then is gone
        connect(&bad, &FakeLlmServer::requestReceived, &bad, [&bad](int count) {
            if (count == 30)
                QTimer::singleShot(0, &bad, [&bad] { bad.shutDown(); });
        });
    } else {
        bad.setFaultRates(0, 1.0, 0, 0);
    }
    ProviderProfile profile = poolOf(urls, 4);
    profile.maxRetries = 0; // no retries of its own: a replica's failure alone may not cost an answer
    JudgeEngine engine(profile, project->get());
    engine.setRunName(QStringLiteral("pool"));
    engine.setReplicaRest(100, 200);
    Collector c(engine);
    const int n = 400;
    QElapsedTimer clock;
    clock.start();
    engine.submit(batch(n));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 60000);
    const qint64 elapsedMs = clock.elapsed();
    QCOMPARE(int(c.answers.size()), n);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));

    // No answer paid twice: every request was answered exactly once, by some replica.
    int answered = 0;
    for (const auto &s : servers)
        answered += s->answeredCount();
    QCOMPARE(answered, n);
    const QVector<ReplicaStats> stats = engine.replicaStats();
    const ReplicaStats &b = stats[1];
    qInfo("replica b: %d sent, %d answered, %d failed, drained %d×; a %d, c %d answered", b.sent, b.answered, b.failed,
          b.drained, stats[0].answered, stats[2].answered);
    QVERIFY(b.drained >= 1);
    QVERIFY(b.failed >= 1);
    QCOMPARE(b.sent, b.answered + b.failed);
    // Drained, it saw a few requests, not a third of them: the four in flight when it failed,
    // then one probe per rest (100, 200, 200 … ms), each failed probe draining it again.
    QVERIFY2(b.failed <= 4 + b.drained, qPrintable(QString::number(b.failed)));
    QVERIFY2(b.drained <= 2 + elapsedMs / 100, qPrintable(QStringLiteral("%1 in %2 ms").arg(b.drained).arg(elapsedMs)));
    QVERIFY(stats[0].answered + stats[2].answered >= n - b.answered);
    // The cache and the ledger name the replica that answered; every answer is cached once.
    const CallStore store(project->get());
    QCOMPARE(store.cacheSize().value(), n);
    const auto ledger = store.ledger(QStringLiteral("pool"));
    QVERIFY(ledger.ok());
    QCOMPARE(int(ledger->size()), n);
    QHash<QString, int> byUrl;
    for (const LedgerEntry &e : *ledger) {
        QCOMPARE(e.outcome, QStringLiteral("ok"));
        ++byUrl[e.baseUrl];
    }
    QCOMPARE(byUrl.value(urls[0]), stats[0].answered);
    QCOMPARE(byUrl.value(urls[1]), b.answered);
    QCOMPARE(byUrl.value(urls[2]), stats[2].answered);

    // Tried again later: once it is back and its rest is over, it takes its share again.
    if (goesAway) {
        const quint16 port = QUrl(urls[1]).port();
        QVERIFY(bad.listen(port));
    } else {
        bad.setFaultRates(0, 0, 0, 0);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!engine.replicaStats()[1].resting, 5000);
    const int before = bad.answeredCount();
    c.idle = false;
    engine.submit(batch(n, QStringLiteral("again")));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 60000);
    QCOMPARE(int(c.answers.size()), 2 * n);
    const int again = bad.answeredCount() - before;
    QVERIFY2(again > n / 5, qPrintable(QStringLiteral("%1 of %2 after it came back").arg(again).arg(n)));
}

void TestEndpointPool::cacheKeyNamesTheModelNotTheReplica()
{
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project.ok());
    auto servers = startServers(2, 1);
    QVERIFY(!servers.empty());
    FakeLlmServer &a = *servers[0];
    FakeLlmServer &b = *servers[1];
    const int n = 40;
    {
        JudgeEngine onA(poolOf({a.baseUrl()}, 4), project->get());
        Collector c(onA);
        onA.submit(batch(n));
        QTRY_VERIFY(c.idle);
        for (const JudgeResponse &r : std::as_const(c.answers))
            QCOMPARE(r.status, JudgeStatus::Ok);
    }
    QCOMPARE(a.answeredCount(), n);
    // The same requests against replica b: every one a cache hit, nothing sent.
    JudgeEngine onB(poolOf({b.baseUrl()}, 4), project->get());
    JudgeEngine pool(poolOf({b.baseUrl(), a.baseUrl()}, 4, {1, 3}), project->get());
    for (JudgeEngine *engine : {&onB, &pool}) {
        Collector c(*engine); // dies with the iteration: neither engine is submitted to again
        engine->submit(batch(n));
        QTRY_VERIFY(c.idle);
        QCOMPARE(int(c.answers.size()), n);
        for (const JudgeResponse &r : std::as_const(c.answers))
            QCOMPARE(r.status, JudgeStatus::Cached);
        QCOMPARE(engine->stats().cacheHits, n);
        QCOMPARE(engine->stats().sent, 0);
    }
    QCOMPARE(b.requestCount(), 0);
    QCOMPARE(a.requestCount(), n);
    const JudgeRequest first = batch(1).first();
    QCOMPARE(onB.cacheKey(first), pool.cacheKey(first));
    QVERIFY(!onB.canonicalRequest(first).contains(QStringLiteral("127.0.0.1")));

    // An answer cached before keys stopped naming the URL is found under its old key, by a pool
    // that lists that URL, and reported under the current key.
    const JudgeRequest old = batch(1, QStringLiteral("old")).first();
    const ProviderProfile single = poolOf({a.baseUrl()}, 4);
    const QString legacy = CacheKey::legacyKeys(single, old).first();
    QVERIFY(legacy != onB.cacheKey(old));
    JudgeResponse answer;
    answer.status = JudgeStatus::Ok;
    answer.choices = {JudgeChoice{QStringLiteral("Rating: [[4]]"), {}, QStringLiteral("stop")}};
    CallStore store(project->get());
    store.addAnswer(legacy, a.baseUrl(), single.model, CacheKey::canonical(single, old, a.baseUrl()), answer);
    QVERIFY(store.flush().ok());
    QCOMPARE(onB.isCached(old).value(), false); // b alone never had that URL
    QCOMPARE(pool.isCached(old).value(), true);
    JudgeEngine later(poolOf({b.baseUrl(), a.baseUrl()}, 4), project->get()); // no collector of the loop above
    Collector c(later);
    later.submit({old});
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.value(0).status, JudgeStatus::Cached);
    QCOMPARE(c.answers.value(0).text(), QStringLiteral("Rating: [[4]]"));
    QCOMPARE(c.answers.value(0).cacheKey, later.cacheKey(old));
    QCOMPARE(a.requestCount() + b.requestCount(), n);
}

void TestEndpointPool::credentialInAnyUrlIsRefused()
{
    auto servers = startServers(1, 1);
    QVERIFY(!servers.empty());
    ProviderProfile p = poolOf({servers[0]->baseUrl(), QStringLiteral("http://127.0.0.1:9/v1?api_key=sk-secret-1")}, 2);
    JudgeEngine engine(p, nullptr);
    QVERIFY(!engine.keyError().isEmpty());
    QVERIFY(!engine.keyError().contains(QStringLiteral("sk-secret-1")));
    Collector c(engine);
    engine.submit(batch(3));
    QTRY_VERIFY(c.idle);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QCOMPARE(r.status, JudgeStatus::Failed);
    QCOMPARE(servers[0]->requestCount(), 0); // not even the clean replica is asked
}

QTEST_GUILESS_MAIN(TestEndpointPool)
#include "TestEndpointPool.moc"
