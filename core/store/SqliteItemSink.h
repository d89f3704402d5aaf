#pragma once

// Internal to core/store: the sink of a streamed import into a project file, on SQLite's own
// interface. Qt's driver converts every bound text to UTF-16 and SQLite converts it back; an import
// of a million items binds gigabytes of text, so here the UTF-8 the reader has goes in as it is,
// through statements prepared once.

#include "store/ImportStore.h"

#include <QSqlDatabase>

#include <memory>

namespace rubric::sqlitesink {

/// A sink writing into the SQLite connection of `db`, on its open transaction: items from
/// position `firstPosition` on, human scores into the aspects of rows `aspectRows`, stamped `now`.
Result<std::unique_ptr<ItemSink>> open(QSqlDatabase &db, QVector<qint64> aspectRows, int firstPosition,
                                       const QString &now);

} // namespace rubric::sqlitesink
