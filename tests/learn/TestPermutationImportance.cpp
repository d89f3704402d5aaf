#include "SyntheticData.h"
#include "learn/PermutationImportance.h"

#include <QTest>

#include <cmath>

using namespace rubric::learn;
using namespace rubric::learn::testing;

namespace {

/// 30 items × 12 nodes; only node 3 carries the human score (planted), the rest is noise.
void planted(Eigen::MatrixXd &x, Eigen::MatrixXd &y)
{
    x = nodeScores(30, 12, 31);
    y = 0.9 * x.col(3) + noise(30, 0.5, 32);
}

} // namespace

class TestPermutationImportance : public QObject
{
    Q_OBJECT

private slots:
    void plantedFeatureRanksFirst_data();
    void plantedFeatureRanksFirst();
    void sameSeedSameImportance();
    void r2MetricAndOneRepeat();
    void topKChoosesAmongTheCandidates();
    void badSettingsAreRefused();
};

void TestPermutationImportance::plantedFeatureRanksFirst_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("split");
    for (const QString &k : aggregatorKindNames()) {
        if (k == QLatin1String("mean"))
            continue; // the mean weighs every node alike; see topKChoosesAmongTheCandidates
        QTest::addRow("%s train", qPrintable(k)) << k << int(ImportanceSplit::Train);
        QTest::addRow("%s cross-validated", qPrintable(k)) << k << int(ImportanceSplit::CrossValidated);
    }
}

void TestPermutationImportance::plantedFeatureRanksFirst()
{
    QFETCH(QString, kind);
    QFETCH(int, split);
    Eigen::MatrixXd x, y;
    planted(x, y);
    AggregatorSettings s;
    s.kind = parseAggregatorKind(kind).value();
    ImportanceSettings is;
    is.split = ImportanceSplit(split);
    const auto imp = permutationImportance(s, x, y, is);
    QVERIFY2(imp.ok(), qPrintable(imp.errorString()));
    QCOMPARE(imp->mean.rows(), 12);
    QCOMPARE(imp->mean.cols(), 1);
    Eigen::Index best = 0;
    imp->mean.col(0).maxCoeff(&best);
    double second = -1e9;
    for (int j = 0; j < 12; ++j)
        if (j != 3)
            second = std::max(second, imp->mean(j, 0));
    qInfo("%s: node 3 drop %.3f ± %.3f, next best %.3f (baseline r %.3f)",
          qPrintable(QString::fromLatin1(QTest::currentDataTag())), imp->mean(3, 0), imp->sd(3, 0), second,
          imp->baseline[0]);
    QCOMPARE(int(best), 3);
    QVERIFY(imp->mean(3, 0) > 0.3);
    QVERIFY(imp->sd(3, 0) > 0); // five different shuffles
    QCOMPARE(topK(*imp, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 1), QVector<int>{3});
}

void TestPermutationImportance::sameSeedSameImportance()
{
    Eigen::MatrixXd x, y;
    planted(x, y);
    AggregatorSettings s;
    s.kind = AggregatorKind::Forest;
    ImportanceSettings is;
    is.seed = 5;
    const auto a = permutationImportance(s, x, y, is), b = permutationImportance(s, x, y, is);
    QVERIFY(a.ok());
    QVERIFY(b.ok());
    QVERIFY(a->mean == b->mean);
    QVERIFY(a->sd == b->sd);
    is.seed = 6;
    const auto c = permutationImportance(s, x, y, is);
    QVERIFY(c.ok());
    QVERIFY(c->mean != a->mean);
}

void TestPermutationImportance::r2MetricAndOneRepeat()
{
    Eigen::MatrixXd x, y;
    planted(x, y);
    Aggregator agg;
    QVERIFY(agg.fit(x, y, 1).ok());
    ImportanceSettings is;
    is.metric = ImportanceMetric::R2;
    is.repeats = 1;
    const auto imp = permutationImportance(agg, x, y, is);
    QVERIFY(imp.ok());
    // baseline R² of least squares on its own training items = r²
    const double r = pearsonPresent(agg.predict(x).value().col(0), y.col(0));
    QVERIFY(std::abs(imp->baseline[0] - r * r) < 1e-9);
    QVERIFY(imp->sd.isZero());
    Eigen::Index best = 0;
    imp->mean.col(0).maxCoeff(&best);
    QCOMPARE(int(best), 3);
    // A linear model's R² drop for column j is w_j²·(2·var(x_j) − 2·cov(x_j, x_j permuted)) / var(y)
    // in expectation; here it is enough that it is large for the planted node.
    QVERIFY(imp->mean(3, 0) > 0.5);
}

void TestPermutationImportance::topKChoosesAmongTheCandidates()
{
    FeatureImportance imp;
    imp.mean.resize(6, 2);
    imp.mean << 0.9, 0.9,      //
            0.1, 0.5,          //
            0.4, 0.0,          //
            0.2, 0.2,          //
            std::nan(""), 1.0, //
            0.3, 0.3;
    imp.sd = Eigen::MatrixXd::Zero(6, 2);
    // newest layer = columns 1..5; means over both aspects: 0.3, 0.2, 0.2, NaN (last), 0.3
    QCOMPARE(topK(imp, {1, 2, 3, 4, 5}, 3), (QVector<int>{1, 5, 2}));
    QCOMPARE(topK(imp, {1, 2, 3, 4, 5}, 2, {0}), (QVector<int>{2, 5}));
    QCOMPARE(topK(imp, {2, 3}, 5), (QVector<int>{2, 3}));
    QCOMPARE(topK(imp, {4, 3}, 1), QVector<int>{3});
}

void TestPermutationImportance::badSettingsAreRefused()
{
    Eigen::MatrixXd x, y;
    planted(x, y);
    ImportanceSettings is;
    is.repeats = 0;
    QVERIFY(permutationImportance(AggregatorSettings{}, x, y, is)
                    .errorString()
                    .contains(QStringLiteral("at least 1 repeat")));
    is.repeats = 5;
    is.split = ImportanceSplit::CrossValidated;
    is.folds = 31;
    QVERIFY(!permutationImportance(AggregatorSettings{}, x, y, is).ok());
    Aggregator agg;
    QVERIFY(agg.fit(x, y, 1).ok());
    QVERIFY(!permutationImportance(agg, x, Eigen::MatrixXd::Zero(30, 2), {}).ok());
}

QTEST_GUILESS_MAIN(TestPermutationImportance)
#include "TestPermutationImportance.moc"
