#include "SyntheticData.h"
#include "learn/Aggregator.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>

using namespace rubric::learn;
using namespace rubric::learn::testing;

namespace {

struct Fixture
{
    QStringList features;
    Eigen::MatrixXd x, y;
};

/// The CSV fixtures: columns x1..xp then y1, y2; an empty cell is a missing human score.
Fixture readFixture(const QString &name)
{
    Fixture f;
    QFile file(QStringLiteral(RUBRIC_TEST_DATA "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = lines.first().split(QLatin1Char(','));
    for (const QString &h : header)
        if (h.startsWith(QLatin1Char('x')))
            f.features.append(h);
    const int p = int(f.features.size()), q = int(header.size()) - p;
    f.x.resize(lines.size() - 1, p);
    f.y.resize(lines.size() - 1, q);
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(QLatin1Char(','));
        for (int j = 0; j < p + q; ++j) {
            bool ok = false;
            const double v = cells.value(j).toDouble(&ok);
            const double value = ok ? v : std::numeric_limits<double>::quiet_NaN();
            if (j < p)
                f.x(i - 1, j) = value;
            else
                f.y(i - 1, j - p) = value;
        }
    }
    return f;
}

QJsonObject reference()
{
    QFile file(QStringLiteral(RUBRIC_TEST_DATA "/linear_reference.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).object();
}

AggregatorSettings settingsFor(AggregatorKind kind)
{
    AggregatorSettings s;
    s.kind = kind;
    return s;
}

/// 30 × 40 node scores and two aspects: one linear in nodes 0–2, one nonlinear.
void thirtyByForty(Eigen::MatrixXd &x, Eigen::MatrixXd &y)
{
    x = nodeScores(30, 40, 11);
    y.resize(30, 2);
    y.col(0) = 0.6 * x.col(0) + 0.3 * x.col(1) - 0.2 * x.col(2) + noise(30, 0.3, 12);
    y.col(1) = nonlinearTarget(x, 13);
}

} // namespace

class TestAggregators : public QObject
{
    Q_OBJECT

private slots:
    void linearAndRidgeMatchScikitLearn_data();
    void linearAndRidgeMatchScikitLearn();
    void everyKindFitsThirtyByForty_data();
    void everyKindFitsThirtyByForty();
    void contributionsSumToThePrediction_data();
    void contributionsSumToThePrediction();
    void sameSeedSamePredictions_data();
    void sameSeedSamePredictions();
    void treeEnsemblesBeatTheMeanOnANonlinearTarget_data();
    void treeEnsemblesBeatTheMeanOnANonlinearTarget();
    void missingValues();
    void meanAggregatorUsesTheAspectsColumns();
    void describeGivesWeightsInNodeUnits();
    void builtInImportance();
    void badInputIsRefused();
    void savedAggregatorPredictsAlike_data();
    void savedAggregatorPredictsAlike();
    void malformedSavedAggregatorIsRefused();
    void settingsFromKeyValues();
};

void TestAggregators::linearAndRidgeMatchScikitLearn_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("kind");
    QTest::addColumn<double>("lambda");
    for (const char *f : {"linear_30x12.csv", "linear_20x30.csv"}) {
        const QString file = QString::fromLatin1(f);
        QTest::addRow("%s least squares", f) << file << QStringLiteral("linear") << int(AggregatorKind::Linear) << 0.0;
        QTest::addRow("%s ridge 1", f) << file << QStringLiteral("ridge_1") << int(AggregatorKind::Ridge) << 1.0;
        QTest::addRow("%s ridge 10", f) << file << QStringLiteral("ridge_10") << int(AggregatorKind::Ridge) << 10.0;
    }
}

void TestAggregators::linearAndRidgeMatchScikitLearn()
{
    QFETCH(QString, fixture);
    QFETCH(QString, label);
    QFETCH(int, kind);
    QFETCH(double, lambda);
    const Fixture f = readFixture(fixture);
    AggregatorSettings s = settingsFor(AggregatorKind(kind));
    s.ridgeLambda = lambda;
    Aggregator agg(s);
    QVERIFY2(agg.fit(f.x, f.y, 1).ok(), "fit");
    const QVariantMap described = agg.describe(f.features, {QStringLiteral("y1"), QStringLiteral("y2")});
    const QJsonArray ref = reference().value(fixture).toObject().value(label).toArray();
    QCOMPARE(ref.size(), 2);
    const auto pred = agg.predict(f.x);
    QVERIFY(pred.ok());
    for (int a = 0; a < 2; ++a) {
        const QJsonObject r = ref[a].toObject();
        const QVariantMap m = described.value(QStringLiteral("aspects"))
                                      .toMap()
                                      .value(a == 0 ? QStringLiteral("y1") : QStringLiteral("y2"))
                                      .toMap();
        QVERIFY2(std::abs(m.value(QStringLiteral("intercept")).toDouble()
                          - r.value(QStringLiteral("intercept")).toDouble())
                         < 1e-6,
                 qPrintable(QStringLiteral("aspect %1 intercept %2 vs sklearn %3")
                                    .arg(a)
                                    .arg(m.value(QStringLiteral("intercept")).toDouble(), 0, 'g', 12)
                                    .arg(r.value(QStringLiteral("intercept")).toDouble(), 0, 'g', 12)));
        const QVariantMap weights = m.value(QStringLiteral("weights")).toMap();
        const QJsonArray refWeights = r.value(QStringLiteral("weights")).toArray();
        QCOMPARE(weights.size(), f.features.size());
        for (int j = 0; j < f.features.size(); ++j) {
            const double mine = weights.value(f.features[j]).toDouble(), theirs = refWeights[j].toDouble();
            QVERIFY2(std::abs(mine - theirs) < 1e-6, qPrintable(QStringLiteral("aspect %1 %2: %3 vs sklearn %4")
                                                                        .arg(a)
                                                                        .arg(f.features[j])
                                                                        .arg(mine, 0, 'g', 12)
                                                                        .arg(theirs, 0, 'g', 12)));
        }
        const QJsonArray refPred = r.value(QStringLiteral("predictions")).toArray();
        for (int i = 0; i < f.x.rows(); ++i)
            QVERIFY(std::abs((*pred)(i, a) - refPred[i].toDouble()) < 1e-6);
    }
}

void TestAggregators::everyKindFitsThirtyByForty_data()
{
    QTest::addColumn<int>("kind");
    for (const QString &name : aggregatorKindNames())
        QTest::newRow(qPrintable(name)) << int(parseAggregatorKind(name).value());
}

void TestAggregators::everyKindFitsThirtyByForty()
{
    QFETCH(int, kind);
    Eigen::MatrixXd x, y;
    thirtyByForty(x, y);
    Aggregator agg(settingsFor(AggregatorKind(kind)));
    QElapsedTimer t;
    t.start();
    const auto ok = agg.fit(x, y, 1);
    const double ms = double(t.nsecsElapsed()) / 1e6;
    QVERIFY2(ok.ok(), qPrintable(ok.errorString()));
    QCOMPARE(agg.featureCount(), 40);
    QCOMPARE(agg.aspectCount(), 2);
    const auto pred = agg.predict(nodeScores(7, 40, 99));
    QVERIFY2(pred.ok(), qPrintable(pred.errorString()));
    QCOMPARE(pred->rows(), 7);
    QCOMPARE(pred->cols(), 2);
    QVERIFY(pred->allFinite());
    const auto train = agg.predict(x);
    QVERIFY(train.ok());
    const double r0 = pearsonPresent(train->col(0), y.col(0));
    qInfo("%s: fit 30 × 40 (2 aspects) in %.1f ms, train r aspect 1 = %.3f",
          qPrintable(aggregatorKindName(AggregatorKind(kind))), ms, r0);
    QVERIFY2(ms < 1000, "a 30 × 40 fit takes well under a second");
    if (AggregatorKind(kind) != AggregatorKind::Mean) // the mean learns nothing; the others fit the linear aspect
        QVERIFY2(r0 > 0.7, qPrintable(QStringLiteral("train r %1").arg(r0)));
}

void TestAggregators::contributionsSumToThePrediction_data()
{
    everyKindFitsThirtyByForty_data();
}

void TestAggregators::contributionsSumToThePrediction()
{
    QFETCH(int, kind);
    Eigen::MatrixXd x, y;
    thirtyByForty(x, y);
    Aggregator agg(settingsFor(AggregatorKind(kind)));
    QVERIFY(agg.fit(x, y, 1).ok());
    Eigen::MatrixXd fresh = nodeScores(12, 40, 5);
    fresh(3, 7) = std::numeric_limits<double>::quiet_NaN(); // imputed alike in both
    const auto pred = agg.predict(fresh);
    QVERIFY(pred.ok());
    // xgboost computes in float: its sums agree to float precision on values of a few units
    const bool tree = AggregatorKind(kind) == AggregatorKind::Tree || AggregatorKind(kind) == AggregatorKind::Forest
                      || AggregatorKind(kind) == AggregatorKind::Boosted;
    const double tol = tree ? 1e-4 : 1e-9;
    for (int a = 0; a < 2; ++a) {
        const auto c = agg.contributions(fresh, a);
        QVERIFY2(c.ok(), qPrintable(c.errorString()));
        QCOMPARE(c->values.rows(), 12);
        QCOMPARE(c->values.cols(), 40);
        const Eigen::VectorXd sum = c->values.rowwise().sum() + c->base;
        const double worst = (sum - pred->col(a)).cwiseAbs().maxCoeff();
        QVERIFY2(worst < tol,
                 qPrintable(QStringLiteral("aspect %1: |base + Σ contributions − prediction| = %2").arg(a).arg(worst)));
        // the contributions explain something: not all zero
        QVERIFY(c->values.cwiseAbs().maxCoeff() > 1e-6);
    }
}

void TestAggregators::sameSeedSamePredictions_data()
{
    everyKindFitsThirtyByForty_data();
}

void TestAggregators::sameSeedSamePredictions()
{
    QFETCH(int, kind);
    Eigen::MatrixXd x, y;
    thirtyByForty(x, y);
    const Eigen::MatrixXd fresh = nodeScores(20, 40, 6);
    Aggregator a(settingsFor(AggregatorKind(kind))), b(settingsFor(AggregatorKind(kind)));
    QVERIFY(a.fit(x, y, 42).ok());
    QVERIFY(b.fit(x, y, 42).ok());
    const Eigen::MatrixXd pa = a.predict(fresh).value(), pb = b.predict(fresh).value();
    QVERIFY(pa == pb); // bit for bit
    // The seed matters where the kind is random (forest sampling, network initialisation).
    if (AggregatorKind(kind) == AggregatorKind::Forest || AggregatorKind(kind) == AggregatorKind::Mlp) {
        Aggregator c(settingsFor(AggregatorKind(kind)));
        QVERIFY(c.fit(x, y, 43).ok());
        QVERIFY(c.predict(fresh).value() != pa);
    }
}

void TestAggregators::treeEnsemblesBeatTheMeanOnANonlinearTarget_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("forest") << int(AggregatorKind::Forest);
    QTest::newRow("boosted") << int(AggregatorKind::Boosted);
}

void TestAggregators::treeEnsemblesBeatTheMeanOnANonlinearTarget()
{
    QFETCH(int, kind);
    // 300 training and 300 test items × 40 nodes; only nodes 0–3 carry the (nonlinear) signal.
    const Eigen::MatrixXd xTrain = nodeScores(300, 40, 21), xTest = nodeScores(300, 40, 22);
    const Eigen::MatrixXd yTrain = nonlinearTarget(xTrain, 23), yTest = nonlinearTarget(xTest, 24);
    Aggregator mean(settingsFor(AggregatorKind::Mean)), model(settingsFor(AggregatorKind(kind))),
            linear(settingsFor(AggregatorKind::Linear));
    QVERIFY(mean.fit(xTrain, yTrain, 1).ok());
    QVERIFY(model.fit(xTrain, yTrain, 1).ok());
    QVERIFY(linear.fit(xTrain, yTrain, 1).ok());
    const double rMean = pearsonPresent(mean.predict(xTest).value().col(0), yTest.col(0));
    const double rLinear = pearsonPresent(linear.predict(xTest).value().col(0), yTest.col(0));
    const double rModel = pearsonPresent(model.predict(xTest).value().col(0), yTest.col(0));
    qInfo("test r on the nonlinear target: %s %.3f, linear %.3f, mean %.3f",
          qPrintable(aggregatorKindName(AggregatorKind(kind))), rModel, rLinear, rMean);
    QVERIFY(rModel > rMean + 0.5);
    QVERIFY(rModel > rLinear + 0.2);
    // On the human scale too, not only in correlation (a forest sums or averages its parallel trees:
    // it must average): the mean absolute error is near the noise's (0.3 · √(2/π) ≈ 0.24).
    const double mae = (model.predict(xTest).value().col(0) - yTest.col(0)).cwiseAbs().mean();
    qInfo("mean absolute test error %.3f (target sd %.3f)", mae,
          std::sqrt((yTest.array() - yTest.mean()).square().mean()));
    QVERIFY(mae < 0.5);
}

void TestAggregators::missingValues()
{
    const Fixture f = readFixture(QStringLiteral("linear_30x12.csv"));
    // Rows without a human score are dropped per aspect: fitting with them equals fitting without them.
    QVector<int> present;
    for (int i = 0; i < f.y.rows(); ++i)
        if (!std::isnan(f.y(i, 1)))
            present.append(i);
    QCOMPARE(present.size(), 27);
    Eigen::MatrixXd xp(present.size(), f.x.cols()), yp(present.size(), 1);
    for (int r = 0; r < present.size(); ++r) {
        xp.row(r) = f.x.row(present[r]);
        yp(r, 0) = f.y(present[r], 1);
    }
    Aggregator withGaps, without;
    QVERIFY(withGaps.fit(f.x, f.y, 1).ok());
    QVERIFY(without.fit(xp, yp, 1).ok());
    const QVariantMap a = withGaps.describe(f.features, {QStringLiteral("y1"), QStringLiteral("y2")})
                                  .value(QStringLiteral("aspects"))
                                  .toMap()
                                  .value(QStringLiteral("y2"))
                                  .toMap();
    const QVariantMap b = without.describe(f.features, {QStringLiteral("y2")})
                                  .value(QStringLiteral("aspects"))
                                  .toMap()
                                  .value(QStringLiteral("y2"))
                                  .toMap();
    QVERIFY(std::abs(a.value(QStringLiteral("intercept")).toDouble() - b.value(QStringLiteral("intercept")).toDouble())
            < 1e-9);

    // A missing node score is imputed with the training column mean, in fit and in predict.
    Eigen::MatrixXd holes = f.x;
    holes(0, 4) = std::numeric_limits<double>::quiet_NaN();
    holes(9, 4) = std::numeric_limits<double>::quiet_NaN();
    Aggregator imputed;
    QVERIFY(imputed.fit(holes, f.y, 1).ok());
    double sum = 0;
    for (int i = 0; i < holes.rows(); ++i)
        if (i != 0 && i != 9)
            sum += holes(i, 4);
    QVERIFY(std::abs(imputed.featureMeans()[4] - sum / 28.0) < 1e-12);
    Eigen::MatrixXd item = f.x.topRows(1);
    item(0, 4) = std::numeric_limits<double>::quiet_NaN();
    Eigen::MatrixXd filled = item;
    filled(0, 4) = sum / 28.0;
    QVERIFY((imputed.predict(item).value() - imputed.predict(filled).value()).cwiseAbs().maxCoeff() < 1e-12);
}

void TestAggregators::meanAggregatorUsesTheAspectsColumns()
{
    const Eigen::MatrixXd x = nodeScores(10, 6, 3);
    Eigen::MatrixXd y(10, 2);
    y.col(0) = x.col(0);
    y.col(1) = x.col(5);
    AggregatorSettings s = settingsFor(AggregatorKind::Mean);
    s.meanFeatures = {{0, 1, 2}, {}}; // aspect 1: its three nodes; aspect 2: all six
    Aggregator agg(s);
    QVERIFY(agg.fit(x, y, 1).ok());
    const Eigen::MatrixXd pred = agg.predict(x).value();
    for (int i = 0; i < 10; ++i) {
        QVERIFY(std::abs(pred(i, 0) - (x(i, 0) + x(i, 1) + x(i, 2)) / 3.0) < 1e-12);
        QVERIFY(std::abs(pred(i, 1) - x.row(i).mean()) < 1e-12);
    }
    s.meanFeatures = {{0, 9}};
    Aggregator bad(s);
    const auto err = bad.fit(x, y, 1);
    QVERIFY(!err.ok());
    QVERIFY2(err.errorString().contains(QStringLiteral("column 9 is out of range")), qPrintable(err.errorString()));
}

void TestAggregators::describeGivesWeightsInNodeUnits()
{
    Eigen::MatrixXd x, y;
    thirtyByForty(x, y);
    QStringList names;
    for (int j = 0; j < 40; ++j)
        names.append(QStringLiteral("node%1").arg(j));
    AggregatorSettings s = settingsFor(AggregatorKind::Ridge);
    Aggregator ridge(s);
    QVERIFY(ridge.fit(x, y, 1).ok());
    const QVariantMap d = ridge.describe(names, {QStringLiteral("coh"), QStringLiteral("flu")});
    QCOMPARE(d.value(QStringLiteral("kind")).toString(), QStringLiteral("ridge"));
    const QVariantMap coh = d.value(QStringLiteral("aspects")).toMap().value(QStringLiteral("coh")).toMap();
    const QVariantMap w = coh.value(QStringLiteral("weights")).toMap();
    QCOMPARE(w.size(), 40);
    // score = intercept + Σ w·x reproduces predict()
    const Eigen::MatrixXd pred = ridge.predict(x.topRows(3)).value();
    for (int i = 0; i < 3; ++i) {
        double s2 = coh.value(QStringLiteral("intercept")).toDouble();
        for (int j = 0; j < 40; ++j)
            s2 += w.value(names[j]).toDouble() * x(i, j);
        QVERIFY(std::abs(s2 - pred(i, 0)) < 1e-9);
    }
    Aggregator tree(settingsFor(AggregatorKind::Boosted));
    QVERIFY(tree.fit(x, y, 1).ok());
    const QVariantMap gain = tree.describe(names, {QStringLiteral("coh"), QStringLiteral("flu")})
                                     .value(QStringLiteral("aspects"))
                                     .toMap()
                                     .value(QStringLiteral("coh"))
                                     .toMap()
                                     .value(QStringLiteral("gain"))
                                     .toMap();
    QVERIFY(gain.contains(QStringLiteral("node0")));
}

void TestAggregators::builtInImportance()
{
    Eigen::MatrixXd x, y;
    thirtyByForty(x, y);
    for (AggregatorKind kind : {AggregatorKind::Tree, AggregatorKind::Forest, AggregatorKind::Boosted}) {
        Aggregator agg(settingsFor(kind));
        QVERIFY(agg.fit(x, y, 1).ok());
        const auto gain = agg.featureImportance(0);
        QVERIFY2(gain.ok(), qPrintable(gain.errorString()));
        QCOMPARE(gain->size(), 40);
        Eigen::Index best = 0;
        gain->maxCoeff(&best);
        QCOMPARE(int(best), 0); // node 0 has the largest weight (0.6) in aspect 1
    }
    Aggregator mlp(settingsFor(AggregatorKind::Mlp));
    QVERIFY(mlp.fit(x, y, 1).ok());
    const auto none = mlp.featureImportance(0);
    QVERIFY(!none.ok());
    QVERIFY(none.errorString().contains(QStringLiteral("permutation importance")));
}

void TestAggregators::badInputIsRefused()
{
    const Eigen::MatrixXd x = nodeScores(10, 4, 1);
    Eigen::MatrixXd y = x.col(0);
    Aggregator agg;
    auto r = agg.fit(x, y.topRows(9), 1);
    QVERIFY(r.errorString().contains(QStringLiteral("10 rows but the human scores 9")));
    Eigen::MatrixXd holes = x;
    holes.col(2).setConstant(std::numeric_limits<double>::quiet_NaN());
    r = agg.fit(holes, y, 1);
    QVERIFY2(r.errorString().contains(QStringLiteral("node column 2 has no score")), qPrintable(r.errorString()));
    Eigen::MatrixXd sparse = y;
    sparse.bottomRows(9).setConstant(std::numeric_limits<double>::quiet_NaN());
    r = agg.fit(x, sparse, 1);
    QVERIFY2(r.errorString().contains(QStringLiteral("1 item(s) with a human score")), qPrintable(r.errorString()));
    QVERIFY(!agg.isFitted());
    QVERIFY(agg.predict(x).errorString().contains(QStringLiteral("not fitted")));
    QVERIFY(agg.fit(x, y, 1).ok());
    QVERIFY(agg.predict(x.leftCols(3)).errorString().contains(QStringLiteral("fitted on 4 nodes but got 3")));
    AggregatorSettings s = settingsFor(AggregatorKind::Ridge);
    s.ridgeLambda = 0;
    Aggregator ridge(s);
    QVERIFY(ridge.fit(x, y, 1).errorString().contains(QStringLiteral("lambda must be > 0")));
    QVERIFY(parseAggregatorKind(QStringLiteral("svm")).errorString().contains(QStringLiteral("mean, linear, ridge")));
}

void TestAggregators::savedAggregatorPredictsAlike_data()
{
    everyKindFitsThirtyByForty_data();
}

void TestAggregators::savedAggregatorPredictsAlike()
{
    QFETCH(int, kind);
    Eigen::MatrixXd x, y;
    thirtyByForty(x, y);
    AggregatorSettings s = settingsFor(AggregatorKind(kind));
    s.meanFeatures = {{0, 1, 2}}; // read by mean only
    s.mlpHidden = 8;
    Aggregator agg(s);
    QVERIFY(agg.fit(x, y, 3).ok());
    // Through text, as a project file would store it.
    const QByteArray text = QJsonDocument(agg.toJson()).toJson(QJsonDocument::Compact);
    auto loaded = Aggregator::fromJson(QJsonDocument::fromJson(text).object());
    QVERIFY2(loaded.ok(), qPrintable(loaded.errorString()));
    QCOMPARE(loaded->settings().kind, AggregatorKind(kind));
    QCOMPARE(loaded->aspectCount(), 2);
    Eigen::MatrixXd fresh = nodeScores(15, 40, 77);
    fresh(2, 5) = std::numeric_limits<double>::quiet_NaN();
    const Eigen::MatrixXd before = agg.predict(fresh).value(), after = loaded->predict(fresh).value();
    QVERIFY2(before == after,
             qPrintable(QStringLiteral("max difference %1").arg((before - after).cwiseAbs().maxCoeff())));
    const auto c = loaded->contributions(fresh, 1);
    QVERIFY2(c.ok(), qPrintable(c.errorString()));
    QVERIFY(c->values == agg.contributions(fresh, 1).value().values);
    // Each aspect alone (what HD-Eval keeps on each layer-1 node) predicts that aspect bit for bit.
    for (int a = 0; a < 2; ++a) {
        auto one = Aggregator::fromJson(agg.toJson(a));
        QVERIFY2(one.ok(), qPrintable(one.errorString()));
        QCOMPARE(one->aspectCount(), 1);
        QVERIFY(one->predict(fresh).value().col(0) == before.col(a));
    }
    QVERIFY(agg.toJson(2).isEmpty());
}

void TestAggregators::malformedSavedAggregatorIsRefused()
{
    Eigen::MatrixXd x, y;
    thirtyByForty(x, y);
    Aggregator agg(settingsFor(AggregatorKind::Linear));
    QVERIFY(agg.fit(x, y, 1).ok());
    QJsonObject json = agg.toJson();
    QJsonArray aspects = json.value(QStringLiteral("aspects")).toArray();
    QJsonObject first = aspects[0].toObject();
    first.remove(QStringLiteral("intercept"));
    aspects[0] = first;
    json.insert(QStringLiteral("aspects"), aspects);
    auto r = Aggregator::fromJson(json);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().field, QStringLiteral("aspects[0].intercept"));
    json = agg.toJson();
    QJsonObject settings = json.value(QStringLiteral("settings")).toObject();
    settings.insert(QStringLiteral("aggregator"), QStringLiteral("svm"));
    json.insert(QStringLiteral("settings"), settings);
    r = Aggregator::fromJson(json);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().field, QStringLiteral("settings.aggregator"));
    QVERIFY(!Aggregator::fromJson(QJsonObject{{QStringLiteral("format"), QStringLiteral("other")}}).ok());
}

void TestAggregators::settingsFromKeyValues()
{
    auto s = aggregatorSettingsFromMap({{QStringLiteral("aggregator"), QStringLiteral("forest")},
                                        {QStringLiteral("forest_trees"), QStringLiteral("50")},
                                        {QStringLiteral("ridge_lambda"), 2.5},
                                        {QStringLiteral("layers"), QStringLiteral("3")}}); // not ours: left alone
    QVERIFY(s.ok());
    QCOMPARE(s->kind, AggregatorKind::Forest);
    QCOMPARE(s->forestTrees, 50);
    QCOMPARE(s->ridgeLambda, 2.5);
    QCOMPARE(s->mlpHidden, 16);
    const QVariantMap round = aggregatorSettingsToMap(*s);
    QCOMPARE(round.keys().size(), aggregatorSettingKeys().size());
    QCOMPARE(aggregatorSettingsFromMap(round)->forestTrees, 50);
    auto bad = aggregatorSettingsFromMap({{QStringLiteral("boost_rounds"), QStringLiteral("many")}});
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().field, QStringLiteral("boost_rounds"));
    QVERIFY(bad.errorString().contains(QStringLiteral("'many' is not a whole number")));
    QCOMPARE(aggregatorSettingsFromMap({{QStringLiteral("boost_eta"), QStringLiteral("-1")}}).error().field,
             QStringLiteral("boost_eta"));
}

QTEST_GUILESS_MAIN(TestAggregators)
#include "TestAggregators.moc"
