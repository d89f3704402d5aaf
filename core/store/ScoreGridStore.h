#pragma once

#include "data/Annotation.h"
#include "store/Project.h"
#include "util/Result.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace rubric {

class Project;

/// Every item's labels, split, mean human score and one judge's score on one aspect, as columns
/// (one entry per item, in import order): what the heatmap and the correlation chart colour and
/// plot. Groups and systems are numbers into their own lists (a million items have a few
/// thousand of each); no text is read.
struct ScoreGrid
{
    QStringList ids;
    QVector<qint32> group;  ///< index into groupNames
    QVector<qint32> system; ///< index into systemNames
    QStringList groupNames;
    QStringList systemNames;
    QVector<SplitRole> split;
    QVector<double> human; ///< NaN where the item has no human score
    QVector<double> judge; ///< NaN where the judge has no score (or none is asked for)
};

/// Reads a ScoreGrid in one pass over the items. A thin view over a Project (not owned; must
/// outlive the store), on the calling thread's connection. Errors carry the database's message.
class ScoreGridStore
{
public:
    explicit ScoreGridStore(const Project *project);

    /// The grid for `aspect` (empty: no human scores) and `judge` (a run name; empty: no judge
    /// scores).
    Result<ScoreGrid> read(const QString &aspect, const QString &judge) const;
    /// The judges (runs) in the order they were made, each with the aspects it scores, without
    /// counting their items (JudgeInfo::items is -1): a few index probes instead of
    /// Project::readJudges()'s pass over every score, for the views that only list or pick judges.
    Result<QVector<JudgeInfo>> judges() const;

private:
    const Project *m_project;
};

} // namespace rubric
