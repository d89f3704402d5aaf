#pragma once

#include "HdEvalAggregate.h"
#include "learn/Aggregator.h"
#include "learn/PermutationImportance.h"
#include "util/Result.h"

#include <QVariantMap>

namespace rubric {

/// HD-Eval's settings (specs/hdeval.md §3, the open points of §10 each a setting with a stated
/// default). Set from `--set KEY=VALUE` pairs through fromSettings(); unknown keys and bad values
/// are errors naming the key. The aggregator's own settings (ridge_lambda, mlp_hidden, …; see
/// learn::aggregatorSettingKeys()) are accepted too and passed to the aggregator.
struct HdEvalParams
{
    int layers = 3;   ///< max layers L (paper: 3); 1 = "w/o layers 2–3", 2 = "w/o layer 3"   key layers
    int children = 4; ///< children per decomposed node, at most (paper: "a maximum of 4")  key children
    int topK = 3;     ///< layer-2 nodes pruning selects for layer 3 (paper: not stated; ≥ 3 from its trees) key top_k
    /// The aggregator (key aggregator): the paper's headline HD-EVAL-NN, learn's one-hidden-layer
    /// ReLU MLP, is the default; "mean" is the paper's "w/o aggregator" ablation.
    learn::AggregatorSettings aggregator = defaultAggregator();
    int importanceRepeats = 5; ///< permutation repeats (sklearn's n_repeats)             key importance_repeats
    /// Attribution pruning's importance (keys importance_split = in_sample|cross_validated and
    /// importance_metric = pearson|r2): in-sample permutes the proxy's own training rows; cross-validated
    /// fits one proxy per fold (cv_folds, 5 with leave-one-out) and permutes its held-out rows. The
    /// defaults are what TestHdEvalPruning measured to keep the most signal nodes on the synthetic judge.
    learn::ImportanceSplit importanceSplit = learn::ImportanceSplit::CrossValidated;
    learn::ImportanceMetric importanceMetric = learn::ImportanceMetric::Pearson;
    /// Cross-validation folds (and cross-validated pruning's) by the items' group (key cv_groups =
    /// auto|on|off): auto = by group when two train items share one (SummEval: an article's summaries).
    hdeval::GroupFolds cvGroups = hdeval::GroupFolds::Auto;
    quint64 seed = 1;       ///< aggregator fits, folds and permutations                key seed
    bool batched = false;   ///< one decomposition call for all parents of a layer      key decompose=per-node|batched
    double temperature = 0; ///< node scoring (paper: 0.0)                              key temperature
    int maxTokens = 32;     ///< node scoring (paper: 32)                               key max_tokens
    double decomposeTemperature
            = 0; ///< decomposition calls (not in the paper; 0 so a replay gets the same tree) key decompose_temperature
    int decomposeMaxTokens = 1024; ///< decomposition calls                              key decompose_max_tokens
    int cvFolds
            = 5; ///< k-fold cross-validation of the final aggregator on the train split; 0 = leave-one-out key cv_folds
    /// Take the criteria tree (layers and selections) of this judge's latest rubric instead of
    /// decomposing: "Re-fit" with another aggregator on the same nodes (their scores come from the
    /// judge cache).                                                                      key tree_from
    QString treeFrom;
    /// The human aspects of layer 1 (key aspects, comma-separated; `rubric run --aspect A,B|all`
    /// sets it): the run's own aspect comes first; empty = the run's aspect alone. The aggregator
    /// maps all node scores to every aspect's human score (one multi-output aggregator per scale).
    QStringList aspects;
    /// Hand override of attribution pruning (key select, comma-separated layer-2 node keys): these
    /// nodes are decomposed into layer 3 whatever their importance; empty = pruning's top_k.
    QStringList select;
    /// Apply the finished tree and aggregator of this judge to the run's items (key apply_from):
    /// the nodes are scored on the target items only and the stored aggregator predicts; nothing
    /// is decomposed or fitted, no human score is needed.
    QString applyFrom;

    static learn::AggregatorSettings defaultAggregator();
    static Result<HdEvalParams> fromSettings(const QVariantMap &settings);
    QVariantMap toMap() const;
    static QStringList keys();
};

} // namespace rubric
