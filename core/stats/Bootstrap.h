#pragma once

#include "Levels.h"

#include <QtGlobal>

#include <array>
#include <limits>
#include <stop_token>

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
/// Replicate i draws from std::mt19937_64 seeded with the i-th output of a std::mt19937_64(seed),
/// so the result depends only on the data, the level and the seed (not on threads).
/// A percentile interval is not centred on the estimate: when the estimate sits near ±1 (system
/// level with very precise means) resampling noise pulls replicates inward and the interval can
/// miss the point estimate; that is the method, not an error.
/// Runs on the global thread pool; call it from a worker if the caller is a GUI thread, and pass
/// a stop token when that caller may go away before the result is in. A stopped call still waits
/// for its work items already handed to the global pool, which may queue behind other long work
/// there: whoever stops several calls requests every stop before waiting on any.
CorrelationIntervals bootstrapCorrelation(const QVector<ScoredItem> &items, Level level,
                                          const BootstrapOptions &options);

namespace detail {
/// Uniform integer in [0, m) from one 64-bit draw (53-bit fraction; deterministic everywhere).
inline int uniformIndex(quint64 word, int m)
{
    return int(double(word >> 11) * 0x1.0p-53 * double(m));
}
/// Percentile interval of replicate values (NaNs dropped); sorts `values`.
Interval percentileInterval(std::vector<double> &values, double confidence);
} // namespace detail

} // namespace rubric::stats
