#include "stats/Significance.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace rubric::stats;

namespace {

QVector<PairedItem> twoJudges(int n, double noiseA, double noiseB, quint64 seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0.0, 1.0);
    QVector<PairedItem> items;
    for (int i = 0; i < n; ++i) {
        const double h = z(rng);
        items.append({QString::number(i), QStringLiteral("g%1").arg(i % 10), QStringLiteral("s%1").arg(i % 8), h,
                      h + noiseA * z(rng), h + noiseB * z(rng)});
    }
    return items;
}

} // namespace

class TestSignificance : public QObject
{
    Q_OBJECT
private slots:
    void williamsPublishedExample();
    void williamsUndefined();
    void studentT_data();
    void studentT();
    void studentTFarTailsAreRelativelyExact_data();
    void studentTFarTailsAreRelativelyExact();
    void incompleteBetaAgainstScipy_data();
    void incompleteBetaAgainstScipy();
    void identicalJudgesAreNotDifferent();
    void clearlyBetterJudgeIsSignificant();
    void comparisonIsReproducible();
};

void TestSignificance::williamsPublishedExample()
{
    // Howell, "Statistical Methods for Psychology" (6th ed., p. 262), Williams' (1959) test as
    // worked in B. Weaver's Williams1959.sps: r12 = .80, r13 = .72, r23 = .89, n = 26 →
    // t(23) = 1.361, two-sided p = .187.
    const WilliamsResult w = williamsTest(0.80, 0.72, 0.89, 26);
    QCOMPARE(w.df, 23);
    QVERIFY2(std::abs(w.t - 1.361) < 0.0005, qPrintable(QString::number(w.t, 'g', 10)));
    QVERIFY2(std::abs(w.p - 0.187) < 0.0005, qPrintable(QString::number(w.p, 'g', 10)));
    // Full precision against the same formula evaluated with scipy 1.10.1 (t.sf).
    QVERIFY(std::abs(w.t - 1.3606693135002073) < 1e-12);
    QVERIFY(std::abs(w.p - 0.18680400483386522) < 1e-10);
    // Antisymmetric in the two judges.
    QVERIFY(std::abs(williamsTest(0.72, 0.80, 0.89, 26).t + w.t) < 1e-12);
}

void TestSignificance::williamsUndefined()
{
    QVERIFY(std::isnan(williamsTest(0.5, 0.4, 0.3, 3).t));
    QVERIFY(std::isnan(williamsTest(std::nan(""), 0.4, 0.3, 30).p));
}

void TestSignificance::studentT_data()
{
    QTest::addColumn<double>("t");
    QTest::addColumn<double>("df");
    QTest::addColumn<double>("p");
    // 2 * scipy.stats.t.sf(|t|, df), scipy 1.10.1
    QTest::newRow("t=2 df=10") << 2.0 << 10.0 << 0.07338803477074039;
    QTest::newRow("t=1.361 df=23") << 1.361 << 23.0 << 0.1867009514225136;
    QTest::newRow("t=0.5 df=3") << 0.5 << 3.0 << 0.651447964848151;
    QTest::newRow("t=-3.2 df=100") << -3.2 << 100.0 << 0.0018419425158830525;
    QTest::newRow("t=10 df=5") << 10.0 << 5.0 << 0.00017094757574296357;
}

void TestSignificance::studentT()
{
    QFETCH(double, t);
    QFETCH(double, df);
    QFETCH(double, p);
    QVERIFY2(std::abs(studentTTwoSidedP(t, df) - p) < 1e-10 * std::max(1.0, p) + 1e-14,
             qPrintable(QString::number(studentTTwoSidedP(t, df), 'g', 17)));
}

void TestSignificance::studentTFarTailsAreRelativelyExact_data()
{
    QTest::addColumn<double>("t");
    QTest::addColumn<double>("df");
    QTest::addColumn<double>("p");
    // 2 * scipy.stats.t.sf(|t|, df), scipy 1.10.1: p-values of strongly different judges on many items
    QTest::newRow("t=40 df=200") << 40.0 << 200.0 << 2.248739653520226e-97;
    QTest::newRow("t=25 df=1000") << 25.0 << 1000.0 << 1.5203541383321965e-107;
    QTest::newRow("t=8 df=3") << 8.0 << 3.0 << 0.004076577587785467;
    QTest::newRow("t=1e-8 df=7") << 1e-8 << 7.0 << 0.999999992300171;
}

void TestSignificance::studentTFarTailsAreRelativelyExact()
{
    QFETCH(double, t);
    QFETCH(double, df);
    QFETCH(double, p);
    const double got = studentTTwoSidedP(t, df);
    QVERIFY2(std::abs(got - p) <= 1e-12 * p, qPrintable(QString::number(got, 'g', 17)));
    QVERIFY(std::isnan(studentTTwoSidedP(1.0, 0.0)));
    QCOMPARE(studentTTwoSidedP(-std::numeric_limits<double>::infinity(), 4.0), 0.0);
}

void TestSignificance::incompleteBetaAgainstScipy_data()
{
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("want");
    // scipy.special.betainc(a, b, x), scipy 1.10.1
    QTest::newRow("arcsine") << 0.5 << 0.5 << 0.3 << 0.3690101195655454;
    QTest::newRow("skewed") << 100.0 << 0.5 << 0.99 << 0.15677586542443941;
    QTest::newRow("moderate") << 2.5 << 3.5 << 0.4 << 0.4869041915261175;
    QTest::newRow("large a and b") << 50.0 << 60.0 << 0.45 << 0.4642352914306064;
    QTest::newRow("x = 0") << 2.0 << 3.0 << 0.0 << 0.0;
    QTest::newRow("x = 1") << 2.0 << 3.0 << 1.0 << 1.0;
}

void TestSignificance::incompleteBetaAgainstScipy()
{
    QFETCH(double, a);
    QFETCH(double, b);
    QFETCH(double, x);
    QFETCH(double, want);
    const double got = incompleteBeta(a, b, x);
    QVERIFY2(std::abs(got - want) <= 1e-13 * std::max(want, 1e-300), qPrintable(QString::number(got, 'g', 17)));
}

void TestSignificance::identicalJudgesAreNotDifferent()
{
    QVector<PairedItem> items = twoJudges(200, 0.5, 0.5, 1);
    for (PairedItem &it : items)
        it.b = it.a;
    const JudgeComparison c = compareJudges(items, Level::Dataset, {200, 200, 3, 0.95});
    for (size_t k = 0; k < 3; ++k) {
        QCOMPARE(c.difference[k], 0.0);
        QCOMPARE(c.permutationP[k], 1.0);
        QCOMPARE(c.differenceCi[k].lo, 0.0);
        QCOMPARE(c.differenceCi[k].hi, 0.0);
    }
    // r23 = 1: the two judges are the same variable, Williams' t is undefined (0/0).
    QVERIFY(std::isnan(c.williams.t));
}

void TestSignificance::clearlyBetterJudgeIsSignificant()
{
    const QVector<PairedItem> items = twoJudges(300, 0.3, 1.5, 2);
    for (Level level : {Level::Dataset, Level::Group, Level::System}) {
        const JudgeComparison c = compareJudges(items, level, {500, 500, 11, 0.95});
        QVERIFY(c.a.pearson > c.b.pearson);
        QVERIFY(c.differenceCi[0].lo <= c.difference[0] && c.difference[0] <= c.differenceCi[0].hi);
        // 8 system means of ~37 items each average most noise away: no significance expected there.
        if (level != Level::System) {
            QVERIFY2(c.permutationP[0] < 0.01, qPrintable(levelName(level)));
            QVERIFY(c.differenceCi[0].lo > 0);
        } else {
            QVERIFY(c.permutationP[0] > 0.0 && c.permutationP[0] <= 1.0);
        }
    }
    const JudgeComparison d = compareJudges(items, Level::Dataset, {100, 100, 11, 0.95});
    QCOMPARE(d.williams.n, 300);
    QVERIFY(d.williams.t > 5);
    QVERIFY(d.williams.p < 1e-6);
    // At group level Williams' test is not defined.
    QVERIFY(std::isnan(compareJudges(items, Level::Group, {10, 10, 1, 0.95}).williams.t));
}

void TestSignificance::comparisonIsReproducible()
{
    const QVector<PairedItem> items = twoJudges(120, 0.8, 1.0, 5);
    const JudgeComparison x = compareJudges(items, Level::Group, {300, 300, 42, 0.95});
    const JudgeComparison y = compareJudges(items, Level::Group, {300, 300, 42, 0.95});
    const JudgeComparison z = compareJudges(items, Level::Group, {300, 300, 43, 0.95});
    for (size_t k = 0; k < 3; ++k) {
        QCOMPARE(x.differenceCi[k].lo, y.differenceCi[k].lo);
        QCOMPARE(x.differenceCi[k].hi, y.differenceCi[k].hi);
        QCOMPARE(x.permutationP[k], y.permutationP[k]);
    }
    QVERIFY(x.differenceCi[0].lo != z.differenceCi[0].lo || x.differenceCi[0].hi != z.differenceCi[0].hi);
}

QTEST_GUILESS_MAIN(TestSignificance)
#include "TestSignificance.moc"
