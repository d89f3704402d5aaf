#pragma once

// Internal to core/stats: the dataset-level coefficients of a bootstrap resample computed from the
// number of times each item was drawn (ResampleCounts), without gathering the drawn items.
//
// They are the same statistics as Pearson's r, Spearman's ρ and Kendall's τ-b over the drawn items
// (an item drawn twice counts twice): Pearson from weighted sums of the values centred on the full
// sample's means; Spearman from the average ranks of the drawn multiset, which follow from the
// weights of each distinct value; Kendall from the weighted contingency table of the distinct
// values (exact integer pair counts, the same formula as kendallTauB) when it has at most
// kMaxTableCells cells, otherwise over the drawn items. A resample whose spread is too small to
// trust the sums (a side constant or nearly so) is computed over the drawn items by the ordinary
// kernels, so every NaN rule is theirs.

#include "LevelKernel.h"
#include "Levels.h"
#include "Resampling.h"

#include <span>
#include <vector>

namespace rubric::stats::detail {

/// Above this many cells of distinct human × judge values Kendall's τ-b of a resample is computed
/// over the drawn items (Knight's algorithm) instead of the table.
inline constexpr size_t kMaxTableCells = size_t(1) << 16;

/// One data set prepared once for many resamples: its values centred, and each value's rank among
/// the distinct values of its side (Spearman and Kendall).
struct WeightedData
{
    std::span<const double> x, y; ///< the values (not owned: the caller keeps them alive)
    std::vector<double> dx, dy;   ///< x and y minus the full sample's means
    std::vector<int> tx, ty;      ///< index of each value among its side's distinct values
    int kx = 0, ky = 0;           ///< distinct values per side
};

WeightedData prepareWeighted(std::span<const double> x, std::span<const double> y, unsigned coefficients);

/// Scratch space per thread.
struct WeightedWorkspace
{
    std::vector<std::uint64_t> wx, wy, below;
    std::vector<std::uint32_t> table;
    std::vector<double> rx, ry;
    std::vector<int> rows;
    Workspace kernel;
};

/// The coefficients in `coefficients` (others NaN) of the resample `counts` of `data`: equal to
/// Pearson, Spearman and Kendall over the drawn items (counts.rows()). Sets n.
LevelCorrelation weightedCoefficients(const WeightedData &data, const ResampleCounts &counts, unsigned coefficients,
                                      WeightedWorkspace &ws);

/// A paired permutation test's data prepared once: x (the human scores, best centred), the two
/// judges a and b (not owned), and the sums the permutations start from.
struct PermutationData
{
    std::span<const double> x, a, b;
    std::vector<double> d, q, xd; ///< per item: b − a, b² − a², x·(b − a)
    double sx = 0, sxx = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sxa = 0, sxb = 0;
};
PermutationData preparePermutation(std::span<const double> x, std::span<const double> a, std::span<const double> b);

/// Pearson's r of x with the permuted judges of a paired permutation: item k takes b[k] for the
/// first judge and a[k] for the second where bit k of `bits` is set, a[k] and b[k] where it is
/// not. Returns (r with the first, r with the second), from the prepared sums and three sums over
/// the swapped items. Falls back to pearson() over the permuted values when a side is constant or
/// nearly so.
std::pair<double, double> permutedPearson(const PermutationData &data, std::span<const quint64> bits,
                                          std::vector<double> &pa, std::vector<double> &pb);

} // namespace rubric::stats::detail
