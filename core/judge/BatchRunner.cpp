#include "judge/BatchRunner.h"

#include "judge/EndpointPool.h"
#include "judge/Provider.h"

#include <QCoreApplication>

namespace rubric {
BatchRunner::BatchRunner(Project *project, const ProviderProfile &profile, const Provider *provider,
                         QNetworkAccessManager *nam, std::function<QString(const QString &)> redact,
                         Callbacks callbacks, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_profile(profile)
    , m_provider(provider)
    , m_store(project)
    , m_nam(nam)
    , m_redact(std::move(redact))
    , m_callbacks(std::move(callbacks))
{
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &BatchRunner::pollAll);
}

BatchRunner::~BatchRunner() = default;

void BatchRunner::setOptions(const BatchOptions &options)
{
    m_options = options;
    m_options.threshold = std::max(1, m_options.threshold);
    m_options.pollMs = std::max(10, m_options.pollMs);
    m_options.maxPerBatch = std::max(1, m_options.maxPerBatch);
    m_nextPollMs = std::min(m_options.pollMs, 1000);
}

Result<void> BatchRunner::load()
{
    // A batch belongs to the endpoint that took it: another endpoint of the same provider and
    // model (a local server beside the cloud one) knows nothing of it and must not hold its calls.
    auto open = m_store.openBatches(Provider::kindName(m_profile.kind), EndpointPool::normalisedUrl(m_profile.baseUrl),
                                    m_profile.model);
    if (!open)
        return open.error();
    for (BatchRecord &record : *open) {
        if (m_open.count(record.id))
            continue;
        if (record.remoteId.isEmpty() && record.inputFile.isEmpty()) {
            // Recorded, but the process stopped before anything reached the provider (or, for
            // Anthropic, before it named the batch): its calls are sent again.
            record.state = QStringLiteral("failed");
            record.error = tr("the program stopped before the batch was created; its calls are sent again");
            if (auto r = m_store.update(record); !r)
                return r;
            continue;
        }
        // With an input file but no id (OpenAI: stopped while the batch was being created): its calls
        // wait until start() found out from the provider's list whether the batch exists.
        auto calls = m_store.pendingCalls(record.id);
        if (!calls)
            return calls.error();
        Open o;
        o.record = record;
        for (auto it = calls->cbegin(); it != calls->cend(); ++it) {
            o.pending.insert(it.key());
            m_byKey.insert(it.key(), record.id);
        }
        m_open.emplace(record.id, std::move(o));
    }
    return {};
}

void BatchRunner::start(const BatchClient::Headers &headers)
{
    m_client = std::make_unique<BatchClient>(m_profile.kind, m_profile.baseUrl, headers, m_profile.timeoutMs, m_nam,
                                             m_redact, this);
    for (auto it = m_unsent.begin(); it != m_unsent.end(); ++it)
        create(it.key(), std::move(it.value()));
    m_unsent.clear();
    for (auto &[id, open] : m_open)
        if (open.record.remoteId.isEmpty() && !open.record.inputFile.isEmpty() && !open.busy)
            recover(id);
    // Batches an earlier process left may have ended long ago: asked for at once.
    for (const auto &[id, open] : m_open)
        if (!open.record.remoteId.isEmpty()) {
            m_pollTimer.start(0);
            return;
        }
}

bool BatchRunner::holds(const QString &key) const
{
    return m_byKey.contains(key);
}

void BatchRunner::submit(const QString &run, const QVector<Call> &calls)
{
    for (qsizetype from = 0; from < calls.size(); from += m_options.maxPerBatch) {
        const QVector<Call> part = calls.mid(from, m_options.maxPerBatch);
        BatchRecord record;
        record.provider = Provider::kindName(m_profile.kind);
        record.baseUrl = EndpointPool::normalisedUrl(m_profile.baseUrl);
        record.model = m_profile.model;
        record.run = run;
        QVector<QPair<QString, QString>> rows;
        QVector<BatchClient::Line> lines;
        rows.reserve(part.size());
        lines.reserve(part.size());
        for (const Call &c : part) {
            rows.append({c.key, c.canonical});
            lines.append({c.key, c.body});
        }
        auto id = m_store.create(record, rows);
        if (!id) { // nothing recorded: nothing is sent as a batch
            m_lastError = id.errorString();
            for (const Call &c : part)
                m_callbacks.failed(c.key, id.errorString(), {});
            continue;
        }
        record.id = *id;
        record.requests = int(part.size());
        record.createdAt = record.updatedAt = QDateTime::currentDateTimeUtc();
        Open o;
        o.record = record;
        for (const Call &c : part) {
            o.pending.insert(c.key);
            m_byKey.insert(c.key, *id);
        }
        m_open.emplace(*id, std::move(o));
        if (m_client)
            create(*id, std::move(lines));
        else
            m_unsent.insert(*id, std::move(lines));
    }
    emit changed();
}

void BatchRunner::create(qint64 id, QVector<BatchClient::Line> lines)
{
    m_open[id].busy = true;
    const auto uploaded = [this, id](const QString &inputFile) {
        note(m_store.setInputFile(id, inputFile));
        if (auto it = m_open.find(id); it != m_open.end())
            it->second.record.inputFile = inputFile;
    };
    m_client->create(
            lines,
            [this, id](Result<BatchClient::Created> created) {
                auto it = m_open.find(id);
                if (it == m_open.end())
                    return;
                it->second.busy = false;
                if (!created) {
                    m_lastError = created.errorString();
                    giveBack(it->second, it->second.pending.values(), created.errorString());
                    close(id, QStringLiteral("failed"), created.errorString());
                    return;
                }
                if (auto r = m_store.setSubmitted(id, created->remoteId, created->inputFile); !r) {
                    // The provider has the batch but the project could not say so: keep it in this process.
                    m_lastError = r.errorString();
                    qWarning("cannot record batch %s: %s", qPrintable(created->remoteId), qPrintable(r.errorString()));
                }
                it->second.record.remoteId = created->remoteId;
                it->second.record.inputFile = created->inputFile;
                it->second.record.state = QStringLiteral("submitted");
                m_nextPollMs = std::min(m_options.pollMs, 1000);
                m_pollTimer.stop();
                emit changed();
                schedule();
            },
            uploaded);
}

void BatchRunner::recover(qint64 id)
{
    Open &open = m_open.at(id);
    open.busy = true;
    m_client->findByInputFile(open.record.inputFile, [this, id](Result<QString> found) {
        auto it = m_open.find(id);
        if (it == m_open.end())
            return;
        Open &o = it->second;
        o.busy = false;
        if (!found) { // asked again when the engine starts next time; the calls keep waiting for it
            m_lastError = found.errorString();
            o.record.error = found.errorString();
            emit changed();
            return;
        }
        if (found->isEmpty()) { // never created: its calls are sent again
            giveBack(o, o.pending.values(), tr("the program stopped before the batch was created"));
            close(id, QStringLiteral("failed"), tr("the program stopped before the batch was created"));
            return;
        }
        note(m_store.setSubmitted(id, *found, o.record.inputFile));
        o.record.remoteId = *found;
        o.record.state = QStringLiteral("submitted");
        emit changed();
        m_pollTimer.stop();
        m_pollTimer.start(0);
    });
}

void BatchRunner::schedule()
{
    if (!m_client || m_pollTimer.isActive())
        return;
    for (const auto &[id, open] : m_open)
        if (!open.record.remoteId.isEmpty()) {
            // 1 s after a batch was created, then twice as long each time, up to the poll interval:
            // a small batch is taken in soon, a long one is not asked for every second.
            m_pollTimer.start(m_nextPollMs);
            m_nextPollMs = std::min(m_options.pollMs, 2 * m_nextPollMs);
            return;
        }
}

void BatchRunner::pollAll()
{
    for (auto &[id, open] : m_open) {
        if (open.busy || open.record.remoteId.isEmpty())
            continue;
        open.busy = true;
        const qint64 batchId = id;
        m_client->poll(open.record.remoteId, [this, batchId](Result<BatchClient::Poll> poll) {
            auto it = m_open.find(batchId);
            if (it == m_open.end())
                return;
            Open &o = it->second;
            o.busy = false;
            if (!poll) { // asked again at the next interval, up to maxFailedPolls times in a row
                pollFailed(batchId, poll.errorString());
                schedule();
                return;
            }
            o.failedPolls = 0;
            o.record.remoteStatus = poll->status;
            o.record.completed = poll->completed;
            o.record.failed = poll->failed;
            o.record.error.clear();
            note(m_store.update(o.record));
            emit changed();
            if (poll->ended) {
                o.busy = true;
                takeResults(batchId, *poll);
            }
            schedule();
        });
    }
}

void BatchRunner::takeResults(qint64 id, const BatchClient::Poll &poll)
{
    m_client->results(poll, [this, id, poll](Result<BatchClient::Results> lines) {
        auto it = m_open.find(id);
        if (it == m_open.end())
            return;
        Open &o = it->second;
        o.busy = false;
        if (!lines) { // downloaded again at the next interval, up to maxFailedPolls times in a row
            pollFailed(id, lines.errorString());
            schedule();
            return;
        }
        auto canonical = m_store.pendingCalls(id);
        if (!canonical) {
            m_lastError = canonical.errorString();
            schedule();
            return;
        }
        const QString remote = o.record.remoteId;
        QStringList answered, failed;
        QSet<QString> seen; // a custom_id given twice is read once (recorded and paid once)
        for (const BatchClient::Outcome &line : lines->outcomes) {
            if (!o.pending.contains(line.customId) || seen.contains(line.customId))
                continue;
            seen.insert(line.customId);
            if (line.ok) {
                auto parsed = m_provider->parseResponse(line.body);
                if (parsed) {
                    JudgeResponse response = std::move(parsed).value();
                    response.httpStatus = line.httpStatus;
                    m_callbacks.answered(line.customId, canonical->value(line.customId), response, remote);
                    answered << line.customId;
                    continue;
                }
                m_callbacks.failed(line.customId, tr("bad answer in the batch: %1").arg(parsed.errorString()), remote);
            } else {
                m_callbacks.failed(line.customId, m_redact(line.error), remote);
            }
            failed << line.customId;
        }
        for (const QString &key : answered + failed) {
            o.pending.remove(key);
            m_byKey.remove(key);
        }
        // Calls the batch ended without (expired, cancelled): sent again, interactively.
        // Unreadable lines are skipped (the file is not asked for again): theirs are among these.
        const QStringList rest = o.pending.values();
        giveBack(o, rest,
                 lines->unreadable.isEmpty()
                         ? tr("the batch %1 ended (%2) without answering it").arg(remote, poll.status)
                         : tr("the batch %1 ended (%2) without an answer to it that could be read (%3)")
                                   .arg(remote, poll.status, lines->unreadable.join(QStringLiteral("; "))));
        failed += rest;
        m_callbacks.commit();
        // Should these marks not land, the batch is read again next time: its answers are in the
        // cache by then and are not paid or recorded twice.
        note(m_store.markCalls(id, answered, QStringLiteral("answered")));
        note(m_store.markCalls(id, failed, QStringLiteral("failed")));
        const QString state = poll.status == QLatin1String("expired") ? QStringLiteral("expired")
                              : poll.status == QLatin1String("cancelled") || poll.status == QLatin1String("canceled")
                                      ? QStringLiteral("cancelled")
                              : poll.status == QLatin1String("failed") ? QStringLiteral("failed")
                                                                       : QStringLiteral("done");
        close(id, state);
    });
}

void BatchRunner::giveBack(Open &open, const QStringList &keys, const QString &error)
{
    for (const QString &key : keys) {
        open.pending.remove(key);
        m_byKey.remove(key);
        m_callbacks.failed(key, error, open.record.remoteId);
    }
}

void BatchRunner::pollFailed(qint64 id, const QString &error)
{
    auto it = m_open.find(id);
    if (it == m_open.end())
        return;
    Open &o = it->second;
    m_lastError = error;
    o.record.error = error;
    if (++o.failedPolls < maxFailedPolls) {
        emit changed();
        return;
    }
    const QString why = tr("gave up the batch %1 after %2 failed attempts to read it (last: %3); its calls are sent "
                           "interactively")
                                .arg(o.record.remoteId)
                                .arg(o.failedPolls)
                                .arg(error);
    const QStringList rest = o.pending.values();
    giveBack(o, rest, why);
    m_callbacks.commit();
    note(m_store.markCalls(id, rest, QStringLiteral("failed")));
    close(id, QStringLiteral("failed"), why);
}

void BatchRunner::note(const Result<void> &written)
{
    if (!written) {
        m_lastError = written.errorString();
        qWarning("batch state not saved: %s", qPrintable(written.errorString()));
    }
}

void BatchRunner::close(qint64 id, const QString &state, const QString &error)
{
    auto it = m_open.find(id);
    if (it == m_open.end())
        return;
    BatchRecord record = it->second.record;
    record.state = state;
    if (!error.isEmpty())
        record.error = error;
    record.updatedAt = QDateTime::currentDateTimeUtc();
    note(m_store.update(record));
    m_closed.append(record.status());
    m_open.erase(it);
    emit changed();
}

QVector<BatchStatus> BatchRunner::status() const
{
    QVector<BatchStatus> out = m_closed;
    for (const auto &[id, open] : m_open)
        out.append(open.record.status());
    return out;
}

} // namespace rubric
