#include "judge/TokenBucket.h"

#include <QtTest>

using namespace rubric;

class TestTokenBucket : public QObject
{
    Q_OBJECT
private slots:
    void unlimitedAlwaysGives();
    void refillsAtTheMinuteRate();
    void oversizedRequestWaitsForAFullBucket();
};

void TestTokenBucket::unlimitedAlwaysGives()
{
    qint64 now = 0;
    TokenBucket b(0, [&] { return now; });
    for (int i = 0; i < 1000; ++i)
        QVERIFY(b.tryTake(1e6));
    QCOMPARE(b.msUntil(1e9), 0);
}

void TestTokenBucket::refillsAtTheMinuteRate()
{
    qint64 now = 0;
    TokenBucket b(
            600, [&] { return now; }, 10); // 10 per second, burst 10
    for (int i = 0; i < 10; ++i)
        QVERIFY(b.tryTake(1));
    QVERIFY(!b.tryTake(1));
    QCOMPARE(b.msUntil(1), 100);
    now += 99;
    QVERIFY(!b.tryTake(1));
    now += 1;
    QVERIFY(b.tryTake(1));
    now += 10000; // capped at the capacity
    QCOMPARE(b.level(), 10.0);
}

void TestTokenBucket::oversizedRequestWaitsForAFullBucket()
{
    qint64 now = 0;
    TokenBucket b(
            6000, [&] { return now; }, 1000); // 100 tokens/s, capacity 1000
    QVERIFY(b.tryTake(5000));                 // allowed from a full bucket, leaves a debt
    QCOMPARE(b.level(), -4000.0);
    QCOMPARE(b.msUntil(10), 40100);
    now += 40100;
    QVERIFY(b.tryTake(10));
}

QTEST_GUILESS_MAIN(TestTokenBucket)
#include "TestTokenBucket.moc"
