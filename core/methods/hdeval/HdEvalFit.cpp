// HD-Eval's aggregator steps: the proxy fit and attribution pruning after layer 2, the final fit.
#include "HdEvalAggregate.h"
#include "HdEvalMethod.h"
#include "HdEvalTree.h"
#include "learn/PermutationImportance.h"
#include "methods/RunContext.h"
#include "store/Project.h"
#include "util/Json.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QSet>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QVariant jsonNumber(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(); // NaN → null
}

/// The aspects whose importance is defined for some node (an aspect whose human scores do not vary
/// has none): topK averages over these.
QVector<int> definedAspects(const learn::FeatureImportance &importance)
{
    QVector<int> out;
    for (int a = 0; a < importance.mean.cols(); ++a)
        if (importance.mean.col(a).array().isFinite().any())
            out.append(a);
    return out;
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

QStringList HdEvalMethod::groupsOf(const QVector<int> &rows) const
{
    QStringList groups;
    bool any = false;
    for (int r : rows) {
        groups << m_items[r].group;
        any = any || !m_items[r].group.isEmpty();
    }
    return any ? groups : QStringList(); // no group column: none
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
    // Marks set by hand (the tree view, setSelection) are kept as they are; marks pruning set are
    // kept while the train split and the pruning settings they were computed on are the same (a
    // resumed run), and computed again when either changed (a re-drawn split invalidates them).
    m_pruningNotes.clear();
    const QVector<int> rows = trainRows();
    const QString basis = pruningBasis(rows);
    QVector<Criterion> marked;
    bool byHand = false, stale = false;
    for (const Criterion &c : layer2) {
        const bool on = c.stats.value(QStringLiteral("selected")).toBool();
        const QString by = c.stats.value(QStringLiteral("selected_by")).toString();
        // A mark set or cleared by hand, or an older tree's mark without its origin: taken as hand-set.
        byHand = byHand || by == QLatin1String("hand") || (on && by.isEmpty());
        if (!on)
            continue;
        marked.append(c);
        stale = stale || (by == QLatin1String("pruning") && c.stats.value(QStringLiteral("pruning_basis")) != basis);
    }
    if (!marked.isEmpty() && (byHand || !stale))
        return marked;
    if (!marked.isEmpty())
        m_pruningNotes << tr("the pruning selection (%1) was computed on another train split or with other "
                             "importance settings: pruned again")
                                  .arg([&] {
                                      QStringList k;
                                      for (const Criterion &c : marked)
                                          k << c.key;
                                      return k.join(QStringLiteral(", "));
                                  }());
    QVector<Criterion> nodes = hdeval::layerNodes(tree, 1);
    nodes += layer2;
    const Eigen::MatrixXd x = features(nodes, rows);
    const Eigen::MatrixXd y = targets(rows, m_aspects);
    learn::ImportanceSettings is;
    is.repeats = m_params.importanceRepeats;
    is.seed = m_params.seed;
    is.split = m_params.importanceSplit;
    is.metric = m_params.importanceMetric;
    is.folds = std::min(m_params.cvFolds == 0 ? 5 : m_params.cvFolds, int(rows.size()));
    if (const QStringList groups = groupsOf(rows); hdeval::useGroupFolds(m_params.cvGroups, groups))
        is.groups = groups;
    // In-sample: one proxy fitted on the train rows, permuted there; cross-validated: one proxy
    // per fold, each permuted on the rows it did not see.
    auto importance = learn::permutationImportance(m_params.aggregator, x, y, is);
    if (!importance)
        return makeError(tr("attribution pruning after layer 2 (%1 train items, %2 importance): %3")
                                 .arg(rows.size())
                                 .arg(is.split == learn::ImportanceSplit::Train ? QStringLiteral("in-sample")
                                                                                : QStringLiteral("cross-validated"))
                                 .arg(importance.errorString()),
                         {}, 0, QStringLiteral("fit"));
    QVector<int> candidates, unknown;
    const int first = int(nodes.size() - layer2.size());
    for (int j = first; j < nodes.size(); ++j) {
        // Averaged over the aspects whose figure is defined (the Pearson drop is scale-free, so
        // aspects on other scales weigh alike); none defined: unknown, never ranked by tree order.
        bool any = false;
        for (int a = 0; a < m_aspects.size(); ++a)
            any = any || std::isfinite(importance->mean(j, a));
        (any ? candidates : unknown).append(j);
    }
    const QVector<int> top = learn::topK(*importance, candidates, m_params.topK, definedAspects(*importance));
    if (!unknown.isEmpty()) {
        QStringList k;
        for (int j : std::as_const(unknown))
            k << nodes[j].key;
        m_pruningNotes << tr("importance unknown for %1 (their scores or the human scores do not vary on the train "
                             "items): not ranked, not selected")
                                  .arg(k.join(QStringLiteral(", ")));
    }
    if (top.size() < m_params.topK)
        m_pruningNotes << tr("pruning selected %1 of top_k = %2: only %1 layer-2 node(s) have a known importance")
                                  .arg(top.size())
                                  .arg(m_params.topK);
    QSet<QString> chosen;
    QVector<Criterion> out;
    for (int j : top) {
        chosen.insert(nodes[j].key);
        out.append(nodes[j]);
    }
    const QVariantMap pruning{
            {QStringLiteral("split"), is.split == learn::ImportanceSplit::Train ? QStringLiteral("in_sample")
                                                                                : QStringLiteral("cross_validated")},
            {QStringLiteral("metric"),
             is.metric == learn::ImportanceMetric::R2 ? QStringLiteral("r2") : QStringLiteral("pearson")},
            {QStringLiteral("n_train"), int(rows.size())}};
    for (int j = 0; j < nodes.size(); ++j) {
        for (Criterion &c : tree.criteria())
            if (c.key == nodes[j].key) {
                QVariantMap perAspect;
                for (int a = 0; a < m_aspects.size(); ++a)
                    perAspect.insert(m_aspects[a], jsonNumber(importance->mean(j, a)));
                c.stats.insert(QStringLiteral("pruning_importance"), perAspect);
                c.stats.insert(QStringLiteral("pruning"), pruning);
                if (unknown.contains(j))
                    c.stats.insert(QStringLiteral("pruning_unknown"), true);
                else
                    c.stats.remove(QStringLiteral("pruning_unknown"));
                if (j >= first) {
                    c.stats.insert(QStringLiteral("selected"), chosen.contains(c.key));
                    c.stats.insert(QStringLiteral("selected_by"), QStringLiteral("pruning"));
                    c.stats.insert(QStringLiteral("pruning_basis"), basis);
                }
            }
    }
    return out;
}

QString HdEvalMethod::pruningBasis(const QVector<int> &rows) const
{
    // The train items and the importance split and metric pruning ranked on: marks computed on
    // another basis are stale (the proxy's kind and seed are the run's; a re-fit does not stale them).
    QStringList ids;
    for (int r : rows)
        ids << m_items[r].id;
    ids.sort();
    const QString settings
            = QStringLiteral("%1|%2").arg(int(m_params.importanceSplit)).arg(int(m_params.importanceMetric));
    return QString::fromLatin1(
            QCryptographicHash::hash((settings + QLatin1Char('|') + ids.join(QLatin1Char(','))).toUtf8(),
                                     QCryptographicHash::Sha1)
                    .toHex()
                    .left(16));
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
    data.trainGroups = groupsOf(train);
    data.testGroups = groupsOf(test);
    hdeval::FitSettings settings;
    settings.groupFolds = m_params.cvGroups;
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
    // Marks pruning made on another train split (re-drawn since) or with other importance
    // settings no longer say what pruning would choose: flagged, and said in the run pane. The
    // layer-3 nodes under them stay (choosing again means new decompositions).
    const QString basis = pruningBasis(train);
    QStringList stale;
    for (Criterion &c : tree.criteria()) {
        const bool pruned = c.stats.value(QStringLiteral("selected_by")).toString() == QLatin1String("pruning")
                            && c.stats.contains(QStringLiteral("pruning_basis"));
        if (pruned && c.stats.value(QStringLiteral("pruning_basis")).toString() != basis) {
            c.stats.insert(QStringLiteral("pruning_stale"), true);
            if (c.stats.value(QStringLiteral("selected")).toBool())
                stale << c.key;
        } else {
            c.stats.remove(QStringLiteral("pruning_stale"));
        }
    }
    if (!stale.isEmpty())
        m_pruningNotes << tr("the layer-3 expansion of %1 was chosen by pruning on another train split or with "
                             "other importance settings; it no longer says what pruning would choose (mark the "
                             "nodes by hand to keep it, or remove layer 3 and run again)")
                                  .arg(stale.join(QStringLiteral(", ")));
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
    QString selectedBy;
    for (const Criterion &c : hdeval::layerNodes(m_rubric, 2))
        if (c.stats.value(QStringLiteral("selected")).toBool()) {
            selected << c.key;
            const QString by = c.stats.value(QStringLiteral("selected_by")).toString();
            selectedBy = by == QLatin1String("pruning") && selectedBy != QLatin1String("hand") ? by
                                                                                               : QStringLiteral("hand");
        }
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
    notes += m_pruningNotes;
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
                    {QStringLiteral("selected_by"), selectedBy},
                    {QStringLiteral("importance_split"), m_params.toMap().value(QStringLiteral("importance_split"))},
                    {QStringLiteral("importance_metric"), m_params.toMap().value(QStringLiteral("importance_metric"))},
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
