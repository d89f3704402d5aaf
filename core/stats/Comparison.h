#pragma once

#include "Agreement.h"
#include "Levels.h"
#include "data/Annotation.h"
#include "util/Result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>
#include <stop_token>

namespace rubric {
class Project;
}

namespace rubric::stats {

/// Every judge of a project against people on one aspect, side by side (the Compare pane,
/// `rubric compare` and the report read this one result).
///
/// Names: the codebase already has `JudgeComparison` (two judges, Significance.h) and
/// `HumanCeiling` (leave-one-annotator-out, Agreement.h), so a judge's row is `JudgeAlignment`
/// and the ceiling here is `AnnotatorCeiling`.

/// What to compare.
struct CompareOptions
{
    QString aspect;
    QStringList judges; ///< empty: every judge of the project that scored the aspect (project order)
    Level level = Level::Dataset;
    SplitFilter split = SplitFilter::All;
    ConstantGroups constantGroups = ConstantGroups::Skip; ///< Group level only
    /// The coefficient whose bootstrap interval a judge's row carries and whose difference a
    /// pair tests (the other two coefficients are in the row without an interval).
    Coefficient primary = Coefficient::Pearson;
    int bootstrap = 1000;    ///< percentile bootstrap replicates (judge intervals and pair differences)
    int permutations = 1000; ///< paired permutation test replicates
    quint64 seed = 1;
    double confidence = 0.95;
    bool pairs = true; ///< also compare every pair of judges (i < j in judge order)
    std::stop_token stop = {};
};

/// One judge against people.
struct JudgeAlignment
{
    QString judge, method;
    double pearson = std::numeric_limits<double>::quiet_NaN();
    double spearman = std::numeric_limits<double>::quiet_NaN();
    double kendall = std::numeric_limits<double>::quiet_NaN();
    /// Percentile bootstrap interval of CompareOptions::primary at the level (units resampled as
    /// in bootstrapCorrelation); NaN when it could not be formed.
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
    int n = 0;          ///< items scored by the judge and by people in the split
    int groupsUsed = 0; ///< Group: groups averaged; System: systems correlated; Dataset: 0
    /// The judge's whole call ledger (every aspect and split, rubric building included) divided
    /// by the distinct items it scored. 0 for a judge that made no call (offline baselines, or
    /// everything answered from the cache); NaN for imported scores, whose cost is not known.
    int calls = 0;
    double cost = 0.0;
    double callsPerItem = std::numeric_limits<double>::quiet_NaN();
    double costPerItem = std::numeric_limits<double>::quiet_NaN();
    double value(Coefficient c) const;
};

/// Judge a against judge b on the items both (and people) scored, on CompareOptions::primary.
struct PairComparison
{
    QString a, b;
    int n = 0;
    double ra = std::numeric_limits<double>::quiet_NaN(); ///< a's coefficient on the shared items
    double rb = std::numeric_limits<double>::quiet_NaN();
    double difference = std::numeric_limits<double>::quiet_NaN(); ///< ra − rb
    double lo = std::numeric_limits<double>::quiet_NaN();         ///< paired percentile bootstrap of the difference
    double hi = std::numeric_limits<double>::quiet_NaN();
    double p = std::numeric_limits<double>::quiet_NaN(); ///< two-sided paired permutation test (every level)
    /// Williams' test (Pearson at dataset or system level only; NaN elsewhere and for identical judges).
    double williamsP = std::numeric_limits<double>::quiet_NaN();
    QString plainWords; ///< the result in words for a reader who is not a statistician
};

/// Agreement between the annotators on the compared items: Krippendorff's alpha (interval) over
/// the split's items that at least one compared judge scored and at least two people scored.
struct AnnotatorCeiling
{
    double alpha = std::numeric_limits<double>::quiet_NaN();
    int n = 0;          ///< items with at least two human scores (alpha's units)
    int annotators = 0; ///< annotators of the aspect
    bool available = false;
};

struct Comparison
{
    CompareOptions options;
    QVector<JudgeAlignment> judges;
    QVector<PairComparison> pairs;
    AnnotatorCeiling ceiling;
    QString convention; ///< the level and, at group level, the constant-group rule, in words
};

/// Correlates every judge of `options` with people and compares the pairs. Reads the project on
/// the calling thread's connection; call it off the GUI thread. Fails (naming the aspect or
/// judge) when the aspect or a judge is unknown, when a named judge did not score the aspect,
/// or when no judge scored it; a stop request returns an error saying so.
Result<Comparison> compareJudges(const Project &project, const CompareOptions &options);

/// One pair on demand (the pane's "pick two judges"); same rules as the pairs of compareJudges.
Result<PairComparison> compareJudgePair(const Project &project, const CompareOptions &options, const QString &a,
                                        const QString &b);

/// Fills PairComparison::plainWords (called by the two functions above; public for tests).
QString pairInWords(const PairComparison &pair, Coefficient coefficient, double confidence);

// --- rounding: the one place every output (CLI text and JSON, pane, exports, report) takes its digits from.
/// Correlations, intervals and differences: 3 decimals. NaN stays NaN.
double roundStatistic(double v);
/// p-values: 3 significant digits. NaN stays NaN.
double roundP(double v);
/// Cost per item in dollars: 6 significant digits.
double roundCost(double v);
/// Calls per item: 2 decimals.
double roundCalls(double v);
/// Text of the rounded values ("n/a" for NaN), digit for digit the JSON's: statistics have fixed
/// 3 decimals, so the JSON value (its shortest form, 0.41 for 0.410) is always a prefix of the text.
QString formatStatistic(double v);
QString formatP(double v);
QString formatCost(double v);
QString formatCalls(double v);

/// Exactly what `rubric compare --json` prints:
/// {"aspect","level","split","coefficient","convention",
///  "judges":[{"judge","method","pearson","spearman","kendall","ci":[lo,hi],"n","calls","cost",
///             "calls_per_item","cost_per_item"}],
///  "pairs":[{"a","b","n","difference","ci":[lo,hi],"p","williams_p","words"}],
///  "human_ceiling":{"alpha","n","annotators"}}; NaN is null.
QJsonObject comparisonToJson(const Comparison &comparison);
/// A Markdown table of the judges, a table of the pairs, and the ceiling and convention.
QString comparisonToMarkdown(const Comparison &comparison);
/// A LaTeX `tabular` (booktabs) of the judges and one of the pairs; text escaped.
QString comparisonToLatex(const Comparison &comparison);
/// RFC 4180 CSV of the judges (one header line, one line per judge).
QString comparisonToCsv(const Comparison &comparison);
/// RFC 4180 CSV of the pairs.
QString comparisonPairsToCsv(const Comparison &comparison);

} // namespace rubric::stats
