#pragma once

#include "store/IssueStore.h"
#include "store/Project.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QPointer>
#include <QVector>

namespace rubric {

/// The project's issues channel (failed calls, unparseable answers, import problems) as a table:
/// time, kind, run, item, message; oldest first (views sort through a proxy).
///
/// Reads the `issues` table of the Project (not owned) and follows Project::issuesChanged:
/// new issues become rowsInserted, a cleared or shortened table rowsRemoved. GUI thread only.
class IssuesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, KindColumn, RunColumn, ItemColumn, MessageColumn, ColumnCount };
    enum Role {
        ItemIdRole = Qt::UserRole + 1,
        SortRole, ///< the time column sorts by arrival (issue id), the others by their text
    };

    using Issue = IssueRecord;

    explicit IssuesModel(QObject *parent = nullptr);

    void setProject(Project *project);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const Issue &issue(int row) const { return m_issues.at(row); }

    /// Deletes every issue from the project; false (and nothing deleted) on a database error.
    bool clearIssues();

public slots:
    void reload();

private:
    QVector<Issue> read(qint64 afterId) const;

    QPointer<Project> m_project;
    QVector<Issue> m_issues;
};

} // namespace rubric
