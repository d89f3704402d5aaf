#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <vector>

namespace rubric::stats {

/// Reliability data: one row per unit (item), one column per coder (annotator or judge);
/// NaN where that coder gave no value.
using ReliabilityData = std::vector<std::vector<double>>;

enum class AlphaLevel { Nominal, Ordinal, Interval, Ratio };
QString alphaLevelName(AlphaLevel level);
std::optional<AlphaLevel> parseAlphaLevel(const QString &name);

struct AlphaResult
{
    double alpha;   ///< NaN when there is no variation at all among the pairable values
    int units = 0;  ///< units with at least two values (the pairable ones)
    int values = 0; ///< n: pairable values
    AlphaResult();
};

/// Krippendorff's alpha through the coincidence matrix (Krippendorff, "Computing Krippendorff's
/// Alpha-Reliability", 2011): units with fewer than two values are left out; missing values
/// are simply absent. Ordinal uses the ranks of the observed values (marginal sums), ratio the
/// metric ((c−k)/(c+k))².
AlphaResult krippendorffAlpha(const ReliabilityData &data, AlphaLevel level);

struct KappaResult
{
    double kappa; ///< NaN when every rating falls in one category
    int items = 0;
    int raters = 0; ///< ratings per item
    KappaResult();
};

/// Fleiss' kappa (Fleiss 1971) for complete data: rows with a missing value are left out;
/// categories are the distinct values. Every kept row has the same number of ratings.
KappaResult fleissKappa(const ReliabilityData &data);
/// Fleiss' kappa from a count table: counts[item][category] = raters who chose it (equal row sums).
double fleissKappaCounts(const std::vector<std::vector<int>> &counts);

/// One annotator against the mean of the others (leave-one-annotator-out).
struct CeilingEntry
{
    QString annotator;
    int n = 0;
    double pearson, spearman, kendall;
    CeilingEntry();
};

struct HumanCeiling
{
    QVector<CeilingEntry> annotators;
    double pearson, spearman, kendall; ///< means over annotators, NaNs skipped
    HumanCeiling();
};

/// For each coder: items where the coder and at least one other coder gave a value; the coder's
/// value against the mean of the others', correlated over those items.
HumanCeiling humanCeiling(const ReliabilityData &data, const QStringList &coders);

} // namespace rubric::stats
