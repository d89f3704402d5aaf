#pragma once

// What the project store's tests share: a database file from an SQL script, a file's hash, a
// project opened or the reason printed, an item.
#include "store/Project.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>

#include <memory>

namespace rubric::test {

/// Builds a database file from an SQL script (one statement per line, `--` comments).
inline bool writeDatabaseFromSql(const QString &dbPath, const QString &sqlFile)
{
    QFile f(sqlFile);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fixture"));
        db.setDatabaseName(dbPath);
        ok = db.open();
        QSqlQuery q(db);
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QString stmt = QString::fromUtf8(line).trimmed();
            if (stmt.isEmpty() || stmt.startsWith(QLatin1String("--")))
                continue;
            ok = ok && q.exec(stmt);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("fixture"));
    return ok;
}

inline QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

/// Turns a file of the current schema back into schema 7's items (texts in the item's row, no
/// `texts` table, no index on the position), for the tests that make an older file from a current one.
inline bool backToSchema7Items(QSqlQuery &q)
{
    for (const char *column : {"source", "output", "reference", "context"}) {
        const QString c = QString::fromLatin1(column);
        if (!q.exec(QStringLiteral("ALTER TABLE items ADD COLUMN %1 TEXT NOT NULL DEFAULT '%2'")
                            .arg(c, c == QLatin1String("context") ? QStringLiteral("{}") : QString()))
            || !q.exec(QStringLiteral("UPDATE items SET %1 = (SELECT body FROM texts WHERE texts.id = items.%1_id)")
                               .arg(c))
            || !q.exec(QStringLiteral("ALTER TABLE items DROP COLUMN %1_id").arg(c)))
            return false;
    }
    return q.exec(QStringLiteral("DROP INDEX items_position")) && q.exec(QStringLiteral("DROP TABLE texts"));
}

inline std::unique_ptr<Project> openOrFail(const QString &path)
{
    auto p = Project::open(path);
    if (!p)
        qWarning("%s", qPrintable(p.errorString()));
    return p ? std::move(p).value() : nullptr;
}

inline Item makeItem(const QString &id, const QString &group = QStringLiteral("g"),
                     const QString &system = QStringLiteral("s"))
{
    Item it;
    it.id = id;
    it.group = group;
    it.system = system;
    it.source = QStringLiteral("source of ") + id;
    it.output = QStringLiteral("output of ") + id;
    return it;
}

} // namespace rubric::test
