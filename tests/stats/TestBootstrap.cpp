#include "stats/Bootstrap.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace rubric::stats;

namespace {

// 1600 items in 100 groups (documents) by 16 systems, judge = human + noise. Systems differ a
// little (0.02 per system) so the system-level correlation is not pinned near 1: there the
// percentile interval is biased low (item noise in resampled means only lowers r) and may miss.
QVector<ScoredItem> synthetic(quint64 seed, int groups = 100, int perGroup = 16)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0.0, 1.0);
    QVector<ScoredItem> items;
    for (int g = 0; g < groups; ++g)
        for (int s = 0; s < perGroup; ++s) {
            const double h = std::round(3 + z(rng) + 0.02 * s);
            items.append({QStringLiteral("%1-%2").arg(g).arg(s), QStringLiteral("g%1").arg(g),
                          QStringLiteral("s%1").arg(s), h, h + z(rng)});
        }
    return items;
}

} // namespace

class TestBootstrap : public QObject
{
    Q_OBJECT
private slots:
    void reproducibleForSeed_data();
    void reproducibleForSeed();
    void coversPointEstimate_data();
    void coversPointEstimate();
    void groupLevelResamplesGroups();
    void systemLevelResamplesSystems();
    void groupLevelFollowsTheConstantGroupRule();
    void emptyInputGivesNaN();
    void stopRequestedGivesNoInterval_data();
    void stopRequestedGivesNoInterval();
};

void TestBootstrap::reproducibleForSeed_data()
{
    QTest::addColumn<int>("level");
    QTest::newRow("dataset") << int(Level::Dataset);
    QTest::newRow("group") << int(Level::Group);
    QTest::newRow("system") << int(Level::System);
}

void TestBootstrap::reproducibleForSeed()
{
    QFETCH(int, level);
    const auto items = synthetic(1, 30, 8);
    const auto a = bootstrapCorrelation(items, Level(level), {300, 123, 0.95});
    const auto b = bootstrapCorrelation(items, Level(level), {300, 123, 0.95});
    const auto c = bootstrapCorrelation(items, Level(level), {300, 124, 0.95});
    QCOMPARE(a.resamples, 300);
    for (Coefficient k : kCoefficients) {
        QCOMPARE(a[k].lo, b[k].lo);
        QCOMPARE(a[k].hi, b[k].hi);
    }
    QVERIFY(a[Coefficient::Pearson].lo != c[Coefficient::Pearson].lo
            || a[Coefficient::Pearson].hi != c[Coefficient::Pearson].hi);
}

void TestBootstrap::coversPointEstimate_data()
{
    reproducibleForSeed_data();
}

void TestBootstrap::coversPointEstimate()
{
    QFETCH(int, level);
    const auto items = synthetic(2);
    const LevelCorrelation point = correlateAtLevel(items, Level(level));
    const auto ci = bootstrapCorrelation(items, Level(level), {1000, 9, 0.95});
    for (Coefficient k : kCoefficients) {
        const Interval iv = ci[k];
        QVERIFY(!std::isnan(iv.lo) && !std::isnan(iv.hi));
        QVERIFY2(iv.lo <= point.value(k) && point.value(k) <= iv.hi, qPrintable(QStringLiteral("%1: %2 not in [%3, %4]")
                                                                                        .arg(coefficientName(k))
                                                                                        .arg(point.value(k))
                                                                                        .arg(iv.lo)
                                                                                        .arg(iv.hi)));
        QVERIFY(iv.hi - iv.lo < 0.5);
        QVERIFY(iv.hi > iv.lo);
    }
    QCOMPARE(ci.valid[0], 1000);
}

void TestBootstrap::groupLevelResamplesGroups()
{
    // Every group is an exact copy: whichever groups are drawn, the group average is the same,
    // so a group-level bootstrap has zero width, while an item-level one does not.
    QVector<ScoredItem> items;
    const double h[5] = {1, 2, 3, 4, 5}, j[5] = {2, 1, 4, 3, 5};
    for (int g = 0; g < 20; ++g)
        for (int i = 0; i < 5; ++i)
            items.append({QStringLiteral("%1-%2").arg(g).arg(i), QStringLiteral("g%1").arg(g), {}, h[i], j[i]});
    const double point = correlateAtLevel(items, Level::Group).pearson;
    const auto grouped = bootstrapCorrelation(items, Level::Group, {200, 1, 0.95});
    QCOMPARE(grouped[Coefficient::Pearson].lo, point);
    QCOMPARE(grouped[Coefficient::Pearson].hi, point);
    const auto flat = bootstrapCorrelation(items, Level::Dataset, {200, 1, 0.95});
    QVERIFY(flat[Coefficient::Pearson].hi - flat[Coefficient::Pearson].lo > 0.05);
}

void TestBootstrap::systemLevelResamplesSystems()
{
    // Ten systems whose mean judge score equals their mean human score, while within a system the
    // judge reverses the people: any set of drawn systems correlates perfectly, so a bootstrap over
    // systems has zero width at 1; drawing items instead moves the means and widens it.
    QVector<ScoredItem> items;
    for (int s = 0; s < 10; ++s)
        for (int i = 0; i < 4; ++i) {
            const double off = i < 2 ? -2.0 : 2.0;
            items.append({QStringLiteral("%1-%2").arg(s).arg(i), QStringLiteral("g%1").arg(i),
                          QStringLiteral("s%1").arg(s), s + off, s - off});
        }
    QVERIFY(std::abs(correlateAtLevel(items, Level::System).pearson - 1.0) < 1e-12);
    const auto ci = bootstrapCorrelation(items, Level::System, {300, 4, 0.95});
    QVERIFY2(ci[Coefficient::Pearson].lo > 1.0 - 1e-12, qPrintable(QString::number(ci[Coefficient::Pearson].lo)));
    QVERIFY(ci[Coefficient::Spearman].lo > 1.0 - 1e-12);
    QCOMPARE(ci.valid[0], 300);
}

void TestBootstrap::groupLevelFollowsTheConstantGroupRule()
{
    // Half of the groups have constant human scores: left out (skip) they leave a mean of the
    // others; counted as 1 (one) they pull every replicate up.
    QVector<ScoredItem> items;
    const double j[4] = {1, 3, 2, 4};
    for (int g = 0; g < 20; ++g)
        for (int i = 0; i < 4; ++i)
            items.append({QStringLiteral("%1-%2").arg(g).arg(i),
                          QStringLiteral("g%1").arg(g),
                          {},
                          g % 2 ? 3.0 : double(i),
                          j[i]});
    BootstrapOptions skip{200, 2, 0.95};
    BootstrapOptions one = skip;
    one.constantGroups = ConstantGroups::One;
    const auto a = bootstrapCorrelation(items, Level::Group, skip);
    const auto b = bootstrapCorrelation(items, Level::Group, one);
    const double other = correlateAtLevel(items, Level::Group).pearson;
    QCOMPARE(a[Coefficient::Pearson].lo, other); // every non-constant group is the same
    QVERIFY(b[Coefficient::Pearson].lo > other);
    QVERIFY(b[Coefficient::Pearson].hi < 1.0);
    const double pointOne = correlateAtLevel(items, Level::Group, ConstantGroups::One).pearson;
    QVERIFY(b[Coefficient::Pearson].lo <= pointOne && pointOne <= b[Coefficient::Pearson].hi);
}

void TestBootstrap::emptyInputGivesNaN()
{
    const auto ci = bootstrapCorrelation({}, Level::Dataset, {100, 1, 0.95});
    QVERIFY(std::isnan(ci[Coefficient::Pearson].lo));
    QCOMPARE(ci.valid[0], 0);
}

void TestBootstrap::stopRequestedGivesNoInterval_data()
{
    QTest::addColumn<int>("level");
    QTest::newRow("dataset") << int(Level::Dataset);
    QTest::newRow("group") << int(Level::Group);
}

void TestBootstrap::stopRequestedGivesNoInterval()
{
    QFETCH(int, level);
    const auto items = synthetic(3, 30, 8);
    // A token whose stop is never requested changes nothing.
    std::stop_source running;
    const auto plain = bootstrapCorrelation(items, Level(level), {200, 5, 0.95});
    const auto tokened = bootstrapCorrelation(items, Level(level), {200, 5, 0.95, running.get_token()});
    QVERIFY(!tokened.cancelled);
    QCOMPARE(tokened[Coefficient::Pearson].lo, plain[Coefficient::Pearson].lo);
    QCOMPARE(tokened[Coefficient::Kendall].hi, plain[Coefficient::Kendall].hi);
    // A stopped one computes no replicate and reports no interval, not one from a partial set.
    std::stop_source stopped;
    stopped.request_stop();
    const auto ci = bootstrapCorrelation(items, Level(level), {200, 5, 0.95, stopped.get_token()});
    QVERIFY(ci.cancelled);
    for (Coefficient k : kCoefficients) {
        QVERIFY(std::isnan(ci[k].lo));
        QVERIFY(std::isnan(ci[k].hi));
        QCOMPARE(ci.valid[size_t(k)], 0);
    }
}

QTEST_GUILESS_MAIN(TestBootstrap)
#include "TestBootstrap.moc"
