#pragma once

#include "Aggregator.h"

namespace rubric::learn {

struct CvSettings
{
    int folds = 5;            ///< k of k-fold; ignored with leaveOneOut
    bool leaveOneOut = false; ///< k = n
    quint64 seed = 1;         ///< the fold assignment and every fold's fit use it
    /// Overfitting warning: fires for an aspect when train r − CV r > warnGap, or when CV r is
    /// undefined (NaN: constant out-of-fold predictions) while train r is defined.
    double warnGap = 0.2;
    /// Per row, its group (SummEval's article): non-empty = group k-fold, each group's rows in one
    /// fold (groupFoldAssignment), so a model is never scored on a group it was fitted on. An empty
    /// string is a group of its own. Ignored with leaveOneOut.
    QStringList groups;
};

/// What crossValidate() found, per aspect (vectors of length q).
struct CvResult
{
    Eigen::MatrixXd
            predictions;    ///< n × q out-of-fold predictions (each item predicted by the model that did not see it)
    QVector<double> trainR; ///< Pearson of the in-sample predictions of a model fitted on all rows
    QVector<double> cvR;    ///< Pearson of the out-of-fold predictions with the human scores
    QVector<bool> warning;  ///< see CvSettings::warnGap
    QVector<int> fold;      ///< fold of each row (0-based)
    int folds = 0;
};

/// Fold of each of n rows: the rows in seeded-shuffle order (util/Shuffle.h) dealt round-robin
/// to k folds, so fold sizes differ by at most one. Deterministic for a seed.
QVector<int> foldAssignment(int n, int folds, quint64 seed);

/// Fold of each row by group: the distinct groups (an empty one: a group of its own row) in
/// seeded-shuffle order, each given whole to the fold with the fewest rows so far (ties: the lower
/// fold), so fold sizes stay close. Fewer groups than folds: as many folds as groups.
QVector<int> groupFoldAssignment(const QStringList &groups, int folds, quint64 seed);
/// How many distinct groups `groups` holds (an empty string counting once per row).
int groupCount(const QStringList &groups);

/// k-fold or leave-one-out cross-validation of an aggregator on X (n × p) and Y (n × q).
/// Rows with a missing human score are still predicted but left out of that aspect's r.
/// Fails when k < 2 or k > n, or when a fold's fit fails (the message names the fold).
Result<CvResult> crossValidate(const AggregatorSettings &settings, const Eigen::MatrixXd &x, const Eigen::MatrixXd &y,
                               const CvSettings &cv);

/// The rows of m listed in rows.
Eigen::MatrixXd selectRows(const Eigen::MatrixXd &m, const QVector<int> &rows);

} // namespace rubric::learn
