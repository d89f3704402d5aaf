#pragma once

#include "CrossValidation.h"
#include "PermutationImportance.h"

namespace rubric::learn {

/// How a learned judge is fitted and checked on its train rows: the aggregator, its k-fold (or
/// leave-one-out, or group k-fold) cross-validation and its permutation importance, each with the
/// same seed. HD-Eval's final fit and the stacked judge share it.
struct ValidationSettings
{
    AggregatorSettings aggregator;
    quint64 seed = 1;
    int folds = 5; ///< 0 = leave-one-out; capped at the rows (and at the groups with group folds)
    int importanceRepeats = 5;
    /// Per train row, its group: non-empty = group k-fold (see CvSettings::groups).
    QStringList groups;
};

/// A fit and what was measured of it on its train rows.
struct ValidatedFit
{
    Aggregator aggregator;        ///< fitted on every train row
    CvResult cv;                  ///< train r, cross-validated r and the overfitting warning per target
    FeatureImportance importance; ///< permutation importance on the train rows (Pearson drop)
    QString cvLabel;              ///< "5-fold", "5-fold by group", "leave-one-out"
    bool byGroup = false;
};

/// The cross-validation the settings stand for on `rows` train rows.
CvSettings cvSettings(const ValidationSettings &settings, int rows);
/// "5-fold", "5-fold by group", "leave-one-out".
QString cvLabel(const CvSettings &cv);

/// Fits the aggregator on X (n × p) → Y (n × q), cross-validates it and measures permutation
/// importance, all seeded by settings.seed. Deterministic. An error names the step that failed in
/// Error::field ("fit", "cross-validation", "importance") with the library's message.
Result<ValidatedFit> fitValidated(const Eigen::MatrixXd &x, const Eigen::MatrixXd &y,
                                  const ValidationSettings &settings);

} // namespace rubric::learn
