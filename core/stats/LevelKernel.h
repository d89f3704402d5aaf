#pragma once

// Internal to core/stats: the level computations on dense arrays (group/system as small
// integers), shared by correlateAtLevel, the bootstrap and the permutation test so resampling
// never touches strings.

#include "Levels.h"

#include <array>
#include <span>
#include <vector>

namespace rubric::stats::detail {

/// Items with both scores, with their group/system mapped to 0..count-1 (-1 = none).
struct Dense
{
    std::vector<double> human, judge;
    std::vector<int> group, system;
    int groupCount = 0;
    int systemCount = 0;
};

Dense densify(const QVector<ScoredItem> &items);
/// The same from columns: the items with judge `judge`'s score, groups and systems numbered again
/// in their order of first appearance among those items (as densify(items) numbers them).
Dense densify(const StatsColumns &columns, int judge);
/// Items with both judges' scores: `judge` holds a's, `other` b's.
Dense densify(const StatsColumns &columns, int a, int b, std::vector<double> &other);

/// Scratch buffers reused across calls (one per thread).
struct Workspace
{
    std::vector<double> a, b, c, d;
    std::vector<int> count, offset;
};

/// The level's coefficients over the items `rows` (indices into the arrays, repeats allowed).
/// Group/system ids index `groupCount`/`systemCount`. Only the coefficients in `coefficients`
/// (coefficientBit) are computed; the others are NaN (resampling loops that need one coefficient
/// skip the cost of the others: Kendall's τ-b is the dearest).
LevelCorrelation evaluate(Level level, std::span<const double> human, std::span<const double> judge,
                          std::span<const int> group, std::span<const int> system, int groupCount, int systemCount,
                          std::span<const int> rows, Workspace &ws,
                          ConstantGroups constantGroups = ConstantGroups::Skip,
                          unsigned coefficients = kAllCoefficients);

/// Each group's coefficients on its own (NaN where the rule leaves the group out, or the
/// coefficient is not in `coefficients`), in group order: what evaluate(Group) averages. One pass
/// over the items, each group evaluated on its members alone.
std::vector<std::array<double, 3>> groupCoefficients(std::span<const double> human, std::span<const double> judge,
                                                     std::span<const int> group, int groupCount,
                                                     ConstantGroups constantGroups, unsigned coefficients);

} // namespace rubric::stats::detail
