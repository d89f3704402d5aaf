#pragma once

#include "util/Result.h"

#include <QDateTime>
#include <QString>
#include <QVector>

namespace rubric {

class Project;

/// One entry of the issues channel (table issues).
struct IssueRecord
{
    qint64 id = 0;
    QString kind, run, itemId, message;
    QDateTime time;
};

/// The project's issues channel (failed calls, unparseable answers, import problems) as read by
/// the studio; Project::addIssue writes to it. A thin view over a Project (not owned; must
/// outlive the store), used from the thread that created it.
class IssueStore
{
public:
    explicit IssueStore(Project *project);

    /// The issues with a row id above `afterId`, oldest first.
    Result<QVector<IssueRecord>> readIssues(qint64 afterId = 0) const;
    /// The row ids of every issue, ascending.
    Result<QVector<qint64>> readIssueIds() const;
    /// Deletes every issue; emits the project's issuesChanged when it did.
    Result<void> clear();

private:
    Project *m_project;
};

} // namespace rubric
