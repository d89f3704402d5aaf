// Label next by expected gain (issue 36, point 3): learn::rankByExpectedGain ranks only unlabelled
// rows, is deterministic for a seed, its density is the mean Gaussian similarity to the other
// unlabelled rows (recomputed here with plain loops), a point the committee must extrapolate to
// leads the spread, and the density weight pushes a lone outlier below a point among many.

#include "learn/Acquisition.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace rubric::learn;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// 40 rows, 3 criteria on a line with noise: rows 0–11 labelled (x in 1…3), the others unlabelled
/// (x in 1…3 too), plus row 40: a cluster of 5 rows at x ≈ 4.5 and row 45: one row at x = 9.
void data(Eigen::MatrixXd &x, Eigen::VectorXd &y)
{
    const int n = 46;
    x.resize(n, 3);
    y = Eigen::VectorXd::Constant(n, kNaN);
    for (int i = 0; i < n; ++i) {
        double t = 1.0 + 2.0 * ((i * 7) % 40) / 39.0;
        if (i >= 40 && i < 45)
            t = 4.5 + 0.05 * (i - 40);
        if (i == 45)
            t = 9.0;
        const double e = 0.15 * std::sin(3.1 * i);
        x(i, 0) = t + e;
        x(i, 1) = 2 * t - e;
        x(i, 2) = std::cos(1.7 * i); // noise criterion
        if (i < 12)
            y[i] = t + 0.2 * std::cos(5.0 * i);
    }
}

} // namespace

class TestAcquisition : public QObject
{
    Q_OBJECT
private slots:
    void ranksUnlabelledDeterministically();
    void densityIsMeanGaussianSimilarity();
    void extrapolationLeadsAndDensityTamesOutliers();
    void refusesWithTooFewLabels();
};

void TestAcquisition::ranksUnlabelledDeterministically()
{
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
    data(x, y);
    AcquisitionSettings s;
    auto a = rankByExpectedGain(x, y, s), b = rankByExpectedGain(x, y, s);
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(a->size(), 34);
    for (int i = 0; i < a->size(); ++i) {
        QVERIFY((*a)[i].row >= 12);
        QCOMPARE((*a)[i].row, (*b)[i].row);
        QCOMPARE((*a)[i].gain, (*b)[i].gain);
        QVERIFY(i == 0 || (*a)[i - 1].gain >= (*a)[i].gain);
        QVERIFY(std::abs((*a)[i].gain - (*a)[i].spread * (*a)[i].density) < 1e-12);
    }
}

void TestAcquisition::densityIsMeanGaussianSimilarity()
{
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
    data(x, y);
    auto ranked = rankByExpectedGain(x, y, AcquisitionSettings());
    QVERIFY(ranked.ok());
    // Independently: standardise every column over all rows, squared distances among the unlabelled
    // rows, bandwidth = the median of the pairwise ones (upper median), mean exp(-d²/h) to the others,
    // scaled by the largest.
    const int n = int(x.rows()), p = int(x.cols());
    std::vector<std::vector<double>> z(n, std::vector<double>(p));
    for (int c = 0; c < p; ++c) {
        double mean = 0, var = 0;
        for (int r = 0; r < n; ++r)
            mean += x(r, c) / n;
        for (int r = 0; r < n; ++r)
            var += (x(r, c) - mean) * (x(r, c) - mean) / n;
        for (int r = 0; r < n; ++r)
            z[r][c] = (x(r, c) - mean) / std::sqrt(var);
    }
    std::vector<int> open;
    for (int r = 12; r < n; ++r)
        open.push_back(r);
    const auto d2 = [&](int a, int b) {
        double s = 0;
        for (int c = 0; c < p; ++c)
            s += (z[a][c] - z[b][c]) * (z[a][c] - z[b][c]);
        return s;
    };
    std::vector<double> pairs;
    for (size_t i = 0; i < open.size(); ++i)
        for (size_t j = i + 1; j < open.size(); ++j)
            pairs.push_back(d2(open[i], open[j]));
    std::sort(pairs.begin(), pairs.end());
    const double h = pairs[pairs.size() / 2];
    std::vector<double> density;
    for (int a : open) {
        double s = 0;
        for (int b : open)
            if (b != a)
                s += std::exp(-d2(a, b) / h);
        density.push_back(s / double(open.size() - 1));
    }
    const double top = *std::max_element(density.begin(), density.end());
    for (const AcquisitionScore &s : *ranked) {
        const double expected = density[size_t(s.row - 12)] / top;
        QVERIFY2(std::abs(s.density - expected) < 1e-9,
                 qPrintable(QStringLiteral("row %1: %2 vs %3").arg(s.row).arg(s.density).arg(expected)));
    }
}

void TestAcquisition::extrapolationLeadsAndDensityTamesOutliers()
{
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
    data(x, y);
    AcquisitionSettings spreadOnly;
    spreadOnly.densityPower = 0;
    auto bySpread = rankByExpectedGain(x, y, spreadOnly);
    QVERIFY(bySpread.ok());
    // The committee disagrees most far outside the labelled range: the lone outlier first.
    QCOMPARE(bySpread->first().row, 45);
    auto weighted = rankByExpectedGain(x, y, AcquisitionSettings());
    QVERIFY(weighted.ok());
    // With the density weight the lone outlier drops below the cluster beyond the labels, which the
    // committee disagrees on too (five items like it: a label there teaches about five).
    int outlierRank = -1, clusterRank = -1;
    for (int i = 0; i < weighted->size(); ++i) {
        if ((*weighted)[i].row == 45)
            outlierRank = i;
        if ((*weighted)[i].row >= 40 && (*weighted)[i].row < 45 && clusterRank < 0)
            clusterRank = i;
    }
    QVERIFY(outlierRank > 0);
    QVERIFY2(clusterRank >= 0 && clusterRank < outlierRank,
             qPrintable(QStringLiteral("cluster %1, outlier %2").arg(clusterRank).arg(outlierRank)));
}

void TestAcquisition::refusesWithTooFewLabels()
{
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
    data(x, y);
    for (int i = 2; i < 12; ++i)
        y[i] = kNaN;
    auto r = rankByExpectedGain(x, y, AcquisitionSettings());
    QVERIFY(!r.ok());
    QVERIFY2(r.errorString().contains(QLatin1String("at least 3 labelled items")), qPrintable(r.errorString()));
}

QTEST_GUILESS_MAIN(TestAcquisition)
#include "TestAcquisition.moc"
