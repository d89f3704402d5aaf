// What a run keeps of its provider batches (issue 16.1: BatchStore), on the project file and, as
// test_batch_store_postgresql, on a PostgreSQL team database.
#include "PostgresServer.h"
#include "store/BatchStore.h"
#include "store/Project.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestBatchStore : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
};

void TestBatchStore::roundTrip()
{
    // What a run keeps of its provider batches (BatchStore), on either backend.
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(path, dir, QStringLiteral("batches.rubric"));
    auto opened = Project::open(path);
    QVERIFY2(opened.ok(), qPrintable(opened.errorString()));
    auto p = std::move(opened).value();
    BatchStore store(p.get());
    BatchRecord record;
    record.provider = QStringLiteral("openai");
    record.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
    record.model = QStringLiteral("m");
    record.run = QStringLiteral("j");
    const auto id = store.create(record, {{QStringLiteral("k1"), QStringLiteral("{\"a\":1}")},
                                          {QStringLiteral("k2"), QStringLiteral("{\"a\":2}")},
                                          {QStringLiteral("k2"), QStringLiteral("{\"a\":2}")}});
    QVERIFY2(id.ok(), qPrintable(id.errorString()));
    const auto second = store.create(record, {{QStringLiteral("k3"), QStringLiteral("{}")}});
    QVERIFY(second.ok());
    QVERIFY(*second > *id);
    QVERIFY(store.setInputFile(*id, QStringLiteral("file-1")).ok());
    QVERIFY(store.setSubmitted(*id, QStringLiteral("batch_1"), QStringLiteral("file-1")).ok());
    auto open
            = store.openBatches(QStringLiteral("openai"), QStringLiteral("http://127.0.0.1:1/v1"), QStringLiteral("m"));
    QVERIFY(open.ok());
    QCOMPARE(open->size(), 2);
    // Another endpoint of the same provider and model holds none of them.
    QCOMPARE(store.openBatches(QStringLiteral("openai"), QStringLiteral("http://127.0.0.1:2/v1"), QStringLiteral("m"))
                     ->size(),
             0);
    QCOMPARE(open->first().remoteId, QStringLiteral("batch_1"));
    QCOMPARE(open->first().state, QStringLiteral("submitted"));
    QCOMPARE(open->first().requests, 3);
    QCOMPARE(store.pendingCalls(*id)->size(), 2); // one row per key
    QVERIFY(store.markCalls(*id, {QStringLiteral("k1")}, QStringLiteral("answered")).ok());
    QCOMPARE(store.pendingCalls(*id)->keys(), QStringList{QStringLiteral("k2")});
    QCOMPARE(store.pendingCalls(*id)->value(QStringLiteral("k2")), QStringLiteral("{\"a\":2}"));
    BatchRecord ended = open->first();
    ended.state = QStringLiteral("done");
    ended.remoteStatus = QStringLiteral("completed");
    ended.completed = 2;
    QVERIFY(store.update(ended).ok());
    QCOMPARE(store.openBatches(QStringLiteral("openai"), QStringLiteral("http://127.0.0.1:1/v1"), QStringLiteral("m"))
                     ->size(),
             1);
    const auto all = store.batches(QStringLiteral("j"));
    QVERIFY(all.ok());
    QCOMPARE(all->size(), 2);
    QCOMPARE(all->first().remoteStatus, QStringLiteral("completed"));
    QVERIFY(!all->first().open());
    QVERIFY(all->last().open());
}

QTEST_GUILESS_MAIN(TestBatchStore)
#include "TestBatchStore.moc"
