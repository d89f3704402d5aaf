#pragma once

#include <span>

namespace rubric::stats {

/// Pearson's r. NaN when n < 2 or either side is constant (callers decide how to skip).
double pearson(std::span<const double> x, std::span<const double> y);
/// Spearman's rho: Pearson on average ranks (ties share their mean rank). NaN as above.
double spearman(std::span<const double> x, std::span<const double> y);
/// Kendall's tau-b (ties on both sides), O(n log n) (Knight's algorithm). NaN as above.
double kendallTauB(std::span<const double> x, std::span<const double> y);

} // namespace rubric::stats
