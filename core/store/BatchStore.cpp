#include "store/BatchStore.h"

#include "store/Project.h"
#include "store/SqlDialect.h"
#include "store/SqlUtil.h"

#include <QCoreApplication>
#include <QSqlQuery>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::BatchStore", text);
}

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

const char *const columns = "id, provider, base_url, model, run, remote_id, input_file, state, remote_status, requests,"
                            " completed, failed, error, created_at, updated_at";

BatchRecord readRecord(const QSqlQuery &q)
{
    BatchRecord b;
    b.id = q.value(0).toLongLong();
    b.provider = q.value(1).toString();
    b.baseUrl = q.value(2).toString();
    b.model = q.value(3).toString();
    b.run = q.value(4).toString();
    b.remoteId = q.value(5).toString();
    b.inputFile = q.value(6).toString();
    b.state = q.value(7).toString();
    b.remoteStatus = q.value(8).toString();
    b.requests = q.value(9).toInt();
    b.completed = q.value(10).toInt();
    b.failed = q.value(11).toInt();
    b.error = q.value(12).toString();
    b.createdAt = QDateTime::fromString(q.value(13).toString(), Qt::ISODateWithMs);
    b.updatedAt = QDateTime::fromString(q.value(14).toString(), Qt::ISODateWithMs);
    return b;
}

} // namespace

BatchStatus BatchRecord::status() const
{
    BatchStatus s;
    s.remoteId = remoteId;
    s.state = state;
    s.remoteStatus = remoteStatus;
    s.requests = requests;
    s.completed = completed;
    s.failed = failed;
    s.waitedMs = createdAt.isValid() ? createdAt.msecsTo(open() ? QDateTime::currentDateTimeUtc() : updatedAt) : 0;
    return s;
}

BatchStore::BatchStore(Project *project)
    : m_project(project)
{
}

Error BatchStore::readError(const Result<void> &failed) const
{
    return makeError(tr("cannot read the provider batches: %1").arg(failed.errorString()), m_project->path());
}

Result<qint64> BatchStore::create(const BatchRecord &batch, const QVector<QPair<QString, QString>> &calls)
{
    qint64 id = 0;
    auto r = m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        const QString stamp = now();
        auto inserted = sql::insertReturningId(
                q,
                QStringLiteral("INSERT INTO judge_batches(provider, base_url, model, run, state, requests, created_at, "
                               "updated_at) VALUES(?, ?, ?, ?, 'preparing', ?, ?, ?)"),
                {sql::text(batch.provider), sql::text(batch.baseUrl), sql::text(batch.model), sql::text(batch.run),
                 int(calls.size()), stamp, stamp});
        if (!inserted)
            return inserted.error();
        id = *inserted;
        QSqlQuery row(db);
        if (auto p = sql::prepare(row, QStringLiteral("INSERT INTO judge_batch_requests(batch_id, key, request) "
                                                      "VALUES(?, ?, ?) ON CONFLICT DO NOTHING"));
            !p)
            return p;
        for (const auto &[key, request] : calls)
            if (auto w = sql::rebind(row, {id, key, request}); !w)
                return w;
        return {};
    });
    if (!r)
        return makeError(tr("cannot record the batch: %1").arg(r.errorString()), m_project->path());
    return id;
}

Result<void> BatchStore::setSubmitted(qint64 id, const QString &remoteId, const QString &inputFile)
{
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        return sql::exec(q,
                         QStringLiteral("UPDATE judge_batches SET remote_id = ?, input_file = ?, state = 'submitted', "
                                        "updated_at = ? WHERE id = ?"),
                         {remoteId, sql::text(inputFile), now(), id});
    });
}

Result<void> BatchStore::setInputFile(qint64 id, const QString &inputFile)
{
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        return sql::exec(q, QStringLiteral("UPDATE judge_batches SET input_file = ?, updated_at = ? WHERE id = ?"),
                         {inputFile, now(), id});
    });
}

Result<void> BatchStore::update(const BatchRecord &b)
{
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        return sql::exec(q,
                         QStringLiteral("UPDATE judge_batches SET state = ?, remote_status = ?, completed = ?, "
                                        "failed = ?, error = ?, updated_at = ? WHERE id = ?"),
                         {b.state, sql::text(b.remoteStatus), b.completed, b.failed, sql::text(b.error), now(), b.id});
    });
}

Result<void> BatchStore::markCalls(qint64 id, const QStringList &keys, const QString &state)
{
    if (keys.isEmpty())
        return {};
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        if (auto p = sql::prepare(q, QStringLiteral("UPDATE judge_batch_requests SET state = ? WHERE batch_id = ? AND "
                                                    "key = ?"));
            !p)
            return p;
        for (const QString &key : keys)
            if (auto w = sql::rebind(q, {state, id, key}); !w)
                return w;
        return {};
    });
}

Result<QVector<BatchRecord>> BatchStore::openBatches(const QString &provider, const QString &baseUrl,
                                                     const QString &model) const
{
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    auto r = sql::exec(q,
                       QStringLiteral("SELECT %1 FROM judge_batches WHERE provider = ? AND base_url = ? AND model = ? "
                                      "AND state IN ('preparing', 'submitted') ORDER BY id")
                               .arg(QLatin1String(columns)),
                       {provider, baseUrl, model});
    if (!r)
        return readError(r);
    QVector<BatchRecord> out;
    while (q.next())
        out.append(readRecord(q));
    return out;
}

Result<QVector<BatchRecord>> BatchStore::batches(const QString &run) const
{
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    const QString text = QStringLiteral("SELECT %1 FROM judge_batches").arg(QLatin1String(columns))
                         + (run.isEmpty() ? QString() : QStringLiteral(" WHERE run = ?"))
                         + QStringLiteral(" ORDER BY id");
    auto r = run.isEmpty() ? sql::exec(q, text) : sql::exec(q, text, {run});
    if (!r)
        return readError(r);
    QVector<BatchRecord> out;
    while (q.next())
        out.append(readRecord(q));
    return out;
}

Result<QHash<QString, QString>> BatchStore::pendingCalls(qint64 id) const
{
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    auto r = sql::exec(q,
                       QStringLiteral("SELECT key, request FROM judge_batch_requests WHERE batch_id = ? AND state = "
                                      "'pending'"),
                       {id});
    if (!r)
        return readError(r);
    QHash<QString, QString> out;
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toString());
    return out;
}

} // namespace rubric
