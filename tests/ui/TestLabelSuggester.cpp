#include "stats/LabelSuggester.h"

#include <QSet>
#include <QtTest>

using namespace rubric;

class TestLabelSuggester : public QObject
{
    Q_OBJECT
private slots:
    void stratified_data();
    void stratified();
    void sameSeedSameList();
    void disagreementStandardisesEachJudge();
    void mostDisputedFirst();
};

static QVector<LabelSuggester::Candidate> candidates()
{
    QVector<LabelSuggester::Candidate> out;
    for (int k = 0; k < 40; ++k) // 4 groups of 10; 2 systems
        out.append({QString::number(k), QStringLiteral("g%1").arg(k / 10), QStringLiteral("s%1").arg(k % 2)});
    return out;
}

void TestLabelSuggester::stratified_data()
{
    QTest::addColumn<int>("stratum");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("expectedGroups"); // distinct groups among the first `count`
    QTest::newRow("by group, 4 cover all groups") << int(LabelSuggester::Stratum::Group) << 4 << 4;
    QTest::newRow("by group, 8 take two of each") << int(LabelSuggester::Stratum::Group) << 8 << 4;
    QTest::newRow("more than there are") << int(LabelSuggester::Stratum::Group) << 100 << 4;
}

void TestLabelSuggester::stratified()
{
    QFETCH(int, stratum);
    QFETCH(int, count);
    QFETCH(int, expectedGroups);
    const auto all = candidates();
    const QStringList ids = LabelSuggester::suggest(all, LabelSuggester::Stratum(stratum), count, 7);
    QCOMPARE(ids.size(), std::min<int>(count, int(all.size())));
    QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
    QSet<QString> groups;
    QHash<QString, int> perGroup;
    for (const QString &id : ids) {
        groups.insert(all[id.toInt()].group);
        ++perGroup[all[id.toInt()].group];
    }
    QCOMPARE(groups.size(), expectedGroups);
    // Round-robin: no group has two more than another.
    int lo = INT_MAX, hi = 0;
    for (int n : std::as_const(perGroup))
        lo = std::min(lo, n), hi = std::max(hi, n);
    QVERIFY(hi - lo <= 1);
}

void TestLabelSuggester::sameSeedSameList()
{
    const auto all = candidates();
    const auto a = LabelSuggester::suggest(all, LabelSuggester::Stratum::System, 10, 3);
    QCOMPARE(LabelSuggester::suggest(all, LabelSuggester::Stratum::System, 10, 3), a);
    QVERIFY(LabelSuggester::suggest(all, LabelSuggester::Stratum::System, 10, 4) != a);
    int s0 = 0;
    for (const QString &id : a)
        s0 += all[id.toInt()].system == QLatin1String("s0") ? 1 : 0;
    QCOMPARE(s0, 5);
    QCOMPARE(LabelSuggester::stratumFromName(LabelSuggester::stratumName(LabelSuggester::Stratum::Group)),
             LabelSuggester::Stratum::Group);
}

void TestLabelSuggester::disagreementStandardisesEachJudge()
{
    // Judge A scores 1..5, judge B scores 0..1 in the same order, except item "x" where they are
    // opposite; judge C scores only one item (fewer than two judges elsewhere does not matter).
    QVector<LabelSuggester::JudgeScore> s;
    const QStringList items{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d"),
                            QStringLiteral("x")};
    const QVector<double> a{1, 2, 3, 4, 5}, b{0, 0.25, 0.5, 0.75, 0};
    for (int i = 0; i < items.size(); ++i) {
        s.append({items[i], QStringLiteral("A"), QStringLiteral("coherence"), a[i]});
        s.append({items[i], QStringLiteral("B"), QStringLiteral("coherence"), b[i]});
    }
    s.append({QStringLiteral("solo"), QStringLiteral("C"), QStringLiteral("coherence"), 3});
    const auto d = LabelSuggester::disagreement(s);
    QCOMPARE(d.size(), 5);
    QVERIFY(!d.contains(QStringLiteral("solo")));
    for (const QString &id : {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")})
        QVERIFY2(d.value(QStringLiteral("x")) > 2 * d.value(id), qPrintable(id));
    // Hand check for "x" (numpy: np.std([za[4], zb[4]], ddof=1) with population z-scores):
    // z_A = (5-3)/sqrt(2) = 1.4142; B mean 0.3, sd sqrt(0.085) → z_B = -1.0290; sd = 1.7276.
    QVERIFY(qAbs(d.value(QStringLiteral("x")) - 1.7276) < 1e-3);
}

void TestLabelSuggester::mostDisputedFirst()
{
    QVector<LabelSuggester::Candidate> c;
    for (int k = 0; k < 10; ++k) {
        LabelSuggester::Candidate x{QString::number(k), QStringLiteral("g"), QStringLiteral("s")};
        if (k % 3 != 0)
            x.disagreement = k / 10.0;
        c.append(x);
    }
    const QStringList got = LabelSuggester::suggest(c, LabelSuggester::Stratum::Disagreement, 6, 7);
    QCOMPARE(got, (QStringList{QStringLiteral("8"), QStringLiteral("7"), QStringLiteral("5"), QStringLiteral("4"),
                               QStringLiteral("2"), QStringLiteral("1")}));
    // Items without a figure follow, in the seeded order.
    const QStringList all = LabelSuggester::suggest(c, LabelSuggester::Stratum::Disagreement, 10, 7);
    QCOMPARE(QSet<QString>(all.begin() + 6, all.end()),
             (QSet<QString>{QStringLiteral("0"), QStringLiteral("3"), QStringLiteral("6"), QStringLiteral("9")}));
}

QTEST_GUILESS_MAIN(TestLabelSuggester)
#include "TestLabelSuggester.moc"
