#include "store/IssueStore.h"

#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QSqlQuery>

namespace rubric {

IssueStore::IssueStore(Project *project)
    : m_project(project)
{
}

Result<QVector<IssueRecord>> IssueStore::readIssues(qint64 afterId) const
{
    QVector<IssueRecord> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
            "SELECT id, kind, run, item_ext_id, message, created_at FROM issues WHERE id > ? ORDER BY id"));
    q.addBindValue(afterId);
    if (!q.exec())
        return makeError(q.lastError().text(), m_project->path());
    while (q.next()) {
        IssueRecord i;
        i.id = q.value(0).toLongLong();
        i.kind = q.value(1).toString();
        i.run = q.value(2).toString();
        i.itemId = q.value(3).toString();
        i.message = q.value(4).toString();
        i.time = QDateTime::fromString(q.value(5).toString(), Qt::ISODateWithMs);
        out.append(i);
    }
    return out;
}

Result<QVector<qint64>> IssueStore::readIssueIds() const
{
    QVector<qint64> present;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT id FROM issues ORDER BY id")))
        return makeError(q.lastError().text(), m_project->path());
    while (q.next())
        present.append(q.value(0).toLongLong());
    return present;
}

Result<void> IssueStore::clear()
{
    QSqlQuery q(m_project->database());
    if (!q.exec(QStringLiteral("DELETE FROM issues")))
        return makeError(q.lastError().text(), m_project->path());
    emit m_project->issuesChanged();
    return {};
}

} // namespace rubric
