#pragma once

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

/// The three coefficients at one level. A coefficient that is undefined (fewer than two
/// points, a constant side, or no usable group) is NaN.
struct LevelCorrelation
{
    int n = 0;             ///< items with both scores that took part
    int groupsUsed = 0;    ///< Group: groups averaged; System: systems correlated; Dataset: 0
    int groupsSkipped = 0; ///< Group: groups left out (fewer than 2 items or a constant side)
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
///   Items with an empty group form no group and are ignored.
/// - System: the mean human and mean judge score of each system (empty system ignored), then one
///   correlation over the systems.
LevelCorrelation correlateAtLevel(const QVector<ScoredItem> &items, Level level);

} // namespace rubric::stats
