#pragma once

#include "HdEvalParams.h"
#include "methods/Method.h"
#include "rubric/Rubric.h"

#include <QHash>
#include <QSet>

#include <Eigen/Dense>

namespace rubric {

struct Item;
struct JudgeRequest;
struct JudgeResponse;

/// HD-Eval (Liu et al., ACL 2024; specs/hdeval.md): a hierarchy of criteria under the aspect, one
/// judge call per (item, node) with the node's immediate parent in the prompt, and an aggregator
/// learned from the human scores of the train split that maps all node scores to the aspect score.
///
/// The loop (Algorithm 1): layer 2 decomposed from the aspect (phase "decompose-2") → layer 1 and
/// layer 2 scored on every item, train and test ("score-1", "score-2") → a proxy aggregator fitted
/// on the train split and permutation importance per layer-2 node ("fit"; no calls) → the top-k
/// layer-2 nodes decomposed again ("decompose-3") → layer 3 scored ("score-3") → the final
/// aggregator on all node scores; the judge score of every scored item is its prediction.
///
/// Everything is stored as it goes, so a killed run resumes without re-sending: each decomposition
/// saves a rubric version (the tree, with "layer", "selected" and the pruning importances in the
/// stats), node scores are criterion scores per (item, node key) and are never asked again, and a
/// repeated request is answered by the judge cache. The finished version's aspect root holds the
/// aggregator: stats["aggregator"] (kind, per aspect intercept/weights or the model's description,
/// train_r, cv_r, test_r, baselines) and stats["aggregator_model"] (the fitted model as JSON, enough
/// to score new items without training data).
///
/// Layer 1 is the run's aspect, or several (setting "aspects", `--aspect A,B|all`): one root per
/// aspect, layer 2 for all of them, and the aggregator maps all node scores to every aspect's human
/// score (learn's multi-output aggregator; one per scale where the aspects' scales differ). Every
/// root holds the whole description in stats["aggregator"] and its own aspect's one-output model in
/// stats["aggregator_model"] (stats["aspect"] names it). Pruning averages importance over the aspects.
///
/// Setting "select" overrides pruning by hand; "apply_from" applies another judge's finished tree
/// and aggregator to the run's items without fitting (no training data).
class HdEvalMethod : public Method
{
    Q_OBJECT
public:
    explicit HdEvalMethod(RunContext *context, QObject *parent = nullptr);

    Result<RunEstimate> estimate() override;
    void start() override;

    /// What the method stores: phases in run order.
    static QStringList phaseNames();

private:
    Result<void> readParams();
    /// The tree to start from: the judge's latest rubric, else (tree_from) another judge's tree,
    /// else the aspect alone. `save`: a new tree is stored as version 1.
    Result<Rubric> initialTree(bool save);
    /// The node scores already answered (a resume asks none of them again); a project that cannot
    /// be read is an error, never "nothing answered".
    Result<void> loadStoredScores();
    void advance();

    // decomposition
    Result<QVector<JudgeRequest>> decomposeRequests(const QVector<Criterion> &parents) const;
    /// The children the answers propose, added under their parents (at most `children` each).
    Result<int> addChildren(Rubric &tree, const QVector<Criterion> &parents, int layer,
                            const QVector<JudgeResponse> &responses) const;
    void decompose(const QVector<Criterion> &parents, int layer);

    // scoring
    Result<JudgeRequest> scoreRequest(const Rubric &tree, const Criterion &node, const Item &item) const;
    struct Pair
    {
        int item = 0; ///< index into m_items
        QString key;
    };
    QVector<Pair> missingPairs(const Rubric &tree, int layer) const;
    void scoreLayer(int layer);

    // fitting (HdEvalFit.cpp)
    /// n × p node scores of `items` (NaN where none) and their human scores (n × q, one column per
    /// aspect of `aspects`, NaN where none).
    Eigen::MatrixXd features(const QVector<Criterion> &nodes, const QVector<int> &items) const;
    Eigen::MatrixXd targets(const QVector<int> &items, const QStringList &aspects) const;
    double humanOf(const QString &aspect, int item) const;
    QVector<int> trainRows() const;
    /// The items' groups of these rows (empty when no item has one).
    QStringList groupsOf(const QVector<int> &rows) const;
    QVector<int> testRows() const;
    /// Attribution pruning: the proxy aggregator on layers 1–2, permutation importance, top-k of
    /// layer 2 (hand-marked selections are kept as they are). Writes "selected" and
    /// "pruning_importance" into the tree's stats; returns the selected nodes.
    Result<QVector<Criterion>> selectForExpansion(Rubric &tree) const;
    /// A fingerprint of the train items and importance settings pruning ranks on (stored with its marks).
    QString pruningBasis(const QVector<int> &rows) const;
    void finish();
    /// apply_from: the stored aggregator predicts the scored items; nothing is fitted.
    void finishApply();
    /// The root (layer-1 node) of an aspect.
    static QString rootKeyFor(const QString &aspect);

    HdEvalParams m_params;
    Rubric m_rubric;
    QVector<Item> m_items;                           ///< items scored: the target items, then the other train items
    QSet<QString> m_trainIds;                        ///< annotated train items
    QStringList m_aspects;                           ///< layer 1: the run's aspect first
    QHash<QString, QHash<QString, double>> m_human;  ///< aspect → item → human score
    QHash<QString, QPair<double, double>> m_scales;  ///< aspect → scale (min, max)
    QHash<QString, QHash<QString, double>> m_scores; ///< item → node key → score (NaN: recorded missing)
    int m_scored = 0, m_missing = 0, m_failed = 0;
    /// What the last pruning said (unknown importances, fewer than top_k, stale marks), for the run pane.
    mutable QStringList m_pruningNotes;
};

} // namespace rubric
