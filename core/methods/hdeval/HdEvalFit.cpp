// HD-Eval's aggregator steps: the proxy fit and attribution pruning after layer 2, the final fit.
#include "HdEvalAggregate.h"
#include "HdEvalMethod.h"
#include "HdEvalTree.h"
#include "learn/PermutationImportance.h"
#include "methods/RunContext.h"
#include "store/Project.h"
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

double HdEvalMethod::humanOf(const QString &aspect, int item) const
{
    return m_human.value(aspect).value(m_items[item].id, kNaN);
}

Eigen::MatrixXd HdEvalMethod::targets(const QVector<int> &items, const QStringList &aspects) const
{
    Eigen::MatrixXd y(items.size(), aspects.size());
    for (int r = 0; r < items.size(); ++r)
        for (int a = 0; a < aspects.size(); ++a)
            y(r, a) = humanOf(aspects[a], items[r]);
    return y;
}

QVector<int> HdEvalMethod::trainRows() const
{
    QVector<int> rows;
    for (int i = 0; i < m_items.size(); ++i) {
        bool annotated = false;
        for (const QString &a : m_aspects)
            annotated = annotated || std::isfinite(humanOf(a, i));
        if (m_trainIds.contains(m_items[i].id) && annotated)
            rows.append(i);
    }
    return rows;
}

QVector<int> HdEvalMethod::testRows() const
{
    QVector<int> rows;
    for (int i = 0; i < m_items.size(); ++i) {
        bool annotated = false;
        for (const QString &a : m_aspects)
            annotated = annotated || std::isfinite(humanOf(a, i));
        if (!m_trainIds.contains(m_items[i].id) && annotated)
            rows.append(i);
    }
    return rows;
}

Result<QVector<Criterion>> HdEvalMethod::selectForExpansion(Rubric &tree) const
{
    const QVector<Criterion> layer2 = hdeval::layerNodes(tree, 2);
    if (!m_params.select.isEmpty()) {
        // By hand (setting "select"): exactly these nodes, whatever their importance.
        QStringList known;
        for (const Criterion &c : layer2)
            known << c.key;
        QVector<Criterion> out;
        for (const QString &key : m_params.select) {
            if (!known.contains(key))
                return makeError(tr("HD-Eval parameter select: '%1' is not a layer-2 node (layer 2: %2)")
                                         .arg(key, known.join(QStringLiteral(", "))),
                                 {}, 0, QStringLiteral("select"));
            out.append(*tree.find(key));
        }
        for (Criterion &c : tree.criteria())
            if (known.contains(c.key)) {
                c.stats.insert(QStringLiteral("selected"), m_params.select.contains(c.key));
                c.stats.insert(QStringLiteral("selected_by"), QStringLiteral("hand"));
            }
        return out;
    }
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
    const Eigen::MatrixXd y = targets(rows, m_aspects);
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
    // Averaged over the aspects (the Pearson drop is scale-free, so aspects on other scales weigh alike).
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
                QVariantMap perAspect;
                for (int a = 0; a < m_aspects.size(); ++a)
                    perAspect.insert(m_aspects[a], jsonNumber(importance->mean(j, a)));
                c.stats.insert(QStringLiteral("pruning_importance"), perAspect);
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
    const QString primary = m_ctx->spec().aspect;
    hdeval::FitData data;
    data.aspects = m_aspects;
    data.scales = m_scales;
    for (const Criterion &c : hdeval::featureNodes(m_rubric))
        if (hdeval::layerOf(m_rubric, c) <= m_params.layers)
            data.nodes.append(c);
    const QVector<int> train = trainRows(), test = testRows();
    QVector<int> all;
    for (int i = 0; i < m_items.size(); ++i)
        all.append(i);
    data.xTrain = features(data.nodes, train);
    data.yTrain = targets(train, m_aspects);
    data.xTest = features(data.nodes, test);
    data.yTest = targets(test, m_aspects);
    data.xAll = features(data.nodes, all);
    hdeval::FitSettings settings;
    settings.aggregator = m_params.aggregator;
    settings.seed = m_params.seed;
    settings.cvFolds = m_params.cvFolds;
    settings.importanceRepeats = m_params.importanceRepeats;
    settings.layers = m_params.layers;
    auto fit = hdeval::fitAggregators(data, settings);
    if (!fit) {
        m_ctx->fail(fit.errorString());
        return;
    }
    Rubric tree = m_rubric;
    if (auto stored = hdeval::storeFit(tree, *fit); !stored) {
        m_ctx->fail(stored.errorString());
        return;
    }
    const QVariantMap &description = fit->description;
    if (tree.criteria() != m_rubric.criteria() || m_rubric.version() == 0) {
        auto saved = m_ctx->store().saveVersion(m_ctx->spec().judge, tree,
                                                tr("HD-Eval: %1 aggregator on %2 nodes (layers ≤ %3), %4 train items")
                                                        .arg(learn::aggregatorKindName(m_params.aggregator.kind))
                                                        .arg(data.nodes.size())
                                                        .arg(m_params.layers)
                                                        .arg(train.size()));
        if (!saved) {
            m_ctx->fail(saved.errorString());
            return;
        }
        tree.setVersion(*saved);
    }
    m_rubric = tree;

    // The judge score of every scored item, per aspect: the aggregator's prediction. An item
    // without any node score has none (the aggregator would predict it from the training means alone).
    const int p = int(data.nodes.size());
    int imputed = 0, unscored = 0;
    QVector<bool> hasScore(m_items.size(), false);
    for (int i = 0; i < m_items.size(); ++i) {
        int present = 0;
        for (int c = 0; c < p; ++c)
            present += std::isfinite(data.xAll(i, c)) ? 1 : 0;
        hasScore[i] = present > 0;
        unscored += present == 0 ? 1 : 0;
        imputed += present > 0 && present < p ? 1 : 0;
    }
    const QString judge = m_ctx->spec().judge;
    for (const QString &a : std::as_const(m_aspects)) {
        QHash<QString, double> itemScores;
        for (int i = 0; i < m_items.size(); ++i)
            itemScores.insert(m_items[i].id, hasScore[i] ? fit->aspects[a].predicted[i] : kNaN);
        if (a == primary) {
            m_ctx->recordScores({}, itemScores);
            if (auto f = m_ctx->flushScores(); !f) {
                m_ctx->fail(f.errorString());
                return;
            }
        } else if (auto w = m_ctx->project()->setJudgeScores(judge, a, itemScores); !w) {
            m_ctx->fail(w.errorString());
            return;
        }
    }
    const hdeval::AspectFit &own = fit->aspects[primary];
    if (std::isfinite(own.cvR))
        if (auto a = m_ctx->store().setAlignment(
                    judge, m_rubric.version(), own.cvR,
                    tr("cross-validated Pearson (%1) of the aggregator on the train split, n = %2")
                            .arg(description.value(QStringLiteral("cv")).toString())
                            .arg(train.size()));
            !a) {
            m_ctx->fail(a.errorString());
            return;
        }
    if (std::isfinite(own.testR))
        if (auto a = m_ctx->store().setTestAlignment(
                    judge, m_rubric.version(), own.testR,
                    tr("Pearson with the human scores on the test split, n = %1 (the test items with a score)")
                            .arg(own.nTestScored));
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
    QVariantMap byAspect;
    for (const QString &a : std::as_const(m_aspects)) {
        const hdeval::AspectFit &f = fit->aspects[a];
        byAspect.insert(a, QVariantMap{{QStringLiteral("train_r"), jsonNumber(f.trainR)},
                                       {QStringLiteral("cv_r"), jsonNumber(f.cvR)},
                                       {QStringLiteral("test_r"), jsonNumber(f.testR)},
                                       {QStringLiteral("test_rho"), jsonNumber(f.testRho)},
                                       {QStringLiteral("n_test_scored"), f.nTestScored},
                                       {QStringLiteral("n_test_imputed"), f.nTestImputed},
                                       {QStringLiteral("cv_warning"), f.cvWarning},
                                       {QStringLiteral("best_node"), f.bestNode},
                                       {QStringLiteral("best_node_test_r"), jsonNumber(f.bestR)},
                                       {QStringLiteral("direct_test_r"), jsonNumber(f.directR)},
                                       {QStringLiteral("mean_test_r"), jsonNumber(f.meanR)},
                                       {QStringLiteral("layer1_test_r"), jsonNumber(f.layer1TestR)}});
    }
    // The run pane's lines: the items behind the test figures, and those whose score leans on imputed nodes.
    QStringList notes;
    notes << tr("Test r %1 on %2 test items with a score; %3 test item(s) without any node score left out (as in "
                "Compare)")
                     .arg(std::isfinite(own.testR) ? QString::number(own.testR, 'f', 3) : QStringLiteral("—"))
                     .arg(own.nTestScored)
                     .arg(own.nTestUnscored);
    if (imputed > 0)
        notes << tr("%1 scored item(s) (%2 of them in the test figures) have a node whose call failed: its score "
                    "is the training mean")
                         .arg(imputed)
                         .arg(own.nTestImputed);
    emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                    {QStringLiteral("notes"), notes},
                    {QStringLiteral("aggregator"), learn::aggregatorKindName(m_params.aggregator.kind)},
                    {QStringLiteral("nodes_per_layer"), perLayer},
                    {QStringLiteral("selected"), selected},
                    {QStringLiteral("train_r"), jsonNumber(own.trainR)},
                    {QStringLiteral("cv_r"), jsonNumber(own.cvR)},
                    {QStringLiteral("test_r"), jsonNumber(own.testR)},
                    {QStringLiteral("test_rho"), jsonNumber(own.testRho)},
                    {QStringLiteral("n_test_scored"), own.nTestScored},
                    {QStringLiteral("n_test_imputed"), own.nTestImputed},
                    {QStringLiteral("n_test_unscored"), own.nTestUnscored},
                    {QStringLiteral("cv_warning"), own.cvWarning},
                    {QStringLiteral("best_node"), own.bestNode},
                    {QStringLiteral("best_node_test_r"), jsonNumber(own.bestR)},
                    {QStringLiteral("direct_test_r"), jsonNumber(own.directR)},
                    {QStringLiteral("mean_test_r"), jsonNumber(own.meanR)},
                    {QStringLiteral("layer1_test_r"), jsonNumber(own.layer1TestR)},
                    {QStringLiteral("aspects"), byAspect},
                    {QStringLiteral("node_scores"), m_scored},
                    {QStringLiteral("node_scores_missing"), m_missing},
                    {QStringLiteral("scored"), int(m_items.size()) - unscored},
                    {QStringLiteral("missing"), unscored},
                    {QStringLiteral("failed"), m_failed},
                    {QStringLiteral("items_imputed"), imputed}});
}

} // namespace rubric
