#include "stats/Levels.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>

using namespace rubric::stats;

namespace {

constexpr double M = std::numeric_limits<double>::quiet_NaN();

// SummEval-shaped: documents d1..d5 (groups), each summarised by systems s0..s3.
// d1: judge agrees perfectly (+1); d2: reversed (−1); d3: humans all equal (skipped);
// d4: judge all equal (skipped); d5: one swap (r = ρ = 0.8, τ = 2/3);
// d6: a single item (skipped); one item with a missing judge score in d1 (ignored).
QVector<ScoredItem> summEvalShaped()
{
    const double human[5][4] = {{1, 2, 3, 4}, {1, 2, 3, 4}, {3, 3, 3, 3}, {1, 2, 3, 4}, {1, 2, 3, 4}};
    const double judge[5][4] = {{1, 2, 3, 4}, {4, 3, 2, 1}, {1, 2, 3, 4}, {2, 2, 2, 2}, {1, 3, 2, 4}};
    QVector<ScoredItem> items;
    for (int d = 0; d < 5; ++d)
        for (int s = 0; s < 4; ++s)
            items.append({QStringLiteral("d%1-s%2").arg(d + 1).arg(s), QStringLiteral("d%1").arg(d + 1),
                          QStringLiteral("s%1").arg(s), human[d][s], judge[d][s]});
    items.append({QStringLiteral("d6-s0"), QStringLiteral("d6"), QString(), 2, 5}); // no system
    items.append({QStringLiteral("d1-s4"), QStringLiteral("d1"), QStringLiteral("s0"), 5, M});
    return items;
}

} // namespace

class TestLevels : public QObject
{
    Q_OBJECT
private slots:
    void groupLevelSkipsConstantGroupsAndAverages();
    void groupLevelAllSkippedIsNaN();
    void groupLevelConstantGroupRules_data();
    void groupLevelConstantGroupRules();
    void systemLevelAveragesFirst();
    void datasetLevelPairsItems();
    void summEvalAgainstScipy_data();
    void summEvalAgainstScipy();
    void levelNames();
};

void TestLevels::groupLevelSkipsConstantGroupsAndAverages()
{
    const LevelCorrelation c = correlateAtLevel(summEvalShaped(), Level::Group);
    QCOMPARE(c.groupsUsed, 3);
    QCOMPARE(c.groupsSkipped, 3);
    QCOMPARE(c.n, 12);
    QVERIFY(std::abs(c.pearson - (1.0 - 1.0 + 0.8) / 3) < 1e-12);
    QVERIFY(std::abs(c.spearman - (1.0 - 1.0 + 0.8) / 3) < 1e-12);
    QVERIFY(std::abs(c.kendall - (1.0 - 1.0 + 2.0 / 3) / 3) < 1e-12);
}

void TestLevels::groupLevelAllSkippedIsNaN()
{
    const QVector<ScoredItem> items{{QStringLiteral("a"), QStringLiteral("g"), {}, 1, 1},
                                    {QStringLiteral("b"), QStringLiteral("g"), {}, 1, 2},
                                    {QStringLiteral("c"), QStringLiteral("h"), {}, 3, 2}};
    const LevelCorrelation c = correlateAtLevel(items, Level::Group);
    QCOMPARE(c.groupsUsed, 0);
    QCOMPARE(c.groupsSkipped, 2);
    QVERIFY(std::isnan(c.pearson) && std::isnan(c.spearman) && std::isnan(c.kendall));
}

void TestLevels::groupLevelConstantGroupRules_data()
{
    QTest::addColumn<int>("rule");
    QTest::addColumn<int>("used");
    QTest::addColumn<double>("pearson");
    QTest::addColumn<double>("kendall");
    // d1 +1, d2 −1, d5 0.8 (τ 2/3); d3 has constant human scores, d4 constant judge scores, d6 one item.
    QTest::newRow("skip: d3, d4 and d6 left out")
            << int(ConstantGroups::Skip) << 3 << (1.0 - 1.0 + 0.8) / 3 << (1.0 - 1.0 + 2.0 / 3) / 3;
    QTest::newRow("one: d3 counts as 1, d4 and d6 left out")
            << int(ConstantGroups::One) << 4 << (1.0 - 1.0 + 0.8 + 1.0) / 4 << (1.0 - 1.0 + 2.0 / 3 + 1.0) / 4;
}

void TestLevels::groupLevelConstantGroupRules()
{
    QFETCH(int, rule);
    QFETCH(int, used);
    QFETCH(double, pearson);
    QFETCH(double, kendall);
    const LevelCorrelation c = correlateAtLevel(summEvalShaped(), Level::Group, ConstantGroups(rule));
    QCOMPARE(int(c.constantGroups), rule);
    QCOMPARE(c.groupsUsed, used);
    QCOMPARE(c.groupsHumanConstant, 1);
    QCOMPARE(c.groupsJudgeConstant, 1);
    QCOMPARE(c.groupsTooSmall, 1);
    QCOMPARE(c.groupsSkipped, 6 - used);
    QCOMPARE(c.n, used * 4);
    QVERIFY(std::abs(c.pearson - pearson) < 1e-12);
    QVERIFY(std::abs(c.kendall - kendall) < 1e-12);
    QCOMPARE(parseConstantGroups(constantGroupsName(ConstantGroups(rule))), std::optional(ConstantGroups(rule)));
    QVERIFY(!parseConstantGroups(QStringLiteral("zero")));
}

void TestLevels::systemLevelAveragesFirst()
{
    // System means (items with both scores): human 7/5, 11/5, 3, 19/5; judge 9/5, 12/5, 12/5, 3.
    // scipy 1.10.1 on those four points: r = 0.9486832980505139, ρ = 0.9486832980505139,
    // τ-b = 0.9128709291752769.
    const LevelCorrelation c = correlateAtLevel(summEvalShaped(), Level::System);
    QCOMPARE(c.groupsUsed, 4);
    QCOMPARE(c.n, 20);
    QVERIFY(std::abs(c.pearson - 0.9486832980505139) < 1e-12);
    QVERIFY(std::abs(c.spearman - 0.9486832980505139) < 1e-12);
    QVERIFY(std::abs(c.kendall - 0.9128709291752769) < 1e-12);
    // Correlating items first would give something else entirely.
    QVERIFY(std::abs(correlateAtLevel(summEvalShaped(), Level::Dataset).pearson - c.pearson) > 0.3);
}

void TestLevels::datasetLevelPairsItems()
{
    const LevelCorrelation c = correlateAtLevel(summEvalShaped(), Level::Dataset);
    QCOMPARE(c.n, 21); // 20 + d6, the item with a missing judge score left out
    QCOMPARE(c.groupsUsed, 0);
    QVERIFY(!std::isnan(c.pearson));
    QVERIFY(std::isnan(correlateAtLevel({}, Level::Dataset).pearson));
}

void TestLevels::summEvalAgainstScipy_data()
{
    QTest::addColumn<QString>("level");
    QTest::newRow("dataset") << QStringLiteral("dataset");
    QTest::newRow("group (per document, G-Eval/UniEval)") << QStringLiteral("group");
    QTest::newRow("system") << QStringLiteral("system");
}

void TestLevels::summEvalAgainstScipy()
{
    // The real SummEval file (100 documents × 16 systems); expert coherence as the human side and
    // expert relevance as a stand-in judge. Expected values: tests/stats/make_reference.py (scipy).
    QFETCH(QString, level);
    QFile ref(QStringLiteral(RUBRIC_TEST_DATA "/reference.json"));
    QVERIFY(ref.open(QIODevice::ReadOnly));
    const QJsonObject want = QJsonDocument::fromJson(ref.readAll())
                                     .object()
                                     .value(QStringLiteral("summeval_levels"))
                                     .toObject()
                                     .value(level)
                                     .toObject();
    QVERIFY(!want.isEmpty());
    QFile data(QStringLiteral(RUBRIC_SHARED_DATA "/summeval/summeval_bartscore_data.json"));
    if (!data.exists())
        QSKIP("SummEval data not present beside the project (../shared/data)");
    QVERIFY(data.open(QIODevice::ReadOnly));
    const QJsonArray rows = QJsonDocument::fromJson(data.readAll()).array();
    QCOMPARE(rows.size(), 1600);
    QVector<ScoredItem> items;
    for (const QJsonValue &v : rows) {
        const QJsonObject o = v.toObject();
        const QJsonObject sc = o.value(QStringLiteral("scores")).toObject();
        items.append({QString::number(items.size()), o.value(QStringLiteral("doc_id")).toString(),
                      o.value(QStringLiteral("system_id")).toString(), sc.value(QStringLiteral("coherence")).toDouble(),
                      sc.value(QStringLiteral("relevance")).toDouble()});
    }
    const LevelCorrelation c = correlateAtLevel(items, *parseLevel(level));
    QCOMPARE(c.n, want.value(QStringLiteral("n")).toInt());
    QCOMPARE(c.groupsUsed, want.value(QStringLiteral("groups_used")).toInt());
    for (Coefficient k : kCoefficients) {
        const double w = want.value(coefficientName(k)).toDouble();
        QVERIFY2(std::abs(c.value(k) - w) < 1e-9, qPrintable(QStringLiteral("%1: %2 vs scipy %3")
                                                                     .arg(coefficientName(k))
                                                                     .arg(c.value(k), 0, 'g', 17)
                                                                     .arg(w, 0, 'g', 17)));
    }
}

void TestLevels::levelNames()
{
    for (Level l : {Level::Dataset, Level::Group, Level::System})
        QCOMPARE(parseLevel(levelName(l)), std::optional<Level>(l));
    QVERIFY(!parseLevel(QStringLiteral("summary")));
}

QTEST_GUILESS_MAIN(TestLevels)
#include "TestLevels.moc"
