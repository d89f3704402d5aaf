#include "stats/Bootstrap.h"
#include "stats/Correlation.h"
#include "stats/Resampling.h"
#include "stats/Significance.h"
#include "stats/WeightedKernels.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QThreadPool>

#include <bit>
#include <cmath>
#include <random>

using namespace rubric;
using namespace rubric::stats;

/// The draws of the bootstraps and permutation tests (core/stats/Resampling.h) and the weighted
/// dataset-level kernels (WeightedKernels.h): against scipy on the same resamples
/// (tests/stats/resampling_reference.json, made by make_resampling_reference.py, which draws them
/// with its own implementation of the documented streams), against the ordinary kernels over the
/// drawn items, and the same bit for bit on one thread and on several.
class TestResampling : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void streamsMatchTheReference();
    void belowIsExactlyUniformInItsRange();
    void weightedEqualsTheDrawnItems_data();
    void weightedEqualsTheDrawnItems();
    void againstScipyOnTheSameResamples_data();
    void againstScipyOnTheSameResamples();
    void permutationTestAgainstScipy();
    void columnsGiveTheFiguresOfItems();
    void sameFiguresOnOneThreadAndOnSeveral();
    void cleanupTestCase();

private:
    QVector<ScoredItem> scored(const QString &judge) const;
    QVector<PairedItem> paired() const;
    QJsonObject m_ref;
    int m_threads = 0;
};

namespace {

std::vector<double> doubles(const QJsonValue &v)
{
    std::vector<double> out;
    for (const QJsonValue &x : v.toArray())
        out.push_back(x.toDouble());
    return out;
}

bool near(double a, double b, double tolerance = 1e-9)
{
    return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) <= tolerance;
}

/// Bit for bit, NaN equal to NaN.
bool same(double a, double b)
{
    return std::bit_cast<quint64>(a) == std::bit_cast<quint64>(b);
}

} // namespace

void TestResampling::initTestCase()
{
    QFile f(QStringLiteral(RUBRIC_TEST_DATA "/resampling_reference.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    m_ref = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(!m_ref.isEmpty());
    m_threads = QThreadPool::globalInstance()->maxThreadCount();
}

void TestResampling::cleanupTestCase()
{
    QThreadPool::globalInstance()->setMaxThreadCount(m_threads);
}

QVector<ScoredItem> TestResampling::scored(const QString &judge) const
{
    const auto human = doubles(m_ref[QStringLiteral("human")]), j = doubles(m_ref[judge]);
    const QJsonArray group = m_ref[QStringLiteral("group")].toArray(),
                     system = m_ref[QStringLiteral("system")].toArray();
    QVector<ScoredItem> out;
    for (size_t i = 0; i < human.size(); ++i)
        out.append({QStringLiteral("i%1").arg(i), group.at(qsizetype(i)).toString(), system.at(qsizetype(i)).toString(),
                    human[i], j[i]});
    return out;
}

QVector<PairedItem> TestResampling::paired() const
{
    const auto a = scored(QStringLiteral("a"));
    const auto b = doubles(m_ref[QStringLiteral("b")]);
    QVector<PairedItem> out;
    for (qsizetype i = 0; i < a.size(); ++i)
        out.append({a[i].id, a[i].group, a[i].system, a[i].human, a[i].judge, b[size_t(i)]});
    return out;
}

void TestResampling::streamsMatchTheReference()
{
    const QJsonArray words = m_ref[QStringLiteral("stream_words")].toArray();
    const quint64 seed = quint64(m_ref[QStringLiteral("seed")].toInteger());
    QCOMPARE(detail::SplitMix64(detail::streamKey(seed, detail::Stream::Bootstrap, 0)).next(),
             words.at(0).toString().toULongLong());
    QCOMPARE(detail::SplitMix64(detail::streamKey(0, detail::Stream::Permutation, 7)).next(),
             words.at(1).toString().toULongLong());
    // SplitMix64 itself: the first outputs of Vigna's splitmix64.c from state 1234567.
    detail::SplitMix64 g(1234567);
    QCOMPARE(g.next(), 6457827717110365317ULL);
    QCOMPARE(g.next(), 3203168211198807973ULL);
}

void TestResampling::belowIsExactlyUniformInItsRange()
{
    // Every value below m turns up, none at or above it, for an m that does not divide 2^64.
    for (quint32 m : {1u, 2u, 3u, 7u, 1000u}) {
        detail::SplitMix64 g(m);
        std::vector<int> seen(m, 0);
        for (int k = 0; k < 20000; ++k) {
            const quint32 v = g.below(m);
            QVERIFY(v < m);
            ++seen[v];
        }
        if (m <= 7)
            for (int c : seen)
                QVERIFY(c > 0);
    }
}

void TestResampling::weightedEqualsTheDrawnItems_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("step"); // 0: continuous values (the Kendall table is too large)
    QTest::newRow("likert ties") << 300 << 1.0;
    QTest::newRow("quarter points") << 2000 << 0.25;
    QTest::newRow("continuous") << 1500 << 0.0;
    QTest::newRow("tiny") << 3 << 1.0;
}

void TestResampling::weightedEqualsTheDrawnItems()
{
    // The weighted coefficients of a resample against Pearson, Spearman and Kendall over the drawn
    // items themselves: Kendall exactly (integer pair counts), the others to rounding.
    QFETCH(int, n);
    QFETCH(double, step);
    std::mt19937_64 rng(static_cast<quint64>(n));
    std::normal_distribution<double> z;
    std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    const auto round = [step](double v) { return step > 0 ? std::round(v / step) * step : v; };
    for (int i = 0; i < n; ++i) {
        x[size_t(i)] = round(3 + z(rng));
        y[size_t(i)] = round(x[size_t(i)] + z(rng));
    }
    const detail::WeightedData data = detail::prepareWeighted(x, y, kAllCoefficients);
    if (step == 0)
        QVERIFY(size_t(data.kx) * size_t(data.ky) > detail::kMaxTableCells);
    detail::WeightedWorkspace ws;
    detail::ResampleCounts counts;
    std::vector<int> rows;
    int nan = 0;
    for (int r = 0; r < 60; ++r) {
        counts.draw(detail::streamKey(7, detail::Stream::Bootstrap, r), quint32(n));
        const LevelCorrelation w = detail::weightedCoefficients(data, counts, kAllCoefficients, ws);
        counts.rows(rows);
        QCOMPARE(int(rows.size()), n);
        QCOMPARE(w.n, n);
        std::vector<double> dx, dy;
        for (int k : rows) {
            dx.push_back(x[size_t(k)]);
            dy.push_back(y[size_t(k)]);
        }
        const double p = pearson(dx, dy), s = spearman(dx, dy), k = kendallTauB(dx, dy);
        nan += std::isnan(p);
        QVERIFY2(near(w.pearson, p, 1e-12), qPrintable(QStringLiteral("%1 vs %2").arg(w.pearson).arg(p)));
        QVERIFY2(near(w.spearman, s, 1e-12), qPrintable(QStringLiteral("%1 vs %2").arg(w.spearman).arg(s)));
        QVERIFY2(w.kendall == k || (std::isnan(w.kendall) && std::isnan(k)),
                 qPrintable(QStringLiteral("%1 vs %2").arg(w.kendall, 0, 'g', 17).arg(k, 0, 'g', 17)));
    }
    if (n == 3)
        QVERIFY(nan > 0); // three items drawn three times: some resamples are constant, all NaN
}

void TestResampling::againstScipyOnTheSameResamples_data()
{
    QTest::addColumn<int>("level");
    QTest::newRow("dataset") << int(Level::Dataset);
    QTest::newRow("group") << int(Level::Group);
}

void TestResampling::againstScipyOnTheSameResamples()
{
    QFETCH(int, level);
    const QJsonObject ref
            = m_ref[level == int(Level::Dataset) ? QStringLiteral("dataset_level") : QStringLiteral("group_level")]
                      .toObject();
    const quint64 seed = quint64(m_ref[QStringLiteral("seed")].toInteger());
    const int resamples = m_ref[QStringLiteral("resamples")].toInt();
    const auto items = scored(QStringLiteral("a"));
    const LevelCorrelation point = correlateAtLevel(items, Level(level));
    const CorrelationIntervals ci = bootstrapCorrelation(items, Level(level), {resamples, seed, 0.95});
    ComparisonOptions o;
    o.resamples = resamples;
    o.permutations = 0;
    o.seed = seed;
    const JudgeComparison pair = compareJudges(paired(), Level(level), o);
    for (Coefficient k : kCoefficients) {
        const QJsonObject r = ref[coefficientName(k)].toObject();
        const QJsonArray iv = r[QStringLiteral("ci")].toArray(), dv = r[QStringLiteral("difference_ci")].toArray();
        const QString what = coefficientName(k);
        QVERIFY2(near(point.value(k), r[QStringLiteral("point")].toDouble(), 1e-12),
                 qPrintable(QStringLiteral("%1: %2 vs %3")
                                    .arg(what)
                                    .arg(point.value(k), 0, 'g', 17)
                                    .arg(r[QStringLiteral("point")].toDouble(), 0, 'g', 17)));
        QVERIFY2(near(ci[k].lo, iv.at(0).toDouble()) && near(ci[k].hi, iv.at(1).toDouble()),
                 qPrintable(QStringLiteral("%1: [%2, %3] vs [%4, %5]")
                                    .arg(what)
                                    .arg(ci[k].lo, 0, 'g', 17)
                                    .arg(ci[k].hi, 0, 'g', 17)
                                    .arg(iv.at(0).toDouble(), 0, 'g', 17)
                                    .arg(iv.at(1).toDouble(), 0, 'g', 17)));
        const Interval d = pair.differenceCi[size_t(k)];
        QVERIFY2(near(d.lo, dv.at(0).toDouble()) && near(d.hi, dv.at(1).toDouble()),
                 qPrintable(QStringLiteral("%1 difference: [%2, %3] vs [%4, %5]")
                                    .arg(what)
                                    .arg(d.lo, 0, 'g', 17)
                                    .arg(d.hi, 0, 'g', 17)
                                    .arg(dv.at(0).toDouble(), 0, 'g', 17)
                                    .arg(dv.at(1).toDouble(), 0, 'g', 17)));
    }
}

void TestResampling::permutationTestAgainstScipy()
{
    const QJsonObject ref = m_ref[QStringLiteral("permutation")].toObject();
    ComparisonOptions o;
    o.resamples = 0;
    o.permutations = m_ref[QStringLiteral("permutations")].toInt();
    o.seed = quint64(m_ref[QStringLiteral("seed")].toInteger());
    // Pearson alone takes the sums' path, every coefficient the permuted items' path: both agree.
    for (unsigned tested : {coefficientBit(Coefficient::Pearson), kAllCoefficients}) {
        o.coefficients = tested;
        const JudgeComparison c = compareJudges(paired(), Level::Dataset, o);
        QVERIFY(near(c.difference[0], ref[QStringLiteral("difference")].toDouble(), 1e-12));
        QCOMPARE(c.permutationP[0], ref[QStringLiteral("p")].toDouble());
    }
}

void TestResampling::columnsGiveTheFiguresOfItems()
{
    // The CLI reads columns (store/ScoreColumns), the panes ScoredItems: the same figures bit for bit.
    StatsColumns columns;
    const auto a = scored(QStringLiteral("a"));
    const auto b = doubles(m_ref[QStringLiteral("b")]);
    QHash<QString, int> groups, systems;
    columns.judges.resize(2);
    for (qsizetype i = 0; i < a.size(); ++i) {
        columns.human.push_back(a[i].human);
        columns.judges[0].push_back(a[i].judge);
        // Judge b misses every fifth item: a pair's items are those both scored.
        columns.judges[1].push_back(i % 5 == 0 ? std::nan("") : b[size_t(i)]);
        // As the store numbers them: in order of first appearance, -1 for none.
        if (!a[i].group.isEmpty() && !groups.contains(a[i].group)) {
            groups.insert(a[i].group, int(columns.groups.size()));
            columns.groups.append(a[i].group);
        }
        if (!a[i].system.isEmpty() && !systems.contains(a[i].system)) {
            systems.insert(a[i].system, int(columns.systems.size()));
            columns.systems.append(a[i].system);
        }
        columns.group.push_back(groups.value(a[i].group, -1));
        columns.system.push_back(systems.value(a[i].system, -1));
    }
    QVector<ScoredItem> itemsB;
    QVector<PairedItem> pairs;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (i % 5 != 0) {
            itemsB.append({a[i].id, a[i].group, a[i].system, a[i].human, b[size_t(i)]});
            pairs.append({a[i].id, a[i].group, a[i].system, a[i].human, a[i].judge, b[size_t(i)]});
        }
    ComparisonOptions o;
    o.resamples = 200;
    o.permutations = 200;
    o.seed = 3;
    for (Level level : {Level::Dataset, Level::Group, Level::System}) {
        const LevelCorrelation ca = correlateAtLevel(columns, 1, level), ia = correlateAtLevel(itemsB, level);
        const CorrelationIntervals cb = bootstrapCorrelation(columns, 1, level, {200, 3, 0.95}),
                                   ib = bootstrapCorrelation(itemsB, level, {200, 3, 0.95});
        const JudgeComparison cp = compareJudges(columns, 0, 1, level, o), ip = compareJudges(pairs, level, o);
        QVERIFY2(ca.n == ia.n, qPrintable(QStringLiteral("%1: %2 vs %3 of %4")
                                                  .arg(levelName(level))
                                                  .arg(ca.n)
                                                  .arg(ia.n)
                                                  .arg(itemsB.size())));
        for (Coefficient k : kCoefficients) {
            const size_t c = size_t(k);
            QVERIFY(same(ca.value(k), ia.value(k)));
            QVERIFY(same(cb[k].lo, ib[k].lo) && same(cb[k].hi, ib[k].hi));
            QVERIFY(same(cp.difference[c], ip.difference[c]));
            QVERIFY(same(cp.differenceCi[c].lo, ip.differenceCi[c].lo));
            QVERIFY(same(cp.differenceCi[c].hi, ip.differenceCi[c].hi));
            QVERIFY(same(cp.permutationP[c], ip.permutationP[c]));
        }
    }
}

void TestResampling::sameFiguresOnOneThreadAndOnSeveral()
{
    // Every replicate draws from its own stream and lands in its own slot: one thread or four,
    // the intervals and p-values are the same doubles.
    std::mt19937_64 rng(11);
    std::normal_distribution<double> z;
    QVector<PairedItem> items;
    for (int i = 0; i < 3000; ++i) {
        const double h = std::round(2 * (3 + z(rng))) / 2;
        items.append({QStringLiteral("i%1").arg(i), QStringLiteral("g%1").arg(i / 10), QStringLiteral("s%1").arg(i % 7),
                      h, std::round(4 * (h + z(rng))) / 4, h + 2 * z(rng)});
    }
    QVector<ScoredItem> single;
    for (const PairedItem &p : items)
        single.append({p.id, p.group, p.system, p.human, p.a});
    struct Figures
    {
        std::vector<double> values;
    };
    const auto run = [&](int threads) {
        QThreadPool::globalInstance()->setMaxThreadCount(threads);
        Figures f;
        ComparisonOptions o;
        o.resamples = 300;
        o.permutations = 300;
        o.seed = 99;
        for (Level level : {Level::Dataset, Level::Group, Level::System}) {
            const CorrelationIntervals ci = bootstrapCorrelation(single, level, {300, 99, 0.95});
            for (Coefficient k : kCoefficients) {
                f.values.push_back(ci[k].lo);
                f.values.push_back(ci[k].hi);
            }
            for (unsigned tested : {coefficientBit(Coefficient::Pearson), kAllCoefficients}) {
                o.coefficients = tested;
                const JudgeComparison c = compareJudges(items, level, o);
                for (size_t k = 0; k < 3; ++k) {
                    f.values.push_back(c.differenceCi[k].lo);
                    f.values.push_back(c.differenceCi[k].hi);
                    f.values.push_back(c.permutationP[k]);
                }
            }
        }
        return f;
    };
    const Figures one = run(1), four = run(4);
    QCOMPARE(one.values.size(), four.values.size());
    for (size_t i = 0; i < one.values.size(); ++i)
        QVERIFY2(same(one.values[i], four.values[i]), qPrintable(QStringLiteral("figure %1: %2 vs %3")
                                                                         .arg(i)
                                                                         .arg(one.values[i], 0, 'g', 17)
                                                                         .arg(four.values[i], 0, 'g', 17)));
}

QTEST_GUILESS_MAIN(TestResampling)
#include "TestResampling.moc"
