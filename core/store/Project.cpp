#include "Project.h"

#include "DatabaseUrl.h"
#include "ItemTexts.h"
#include "Schema.h"
#include "SqlDialect.h"
#include "SqlUtil.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlDriver>
#include <QThread>
#include <QUuid>

#include <atomic>

// Opening, connections and the writers; the readers are in ProjectReaders.cpp.

namespace rubric {
namespace {

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

Result<void> configure(QSqlDatabase &db, const QString &path)
{
    QSqlQuery q(db);
    // Memory-mapped reads and a 64 MiB page cache: a run looks up the judge cache for every
    // request, and each page read through a system call is dear (measured by bench_run_efficiency).
    for (const char *pragma :
         {"PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 10000", "PRAGMA journal_mode = WAL",
          "PRAGMA synchronous = NORMAL", "PRAGMA mmap_size = 268435456", "PRAGMA cache_size = -65536"}) {
        if (!q.exec(QString::fromLatin1(pragma)))
            return makeError(q.lastError().text(), path);
    }
    return {};
}

} // namespace

Project::Project(QString path)
    : m_path(std::move(path))
    , m_connectionPrefix(QStringLiteral("rubric-") + QUuid::createUuid().toString(QUuid::Id128))
{
}

Project::~Project()
{
    QMutexLocker lock(&m_mutex);
    // Not QSqlDatabase::database(): that may only be called from the connection's own thread.
    for (const QString &name : std::as_const(m_connections))
        QSqlDatabase::removeDatabase(name);
}

Result<std::unique_ptr<Project>> Project::open(const QString &path, OpenMode mode)
{
    if (DatabaseUrl::isDatabaseUrl(path))
        return openDatabase(path);

    const QFileInfo info(path);
    if (mode == OpenMode::OpenExisting && !info.exists())
        return makeError(tr("no such project file"), path);
    if (info.exists() && info.isDir())
        return makeError(tr("is a folder, not a project file"), path);

    if (info.exists() && info.size() > 0) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(tr("cannot read the file: %1").arg(f.errorString()), path);
        if (f.read(16) != QByteArray("SQLite format 3\0", 16))
            return makeError(tr("not a Rubric Studio project (not an SQLite database)"), path);
    }

    std::unique_ptr<Project> project(new Project(QFileInfo(path).absoluteFilePath()));
    QSqlDatabase db = project->database();
    if (!db.isOpen())
        return makeError(tr("cannot open the project: %1").arg(db.lastError().text()), path);
    if (auto r = configure(db, path); !r)
        return r.error();
    if (auto r = schema::migrate(db, path); !r)
        return r.error();
    return project;
}

Result<std::unique_ptr<Project>> Project::openDatabase(const QString &urlText)
{
    auto url = DatabaseUrl::parse(urlText);
    if (!url)
        return url.error();
    for (const QString &warning : url->warnings) // said, not refused: a lab's own network may be trusted
        qWarning("%s: %s", qPrintable(url->redacted()), qPrintable(warning));
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
        return makeError(tr("Qt's PostgreSQL driver (QPSQL) is not installed; on Debian install libqt6sql6-psql "
                            "(scripts/install-deps.sh)"),
                         url->redacted());
    // The database itself must exist (an administrator creates it, README "A team database");
    // an empty one gets the schema, as an empty project file does.
    std::unique_ptr<Project> project(new Project(url->redacted()));
    project->m_url = std::make_unique<DatabaseUrl>(*url);
    QSqlDatabase db = project->database();
    if (!db.isOpen())
        return makeError(tr("cannot connect to the database: %1").arg(db.lastError().text()), url->redacted());
    if (auto r = schema::migrate(db, url->redacted()); !r)
        return r.error();
    if (auto r = project->listenForChanges(); !r)
        return r.error();
    return project;
}

namespace {
/// The channel of a team database's change announcements; its payload is a JSON array:
/// [sender, "annotation", item, aspect] | [sender, "annotations"] | [sender, "judge", name].
constexpr const char *changeChannel = "rubric_changes";
/// PostgreSQL refuses payloads from 8000 bytes on.
constexpr qsizetype maxPayload = 7000;
} // namespace

Result<void> Project::listenForChanges()
{
    QSqlDatabase db = database();
    QSqlDriver *driver = db.driver();
    if (!driver || !driver->hasFeature(QSqlDriver::EventNotifications)
        || !driver->subscribeToNotification(QString::fromLatin1(changeChannel)))
        return makeError(tr("cannot listen for other annotators' changes: %1").arg(db.lastError().text()), m_path);
    connect(driver, &QSqlDriver::notification, this,
            [this](const QString &channel, QSqlDriver::NotificationSource, const QVariant &payload) {
                onNotification(channel, payload);
            });
    return {};
}

void Project::announceChange(const QStringList &change)
{
    if (!m_url)
        return;
    QJsonArray fields{m_connectionPrefix};
    for (const QString &s : change)
        fields.append(s);
    QByteArray payload = QJsonDocument(fields).toJson(QJsonDocument::Compact);
    if (payload.size() > maxPayload)
        payload = QJsonDocument(QJsonArray{m_connectionPrefix, QStringLiteral("annotations")})
                          .toJson(QJsonDocument::Compact);
    QSqlQuery q(database());
    // A failed announcement loses no data: the others see the change when they next read.
    (void)sql::exec(q, QStringLiteral("SELECT pg_notify(?, ?)"),
                    {QString::fromLatin1(changeChannel), QString::fromUtf8(payload)});
}

void Project::onNotification(const QString &channel, const QVariant &payload)
{
    if (channel != QLatin1String(changeChannel))
        return;
    const QJsonArray fields = QJsonDocument::fromJson(payload.toString().toUtf8()).array();
    // Our own changes were announced by the writer already.
    if (fields.size() < 2 || fields.at(0).toString() == m_connectionPrefix)
        return;
    const QString kind = fields.at(1).toString();
    if (kind == QLatin1String("annotation") && fields.size() == 4)
        emit annotationChanged(fields.at(2).toString(), fields.at(3).toString());
    else if (kind == QLatin1String("annotations"))
        emit annotationsReset();
    else if (kind == QLatin1String("judge") && fields.size() == 3)
        emit judgesChanged(fields.at(2).toString());
}

QSqlDatabase Project::database() const
{
    // A number per thread for the life of the process: a later thread at the same address
    // must not inherit a finished thread's connection.
    static std::atomic<quint64> nextThreadId{0};
    thread_local const quint64 threadId = ++nextThreadId;
    const QString name = m_connectionPrefix + QStringLiteral("-") + QString::number(threadId);
    if (QSqlDatabase::contains(name))
        return QSqlDatabase::database(name);
    QSqlDatabase db;
    if (m_url) {
        db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(m_url->host);
        db.setPort(m_url->port);
        db.setUserName(m_url->user);
        db.setPassword(m_url->password);
        db.setDatabaseName(m_url->database);
        db.setConnectOptions(m_url->options);
        db.open();
    } else {
        db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(m_path);
        if (db.open()) {
            // The same per-connection settings as the first connection (WAL is the file's own):
            // without synchronous = NORMAL a worker thread's every commit would wait for the disk.
            QSqlQuery q(db);
            for (const char *pragma :
                 {"PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 10000", "PRAGMA synchronous = NORMAL",
                  "PRAGMA mmap_size = 268435456", "PRAGMA cache_size = -65536"})
                q.exec(QString::fromLatin1(pragma));
        }
    }
    QMutexLocker lock(&m_mutex);
    m_connections.append(name);
    return db;
}

bool Project::isTeamDatabase() const
{
    return m_url != nullptr;
}

Result<void> Project::transact(const std::function<Result<void>(QSqlDatabase &)> &body)
{
    QSqlDatabase db = database();
    if (!db.transaction())
        return makeError(tr("cannot start a transaction: %1").arg(db.lastError().text()), m_path);
    Result<void> r = body(db);
    if (!r) {
        db.rollback();
        return r;
    }
    if (!db.commit()) {
        const QString err = db.lastError().text();
        db.rollback();
        return makeError(tr("cannot commit: %1").arg(err), m_path);
    }
    return {};
}

Result<void> Project::setMeta(const QString &key, const QString &value)
{
    QSqlQuery q(database());
    return sql::exec(q,
                     QStringLiteral("INSERT INTO meta(key, value) VALUES(?, ?) "
                                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value"),
                     {key, value});
}

// ---------------------------------------------------------------- items

Result<void> Project::addItems(const QVector<Item> &items)
{
    auto r = transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        if (!sql::exec(q, QStringLiteral("SELECT COALESCE(MAX(position) + 1, 0) FROM items")) || !q.next())
            return makeError(q.lastError().text(), m_path);
        int position = q.value(0).toInt();
        if (!q.prepare(QStringLiteral("INSERT INTO items(ext_id, position, group_id, system_id, source_id, output_id, "
                                      "reference_id, context_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?)")))
            return makeError(q.lastError().text(), m_path);
        itemtexts::Interner texts(db);
        for (const Item &it : items) {
            q.addBindValue(sql::text(it.id));
            q.addBindValue(position++);
            q.addBindValue(sql::text(it.group));
            q.addBindValue(sql::text(it.system));
            for (const QString &body : {it.source, it.output, it.reference,
                                        it.context.isEmpty() ? QStringLiteral("{}") : json::stringify(it.context)}) {
                const auto row = texts.intern(body);
                if (!row)
                    return makeError(row.errorString(), m_path);
                q.addBindValue(*row);
            }
            if (!q.exec()) {
                const bool duplicate = sql::isUniqueViolation(q.lastError());
                return makeError(duplicate ? tr("item id '%1' is already in the project").arg(it.id)
                                           : q.lastError().text(),
                                 m_path, 0, QStringLiteral("id"));
            }
        }
        return {};
    });
    if (r)
        emit itemsChanged();
    return r;
}

// ---------------------------------------------------------------- aspects

Result<void> Project::upsertAspect(const Aspect &a)
{
    if (a.name.trimmed().isEmpty())
        return makeError(tr("an aspect needs a name"), m_path, 0, QStringLiteral("aspect"));
    if (!(a.min < a.max))
        return makeError(
                tr("aspect '%1': the scale minimum %2 must be below the maximum %3").arg(a.name).arg(a.min).arg(a.max),
                m_path, 0, QStringLiteral("scale"));
    QSqlQuery q(database());
    auto r = sql::exec(q,
                       QStringLiteral("INSERT INTO aspects(name, definition, scale_min, scale_max) VALUES(?, ?, ?, ?) "
                                      "ON CONFLICT(name) DO UPDATE SET definition = excluded.definition, "
                                      "scale_min = excluded.scale_min, scale_max = excluded.scale_max"),
                       {a.name, sql::text(a.definition), a.min, a.max});
    if (r)
        emit aspectsChanged();
    return r;
}

Result<qint64> Project::aspectRowId(QSqlDatabase &db, const QString &name) const
{
    QSqlQuery q(db);
    const Result<bool> found = sql::firstRow(q, QStringLiteral("SELECT id FROM aspects WHERE name = ?"), {name});
    if (!found.ok())
        return readError(tr("the aspect '%1'").arg(name), Result<void>(found.error()));
    return *found ? q.value(0).toLongLong() : qint64(-1);
}

// ---------------------------------------------------------------- annotations

static Result<void> insertAnnotation(QSqlQuery &q, qint64 itemRow, qint64 aspectRow, const Annotation &a)
{
    return sql::exec(
            q,
            QStringLiteral("INSERT INTO annotations(item_id, aspect_id, annotator, score, note, created_at) "
                           "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(item_id, aspect_id, annotator) DO UPDATE "
                           "SET score = excluded.score, note = excluded.note, created_at = excluded.created_at"),
            {itemRow, aspectRow, a.annotator, a.score, sql::text(a.note),
             (a.time.isValid() ? a.time.toUTC() : QDateTime::currentDateTimeUtc()).toString(Qt::ISODateWithMs)});
}

Result<void> Project::setAnnotation(const Annotation &a)
{
    auto r = addAnnotations({a});
    return r;
}

Result<void> Project::addAnnotations(const QVector<Annotation> &list)
{
    QSet<QPair<QString, QString>> touched;
    auto r = transact([&](QSqlDatabase &db) -> Result<void> {
        QHash<QString, qint64> aspectRows;
        QHash<QString, QPair<double, double>> scales;
        QSqlQuery q(db);
        QSqlQuery lookup(db);
        for (const Annotation &a : list) {
            if (!aspectRows.contains(a.aspect)) {
                const auto asp = readAspect(a.aspect);
                if (!asp)
                    return asp.error();
                if (!*asp)
                    return makeError(tr("no aspect named '%1' in the project").arg(a.aspect), {}, 0,
                                     QStringLiteral("aspect"));
                const auto row = aspectRowId(db, a.aspect);
                if (!row)
                    return row.error();
                aspectRows.insert(a.aspect, *row);
                scales.insert(a.aspect, {(*asp)->min, (*asp)->max});
            }
            const auto [lo, hi] = scales.value(a.aspect);
            if (!(a.score >= lo && a.score <= hi))
                return makeError(
                        tr("score %1 for '%2' is outside its scale %3–%4").arg(a.score).arg(a.aspect).arg(lo).arg(hi),
                        {}, 0, QStringLiteral("score"));
            if (a.annotator.trimmed().isEmpty())
                return makeError(tr("an annotation needs an annotator name"), {}, 0, QStringLiteral("annotator"));
            const Result<bool> found
                    = sql::firstRow(lookup, QStringLiteral("SELECT id FROM items WHERE ext_id = ?"), {a.itemId});
            if (!found.ok())
                return readError(tr("the item '%1'").arg(a.itemId), Result<void>(found.error()));
            if (!*found)
                return makeError(tr("no item with id '%1' in the project").arg(a.itemId), {}, 0,
                                 QStringLiteral("item_id"));
            const qint64 itemRow = lookup.value(0).toLongLong();
            lookup.finish();
            if (auto w = insertAnnotation(q, itemRow, aspectRows.value(a.aspect), a); !w)
                return w;
            touched.insert({a.itemId, a.aspect});
        }
        return {};
    });
    if (r) {
        if (touched.size() == 1) {
            emit annotationChanged(touched.begin()->first, touched.begin()->second);
            announceChange({QStringLiteral("annotation"), touched.begin()->first, touched.begin()->second});
        } else if (!touched.isEmpty()) {
            emit annotationsReset();
            announceChange({QStringLiteral("annotations")});
        }
    }
    return r;
}

Result<void> Project::removeAnnotation(const QString &itemId, const QString &aspect, const QString &annotator)
{
    QSqlQuery q(database());
    auto r = sql::exec(q,
                       QStringLiteral("DELETE FROM annotations WHERE annotator = ? AND item_id = (SELECT id FROM items "
                                      "WHERE ext_id = ?) AND aspect_id = (SELECT id FROM aspects WHERE name = ?)"),
                       {annotator, itemId, aspect});
    if (r) {
        emit annotationChanged(itemId, aspect);
        announceChange({QStringLiteral("annotation"), itemId, aspect});
    }
    return r;
}

// ---------------------------------------------------------------- split

Result<void> Project::setSplit(const QHash<QString, SplitRole> &roles)
{
    auto r = transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        if (auto d = sql::exec(q, QStringLiteral("DELETE FROM splits")); !d)
            return d;
        for (auto it = roles.begin(); it != roles.end(); ++it) {
            if (it.value() == SplitRole::None)
                continue;
            if (auto w = sql::exec(
                        q, QStringLiteral("INSERT INTO splits(item_id, role) SELECT id, ? FROM items WHERE ext_id = ?"),
                        {splitRoleName(it.value()), it.key()});
                !w)
                return w;
            if (q.numRowsAffected() != 1)
                return makeError(tr("no item with id '%1' in the project").arg(it.key()), {}, 0,
                                 QStringLiteral("item_id"));
        }
        return {};
    });
    if (r)
        emit splitChanged();
    return r;
}

// ---------------------------------------------------------------- judges

Result<qint64> Project::ensureJudge(const QString &name, const QString &method, const QString &configJson)
{
    if (name.trimmed().isEmpty())
        return makeError(tr("a judge needs a name"), {}, 0, QStringLiteral("judge"));
    QSqlQuery q(database());
    const Result<bool> found = sql::firstRow(q, QStringLiteral("SELECT id, method FROM runs WHERE name = ?"), {name});
    if (!found.ok())
        return readError(tr("the judge '%1'").arg(name), Result<void>(found.error()));
    if (*found) {
        if (q.value(1).toString() != method)
            return makeError(
                    tr("judge '%1' already exists with method '%2', not '%3'").arg(name, q.value(1).toString(), method),
                    {}, 0, QStringLiteral("judge"));
        return q.value(0).toLongLong();
    }
    const QString t = now();
    const Result<qint64> inserted
            = sql::insertReturningId(q,
                                     QStringLiteral("INSERT INTO runs(name, method, config, status, created_at, "
                                                    "updated_at) VALUES(?, ?, ?, 'new', ?, ?)"),
                                     {name, method, configJson.isEmpty() ? QStringLiteral("{}") : configJson, t, t});
    if (!inserted)
        return inserted.error();
    const qint64 id = *inserted;
    emit judgesChanged(name);
    return id;
}

Result<void> Project::checkJudgeWritable(QSqlDatabase &db, const QString &judge) const
{
    if (!m_url)
        return {};
    {
        QMutexLocker lock(&m_mutex);
        if (m_heldJudges.contains(judge))
            return {};
    }
    // A shared lock for the rest of the transaction (or this statement): a run that holds the
    // judge refuses it, and no run can claim the judge while this write is under way.
    QSqlQuery q(db);
    const Result<bool> row = sql::firstRow(
            q, QStringLiteral("SELECT pg_try_advisory_xact_lock_shared(hashtext('rubric'), hashtext(?))"),
            {QString(QStringLiteral("judge:") + judge)});
    if (!row.ok())
        return row.error();
    if (!*row || !q.value(0).toBool())
        return makeError(tr("judge '%1' is being written by another run; wait for it to finish, or run "
                            "under another judge name")
                                 .arg(judge),
                         m_path, 0, QStringLiteral("judge"));
    return {};
}

Result<void> Project::claimJudge(const QString &name)
{
    if (!m_url)
        return {};
    {
        QMutexLocker lock(&m_mutex);
        if (m_heldJudges.contains(name))
            return {};
    }
    QSqlDatabase db = database();
    const Result<bool> taken = sql::tryLock(db, QStringLiteral("judge:") + name);
    if (!taken.ok())
        return taken.error();
    if (!*taken)
        return makeError(tr("judge '%1' is being written by another run; wait for it to finish, or run "
                            "under another judge name")
                                 .arg(name),
                         m_path, 0, QStringLiteral("judge"));
    QMutexLocker lock(&m_mutex);
    m_heldJudges.insert(name, db.connectionName());
    return {};
}

void Project::releaseJudge(const QString &name)
{
    QString connection;
    {
        QMutexLocker lock(&m_mutex);
        connection = m_heldJudges.value(name);
    }
    // The lock belongs to the connection that took it; only that thread can let it go (a claim
    // left behind ends with the Project's connections).
    if (connection.isEmpty() || database().connectionName() != connection)
        return;
    QSqlDatabase db = database();
    if (sql::unlock(db, QStringLiteral("judge:") + name).ok()) {
        QMutexLocker lock(&m_mutex);
        m_heldJudges.remove(name);
    }
}

Result<void> Project::setJudgeStatus(const QString &name, const QString &status)
{
    const bool running = status == QLatin1String("running");
    if (running) {
        if (auto c = claimJudge(name); !c)
            return c;
    }
    QSqlDatabase db = database();
    if (auto w = checkJudgeWritable(db, name); !w)
        return w;
    QSqlQuery q(db);
    auto r = sql::exec(q, QStringLiteral("UPDATE runs SET status = ?, updated_at = ? WHERE name = ?"),
                       {status, now(), name});
    if (!running)
        releaseJudge(name);
    if (r) {
        emit judgesChanged(name);
        announceChange({QStringLiteral("judge"), name});
    }
    return r;
}

Result<void> Project::removeJudge(const QString &name)
{
    // The judge's issues (refused items, run failures) go with it; the judge cache and the
    // ledger stay (paid answers are never thrown away).
    auto r = transact([&](QSqlDatabase &db) -> Result<void> {
        if (auto w = checkJudgeWritable(db, name); !w)
            return w;
        QSqlQuery q(db);
        if (auto d = sql::exec(q, QStringLiteral("DELETE FROM issues WHERE run = ?"), {name}); !d)
            return d;
        return sql::exec(q, QStringLiteral("DELETE FROM runs WHERE name = ?"), {name});
    });
    if (r) {
        emit judgesChanged(name);
        announceChange({QStringLiteral("judge"), name});
    }
    return r;
}

Result<void> Project::setJudgeScores(const QString &judge, const QString &aspect, const QHash<QString, double> &scores)
{
    auto r = transact([&](QSqlDatabase &db) -> Result<void> {
        if (auto w = checkJudgeWritable(db, judge); !w)
            return w;
        QSqlQuery q(db);
        const Result<bool> found = sql::firstRow(q, QStringLiteral("SELECT id FROM runs WHERE name = ?"), {judge});
        if (!found.ok())
            return readError(tr("the judge '%1'").arg(judge), Result<void>(found.error()));
        if (!*found)
            return makeError(tr("no judge named '%1'").arg(judge), {}, 0, QStringLiteral("judge"));
        const qint64 runId = q.value(0).toLongLong();
        const auto aspectRowRead = aspectRowId(db, aspect);
        if (!aspectRowRead)
            return aspectRowRead.error();
        const qint64 aspectRow = *aspectRowRead;
        if (aspectRow < 0)
            return makeError(tr("no aspect named '%1' in the project").arg(aspect), {}, 0, QStringLiteral("aspect"));
        if (auto p = sql::prepare(q, QStringLiteral("INSERT INTO judge_scores(run_id, item_id, aspect_id, score, "
                                                    "status) SELECT ?, id, ?, ?, ? FROM items WHERE ext_id = ? "
                                                    "ON CONFLICT(run_id, item_id, aspect_id) DO UPDATE SET "
                                                    "score = excluded.score, status = excluded.status"));
            !p)
            return p;
        for (auto it = scores.begin(); it != scores.end(); ++it) {
            const bool missing = !(it.value() == it.value());
            if (auto w = sql::rebind(q, {runId, aspectRow, sql::nullableDouble(it.value()),
                                         missing ? QStringLiteral("missing") : QStringLiteral("ok"), it.key()});
                !w)
                return w;
            if (q.numRowsAffected() != 1)
                return makeError(tr("no item with id '%1' in the project").arg(it.key()), {}, 0, QStringLiteral("id"));
        }
        return sql::exec(q, QStringLiteral("UPDATE runs SET updated_at = ? WHERE id = ?"), {now(), runId});
    });
    if (r) {
        emit judgesChanged(judge);
        announceChange({QStringLiteral("judge"), judge});
    }
    return r;
}

Result<void> Project::addIssue(const QString &kind, const QString &message, const QString &run, const QString &itemId)
{
    QSqlQuery q(database());
    auto r = sql::exec(
            q, QStringLiteral("INSERT INTO issues(kind, run, item_ext_id, message, created_at) VALUES(?, ?, ?, ?, ?)"),
            {kind, sql::text(run), sql::text(itemId), message, now()});
    if (r)
        emit issuesChanged();
    return r;
}

} // namespace rubric
