#pragma once

#include "store/ScoreColumns.h"

#include <QString>
#include <QVector>

#include <optional>

namespace rubric::stats {

/// Where a correlation is taken, as the meta-evaluation literature defines it.
enum class Level {
    Dataset, ///< one correlation over all items (turn-, sample-level)
    Group,   ///< per group (document / prompt), constant groups skipped, averaged (SummEval "summary-level")
    System,  ///< per-system means first, then one correlation over the systems
};

QString levelName(Level level);
std::optional<Level> parseLevel(const QString &name);

/// What the group level does with a group whose scores are all equal on one side (its
/// correlation is undefined). The papers differ, and their published numbers depend on it.
enum class ConstantGroups {
    Skip, ///< leave out a group whose human or judge scores are constant (G-Eval's and UniEval's scripts)
    One,  ///< a group whose human scores are constant counts as 1 (PairS, followed by HypoEval); a group
          ///< with varying human but constant judge scores is undefined and left out (HPSS skips NaN groups)
};

QString constantGroupsName(ConstantGroups rule); ///< "skip", "one"
std::optional<ConstantGroups> parseConstantGroups(const QString &name);
/// The convention in words, with the papers that use it (for reports).
QString constantGroupsConvention(ConstantGroups rule);

/// One item with a human score and a judge score (NaN = missing; such items are left out).
struct ScoredItem
{
    QString id;
    QString group;
    QString system;
    double human = 0.0;
    double judge = 0.0;
};

enum class Coefficient { Pearson, Spearman, Kendall };
inline constexpr Coefficient kCoefficients[] = {Coefficient::Pearson, Coefficient::Spearman, Coefficient::Kendall};
QString coefficientName(Coefficient c);
/// A set of coefficients as bits (coefficientBit); computations given a set leave the others NaN.
inline constexpr unsigned coefficientBit(Coefficient c)
{
    return 1u << unsigned(c);
}
inline constexpr unsigned kAllCoefficients = coefficientBit(Coefficient::Pearson)
                                             | coefficientBit(Coefficient::Spearman)
                                             | coefficientBit(Coefficient::Kendall);

/// The three coefficients at one level. A coefficient that is undefined (fewer than two
/// points, a constant side, or no usable group) is NaN.
struct LevelCorrelation
{
    int n = 0;             ///< items with both scores that took part
    int groupsUsed = 0;    ///< Group: groups averaged; System: systems correlated; Dataset: 0
    int groupsSkipped = 0; ///< Group: groups left out (fewer than 2 items, or a constant side the rule leaves out)
    /// Group, why groups were left out or counted as 1: the sum of the three below is the number
    /// of groups that were not correlated.
    int groupsTooSmall = 0;      ///< fewer than 2 items: always left out
    int groupsHumanConstant = 0; ///< human scores all equal: left out (Skip) or counted as 1 (One)
    int groupsJudgeConstant = 0; ///< judge scores all equal, human scores not: left out under both rules
    ConstantGroups constantGroups = ConstantGroups::Skip; ///< the rule that was applied
    double pearson;
    double spearman;
    double kendall;
    LevelCorrelation();
    double value(Coefficient c) const;
};

/// Correlates human with judge scores at `level`.
/// - Dataset: over every item that has both scores.
/// - Group: for each group with ≥ 2 items where neither the human nor the judge scores are all equal,
///   the three coefficients; each is averaged over those groups (a NaN never enters the mean).
///   Under ConstantGroups::One a group with ≥ 2 items whose human scores are all equal enters the
///   mean as 1 for every coefficient. Items with an empty group form no group and are ignored.
/// - System: the mean human and mean judge score of each system (empty system ignored), then one
///   correlation over the systems.
LevelCorrelation correlateAtLevel(const QVector<ScoredItem> &items, Level level,
                                  ConstantGroups constantGroups = ConstantGroups::Skip);
/// The same over columns: judge `judge` of `columns` (its items with a score), the same figures
/// as over the same items as ScoredItems.
LevelCorrelation correlateAtLevel(const StatsColumns &columns, int judge, Level level,
                                  ConstantGroups constantGroups = ConstantGroups::Skip);

} // namespace rubric::stats
