#pragma once

#include "util/Result.h"

#include <QSqlDatabase>

namespace rubric::schema {

/// The schema version this build writes (PRAGMA user_version).
constexpr int currentVersion = 8;

/// Brings the database to currentVersion: creates it when empty (version 0), applies the
/// cumulative steps from its version to the current one inside one transaction, and refuses a
/// file from a newer version. On failure the file is left exactly as it was.
Result<void> migrate(QSqlDatabase &db, const QString &path);

/// Every table of the current schema, parents before the tables that refer to them (the
/// order a copy writes them in).
QStringList tables();

/// The statements of one step (fromVersion → fromVersion + 1); exposed for the migration tests.
QStringList stepStatements(int fromVersion);
/// The statements that end a step after its data moved in C++ (7 → 8: the items' texts into
/// `texts`); empty for the other steps.
QStringList stepStatementsAfter(int fromVersion);

} // namespace rubric::schema
