// HD-Eval's aggregator steps: the proxy fit and attribution pruning after layer 2, the final fit.
#include "HdEvalMethod.h"
#include "HdEvalTree.h"
#include "learn/CrossValidation.h"
#include "learn/PermutationImportance.h"
#include "runs/RunContext.h"
#include "util/Json.h"

#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QVariant jsonNumber(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(); // NaN → null
}

} // namespace

Eigen::MatrixXd HdEvalMethod::features(const QVector<Criterion> &nodes, const QVector<int> &items) const
{
    Eigen::MatrixXd x(items.size(), nodes.size());
    for (int r = 0; r < items.size(); ++r) {
        const QHash<QString, double> have = m_scores.value(m_items[items[r]].id);
        for (int c = 0; c < nodes.size(); ++c)
            x(r, c) = have.value(nodes[c].key, kNaN);
    }
    return x;
}

Eigen::MatrixXd HdEvalMethod::targets(const QVector<int> &items) const
{
    Eigen::MatrixXd y(items.size(), 1);
    for (int r = 0; r < items.size(); ++r)
        y(r, 0) = m_ctx->human(m_items[items[r]].id);
    return y;
}

QVector<int> HdEvalMethod::trainRows() const
{
    QVector<int> rows;
    for (int i = 0; i < m_items.size(); ++i)
        if (m_trainIds.contains(m_items[i].id) && std::isfinite(m_ctx->human(m_items[i].id)))
            rows.append(i);
    return rows;
}

QVector<int> HdEvalMethod::testRows() const
{
    QVector<int> rows;
    for (int i = 0; i < m_items.size(); ++i)
        if (!m_trainIds.contains(m_items[i].id) && std::isfinite(m_ctx->human(m_items[i].id)))
            rows.append(i);
    return rows;
}

Result<QVector<Criterion>> HdEvalMethod::selectForExpansion(Rubric &tree) const
{
    const QVector<Criterion> layer2 = hdeval::layerNodes(tree, 2);
    QVector<Criterion> marked;
    for (const Criterion &c : layer2)
        if (c.stats.value(QStringLiteral("selected")).toBool())
            marked.append(c);
    if (!marked.isEmpty())
        return marked; // chosen by hand (human in the loop): kept as they are
    QVector<Criterion> nodes = hdeval::layerNodes(tree, 1);
    nodes += layer2;
    const QVector<int> rows = trainRows();
    const Eigen::MatrixXd x = features(nodes, rows);
    const Eigen::MatrixXd y = targets(rows);
    learn::Aggregator proxy(m_params.aggregator);
    if (auto f = proxy.fit(x, y, m_params.seed); !f)
        return makeError(tr("the proxy aggregator after layer 2 could not be fitted on %1 train items: %2")
                                 .arg(rows.size())
                                 .arg(f.errorString()),
                         {}, 0, QStringLiteral("fit"));
    learn::ImportanceSettings is;
    is.repeats = m_params.importanceRepeats;
    is.seed = m_params.seed;
    auto importance = learn::permutationImportance(proxy, x, y, is);
    if (!importance)
        return makeError(tr("permutation importance after layer 2: %1").arg(importance.errorString()), {}, 0,
                         QStringLiteral("fit"));
    QVector<int> candidates;
    const int first = int(nodes.size() - layer2.size());
    for (int j = first; j < nodes.size(); ++j)
        candidates.append(j);
    const QVector<int> top = learn::topK(*importance, candidates, m_params.topK);
    QSet<QString> chosen;
    QVector<Criterion> out;
    for (int j : top) {
        chosen.insert(nodes[j].key);
        out.append(nodes[j]);
    }
    for (int j = 0; j < nodes.size(); ++j) {
        for (Criterion &c : tree.criteria())
            if (c.key == nodes[j].key) {
                c.stats.insert(QStringLiteral("pruning_importance"),
                               QVariantMap{{m_ctx->spec().aspect, jsonNumber(importance->mean(j, 0))}});
                if (j >= first)
                    c.stats.insert(QStringLiteral("selected"), chosen.contains(c.key));
            }
    }
    return out;
}

void HdEvalMethod::finish()
{
    if (auto f = m_ctx->flushScores(); !f) {
        m_ctx->fail(f.errorString());
        return;
    }
    const QString aspect = m_ctx->spec().aspect;
    QVector<Criterion> nodes;
    for (const Criterion &c : hdeval::featureNodes(m_rubric))
        if (hdeval::layerOf(m_rubric, c) <= m_params.layers)
            nodes.append(c);
    QStringList names;
    for (const Criterion &c : nodes)
        names << c.key;
    const QVector<int> train = trainRows(), test = testRows();
    const Eigen::MatrixXd xTrain = features(nodes, train), yTrain = targets(train);
    learn::Aggregator aggregator(m_params.aggregator);
    if (auto f = aggregator.fit(xTrain, yTrain, m_params.seed); !f) {
        m_ctx->fail(
                tr("the aggregator could not be fitted on %1 train items: %2").arg(train.size()).arg(f.errorString()));
        return;
    }
    learn::CvSettings cv;
    cv.seed = m_params.seed;
    cv.leaveOneOut = m_params.cvFolds == 0;
    cv.folds = std::min(m_params.cvFolds, int(train.size()));
    double cvR = kNaN, trainR = kNaN;
    bool cvWarning = false;
    if (auto r = learn::crossValidate(m_params.aggregator, xTrain, yTrain, cv); r) {
        cvR = r->cvR.value(0, kNaN);
        trainR = r->trainR.value(0, kNaN);
        cvWarning = r->warning.value(0, false);
    } else {
        m_ctx->fail(tr("cross-validation of the aggregator: %1").arg(r.errorString()));
        return;
    }
    QVector<int> all;
    for (int i = 0; i < m_items.size(); ++i)
        all.append(i);
    const Eigen::MatrixXd xAll = features(nodes, all);
    auto predicted = aggregator.predict(xAll);
    if (!predicted) {
        m_ctx->fail(predicted.errorString());
        return;
    }
    // Test figures: the aggregator, and the baselines the paper compares with (the direct layer-1
    // score, the plain mean of all nodes, the best single node).
    const Eigen::MatrixXd xTest = features(nodes, test), yTest = targets(test);
    Eigen::VectorXd testPred(test.size());
    for (int r = 0; r < test.size(); ++r)
        testPred[r] = (*predicted)(test[r], 0);
    const double testR = test.size() >= 3 ? learn::pearsonPresent(testPred, yTest.col(0)) : kNaN;
    QVariantMap nodeTestR;
    QString bestNode;
    double bestR = kNaN;
    Eigen::VectorXd meanScore = Eigen::VectorXd::Constant(test.size(), kNaN);
    for (int r = 0; r < test.size(); ++r) {
        double sum = 0;
        int n = 0;
        for (int c = 0; c < nodes.size(); ++c)
            if (std::isfinite(xTest(r, c))) {
                sum += xTest(r, c);
                ++n;
            }
        if (n > 0)
            meanScore[r] = sum / n;
    }
    for (int c = 0; c < nodes.size() && test.size() >= 3; ++c) {
        const double r = learn::pearsonPresent(xTest.col(c), yTest.col(0));
        nodeTestR.insert(nodes[c].key, jsonNumber(r));
        if (std::isfinite(r) && (!std::isfinite(bestR) || r > bestR)) {
            bestR = r;
            bestNode = nodes[c].key;
        }
    }
    const double meanR = test.size() >= 3 ? learn::pearsonPresent(meanScore, yTest.col(0)) : kNaN;
    const double directR
            = nodeTestR.value(nodes.first().key).isNull() ? kNaN : nodeTestR.value(nodes.first().key).toDouble();

    // Importance on the train split with the final aggregator.
    learn::ImportanceSettings is;
    is.repeats = m_params.importanceRepeats;
    is.seed = m_params.seed;
    auto importance = learn::permutationImportance(aggregator, xTrain, yTrain, is);
    if (!importance) {
        m_ctx->fail(tr("permutation importance: %1").arg(importance.errorString()));
        return;
    }
    QVariantMap description = aggregator.describe(names, {aspect});
    description.insert(QStringLiteral("train_r"), QVariantMap{{aspect, jsonNumber(trainR)}});
    description.insert(QStringLiteral("cv_r"), QVariantMap{{aspect, jsonNumber(cvR)}});
    description.insert(QStringLiteral("test_r"), QVariantMap{{aspect, jsonNumber(testR)}});
    description.insert(QStringLiteral("cv_warning"), QVariantMap{{aspect, cvWarning}});
    description.insert(QStringLiteral("cv"),
                       cv.leaveOneOut ? QStringLiteral("leave-one-out") : QStringLiteral("%1-fold").arg(cv.folds));
    description.insert(QStringLiteral("n_train"), int(train.size()));
    description.insert(QStringLiteral("n_test"), int(test.size()));
    description.insert(QStringLiteral("features"), names);
    description.insert(QStringLiteral("layers"), m_params.layers);
    description.insert(QStringLiteral("seed"), qint64(m_params.seed));
    description.insert(QStringLiteral("baselines"),
                       QVariantMap{{QStringLiteral("direct_test_r"), QVariantMap{{aspect, jsonNumber(directR)}}},
                                   {QStringLiteral("mean_test_r"), QVariantMap{{aspect, jsonNumber(meanR)}}},
                                   {QStringLiteral("best_node"), bestNode},
                                   {QStringLiteral("best_node_test_r"), QVariantMap{{aspect, jsonNumber(bestR)}}},
                                   {QStringLiteral("node_test_r"), nodeTestR}});

    Rubric tree = m_rubric;
    for (Criterion &c : tree.criteria()) {
        const int j = int(names.indexOf(c.key));
        c.stats.insert(QStringLiteral("layer"), hdeval::layerOf(tree, c));
        if (j >= 0)
            c.stats.insert(QStringLiteral("importance"), QVariantMap{{aspect, jsonNumber(importance->mean(j, 0))}});
        if (c.parentKey.isEmpty()) {
            c.stats.insert(QStringLiteral("aggregator"), description);
            c.stats.insert(QStringLiteral("aggregator_model"), aggregator.toJson().toVariantMap());
        }
    }
    if (tree.criteria() != m_rubric.criteria() || m_rubric.version() == 0) {
        auto saved = m_ctx->store().saveVersion(m_ctx->spec().judge, tree,
                                                tr("HD-Eval: %1 aggregator on %2 nodes (layers ≤ %3), %4 train items")
                                                        .arg(learn::aggregatorKindName(m_params.aggregator.kind))
                                                        .arg(nodes.size())
                                                        .arg(m_params.layers)
                                                        .arg(train.size()));
        if (!saved) {
            m_ctx->fail(saved.errorString());
            return;
        }
        tree.setVersion(*saved);
    }
    m_rubric = tree;

    // The judge score of every scored item: the aggregator's prediction. An item without any node
    // score has none (the aggregator would predict it from the training means alone).
    QHash<QString, double> itemScores;
    int imputed = 0, unscored = 0;
    for (int i = 0; i < m_items.size(); ++i) {
        int present = 0;
        for (int c = 0; c < nodes.size(); ++c)
            present += std::isfinite(xAll(i, c)) ? 1 : 0;
        if (present == 0) {
            itemScores.insert(m_items[i].id, kNaN);
            ++unscored;
            continue;
        }
        if (present < nodes.size())
            ++imputed;
        itemScores.insert(m_items[i].id, (*predicted)(i, 0));
    }
    m_ctx->recordScores({}, itemScores);
    if (auto f = m_ctx->flushScores(); !f) {
        m_ctx->fail(f.errorString());
        return;
    }
    const QString judge = m_ctx->spec().judge;
    if (std::isfinite(cvR))
        if (auto a = m_ctx->store().setAlignment(
                    judge, m_rubric.version(), cvR,
                    tr("cross-validated Pearson (%1) of the aggregator on the train split, n = %2")
                            .arg(description.value(QStringLiteral("cv")).toString())
                            .arg(train.size()));
            !a) {
            m_ctx->fail(a.errorString());
            return;
        }
    if (std::isfinite(testR))
        if (auto a = m_ctx->store().setTestAlignment(
                    judge, m_rubric.version(), testR,
                    tr("Pearson with the human scores on the test split, n = %1").arg(test.size()));
            !a) {
            m_ctx->fail(a.errorString());
            return;
        }
    QVariantMap perLayer;
    for (int layer = 1; layer <= m_params.layers; ++layer)
        perLayer.insert(QString::number(layer), int(hdeval::layerNodes(m_rubric, layer).size()));
    QStringList selected;
    for (const Criterion &c : hdeval::layerNodes(m_rubric, 2))
        if (c.stats.value(QStringLiteral("selected")).toBool())
            selected << c.key;
    emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                    {QStringLiteral("aggregator"), learn::aggregatorKindName(m_params.aggregator.kind)},
                    {QStringLiteral("nodes_per_layer"), perLayer},
                    {QStringLiteral("selected"), selected},
                    {QStringLiteral("train_r"), jsonNumber(trainR)},
                    {QStringLiteral("cv_r"), jsonNumber(cvR)},
                    {QStringLiteral("test_r"), jsonNumber(testR)},
                    {QStringLiteral("cv_warning"), cvWarning},
                    {QStringLiteral("best_node_test_r"), jsonNumber(bestR)},
                    {QStringLiteral("direct_test_r"), jsonNumber(directR)},
                    {QStringLiteral("node_scores"), m_scored},
                    {QStringLiteral("node_scores_missing"), m_missing},
                    {QStringLiteral("scored"), int(m_items.size()) - unscored},
                    {QStringLiteral("missing"), unscored},
                    {QStringLiteral("failed"), m_failed},
                    {QStringLiteral("items_imputed"), imputed}});
}

} // namespace rubric
