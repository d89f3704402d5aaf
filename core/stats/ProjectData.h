#pragma once

#include "Agreement.h"
#include "Levels.h"
#include "Significance.h"
#include "data/Annotation.h"
#include "util/Result.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace rubric {
class Project;
}

namespace rubric::stats {

/// The thin layer between a Project and the pure statistics: it reads scores (on the calling
/// thread's connection) and returns plain vectors. Errors name what is missing.

QString splitFilterName(SplitFilter filter);
std::optional<SplitFilter> parseSplitFilter(const QString &name);
/// Test when the project has a split (any item assigned to train or test), otherwise All; an
/// error when the split cannot be read (never All in its place: that would mix the splits).
Result<SplitFilter> defaultSplitFilter(const Project &project);

/// Items of `filter` that have a human score (mean over annotators) and a score of `judge`
/// for `aspect`, with their group and system. Fails when the aspect or the judge is unknown.
Result<QVector<ScoredItem>> gatherScores(const Project &project, const QString &aspect, const QString &judge,
                                         SplitFilter filter);

/// The columns of `aspect` for `judges` (any number) over the items of `filter` with a human
/// score, in one query: what correlateAtLevel, bootstrapCorrelation and compareJudges read
/// without an id or a string per item. Fails when the aspect or a judge is unknown.
Result<StatsColumns> gatherColumns(const Project &project, const QString &aspect, const QStringList &judges,
                                   SplitFilter filter);

/// Items of `filter` scored by people and by both judges.
Result<QVector<PairedItem>> gatherPaired(const Project &project, const QString &aspect, const QString &judgeA,
                                         const QString &judgeB, SplitFilter filter);

/// Units = items of `filter` (import order), coders = the aspect's annotators (sorted) followed
/// by `judges` (each as one coder); NaN where a coder has no score for the item.
struct CoderMatrix
{
    ReliabilityData data;
    QStringList coders;
    QStringList itemIds;
};
Result<CoderMatrix> gatherCoders(const Project &project, const QString &aspect, SplitFilter filter,
                                 const QStringList &judges = {});

} // namespace rubric::stats
