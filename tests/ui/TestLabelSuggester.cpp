#include "LabelSuggester.h"

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

QTEST_GUILESS_MAIN(TestLabelSuggester)
#include "TestLabelSuggester.moc"
