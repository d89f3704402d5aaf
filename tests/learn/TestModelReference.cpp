// The MLP and the trees against scikit-learn (issue 31, defect 7): make_model_reference.py wrote
// model_reference.json outside the code under test. The MLP's objective and gradient at fixed
// weights equal MLPRegressor's (_backprop) with decay = alpha / n, and a finite-difference check
// confirms the gradient; fitted from its own initialisation, its test r is within 0.10 of
// MLPRegressor's (mean over 5 seeds each). One xgboost tree (eta 1, lambda 0, exact splits) makes
// DecisionTreeRegressor's partition of the training rows with its leaf means (float32 aside); the
// forest and boosted kinds come within 0.10 of sklearn's RandomForestRegressor and
// GradientBoostingRegressor test r.
#include "learn/Aggregator.h"
#include "learn/MlpModel.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace rubric::learn;

class TestModelReference : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void mlpGradientIsSklearns();
    void mlpFitsAsWellAsSklearn();
    void treeIsSklearnsTree();
    void forestAndBoostedFitAsWellAsSklearn();

private:
    QJsonObject m_ref;
};

namespace {

Eigen::MatrixXd matrix(const QJsonValue &v)
{
    const QJsonArray rows = v.toArray();
    const int cols = rows.isEmpty() ? 0 : int(rows.first().toArray().size());
    Eigen::MatrixXd m(rows.size(), cols);
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < cols; ++c)
            m(r, c) = rows[r].toArray()[c].toDouble();
    return m;
}

Eigen::VectorXd vector(const QJsonValue &v)
{
    const QJsonArray a = v.toArray();
    Eigen::VectorXd out(a.size());
    for (int i = 0; i < a.size(); ++i)
        out[i] = a[i].toDouble();
    return out;
}

double pearson(const Eigen::VectorXd &a, const Eigen::VectorXd &b)
{
    const Eigen::ArrayXd x = a.array() - a.mean(), y = b.array() - b.mean();
    return (x * y).sum() / std::sqrt((x * x).sum() * (y * y).sum());
}

/// Test r of `settings` fitted on the first n rows of a set, on the rest.
double testR(const QJsonObject &set, const AggregatorSettings &settings, quint64 seed, const char *xKey = "x")
{
    const Eigen::MatrixXd x = matrix(set.value(QLatin1String(xKey)));
    const Eigen::VectorXd y = vector(set.value(QStringLiteral("y")));
    const int n = set.value(QStringLiteral("n_train")).toInt();
    Aggregator a(settings);
    if (!a.fit(x.topRows(n), Eigen::MatrixXd(y.head(n)), seed))
        return std::nan("");
    auto p = a.predict(x.bottomRows(x.rows() - n));
    return p ? pearson(p->col(0), y.tail(y.size() - n)) : std::nan("");
}

} // namespace

void TestModelReference::initTestCase()
{
    QFile f(QStringLiteral(RUBRIC_TEST_DATA "/model_reference.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    m_ref = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(m_ref.contains(QStringLiteral("gradient")));
}

void TestModelReference::mlpGradientIsSklearns()
{
    const QJsonObject g = m_ref.value(QStringLiteral("gradient")).toObject();
    const Eigen::MatrixXd xs = matrix(g.value(QStringLiteral("x_standardised")));
    const Eigen::VectorXd ys = vector(g.value(QStringLiteral("y_standardised")));
    const Eigen::MatrixXd w1 = matrix(g.value(QStringLiteral("w1")));
    const Eigen::VectorXd b1 = vector(g.value(QStringLiteral("b1"))), w2 = vector(g.value(QStringLiteral("w2")));
    const double b2 = g.value(QStringLiteral("b2")).toDouble();
    const double n = g.value(QStringLiteral("n")).toDouble();
    const double decay = g.value(QStringLiteral("alpha")).toDouble() / n; // the stated units
    const MlpModel::Gradient ours = MlpModel::lossAndGradient(xs, ys, w1, b1, w2, b2, decay);
    QVERIFY2(std::abs(ours.loss - g.value(QStringLiteral("loss")).toDouble()) < 1e-10,
             qPrintable(QStringLiteral("loss %1 vs sklearn %2")
                                .arg(ours.loss)
                                .arg(g.value(QStringLiteral("loss")).toDouble())));
    QVERIFY((ours.w1 - matrix(g.value(QStringLiteral("grad_w1")))).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY((ours.b1 - vector(g.value(QStringLiteral("grad_b1")))).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY((ours.w2 - vector(g.value(QStringLiteral("grad_w2")))).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY(std::abs(ours.b2 - g.value(QStringLiteral("grad_b2")).toDouble()) < 1e-10);
    // With sklearn's alpha taken as the decay the penalty is n times too strong: not the same loss.
    const MlpModel::Gradient wrongUnits = MlpModel::lossAndGradient(xs, ys, w1, b1, w2, b2, decay * n);
    QVERIFY(std::abs(wrongUnits.loss - g.value(QStringLiteral("loss")).toDouble()) > 1e-3);

    // Central differences of the loss agree with the analytic gradient.
    const double h = 1e-6;
    double worst = 0;
    for (Eigen::Index r = 0; r < w1.rows(); ++r)
        for (Eigen::Index c = 0; c < w1.cols(); ++c) {
            Eigen::MatrixXd up = w1, down = w1;
            up(r, c) += h;
            down(r, c) -= h;
            const double fd = (MlpModel::lossAndGradient(xs, ys, up, b1, w2, b2, decay).loss
                               - MlpModel::lossAndGradient(xs, ys, down, b1, w2, b2, decay).loss)
                              / (2 * h);
            worst = std::max(worst, std::abs(fd - ours.w1(r, c)));
        }
    for (Eigen::Index k = 0; k < w2.size(); ++k) {
        Eigen::VectorXd up = w2, down = w2;
        up[k] += h;
        down[k] -= h;
        const double fd = (MlpModel::lossAndGradient(xs, ys, w1, b1, up, b2, decay).loss
                           - MlpModel::lossAndGradient(xs, ys, w1, b1, down, b2, decay).loss)
                          / (2 * h);
        worst = std::max(worst, std::abs(fd - ours.w2[k]));
    }
    qInfo("MLP loss %.10f = sklearn's at alpha = decay x n; largest |finite difference - gradient| %.2e", ours.loss,
          worst);
    QVERIFY(worst < 1e-6);
}

void TestModelReference::mlpFitsAsWellAsSklearn()
{
    for (const QJsonValue &v : m_ref.value(QStringLiteral("fits")).toObject().value(QStringLiteral("sets")).toArray()) {
        const QJsonObject set = v.toObject();
        const int n = set.value(QStringLiteral("n_train")).toInt();
        AggregatorSettings s;
        s.kind = AggregatorKind::Mlp; // 16 ReLU, adam 0.01, 200 epochs, decay 0.1 (= alpha 0.1·n)
        double ours = 0;
        for (quint64 seed = 1; seed <= 5; ++seed)
            ours += testR(set, s, seed) / 5;
        const double theirs = set.value(QStringLiteral("mlp_test_r")).toDouble();
        qInfo("n = %d: MLP test r %.3f, sklearn MLPRegressor (alpha %.1f) %.3f", n, ours, 0.1 * n, theirs);
        QVERIFY2(std::abs(ours - theirs) < 0.10,
                 qPrintable(QStringLiteral("n = %1: %2 vs %3").arg(n).arg(ours).arg(theirs)));
    }
}

void TestModelReference::treeIsSklearnsTree()
{
    for (const QJsonValue &v : m_ref.value(QStringLiteral("fits")).toObject().value(QStringLiteral("sets")).toArray()) {
        const QJsonObject set = v.toObject();
        const Eigen::MatrixXd x = matrix(set.value(QStringLiteral("x_continuous")));
        const Eigen::VectorXd y = vector(set.value(QStringLiteral("y")));
        const int n = set.value(QStringLiteral("n_train")).toInt();
        AggregatorSettings s;
        s.kind = AggregatorKind::Tree;
        s.treeDepth = set.value(QStringLiteral("tree_depth")).toInt();
        Aggregator a(s);
        QVERIFY(a.fit(x.topRows(n), Eigen::MatrixXd(y.head(n)), 1));
        auto p = a.predict(x);
        QVERIFY(p);
        const Eigen::VectorXd diff = (p->col(0) - vector(set.value(QStringLiteral("tree_predictions")))).cwiseAbs();
        const double worst = diff.head(n).maxCoeff();
        // Unseen values between two training values may fall on either side: sklearn puts a threshold
        // half-way between them, xgboost at the upper one. Shown, not compared.
        qInfo("unseen rows (thresholds placed differently): largest |difference| %.2e",
              diff.tail(diff.size() - n).maxCoeff());
        qInfo("n = %d: one xgboost tree of depth %d vs DecisionTreeRegressor: largest |difference| %.2e over %d items",
              n, s.treeDepth, worst, int(x.rows()));
        // xgboost keeps labels and thresholds in float32: equal up to that precision.
        QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));
    }
}

void TestModelReference::forestAndBoostedFitAsWellAsSklearn()
{
    for (const QJsonValue &v : m_ref.value(QStringLiteral("fits")).toObject().value(QStringLiteral("sets")).toArray()) {
        const QJsonObject set = v.toObject();
        AggregatorSettings forest;
        forest.kind = AggregatorKind::Forest;
        double ours = 0;
        for (quint64 seed = 1; seed <= 5; ++seed)
            ours += testR(set, forest, seed) / 5;
        AggregatorSettings boosted;
        boosted.kind = AggregatorKind::Boosted;
        const double oursBoosted = testR(set, boosted, 1);
        const int n = set.value(QStringLiteral("n_train")).toInt();
        qInfo("n = %d: forest test r %.3f (sklearn %.3f), boosted %.3f (sklearn %.3f)", n, ours,
              set.value(QStringLiteral("forest_test_r")).toDouble(), oursBoosted,
              set.value(QStringLiteral("boosted_test_r")).toDouble());
        QVERIFY(std::abs(ours - set.value(QStringLiteral("forest_test_r")).toDouble()) < 0.10);
        QVERIFY(std::abs(oursBoosted - set.value(QStringLiteral("boosted_test_r")).toDouble()) < 0.10);
    }
}

QTEST_GUILESS_MAIN(TestModelReference)
#include "TestModelReference.moc"
