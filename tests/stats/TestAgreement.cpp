#include "stats/Agreement.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace rubric::stats;

namespace {

constexpr double M = std::numeric_limits<double>::quiet_NaN();

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers
// (A–D) × 12 units, values 1–5, with missing values. Rows are units, columns observers.
ReliabilityData krippendorff2011()
{
    const double A[12] = {1, 2, 3, 3, 2, 1, 4, 1, 2, M, M, M};
    const double B[12] = {1, 2, 3, 3, 2, 2, 4, 1, 2, 5, M, 3};
    const double C[12] = {M, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, M};
    const double D[12] = {1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, M};
    ReliabilityData data;
    for (int u = 0; u < 12; ++u)
        data.push_back({A[u], B[u], C[u], D[u]});
    return data;
}

} // namespace

class TestAgreement : public QObject
{
    Q_OBJECT
private slots:
    void krippendorffWorkedExample_data();
    void krippendorffWorkedExample();
    void alphaPerfectAgreementIsOne();
    void alphaWithoutVariationIsNaN();
    void fleissTextbookExample();
    void fleissFromRatingsSkipsIncompleteRows();
    void humanCeilingLeavesOneOut();
    void levelNamesRoundTrip();
};

void TestAgreement::krippendorffWorkedExample_data()
{
    QTest::addColumn<int>("level");
    QTest::addColumn<double>("published");
    QTest::addColumn<double>("pairwise");
    // "published": to three decimals in the paper. "pairwise": the same data through the other
    // textbook form, 1 − D_o/D_e summed over pairs of values (no coincidence matrix), evaluated
    // in plain Python 3 (/usr/bin/python3) as an independent check of the full-precision value.
    QTest::newRow("nominal 0.743") << int(AlphaLevel::Nominal) << 0.743 << 0.743421052631579;
    QTest::newRow("ordinal 0.815") << int(AlphaLevel::Ordinal) << 0.815 << 0.8153875037548813;
    QTest::newRow("interval 0.849") << int(AlphaLevel::Interval) << 0.849 << 0.8491071428571428;
    QTest::newRow("ratio 0.797") << int(AlphaLevel::Ratio) << 0.797 << 0.7974027747116127;
}

void TestAgreement::krippendorffWorkedExample()
{
    QFETCH(int, level);
    QFETCH(double, published);
    QFETCH(double, pairwise);
    const AlphaResult r = krippendorffAlpha(krippendorff2011(), AlphaLevel(level));
    QCOMPARE(r.units, 11); // unit 12 has a single value: not pairable
    QCOMPARE(r.values, 40);
    QVERIFY2(std::abs(r.alpha - published) < 0.0005, qPrintable(QString::number(r.alpha, 'g', 10)));
    QVERIFY2(std::abs(r.alpha - pairwise) < 1e-12, qPrintable(QString::number(r.alpha, 'g', 17)));
}

void TestAgreement::alphaPerfectAgreementIsOne()
{
    const ReliabilityData d{{1, 1, M}, {2, 2, 2}, {5, M, 5}};
    for (AlphaLevel l : {AlphaLevel::Nominal, AlphaLevel::Ordinal, AlphaLevel::Interval, AlphaLevel::Ratio})
        QCOMPARE(krippendorffAlpha(d, l).alpha, 1.0);
}

void TestAgreement::alphaWithoutVariationIsNaN()
{
    const ReliabilityData d{{3, 3}, {3, 3}};
    QVERIFY(std::isnan(krippendorffAlpha(d, AlphaLevel::Interval).alpha));
    QVERIFY(std::isnan(krippendorffAlpha({}, AlphaLevel::Nominal).alpha));
}

void TestAgreement::fleissTextbookExample()
{
    // Fleiss (1971) style example as tabulated on Wikipedia ("Fleiss' kappa"): 10 subjects,
    // 14 raters, 5 categories; kappa = 0.210.
    const std::vector<std::vector<int>> counts{{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0},
                                               {2, 2, 8, 1, 1},  {7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2},
                                               {6, 5, 2, 1, 0},  {0, 2, 2, 3, 7}};
    const double k = fleissKappaCounts(counts);
    QVERIFY2(std::abs(k - 0.210) < 0.0005, qPrintable(QString::number(k, 'g', 10)));
    QVERIFY(std::abs(k - 0.20993070442195522) < 1e-12); // the formula in plain Python 3

    // The same table as raw ratings (category index per rater) through fleissKappa().
    ReliabilityData ratings;
    for (const auto &row : counts) {
        std::vector<double> r;
        for (size_t c = 0; c < row.size(); ++c)
            for (int i = 0; i < row[c]; ++i)
                r.push_back(double(c + 1));
        ratings.push_back(r);
    }
    const KappaResult kr = fleissKappa(ratings);
    QCOMPARE(kr.items, 10);
    QCOMPARE(kr.raters, 14);
    QCOMPARE(kr.kappa, k);
}

void TestAgreement::fleissFromRatingsSkipsIncompleteRows()
{
    const ReliabilityData d{{1, 1, 1}, {2, 2, 2}, {1, M, 2}, {2, 2, 1}};
    const KappaResult k = fleissKappa(d);
    QCOMPARE(k.items, 3);
    QCOMPARE(k.raters, 3);
    // By hand: P_i = 1, 1, 1/3 → P̄ = 7/9; p = (4/9, 5/9) → Pe = 41/81; κ = (63/81 − 41/81)/(40/81) = 0.55
    QVERIFY(std::abs(k.kappa - 0.55) < 1e-12);
    QVERIFY(std::isnan(fleissKappa({{1, 1}, {1, 1}}).kappa));
}

void TestAgreement::humanCeilingLeavesOneOut()
{
    // Annotator c is the mean of a and b exactly: c vs mean(a, b) correlates perfectly.
    const ReliabilityData d{{1, 3, 2}, {2, 2, 2}, {4, 2, 3}, {5, 5, 5}, {1, 5, 3}, {3, M, 3}};
    const HumanCeiling h = humanCeiling(d, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
    QCOMPARE(h.annotators.size(), 3);
    QCOMPARE(h.annotators[2].annotator, QStringLiteral("c"));
    QCOMPARE(h.annotators[2].n, 6);
    QCOMPARE(h.annotators[1].n, 5);
    QVERIFY(std::abs(h.annotators[2].pearson - 1.0) < 1e-12);
    const double mean = (h.annotators[0].pearson + h.annotators[1].pearson + h.annotators[2].pearson) / 3;
    QVERIFY(std::abs(h.pearson - mean) < 1e-12);
    // A lone annotator has nobody to compare with: NaN, and the mean skips it.
    const HumanCeiling lone = humanCeiling({{1, M}, {2, M}, {3, 4}}, {QStringLiteral("x"), QStringLiteral("y")});
    QVERIFY(std::isnan(lone.annotators[0].pearson));
    QVERIFY(std::isnan(lone.pearson));
}

void TestAgreement::levelNamesRoundTrip()
{
    for (AlphaLevel l : {AlphaLevel::Nominal, AlphaLevel::Ordinal, AlphaLevel::Interval, AlphaLevel::Ratio})
        QCOMPARE(parseAlphaLevel(alphaLevelName(l)), std::optional<AlphaLevel>(l));
    QVERIFY(!parseAlphaLevel(QStringLiteral("cardinal")));
}

QTEST_GUILESS_MAIN(TestAgreement)
#include "TestAgreement.moc"
