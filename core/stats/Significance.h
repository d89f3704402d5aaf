#pragma once

#include "Bootstrap.h"
#include "Levels.h"

#include <QString>
#include <QVector>

#include <array>

namespace rubric::stats {

/// Williams' (1959) test for two dependent correlations that share one variable: is r12 (human ×
/// judge A) different from r13 (human × judge B), given r23 (A × B) on the same n items.
struct WilliamsResult
{
    int n = 0;
    double r12, r13, r23;
    double t;   ///< NaN when undefined (n ≤ 3 or a correlation is NaN)
    int df = 0; ///< n − 3
    double p;   ///< two-sided p from Student's t with df degrees of freedom
    WilliamsResult();
};

WilliamsResult williamsTest(double r12, double r13, double r23, int n);

/// Two-sided p-value P(|T| ≥ |t|) of Student's t with `df` degrees of freedom (df > 0).
double studentTTwoSidedP(double t, double df);

/// Regularised incomplete beta function I_x(a, b).
double incompleteBeta(double a, double b, double x);

/// One item scored by people and by two judges (NaN = missing; such items are left out).
struct PairedItem
{
    QString id;
    QString group;
    QString system;
    double human = 0.0;
    double a = 0.0;
    double b = 0.0;
};

struct ComparisonOptions
{
    int resamples = 1000; ///< paired bootstrap replicates
    int permutations = 1000;
    quint64 seed = 0;
    double confidence = 0.95;
    ConstantGroups constantGroups = ConstantGroups::Skip; ///< Group level: the rule for constant groups
    /// The coefficients whose difference is resampled and tested (coefficientBit); the others'
    /// interval and p are NaN. The judges' own coefficients and the differences are always all three.
    unsigned coefficients = kAllCoefficients;
};

/// Judge A against judge B on the items both scored (and people scored).
struct JudgeComparison
{
    LevelCorrelation a, b;
    std::array<double, 3> difference{};   ///< a − b per Coefficient (NaN when either is NaN)
    std::array<Interval, 3> differenceCi; ///< paired percentile bootstrap of a − b
    std::array<double, 3> permutationP{}; ///< two-sided paired permutation test of a − b
    /// On Pearson at the level's unit of analysis: items (Dataset) or system means (System).
    /// Not defined at Group level (t and p NaN there).
    WilliamsResult williams;
    int resamples = 0;
    int permutations = 0;
};

/// Compares two judges on the same items at `level`.
/// Paired bootstrap: each replicate draws one set of items (groups at Group level) used for both
/// judges. Permutation test: per item, the two judges' z-scored values are swapped with
/// probability ½ (z-scoring puts judges on one scale; it leaves each judge's correlations
/// unchanged), p = (1 + #{|d*| ≥ |d|}) / (1 + permutations). Seeded as bootstrapCorrelation:
/// replicate i of the paired bootstrap draws the same units as replicate i of
/// bootstrapCorrelation with the same seed over the same items; permutation i takes its swaps
/// from the bits of a stream of its own (64 items a draw). At the dataset level the bootstrap's
/// coefficients come from weighted sums and a test of Pearson alone from sums of the permuted
/// values (WeightedKernels.h): the same statistics, without copying the items.
JudgeComparison compareJudges(const QVector<PairedItem> &items, Level level, const ComparisonOptions &options);
/// The same over judges `a` and `b` of `columns` (the items both scored): the same figures as over
/// the same items as PairedItems.
JudgeComparison compareJudges(const StatsColumns &columns, int a, int b, Level level, const ComparisonOptions &options);

} // namespace rubric::stats
