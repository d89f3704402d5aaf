#pragma once

#include <span>
#include <vector>

namespace rubric::stats {

/// 1-based ranks of `v`; tied values share the mean of the ranks they span (as scipy's rankdata
/// "average"). NaNs must have been removed by the caller.
std::vector<double> averageRanks(std::span<const double> v);

/// Linear-interpolated quantile (numpy's default "linear" method) of already sorted values;
/// NaN when `sorted` is empty.
double quantileSorted(std::span<const double> sorted, double q);

/// Arithmetic mean of the non-NaN values; NaN when there are none (never lets a NaN in).
double meanSkippingNaN(std::span<const double> v);

} // namespace rubric::stats
