#include "stats/Correlation.h"
#include "stats/Ranking.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace rubric::stats;

namespace {

std::vector<double> toVector(const QJsonArray &a)
{
    std::vector<double> v;
    v.reserve(size_t(a.size()));
    for (const QJsonValue &x : a)
        v.push_back(x.isNull() ? std::numeric_limits<double>::quiet_NaN() : x.toDouble());
    return v;
}

double expected(const QJsonValue &v)
{
    return v.isNull() ? std::numeric_limits<double>::quiet_NaN() : v.toDouble();
}

// O(n²) tau-b straight from the definition, to cross-check Knight's algorithm on random ties.
double kendallNaive(const std::vector<double> &x, const std::vector<double> &y)
{
    long long conc = 0, disc = 0, tx = 0, ty = 0;
    for (size_t i = 0; i < x.size(); ++i)
        for (size_t j = i + 1; j < x.size(); ++j) {
            const double dx = x[i] - x[j], dy = y[i] - y[j];
            if (dx == 0 && dy == 0)
                continue;
            if (dx == 0)
                ++tx;
            else if (dy == 0)
                ++ty;
            else if ((dx > 0) == (dy > 0))
                ++conc;
            else
                ++disc;
        }
    return double(conc - disc) / std::sqrt(double(conc + disc + tx) * double(conc + disc + ty));
}

} // namespace

class TestCorrelation : public QObject
{
    Q_OBJECT
private slots:
    void againstScipy_data();
    void againstScipy();
    void knightMatchesDefinition();
    void largeInputsTakeTheRadixPath_data();
    void largeInputsTakeTheRadixPath();
    void averageRanksShareTies();
    void helpersSkipNaN();
};

void TestCorrelation::againstScipy_data()
{
    QTest::addColumn<QJsonObject>("c");
    QFile f(QStringLiteral(RUBRIC_TEST_DATA "/reference.json"));
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonArray cases = root.value(QStringLiteral("cases")).toArray();
    QVERIFY(cases.size() >= 10);
    for (const QJsonValue &c : cases) {
        const QJsonObject o = c.toObject();
        QTest::newRow(qPrintable(o.value(QStringLiteral("name")).toString())) << o;
    }
}

void TestCorrelation::againstScipy()
{
    QFETCH(QJsonObject, c);
    const auto x = toVector(c.value(QStringLiteral("x")).toArray());
    const auto y = toVector(c.value(QStringLiteral("y")).toArray());
    const struct
    {
        const char *name;
        double got;
    } rows[] = {{"pearson", pearson(x, y)}, {"spearman", spearman(x, y)}, {"kendall", kendallTauB(x, y)}};
    for (const auto &r : rows) {
        const double want = expected(c.value(QLatin1String(r.name)));
        if (std::isnan(want)) {
            QVERIFY2(std::isnan(r.got), r.name);
        } else {
            QVERIFY2(!std::isnan(r.got), r.name);
            QVERIFY2(std::abs(r.got - want) <= 1e-9, qPrintable(QStringLiteral("%1: got %2, scipy %3")
                                                                        .arg(QLatin1String(r.name))
                                                                        .arg(r.got, 0, 'g', 17)
                                                                        .arg(want, 0, 'g', 17)));
        }
    }
}

void TestCorrelation::knightMatchesDefinition()
{
    std::mt19937_64 rng(7);
    for (int round = 0; round < 50; ++round) {
        const int n = 2 + int(rng() % 300);
        const int levels = 1 + int(rng() % 6);
        std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            x[size_t(i)] = double(rng() % unsigned(levels));
            y[size_t(i)] = double(rng() % unsigned(levels + 1));
        }
        const double fast = kendallTauB(x, y);
        const double slow = kendallNaive(x, y);
        if (std::isnan(slow))
            QVERIFY(std::isnan(fast));
        else
            QVERIFY2(std::abs(fast - slow) < 1e-12,
                     qPrintable(QStringLiteral("n=%1 %2 vs %3").arg(n).arg(fast).arg(slow)));
    }
}

void TestCorrelation::largeInputsTakeTheRadixPath_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("levels"); // 0 = continuous values
    QTest::newRow("n=600 continuous") << 600 << 0;
    QTest::newRow("n=3000 five levels") << 3000 << 5;
    QTest::newRow("n=2000 two levels") << 2000 << 2;
}

void TestCorrelation::largeInputsTakeTheRadixPath()
{
    // n ≥ 512 sorts by radix; cross-check against the definition, with negative values and −0.0.
    QFETCH(int, n);
    QFETCH(int, levels);
    std::mt19937_64 rng{static_cast<uint64_t>(n)};
    std::normal_distribution<double> z(0.0, 1.0);
    std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    for (size_t i = 0; i < x.size(); ++i) {
        const double a = z(rng), b = 0.4 * a + z(rng);
        x[i] = levels ? std::round(a * levels / 3.0) : a;
        y[i] = levels ? std::round(b * levels / 3.0) : b;
        if (i % 97 == 0)
            x[i] = -0.0;
        if (i % 89 == 0)
            x[i] = 0.0;
    }
    const double fast = kendallTauB(x, y);
    const double slow = kendallNaive(x, y);
    QVERIFY2(std::abs(fast - slow) < 1e-12, qPrintable(QStringLiteral("%1 vs %2").arg(fast).arg(slow)));
    // Average ranks through the radix path equal those of a plain comparison sort.
    const auto r = averageRanks(x);
    std::vector<double> sorted(x);
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < x.size(); i += 37) {
        const auto lo = std::lower_bound(sorted.begin(), sorted.end(), x[i]) - sorted.begin();
        const auto hi = std::upper_bound(sorted.begin(), sorted.end(), x[i]) - sorted.begin();
        QCOMPARE(r[i], 0.5 * double(lo + 1 + hi));
    }
}

void TestCorrelation::averageRanksShareTies()
{
    const std::vector<double> v{10, 20, 20, 5, 20};
    const auto r = averageRanks(v);
    const std::vector<double> want{2, 4, 4, 1, 4};
    QCOMPARE(r, want);
}

void TestCorrelation::helpersSkipNaN()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> v{0.5, nan, 0.7};
    QCOMPARE(meanSkippingNaN(v), 0.6);
    QVERIFY(std::isnan(meanSkippingNaN(std::vector<double>{nan, nan})));
    const std::vector<double> s{1, 2, 3, 4};
    QCOMPARE(quantileSorted(s, 0.5), 2.5);
    QCOMPARE(quantileSorted(s, 0.0), 1.0);
    QCOMPARE(quantileSorted(s, 1.0), 4.0);
}

QTEST_GUILESS_MAIN(TestCorrelation)
#include "TestCorrelation.moc"
