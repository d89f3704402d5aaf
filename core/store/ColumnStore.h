#pragma once

#include "data/Annotation.h"
#include "util/Result.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace rubric {

class Project;

/// One item as the statistics read it: its labels, its mean human score and up to two judges'.
struct ScoreRow
{
    QString id;
    QString group;
    QString system;
    double human = std::numeric_limits<double>::quiet_NaN();
    double judge[2] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
};

/// The column reads of the statistics: one query that joins the columns a correlation or a
/// comparison needs (ids, groups, systems, scores) and never the texts. A thin view over a Project
/// (not owned; must outlive the store), on the calling thread's connection.
class ColumnStore
{
public:
    explicit ColumnStore(const Project *project);

    /// The items of `filter` (import order) with a human score for `aspect` (the mean over its
    /// annotators) and a score of every judge of `judges` (one or two names) for it. Unknown
    /// names give no rows: check them first.
    Result<QVector<ScoreRow>> scoredRows(const QString &aspect, const QStringList &judges, SplitFilter filter) const;

private:
    const Project *m_project;
};

} // namespace rubric
