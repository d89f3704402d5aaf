#pragma once

#include "Levels.h"

#include <QtGlobal>

#include <array>
#include <limits>
#include <span>
#include <stop_token>
#include <vector>

namespace rubric::stats {

/// A two-sided interval; both ends NaN when it could not be formed (no valid replicate).
struct Interval
{
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
};

struct BootstrapOptions
{
    int resamples = 1000;
    quint64 seed = 0;
    double confidence = 0.95;
    /// Checked between replicates: once a stop is requested the function returns at once with
    /// `cancelled` set and no intervals (a caller that goes away cancels instead of waiting).
    std::stop_token stop = {};
    ConstantGroups constantGroups = ConstantGroups::Skip; ///< Group level: the rule for constant groups
    /// The coefficients to resample (coefficientBit); the others' intervals are NaN.
    unsigned coefficients = kAllCoefficients;
};

/// Percentile intervals of the three coefficients at one level.
struct CorrelationIntervals
{
    std::array<Interval, 3> ci; ///< indexed by Coefficient
    std::array<int, 3> valid{}; ///< replicates where the coefficient was defined (NaN ones are dropped)
    int resamples = 0;
    bool cancelled = false; ///< stopped through BootstrapOptions::stop; intervals are NaN
    const Interval &operator[](Coefficient c) const { return ci[size_t(c)]; }
};

/// Percentile bootstrap: resamples the level's units with replacement (a unit drawn twice counts
/// twice): groups at Group level, systems (with their mean scores) at System level, items at
/// Dataset level; recomputes the level's coefficients and takes the
/// (1−confidence)/2 and (1+confidence)/2 quantiles of the replicates (numpy "linear").
/// Replicate i draws its units from a stream of its own (Resampling.h: SplitMix64 started at a
/// hash of the seed and i, exactly uniform draws by Lemire's method), so the result depends only
/// on the data, the level and the seed, never on the number of threads or their order. At the
/// dataset level a replicate is the number of times each item was drawn, and its coefficients
/// come from weighted sums (WeightedKernels.h): the same statistics as over the drawn items,
/// without gathering them.
/// A percentile interval is not centred on the estimate: when the estimate sits near ±1 (system
/// level with very precise means) resampling noise pulls replicates inward and the interval can
/// miss the point estimate; that is the method, not an error.
/// Runs on the statistics' own thread pool (never the global one, which Qt's painting uses); call
/// it from a worker if the caller is a GUI thread, and pass a stop token when that caller may go
/// away before the result is in. A stopped call still waits for its work items already handed to
/// that pool, which may queue behind other long work there: whoever stops several calls requests
/// every stop before waiting on any.
CorrelationIntervals bootstrapCorrelation(const QVector<ScoredItem> &items, Level level,
                                          const BootstrapOptions &options);
/// The same over judge `judge` of `columns` (its items with a score): the same figures as over
/// the same items as ScoredItems.
CorrelationIntervals bootstrapCorrelation(const StatsColumns &columns, int judge, Level level,
                                          const BootstrapOptions &options);

/// Dataset level, several judges over the same items: replicate i draws the items once for every
/// judge, the same items bootstrapCorrelation(…, Level::Dataset, {…, seed}) draws for each judge
/// alone, and each judge's value of `coefficient` on them is that call's replicate i bit for bit.
/// Returns each judge's replicates in replicate order (NaN where undefined); empty when the stop
/// was requested. What compareJudges(project) uses when every judge scored every item: its judge
/// intervals and pair differences then share one draw per replicate.
std::vector<std::vector<double>> datasetReplicates(std::span<const double> human,
                                                   const std::vector<std::span<const double>> &judges,
                                                   Coefficient coefficient, int resamples, quint64 seed,
                                                   std::stop_token stop = {});

namespace detail {
/// Percentile interval of replicate values (NaNs dropped); sorts `values`.
Interval percentileInterval(std::vector<double> &values, double confidence);
} // namespace detail

} // namespace rubric::stats
