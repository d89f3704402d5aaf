#include "IssuesModel.h"

#include "PlainText.h"
#include "store/IssueStore.h"
#include "store/Project.h"

namespace rubric {

IssuesModel::IssuesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void IssuesModel::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project)
        connect(m_project, &Project::issuesChanged, this, &IssuesModel::reload);
    beginResetModel();
    m_issues = read(0);
    endResetModel();
}

QVector<IssuesModel::Issue> IssuesModel::read(qint64 afterId) const
{
    QVector<Issue> out;
    if (!m_project)
        return out;
    auto issues = IssueStore(m_project).readIssues(afterId);
    if (issues)
        out = std::move(issues).value();
    return out;
}

void IssuesModel::reload()
{
    if (!m_project) {
        beginResetModel();
        m_issues.clear();
        endResetModel();
        return;
    }
    // Issues are only ever appended or deleted; keep the rows that are still there.
    QVector<qint64> present;
    if (auto ids = IssueStore(m_project).readIssueIds(); ids)
        present = std::move(ids).value();
    int keep = 0;
    while (keep < m_issues.size() && keep < present.size() && m_issues[keep].id == present[keep])
        ++keep;
    if (keep < m_issues.size()) {
        beginRemoveRows({}, keep, int(m_issues.size()) - 1);
        m_issues.resize(keep);
        endRemoveRows();
    }
    const QVector<Issue> added = read(m_issues.isEmpty() ? 0 : m_issues.last().id);
    if (!added.isEmpty()) {
        beginInsertRows({}, int(m_issues.size()), int(m_issues.size() + added.size()) - 1);
        m_issues.append(added);
        endInsertRows();
    }
}

bool IssuesModel::clearIssues()
{
    if (!m_project)
        return false;
    return IssueStore(m_project).clear().ok();
}

int IssuesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_issues.size());
}

int IssuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IssuesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Issue &i = m_issues.at(index.row());
    if (role == ItemIdRole)
        return i.itemId;
    if (role == SortRole)
        return index.column() == TimeColumn ? QVariant(i.id) : data(index, Qt::DisplayRole);
    if (role == Qt::ToolTipRole && index.column() == MessageColumn)
        return plain::toolTip(i.message); // quotes files and answers
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return i.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case KindColumn:
        return i.kind;
    case RunColumn:
        return i.run;
    case ItemColumn:
        return i.itemId;
    case MessageColumn:
        return i.message;
    default:
        return {};
    }
}

QVariant IssuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Kind");
    case RunColumn:
        return tr("Run");
    case ItemColumn:
        return tr("Item");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

} // namespace rubric
