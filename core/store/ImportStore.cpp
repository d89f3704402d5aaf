#include "store/ImportStore.h"

#include "store/ItemTexts.h"
#include "store/Project.h"
#include "store/SqlDialect.h"
#include "store/SqlUtil.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSqlQuery>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Importer", text);
}

/// A bindable text: a null QString would be bound as SQL NULL, which NOT NULL columns refuse.
QString notNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

} // namespace

ImportStore::ImportStore(Project *project)
    : m_project(project)
{
}

Result<QStringList> ImportStore::itemIds() const
{
    QStringList out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto e = sql::exec(q, QStringLiteral("SELECT ext_id FROM items")); !e)
        return e.error();
    while (q.next())
        out.append(q.value(0).toString());
    return out;
}

Result<QHash<QString, qint64>> ImportStore::itemRows() const
{
    QHash<QString, qint64> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto e = sql::exec(q, QStringLiteral("SELECT ext_id, id FROM items")); !e)
        return e.error();
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toLongLong());
    return out;
}

Result<void> ImportStore::writeItems(const ItemImport &import)
{
    const QVector<Aspect> &aspects = import.aspects;
    const QVector<Item> &items = import.items;
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        QVector<qint64> aspectRows;
        for (const Aspect &a : std::as_const(aspects)) {
            if (auto e = sql::exec(q,
                                   QStringLiteral("INSERT INTO aspects(name, definition, scale_min, scale_max) "
                                                  "VALUES(?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET "
                                                  "definition = excluded.definition, scale_min = excluded.scale_min, "
                                                  "scale_max = excluded.scale_max"),
                                   {a.name, notNull(a.definition), a.min, a.max});
                !e)
                return e;
            if (auto e = sql::exec(q, QStringLiteral("SELECT id FROM aspects WHERE name = ?"), {a.name}); !e)
                return e;
            if (!q.next())
                return makeError(tr("the aspect '%1' was not stored").arg(a.name), m_project->path());
            aspectRows.append(q.value(0).toLongLong());
            q.finish();
        }
        if (auto e = sql::exec(q, QStringLiteral("SELECT COALESCE(MAX(position) + 1, 0) FROM items")); !e)
            return e;
        int position = q.next() ? q.value(0).toInt() : 0;
        q.finish();

        QVector<qint64> itemRows;
        itemRows.reserve(items.size());
        if (!q.prepare(sql::withReturningId(db, QStringLiteral("INSERT INTO items(ext_id, position, group_id, "
                                                               "system_id, source_id, output_id, reference_id, "
                                                               "context_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?)"))))
            return makeError(q.lastError().text(), m_project->path());
        itemtexts::Interner texts(db); // an article shared by many outputs is written once
        for (qsizetype i = 0; i < items.size(); ++i) {
            const Item &it = items.at(i);
            q.bindValue(0, notNull(it.id));
            q.bindValue(1, position++);
            q.bindValue(2, notNull(it.group));
            q.bindValue(3, notNull(it.system));
            int column = 4;
            for (const QString &body : {it.source, it.output, it.reference,
                                        it.context.isEmpty() ? QStringLiteral("{}") : json::stringify(it.context)}) {
                const auto row = texts.intern(notNull(body));
                if (!row)
                    return import.itemFailed(row.errorString(), int(i));
                q.bindValue(column++, *row);
            }
            if (!q.exec())
                return import.itemFailed(q.lastError().text(), int(i));
            itemRows.append(sql::insertedId(q));
        }
        QSqlQuery a(db);
        if (!a.prepare(QStringLiteral("INSERT INTO annotations(item_id, aspect_id, annotator, score, note, created_at) "
                                      "VALUES(?, ?, ?, ?, '', ?)")))
            return makeError(a.lastError().text(), m_project->path());
        for (qsizetype s = 0; s < import.scores.size(); ++s) {
            const ImportedScore &p = import.scores.at(s);
            a.bindValue(0, itemRows.at(p.item));
            a.bindValue(1, aspectRows.at(p.aspect));
            a.bindValue(2, p.annotator);
            a.bindValue(3, p.score);
            a.bindValue(4, now);
            if (!a.exec())
                return import.scoreFailed(a.lastError().text(), int(s));
        }
        if (!import.task.isEmpty())
            return sql::exec(
                    q, QStringLiteral("INSERT INTO meta(key, value) VALUES('task', ?) ON CONFLICT(key) DO NOTHING"),
                    {import.task});
        return {};
    });
}

Result<void> ImportStore::writeAnnotations(const QStringList &newAspects, const QStringList &touchedAspects,
                                           const QVector<ImportedAnnotation> &rows, const QString &file)
{
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        QHash<QString, qint64> aspectRows;
        for (const QString &name : std::as_const(newAspects))
            if (auto e = sql::exec(q,
                                   QStringLiteral("INSERT INTO aspects(name, definition, scale_min, scale_max) "
                                                  "VALUES(?, '', 1, 5)"),
                                   {name});
                !e)
                return e;
        for (const QString &name : std::as_const(touchedAspects)) {
            if (auto e = sql::exec(q, QStringLiteral("SELECT id FROM aspects WHERE name = ?"), {name}); !e)
                return e;
            if (!q.next())
                return makeError(tr("the aspect '%1' was not stored").arg(name), m_project->path());
            aspectRows.insert(name, q.value(0).toLongLong());
            q.finish();
        }
        if (!q.prepare(QStringLiteral(
                    "INSERT INTO annotations(item_id, aspect_id, annotator, score, note, created_at) "
                    "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(item_id, aspect_id, annotator) DO UPDATE "
                    "SET score = excluded.score, note = excluded.note, created_at = excluded.created_at")))
            return makeError(q.lastError().text(), m_project->path());
        for (const ImportedAnnotation &row : std::as_const(rows)) {
            q.bindValue(0, row.itemRow);
            q.bindValue(1, aspectRows.value(row.aspect));
            q.bindValue(2, row.annotator);
            q.bindValue(3, row.score);
            q.bindValue(4, notNull(row.note));
            q.bindValue(5, now);
            if (!q.exec())
                return makeError(q.lastError().text(), file);
        }
        return {};
    });
}

} // namespace rubric
