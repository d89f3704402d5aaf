// Provider batches (issue 16.1) at the engine: OpenAI's files + batches and Anthropic's message
// batches against the loopback fake, with failing lines, an expired batch, a refused creation, the
// threshold, and a batch picked up by another engine (a process that came back) without being
// submitted again. Answers land in the cache and the ledger at the batch price.
#include "JudgeTestUtil.h"
#include "store/BatchStore.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestJudgeBatch : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void batchAnswersEveryCallAtTheBatchPrice_data();
    void batchAnswersEveryCallAtTheBatchPrice();
    void fewCallsGoInteractively();
    void failedLinesAreSentAgainAndNeverCached();
    void expiredBatchSendsTheRestAgain();
    void refusedCreationSendsInteractively();
    void anotherEnginePicksTheBatchUp();
    void stoppedWhileCreatingFindsTheBatchInTheList();
    void damagedResultsAreReadOnce_data();
    void damagedResultsAreReadOnce();
    void failingPollsGiveTheBatchUp();
    void anotherEndpointsBatchHoldsNothing();

private:
    std::unique_ptr<Project> project();
    static BatchOptions options(int threshold = 10);
    QTemporaryDir m_dir;
    int m_n = 0;
};

void TestJudgeBatch::init()
{
    QVERIFY(m_dir.isValid());
}

std::unique_ptr<Project> TestJudgeBatch::project()
{
    auto p = Project::open(m_dir.filePath(QStringLiteral("b%1.rubric").arg(++m_n)));
    return p ? std::move(p).value() : nullptr;
}

BatchOptions TestJudgeBatch::options(int threshold)
{
    BatchOptions o;
    o.enabled = true;
    o.threshold = threshold;
    o.pollMs = 40;
    o.priceFactor = 0.5;
    return o;
}

void TestJudgeBatch::batchAnswersEveryCallAtTheBatchPrice_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::newRow("openai") << false;
    QTest::newRow("anthropic") << true;
}

void TestJudgeBatch::batchAnswersEveryCallAtTheBatchPrice()
{
    QFETCH(bool, anthropic);
    auto proj = project();
    QVERIFY(proj);
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setBatchDelayMs(300);
    server.setAnswer(FakeAnswer{QStringLiteral("Rating: [[4]]"), {}, {}, 100, 10});
    ProviderProfile p = profileFor(server);
    if (anthropic)
        p.kind = ProviderKind::Anthropic;
    p.pricePerMillionIn = 2.0;
    p.pricePerMillionOut = 8.0;
    JudgeEngine engine(p, proj.get());
    engine.setBatchOptions(options());
    Collector c(engine);
    engine.submit(batch(40));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    QCOMPARE(c.answers.size(), 40);
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
        QCOMPARE(r.text(), QStringLiteral("Rating: [[4]]"));
    }
    // One batch of 40 lines; no interactive call.
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(server.batchLines(), 40);
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(engine.stats().batched, 40);
    QCOMPARE(engine.stats().sent, 0);

    // Cached, and in the ledger at half the price, with the batch's id.
    CallStore store(proj.get());
    QCOMPARE(store.cacheSize().value(), 40);
    const auto ledger = store.ledger();
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->size(), 40);
    const double full = p.cost(100, 10);
    for (const LedgerEntry &e : *ledger) {
        QCOMPARE(e.outcome, QStringLiteral("ok"));
        QCOMPARE(e.batch, anthropic ? QStringLiteral("msgbatch_1") : QStringLiteral("batch_1"));
        QVERIFY(qAbs(e.cost - 0.5 * full) < 1e-12);
    }
    QVERIFY(qAbs(engine.stats().cost - 40 * 0.5 * full) < 1e-9);

    // The project keeps the batch, taken in.
    const auto batches = BatchStore(proj.get()).batches();
    QVERIFY(batches.ok());
    QCOMPARE(batches->size(), 1);
    QCOMPARE(batches->first().state, QStringLiteral("done"));
    QCOMPARE(batches->first().requests, 40);
    QCOMPARE(batches->first().completed, 40);

    // Asked again: every answer from the cache, nothing submitted.
    JudgeEngine again(p, proj.get());
    again.setBatchOptions(options());
    Collector c2(again);
    again.submit(batch(40));
    QTRY_VERIFY(c2.idle);
    QCOMPARE(again.stats().cacheHits, 40);
    QCOMPARE(server.batchesCreated(), 1);
}

void TestJudgeBatch::fewCallsGoInteractively()
{
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    JudgeEngine engine(profileFor(server), proj.get());
    engine.setBatchOptions(options(10));
    Collector c(engine);
    engine.submit(batch(6));
    QTRY_VERIFY(c.idle);
    QCOMPARE(c.answers.size(), 6);
    QCOMPARE(server.batchesCreated(), 0);
    QCOMPARE(server.requestCount(), 6);
    const auto ledger = CallStore(proj.get()).ledger();
    QCOMPARE(ledger->size(), 6);
    QVERIFY(ledger->first().batch.isEmpty());
}

void TestJudgeBatch::failedLinesAreSentAgainAndNeverCached()
{
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setSeed(7);
    server.setBatchLineFailureRate(0.25);
    JudgeEngine engine(profileFor(server), proj.get());
    engine.setBatchOptions(options());
    Collector c(engine);
    engine.submit(batch(80));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    QCOMPARE(c.answers.size(), 80);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    const int failedLines = 80 - server.batchLinesAnswered();
    QVERIFY2(failedLines > 5 && failedLines < 40, qPrintable(QString::number(failedLines)));
    // The failed lines went interactively, once each; all 80 answers are cached.
    QCOMPARE(server.requestCount(), failedLines);
    CallStore store(proj.get());
    QCOMPARE(store.cacheSize().value(), 80);
    int failedRows = 0, batchOk = 0, interactiveOk = 0;
    const QVector<LedgerEntry> ledger = store.ledger().value();
    for (const LedgerEntry &e : ledger) {
        if (e.outcome == QLatin1String("failed")) {
            ++failedRows;
            QCOMPARE(e.batch, QStringLiteral("batch_1"));
            QCOMPARE(e.cost, 0.0);
            QVERIFY2(e.error.contains(QStringLiteral("the fake batch line failed")), qPrintable(e.error));
        } else if (e.batch.isEmpty()) {
            ++interactiveOk;
        } else {
            ++batchOk;
        }
    }
    QCOMPARE(failedRows, failedLines);
    QCOMPARE(batchOk, 80 - failedLines);
    QCOMPARE(interactiveOk, failedLines);
}

void TestJudgeBatch::expiredBatchSendsTheRestAgain()
{
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setExpireNextBatch(true);
    JudgeEngine engine(profileFor(server), proj.get());
    engine.setBatchOptions(options());
    Collector c(engine);
    engine.submit(batch(30));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    QCOMPARE(c.answers.size(), 30);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    QCOMPARE(server.batchLinesAnswered(), 15);
    QCOMPARE(server.requestCount(), 15);
    const auto batches = BatchStore(proj.get()).batches().value();
    QCOMPARE(batches.size(), 1);
    QCOMPARE(batches.first().state, QStringLiteral("expired"));
    QCOMPARE(CallStore(proj.get()).cacheSize().value(), 30);
}

void TestJudgeBatch::refusedCreationSendsInteractively()
{
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.failBatchCreations(1);
    JudgeEngine engine(profileFor(server), proj.get());
    engine.setBatchOptions(options());
    Collector c(engine);
    engine.submit(batch(20));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    QCOMPARE(c.answers.size(), 20);
    QCOMPARE(server.batchesCreated(), 0);
    QCOMPARE(server.requestCount(), 20);
    const auto batches = BatchStore(proj.get()).batches().value();
    QCOMPARE(batches.size(), 1);
    QCOMPARE(batches.first().state, QStringLiteral("failed"));
    QVERIFY2(batches.first().error.contains(QStringLiteral("HTTP 500")), qPrintable(batches.first().error));
}

void TestJudgeBatch::anotherEnginePicksTheBatchUp()
{
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setBatchDelayMs(1500);
    const ProviderProfile p = profileFor(server);
    {
        JudgeEngine first(p, proj.get());
        first.setBatchOptions(options());
        first.submit(batch(30));
        // The batch is created and recorded; then the engine goes away (a closed laptop, a kill).
        QTRY_VERIFY_WITH_TIMEOUT(!BatchStore(proj.get()).batches().value().value(0).remoteId.isEmpty(), 10000);
        QCOMPARE(server.batchesCreated(), 1);
    }
    // A later engine — without batch mode even — waits for that batch instead of sending again.
    JudgeEngine second(p, proj.get());
    BatchOptions interactive = options();
    interactive.enabled = false;
    second.setBatchOptions(interactive);
    Collector c(second);
    second.submit(batch(30));
    QCOMPARE(second.waitingForBatches(), 30);
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    QCOMPARE(c.answers.size(), 30);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(server.batchLines(), 30);
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(CallStore(proj.get()).cacheSize().value(), 30);
    QCOMPARE(BatchStore(proj.get()).batches().value().first().state, QStringLiteral("done"));
}

void TestJudgeBatch::stoppedWhileCreatingFindsTheBatchInTheList()
{
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setBatchCreationDelayMs(3000);
    const ProviderProfile p = profileFor(server);
    {
        JudgeEngine first(p, proj.get());
        first.setBatchOptions(options());
        first.submit(batch(25));
        // The provider created the batch, but its answer has not come: the project knows the input
        // file, not the batch. The engine goes away (a kill) before it hears.
        QTRY_VERIFY_WITH_TIMEOUT(server.batchesCreated() == 1, 10000);
        const BatchRecord stored = BatchStore(proj.get()).batches().value().value(0);
        QVERIFY(stored.remoteId.isEmpty());
        QVERIFY(!stored.inputFile.isEmpty());
        QCOMPARE(stored.state, QStringLiteral("preparing"));
    }
    server.setBatchCreationDelayMs(0);
    JudgeEngine second(p, proj.get());
    BatchOptions quick = options();
    quick.enabled = false;
    second.setBatchOptions(quick);
    Collector c(second);
    second.submit(batch(25));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    // Found in the provider's list by its input file: nothing submitted or sent again.
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(server.batchLines(), 25);
    QCOMPARE(server.requestCount(), 0);
    const BatchRecord done = BatchStore(proj.get()).batches().value().value(0);
    QCOMPARE(done.remoteId, QStringLiteral("batch_1"));
    QCOMPARE(done.state, QStringLiteral("done"));

    // A batch recorded but never created (stopped before its upload) sends its calls again.
    auto other = project();
    BatchRecord orphan;
    orphan.provider = QStringLiteral("openai");
    orphan.baseUrl = p.baseUrl;
    orphan.model = p.model;
    JudgeEngine probe(p, other.get());
    const QVector<JudgeRequest> three = batch(3, QStringLiteral("orphan"));
    QVERIFY(BatchStore(other.get())
                    .create(orphan, {{probe.cacheKey(three[0]), probe.canonicalRequest(three[0])}})
                    .ok());
    JudgeEngine third(p, other.get());
    Collector c3(third);
    third.submit(three);
    QTRY_VERIFY_WITH_TIMEOUT(c3.idle, 20000);
    QCOMPARE(c3.answers.size(), 3);
    QCOMPARE(server.requestCount(), 3);
    QCOMPARE(BatchStore(other.get()).batches().value().value(0).state, QStringLiteral("failed"));
}

void TestJudgeBatch::damagedResultsAreReadOnce_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::newRow("openai") << false;
    QTest::newRow("anthropic") << true;
}

void TestJudgeBatch::damagedResultsAreReadOnce()
{
    // Issue 33.5: a results file with every line twice and a line that is not JSON. Each call is
    // recorded and paid once, the unreadable line does not make the file unreadable (it would be
    // downloaded again at every poll, forever), and the call it should have answered goes
    // interactive.
    QFETCH(bool, anthropic);
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setBatchResultsDamaged(true);
    ProviderProfile p = profileFor(server);
    if (anthropic)
        p.kind = ProviderKind::Anthropic;
    p.pricePerMillionIn = 1.0;
    JudgeEngine engine(p, proj.get());
    engine.setBatchOptions(options());
    Collector c(engine);
    engine.submit(batch(20));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    QCOMPARE(c.answers.size(), 20);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(server.requestCount(), 0); // every line is in the file (twice): none is sent again
    const auto ledger = CallStore(proj.get()).ledger();
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->size(), 20);
    QSet<QString> keys;
    for (const LedgerEntry &e : *ledger)
        keys.insert(e.key);
    QCOMPARE(keys.size(), 20);
    QCOMPARE(BatchStore(proj.get()).batches().value().first().state, QStringLiteral("done"));
}

void TestJudgeBatch::failingPollsGiveTheBatchUp()
{
    // Issue 33.4: a batch whose polls keep failing is given up after BatchRunner::maxFailedPolls
    // failures in a row; its calls go interactive and the run ends.
    auto proj = project();
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.failBatchPolls(1000);
    JudgeEngine engine(profileFor(server), proj.get());
    engine.setBatchOptions(options());
    Collector c(engine);
    engine.submit(batch(20));
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 30000);
    QCOMPARE(c.answers.size(), 20);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    QCOMPARE(server.requestCount(), 20);
    const BatchRecord record = BatchStore(proj.get()).batches().value().value(0);
    QCOMPARE(record.state, QStringLiteral("failed"));
    QVERIFY2(record.error.contains(QStringLiteral("gave up")) && record.error.contains(QStringLiteral("HTTP 500")),
             qPrintable(record.error));
}

void TestJudgeBatch::anotherEndpointsBatchHoldsNothing()
{
    // Issue 33.4: an open batch of another endpoint (same provider and model) does not hold this
    // endpoint's calls: they are sent here at once.
    auto proj = project();
    FakeLlmServer cloud;
    QVERIFY(cloud.listen());
    cloud.setBatchDelayMs(60000);
    {
        JudgeEngine first(profileFor(cloud), proj.get());
        first.setBatchOptions(options());
        first.submit(batch(30));
        QTRY_VERIFY_WITH_TIMEOUT(!BatchStore(proj.get()).batches().value().value(0).remoteId.isEmpty(), 10000);
    }
    cloud.shutDown();
    FakeLlmServer local;
    QVERIFY(local.listen());
    JudgeEngine second(profileFor(local), proj.get());
    BatchOptions interactive = options();
    interactive.enabled = false;
    second.setBatchOptions(interactive);
    Collector c(second);
    second.submit(batch(30));
    QCOMPARE(second.waitingForBatches(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(c.idle, 20000);
    QCOMPARE(c.answers.size(), 30);
    for (const JudgeResponse &r : std::as_const(c.answers))
        QVERIFY2(r.status == JudgeStatus::Ok, qPrintable(r.error));
    QCOMPARE(local.requestCount(), 30);
}

QTEST_GUILESS_MAIN(TestJudgeBatch)
#include "TestJudgeBatch.moc"
