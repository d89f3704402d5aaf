#pragma once

#include "util/Result.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <initializer_list>

namespace rubric::sql {

/// The one place where the SQL a project runs differs between SQLite (the single-file project)
/// and PostgreSQL (a team project). Everything else is written in the SQL both understand
/// (ON CONFLICT upserts, CASE, COALESCE, positional `?` values).

/// Whether `db` is a PostgreSQL connection (Qt's QPSQL driver).
bool isPostgres(const QSqlDatabase &db);

/// The PostgreSQL form of one schema statement written for SQLite: `id INTEGER PRIMARY KEY`
/// becomes an identity column, INTEGER BIGINT, REAL DOUBLE PRECISION, BLOB BYTEA, TEXT sorts
/// bytewise like SQLite (COLLATE "C"), and LIKE stays case-insensitive (ILIKE).
QString postgresStatement(const QString &sqliteStatement);

/// Runs an INSERT into a table with an `id` column and returns the new row's id
/// (SQLite: last_insert_rowid; PostgreSQL: RETURNING id).
Result<qint64> insertReturningId(QSqlQuery &q, const QString &insertSql, std::initializer_list<QVariant> values);
/// For statements prepared once and run row after row: `insertSql` with RETURNING id where the
/// database needs it, and the id of the row the last exec() inserted.
QString withReturningId(const QSqlDatabase &db, const QString &insertSql);
qint64 insertedId(QSqlQuery &q);

/// The values of `expr` joined by the unit separator (char 31), in the order of `orderBy`
/// (SQLite: GROUP_CONCAT over rows already sorted; PostgreSQL: string_agg … ORDER BY).
QString joinedList(const QSqlDatabase &db, const QString &expr, const QString &orderBy);

/// The LIMIT clause that keeps every row, for an OFFSET without a limit (SQLite needs a LIMIT
/// before OFFSET: "LIMIT -1"; PostgreSQL reads that as an error: "LIMIT ALL").
QString noLimit(const QSqlDatabase &db);

/// Whether `error` is a UNIQUE constraint refusing a row (SQLite 2067, PostgreSQL SQLSTATE 23505).
bool isUniqueViolation(const QSqlError &error);

/// A session-level lock named `name` (PostgreSQL advisory lock; held until unlocked or the
/// connection closes). True when taken, false when another session holds it. SQLite: always true.
Result<bool> tryLock(QSqlDatabase &db, const QString &name);
Result<void> unlock(QSqlDatabase &db, const QString &name);
/// A lock held until the current transaction ends (PostgreSQL only; a no-op for SQLite).
Result<void> lockForTransaction(QSqlDatabase &db, const QString &name);

} // namespace rubric::sql
