#include "store/PromptStore.h"

#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QDateTime>
#include <QSqlQuery>

namespace rubric {

PromptStore::PromptStore(Project *project)
    : m_project(project)
{
}

Result<std::optional<QString>> PromptStore::readOverride(const QString &name) const
{
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT body FROM prompt_templates WHERE name = ?"), {name}); !r)
        return makeError(r.errorString());
    if (q.next())
        return std::optional<QString>(q.value(0).toString());
    if (q.lastError().isValid()) // the rows ended early: the file turned out unreadable
        return makeError(q.lastError().text());
    return std::optional<QString>();
}

Result<void> PromptStore::setOverride(const QString &name, const QString &body)
{
    QSqlQuery q(m_project->database());
    return sql::exec(
            q,
            QStringLiteral("INSERT INTO prompt_templates(name, body, updated_at) VALUES(?, ?, ?) "
                           "ON CONFLICT(name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at"),
            {name, body, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)});
}

Result<void> PromptStore::removeOverride(const QString &name)
{
    QSqlQuery q(m_project->database());
    return sql::exec(q, QStringLiteral("DELETE FROM prompt_templates WHERE name = ?"), {name});
}

} // namespace rubric
