#include "ProjectCopy.h"

#include "Project.h"
#include "Schema.h"
#include "SqlDialect.h"
#include "SqlUtil.h"

#include <QCoreApplication>
#include <QSqlRecord>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ProjectCopy", text);
}

QStringList columnsOf(const QSqlDatabase &db, const QString &table)
{
    QStringList out;
    const QSqlRecord record = db.record(table);
    for (int i = 0; i < record.count(); ++i)
        out.append(record.fieldName(i));
    return out;
}

/// The first table of the target that holds a row, with its count; none when all are empty.
Result<std::optional<std::pair<QString, qint64>>> firstNonEmpty(QSqlDatabase &db, const QString &where)
{
    QSqlQuery q(db);
    for (const QString &table : schema::tables()) {
        // Table names come from the schema, never from input.
        const Result<bool> row = sql::firstRow(q, QStringLiteral("SELECT COUNT(*) FROM ") + table);
        if (!row.ok())
            return makeError(tr("cannot read the table '%1': %2").arg(table, row.errorString()), where);
        if (q.value(0).toLongLong() > 0)
            return std::optional(std::pair{table, q.value(0).toLongLong()});
    }
    return std::optional<std::pair<QString, qint64>>();
}

} // namespace

Result<CopyCounts> copyProject(Project &from, Project &to)
{
    if (from.path() == to.path())
        return makeError(tr("a project cannot be copied onto itself"), to.path(), 0, QStringLiteral("to"));

    // One snapshot of the source: a studio writing to it meanwhile cannot tear the copy.
    QSqlDatabase source = from.database();
    if (!source.transaction())
        return makeError(tr("cannot read the project: %1").arg(source.lastError().text()), from.path());
    QSqlQuery read(source);
    read.setForwardOnly(true);
    if (sql::isPostgres(source)) {
        // Not prepared: PostgreSQL prepares no SET.
        if (!read.exec(QStringLiteral("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))) {
            const QString error = read.lastError().text();
            source.rollback();
            return makeError(error, from.path());
        }
    }

    CopyCounts counts;
    auto written = to.transact([&](QSqlDatabase &db) -> Result<void> {
        // Checked inside the write transaction: a teammate (or a second copy) writing into the
        // target between a check and the copy cannot get mixed with it.
        const auto used = firstNonEmpty(db, to.path());
        if (!used)
            return used.error();
        if (*used)
            return makeError(tr("the target already holds a project (%1 rows in the table '%2'); copy into a new "
                                "file or an empty database")
                                     .arg((*used)->second)
                                     .arg((*used)->first),
                             to.path(), 0, QStringLiteral("to"));
        QSqlQuery write(db);
        for (const QString &table : schema::tables()) {
            const QStringList columns = columnsOf(source, table);
            if (columns.isEmpty())
                return makeError(tr("the project has no table '%1'").arg(table), from.path());
            const QStringList targetColumns = columnsOf(db, table);
            for (const QString &c : columns)
                if (!targetColumns.contains(c))
                    return makeError(tr("the target's table '%1' has no column '%2'").arg(table, c), to.path());
            // Rows in the order of all their columns: ids ascending (a rubric version's parent
            // comes before it), the same order on either database.
            QStringList order;
            for (int i = 1; i <= columns.size(); ++i)
                order.append(QString::number(i));
            if (auto r = sql::exec(read, QStringLiteral("SELECT %1 FROM %2 ORDER BY %3")
                                                 .arg(columns.join(QStringLiteral(", ")), table,
                                                      order.join(QStringLiteral(", "))));
                !r)
                return makeError(tr("cannot read the table '%1': %2").arg(table, r.errorString()), from.path());
            const QString marks = QStringList(columns.size(), QStringLiteral("?")).join(QStringLiteral(", "));
            if (auto p = sql::prepare(write, QStringLiteral("INSERT INTO %1(%2) VALUES(%3)")
                                                     .arg(table, columns.join(QStringLiteral(", ")), marks));
                !p)
                return p;
            while (read.next()) {
                for (int i = 0; i < columns.size(); ++i)
                    write.bindValue(i, read.value(i));
                if (!write.exec())
                    return makeError(
                            tr("cannot write a row of the table '%1': %2").arg(table, write.lastError().text()),
                            to.path());
                ++counts.rows;
            }
            if (read.lastError().isValid())
                return makeError(tr("cannot read the table '%1': %2").arg(table, read.lastError().text()), from.path());
            read.finish();
            ++counts.tables;
            // PostgreSQL's identity columns count on from where the copied ids end (SQLite's
            // rowids do so by themselves).
            if (sql::isPostgres(db) && columns.contains(QLatin1String("id"))) {
                QSqlQuery seq(db);
                if (auto r = sql::exec(seq, QStringLiteral("SELECT setval(pg_get_serial_sequence('%1', 'id'), "
                                                           "COALESCE((SELECT MAX(id) FROM %1), 0) + 1, false) "
                                                           "WHERE pg_get_serial_sequence('%1', 'id') IS NOT NULL")
                                                    .arg(table));
                    !r)
                    return r;
            }
        }
        return {};
    });
    source.rollback();
    if (!written)
        return written.error();
    return counts;
}

} // namespace rubric
