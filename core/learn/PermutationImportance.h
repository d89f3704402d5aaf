#pragma once

#include "Aggregator.h"

namespace rubric::learn {

/// The score whose drop measures a feature's importance.
enum class ImportanceMetric {
    Pearson, ///< default: scale-free, so it also ranks the mean aggregator (whose scale is the node scale)
    R2,      ///< sklearn's default for regressors (1 − SSE/SST against the human scores)
};

/// Which items the permutations are scored on.
enum class ImportanceSplit {
    Train,         ///< default (HD-Eval §3.5 as read in the spec): fit on all given rows, permute and score them
    CrossValidated ///< k-fold: each fold's model scores its held-out rows with the column permuted there
};

struct ImportanceSettings
{
    int repeats = 5; ///< permutations per feature (sklearn's n_repeats default)
    quint64 seed = 1;
    ImportanceMetric metric = ImportanceMetric::Pearson;
    ImportanceSplit split = ImportanceSplit::Train;
    int folds = 5; ///< with CrossValidated
    /// With CrossValidated: per row, its group; non-empty = group folds (CvSettings::groups).
    QStringList groups;
};

/// Permutation importance (Breiman; the plain reading of Altmann et al. the paper cites):
/// drop = score(unpermuted) − score(column j shuffled), per feature and aspect, mean and sample sd
/// over the repeats. Each feature's shuffles come from its own generator seeded by (seed, j), so a
/// feature's figures do not depend on the others. Deterministic for a seed.
struct FeatureImportance
{
    Eigen::MatrixXd mean;     ///< p × q mean drop
    Eigen::MatrixXd sd;       ///< p × q sample sd of the drop over repeats (0 with one repeat)
    Eigen::VectorXd baseline; ///< q, the unpermuted score
};

/// Importance of a fitted aggregator on the given rows (its own training rows for the Train split).
Result<FeatureImportance> permutationImportance(const Aggregator &fitted, const Eigen::MatrixXd &x,
                                                const Eigen::MatrixXd &y, const ImportanceSettings &settings);

/// Fits as the split says (seed = settings.seed) and scores: Train fits once on all rows,
/// CrossValidated fits one model per fold and permutes within each held-out fold.
Result<FeatureImportance> permutationImportance(const AggregatorSettings &aggregator, const Eigen::MatrixXd &x,
                                                const Eigen::MatrixXd &y, const ImportanceSettings &settings);

/// The k candidate columns with the largest importance, averaged over the given aspects (all when
/// empty), largest first; ties go to the lower column. For pruning: the candidates are the newest
/// layer's columns. Fewer than k when there are fewer candidates.
QVector<int> topK(const FeatureImportance &importance, const QVector<int> &candidates, int k,
                  const QVector<int> &aspects = {});

} // namespace rubric::learn
