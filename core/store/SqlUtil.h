#pragma once

#include "util/Result.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <initializer_list>

namespace rubric::sql {

/// Prepares and runs `sql` with positional bound values; returns the error as a value.
inline Result<void> exec(QSqlQuery &q, const QString &sql, std::initializer_list<QVariant> values = {})
{
    if (!q.prepare(sql))
        return makeError(q.lastError().text() + QStringLiteral(" [") + sql + QStringLiteral("]"));
    for (const QVariant &v : values)
        q.addBindValue(v);
    if (!q.exec())
        return makeError(q.lastError().text() + QStringLiteral(" [") + sql + QStringLiteral("]"));
    return {};
}

/// Runs `sql` and steps to its first row: true when there is one (read it from `q`), false when
/// the query has none, an error when it fails or its rows cannot be read (a locked or damaged
/// file is never "no row").
inline Result<bool> firstRow(QSqlQuery &q, const QString &sql, std::initializer_list<QVariant> values = {})
{
    if (auto r = exec(q, sql, values); !r)
        return r.error();
    if (q.next())
        return true;
    if (q.lastError().isValid())
        return makeError(q.lastError().text() + QStringLiteral(" [") + sql + QStringLiteral("]"));
    return false;
}

/// Prepares `sql` once, for runs of rebind() (a statement used row after row is parsed once).
inline Result<void> prepare(QSqlQuery &q, const QString &sql)
{
    if (!q.prepare(sql))
        return makeError(q.lastError().text() + QStringLiteral(" [") + sql + QStringLiteral("]"));
    return {};
}

/// Runs a query made by prepare() again with new positional values.
inline Result<void> rebind(QSqlQuery &q, std::initializer_list<QVariant> values)
{
    int i = 0;
    for (const QVariant &v : values)
        q.bindValue(i++, v);
    if (!q.exec())
        return makeError(q.lastError().text() + QStringLiteral(" [") + q.lastQuery() + QStringLiteral("]"));
    return {};
}

/// A QString that binds as '' rather than NULL when it is null (text columns are NOT NULL).
inline QVariant text(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

/// NULL for NaN, the value otherwise.
inline QVariant nullableDouble(double v)
{
    return v == v ? QVariant(v) : QVariant(QMetaType(QMetaType::Double));
}

} // namespace rubric::sql
