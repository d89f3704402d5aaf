#include "store/ImportStore.h"

#include "store/ItemTexts.h"
#include "store/Project.h"
#include "store/SqlDialect.h"
#include "store/SqlUtil.h"
#include "store/SqliteItemSink.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSqlError>
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

qint64 ImportStore::textAddress(QByteArrayView utf8)
{
    return itemtexts::address(utf8);
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

namespace {

/// Upserts `aspects` and returns their rows.
Result<QVector<qint64>> upsertAspects(QSqlQuery &q, const QVector<Aspect> &aspects, const QString &path)
{
    QVector<qint64> rows;
    for (const Aspect &a : aspects) {
        if (auto e = sql::exec(q,
                               QStringLiteral("INSERT INTO aspects(name, definition, scale_min, scale_max) "
                                              "VALUES(?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET "
                                              "definition = excluded.definition, scale_min = excluded.scale_min, "
                                              "scale_max = excluded.scale_max"),
                               {a.name, notNull(a.definition), a.min, a.max});
            !e)
            return e.error();
        if (auto e = sql::exec(q, QStringLiteral("SELECT id FROM aspects WHERE name = ?"), {a.name}); !e)
            return e.error();
        if (!q.next())
            return makeError(tr("the aspect '%1' was not stored").arg(a.name), path);
        rows.append(q.value(0).toLongLong());
        q.finish();
    }
    return rows;
}

class StreamSink : public ItemSink
{
public:
    StreamSink(QSqlDatabase &db, QVector<qint64> aspectRows, int firstPosition, QString now)
        : m_items(db)
        , m_scores(db)
        , m_lookup(db)
        , m_texts(db)
        , m_aspectRows(std::move(aspectRows))
        , m_first(firstPosition)
        , m_position(firstPosition)
        , m_now(std::move(now))
    {
        m_postgres = sql::isPostgres(db);
    }

    Result<void> prepare()
    {
        // ON CONFLICT DO NOTHING: a repeated id writes no row (and, on PostgreSQL, does not break
        // the transaction), so the importer can still ask where it was first.
        if (auto r = sql::prepare(m_items, QStringLiteral("INSERT INTO items(ext_id, position, group_id, system_id, "
                                                          "source_id, output_id, reference_id, context_id) VALUES(?, "
                                                          "?, ?, ?, ?, ?, ?, ?) ON CONFLICT(ext_id) DO NOTHING")
                                                   + (m_postgres ? QStringLiteral(" RETURNING id") : QString()));
            !r)
            return r;
        if (auto r = sql::prepare(m_scores, QStringLiteral("INSERT INTO annotations(item_id, aspect_id, annotator, "
                                                           "score, note, created_at) VALUES(?, ?, ?, ?, '', ?)"));
            !r)
            return r;
        return sql::prepare(m_lookup, QStringLiteral("SELECT position FROM items WHERE ext_id = ?"));
    }

    Result<Added> addItem(const ImportedItem &it) override
    {
        const QString id = QString::fromUtf8(it.id);
        m_items.bindValue(0, notNull(id));
        m_items.bindValue(1, m_position);
        m_items.bindValue(2, notNull(QString::fromUtf8(it.group)));
        m_items.bindValue(3, notNull(QString::fromUtf8(it.system)));
        int column = 4;
        for (const QByteArray &body : it.texts) {
            const auto row = m_texts.intern(notNull(QString::fromUtf8(body)));
            if (!row)
                return row.error();
            m_items.bindValue(column++, *row);
        }
        if (!m_items.exec())
            return makeError(m_items.lastError().text());
        Added added;
        if (m_items.numRowsAffected() == 0) {
            m_items.finish();
            if (auto r = sql::rebind(m_lookup, {notNull(id)}); !r)
                return r.error();
            const int position = m_lookup.next() ? m_lookup.value(0).toInt() : -1;
            m_lookup.finish();
            added.clashIndex = position >= m_first ? position - m_first : -1;
            return added;
        }
        if (m_postgres) {
            added.row = m_items.next() ? m_items.value(0).toLongLong() : -1;
        } else {
            added.row = m_items.lastInsertId().toLongLong();
        }
        m_items.finish();
        ++m_position;
        return added;
    }

    Result<void> addScore(qint64 itemRow, int aspect, const QString &annotator, double score) override
    {
        return sql::rebind(m_scores, {itemRow, m_aspectRows.at(aspect), annotator, score, m_now});
    }

private:
    QSqlQuery m_items, m_scores, m_lookup;
    itemtexts::Interner m_texts;
    QVector<qint64> m_aspectRows;
    int m_first = 0, m_position = 0;
    QString m_now;
    bool m_postgres = false;
};

} // namespace

Result<void> ImportStore::streamItems(const QVector<Aspect> &aspects, const QString &task,
                                      const std::function<Result<QVector<Aspect>>(ItemSink &)> &produce, bool dryRun)
{
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    bool checked = false;
    auto written = m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        auto aspectRows = upsertAspects(q, aspects, m_project->path());
        if (!aspectRows)
            return aspectRows.error();
        if (auto e = sql::exec(q, QStringLiteral("SELECT COALESCE(MAX(position) + 1, 0) FROM items")); !e)
            return e;
        const int first = q.next() ? q.value(0).toInt() : 0;
        q.finish();
        std::unique_ptr<ItemSink> sink;
        if (sql::isPostgres(db)) {
            auto qtSink = std::make_unique<StreamSink>(db, *aspectRows, first, now);
            if (auto r = qtSink->prepare(); !r)
                return makeError(r.errorString(), m_project->path());
            sink = std::move(qtSink);
        } else {
            auto opened = sqlitesink::open(db, *aspectRows, first, now);
            if (!opened)
                return makeError(opened.errorString(), m_project->path());
            sink = std::move(opened).value();
        }
        auto finalAspects = produce(*sink);
        sink.reset(); // its statements end before the commit
        if (!finalAspects)
            return finalAspects.error();
        if (auto r = upsertAspects(q, *finalAspects, m_project->path()); !r)
            return r.error();
        if (!task.isEmpty())
            if (auto r = sql::exec(q,
                                   QStringLiteral("INSERT INTO meta(key, value) VALUES('task', ?) ON "
                                                  "CONFLICT(key) DO NOTHING"),
                                   {task});
                !r)
                return r;
        if (dryRun) {
            checked = true;
            return makeError(QStringLiteral("dry run")); // rolls the transaction back
        }
        return {};
    });
    if (checked)
        return {};
    return written;
}

namespace {

class AnnotationWriter : public AnnotationSink
{
public:
    explicit AnnotationWriter(QSqlDatabase &db)
        : m_item(db)
        , m_aspect(db)
        , m_score(db)
        , m_now(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs))
    {
    }

    Result<void> prepare()
    {
        m_item.setForwardOnly(true);
        if (auto r = sql::prepare(m_item, QStringLiteral("SELECT id FROM items WHERE ext_id = ?")); !r)
            return r;
        return sql::prepare(m_score, QStringLiteral("INSERT INTO annotations(item_id, aspect_id, annotator, score, "
                                                    "note, created_at) VALUES(?, ?, ?, ?, ?, ?) ON "
                                                    "CONFLICT(item_id, aspect_id, annotator) DO UPDATE SET score = "
                                                    "excluded.score, note = excluded.note, created_at = "
                                                    "excluded.created_at"));
    }

    Result<qint64> itemRow(const QString &id) override
    {
        if (auto r = sql::rebind(m_item, {id}); !r)
            return r.error();
        const qint64 row = m_item.next() ? m_item.value(0).toLongLong() : -1;
        m_item.finish();
        return row;
    }

    Result<void> addAspect(const QString &name) override
    {
        return sql::exec(m_aspect,
                         QStringLiteral("INSERT INTO aspects(name, definition, scale_min, scale_max) VALUES(?, '', 1, "
                                        "5)"),
                         {name});
    }

    Result<void> add(qint64 itemRow, const QString &aspect, const QString &annotator, double score,
                     const QString &note) override
    {
        auto known = m_aspectRows.constFind(aspect);
        if (known == m_aspectRows.constEnd()) {
            if (auto e = sql::exec(m_aspect, QStringLiteral("SELECT id FROM aspects WHERE name = ?"), {aspect}); !e)
                return e;
            if (!m_aspect.next())
                return makeError(tr("the aspect '%1' was not stored").arg(aspect));
            known = m_aspectRows.insert(aspect, m_aspect.value(0).toLongLong());
            m_aspect.finish();
        }
        return sql::rebind(m_score, {itemRow, *known, annotator, score, notNull(note), m_now});
    }

private:
    QSqlQuery m_item, m_aspect, m_score;
    QHash<QString, qint64> m_aspectRows;
    QString m_now;
};

} // namespace

Result<void> ImportStore::streamAnnotations(const std::function<Result<void>(AnnotationSink &)> &produce)
{
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        AnnotationWriter writer(db);
        if (auto r = writer.prepare(); !r)
            return makeError(r.errorString(), m_project->path());
        return produce(writer);
    });
}

namespace {

class JudgeScoreWriter : public JudgeScoreSink
{
public:
    JudgeScoreWriter(QSqlDatabase &db, qint64 run, QVector<qint64> aspectRows)
        : m_item(db)
        , m_seen(db)
        , m_firstLine(db)
        , m_score(db)
        , m_run(run)
        , m_aspectRows(std::move(aspectRows))
    {
    }

    Result<void> prepare()
    {
        m_item.setForwardOnly(true);
        m_firstLine.setForwardOnly(true);
        for (auto [q, text] :
             {std::pair{&m_item, "SELECT id FROM items WHERE ext_id = ?"},
              std::pair{&m_seen, "INSERT INTO import_scored(item_id, line) VALUES(?, ?) ON CONFLICT(item_id) DO "
                                 "NOTHING"},
              std::pair{&m_firstLine, "SELECT line FROM import_scored WHERE item_id = ?"},
              std::pair{&m_score, "INSERT INTO judge_scores(run_id, item_id, aspect_id, score, status) VALUES(?, ?, "
                                  "?, ?, ?) ON CONFLICT(run_id, item_id, aspect_id) DO UPDATE SET score = "
                                  "excluded.score, status = excluded.status"}})
            if (auto r = sql::prepare(*q, QString::fromLatin1(text)); !r)
                return r;
        return {};
    }

    Result<Scored> add(const QString &id, int line, const QVector<double> &scores) override
    {
        Scored out;
        if (auto r = sql::rebind(m_item, {id}); !r)
            return r.error();
        const qint64 item = m_item.next() ? m_item.value(0).toLongLong() : -1;
        m_item.finish();
        if (item < 0) {
            out.unknownItem = true;
            return out;
        }
        if (auto r = sql::rebind(m_seen, {item, line}); !r)
            return r.error();
        if (m_seen.numRowsAffected() == 0) {
            if (auto r = sql::rebind(m_firstLine, {item}); !r)
                return r.error();
            out.firstLine = m_firstLine.next() ? m_firstLine.value(0).toInt() : -1;
            m_firstLine.finish();
            return out;
        }
        for (qsizetype a = 0; a < scores.size(); ++a) {
            const double score = scores.at(a);
            const bool missing = !(score == score);
            if (auto r = sql::rebind(m_score, {m_run, item, m_aspectRows.at(a), sql::nullableDouble(score),
                                               missing ? QStringLiteral("missing") : QStringLiteral("ok")});
                !r)
                return r.error();
        }
        return out;
    }

private:
    QSqlQuery m_item, m_seen, m_firstLine, m_score;
    qint64 m_run;
    QVector<qint64> m_aspectRows;
};

} // namespace

Result<void> ImportStore::streamJudgeScores(const QString &judge, const QStringList &aspects,
                                            const std::function<Result<void>(JudgeScoreSink &)> &produce)
{
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    auto written = m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        if (auto w = m_project->checkJudgeWritable(db, judge); !w)
            return w;
        QSqlQuery q(db);
        const Result<bool> found
                = sql::firstRow(q, QStringLiteral("SELECT id, method FROM runs WHERE name = ?"), {judge});
        if (!found.ok())
            return found.error();
        qint64 run = -1;
        if (*found) {
            if (q.value(1).toString() != QLatin1String("imported"))
                return makeError(tr("judge '%1' exists with method '%2'; imported scores need another name")
                                         .arg(judge, q.value(1).toString()),
                                 {}, 0, QStringLiteral("judge"));
            run = q.value(0).toLongLong();
            q.finish();
            if (auto r = sql::exec(q, QStringLiteral("UPDATE runs SET status = 'done', updated_at = ? WHERE id = ?"),
                                   {now, run});
                !r)
                return r;
        } else {
            q.finish();
            auto inserted = sql::insertReturningId(q,
                                                   QStringLiteral("INSERT INTO runs(name, method, config, status, "
                                                                  "created_at, updated_at) VALUES(?, 'imported', "
                                                                  "'{}', 'done', ?, ?)"),
                                                   {judge, now, now});
            if (!inserted)
                return inserted.error();
            run = *inserted;
        }
        QVector<qint64> aspectRows;
        for (const QString &name : aspects) {
            const Result<bool> aspect
                    = sql::firstRow(q, QStringLiteral("SELECT id FROM aspects WHERE name = ?"), {name});
            if (!aspect.ok())
                return aspect.error();
            if (!*aspect)
                return makeError(tr("no aspect named '%1' in the project").arg(name), {}, 0, QStringLiteral("aspect"));
            aspectRows.append(q.value(0).toLongLong());
            q.finish();
        }
        // The items scored so far (a repeated one is refused with the line of the first), kept in
        // the database rather than in memory; the transaction drops it (or never made it).
        for (const char *statement : {"DROP TABLE IF EXISTS import_scored",
                                      "CREATE TEMP TABLE import_scored(item_id BIGINT PRIMARY KEY, line BIGINT NOT "
                                      "NULL)"})
            if (!q.exec(QString::fromLatin1(statement))) // (DDL: PostgreSQL prepares none)
                return makeError(q.lastError().text());
        {
            JudgeScoreWriter writer(db, run, aspectRows);
            if (auto r = writer.prepare(); !r)
                return r;
            if (auto r = produce(writer); !r)
                return r;
        }
        if (!q.exec(QStringLiteral("DROP TABLE import_scored")))
            return makeError(q.lastError().text());
        return {};
    });
    if (written) {
        emit m_project->judgesChanged(judge);
        m_project->announceChange({QStringLiteral("judge"), judge});
    }
    return written;
}

} // namespace rubric
