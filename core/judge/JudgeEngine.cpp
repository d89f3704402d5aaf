#include "judge/JudgeEngine.h"

#include "judge/ApiKeySource.h"
#include "judge/BatchRunner.h"
#include "judge/CacheKey.h"
#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <unordered_map>

namespace rubric {
namespace {

constexpr int connectionsPerManager = 6; // Qt's HTTP/1.1 limit per host and manager
constexpr int maxBufferedAnswers = 256;

} // namespace

class JudgeEngine::Private
{
public:
    struct Job
    {
        quint64 id = 0;
        JudgeRequest request;
        QString key;
        QString canonical;
        ProviderCall call;
        bool built = false;
        int attempts = 0;      // HTTP requests made
        int pool = -1;         // connection pool of the attempt in flight
        int replica = -1;      // replica of the last attempt
        quint64 failedOn = 0;  // bit i: replica i failed this request
        qint64 sentAt = 0;     // when the last attempt went out (EndpointPool::now())
        QElapsedTimer started; // since the first send
        QString lastError;
        int lastStatus = 0;
        bool cancelled = false;
        bool inBatch = false; // waiting for a provider batch
        QString batch;        // the batch that answered it
    };

    JudgeEngine *q = nullptr;
    ProviderProfile profile;
    Project *project = nullptr;
    std::unique_ptr<CallStore> store;
    std::unique_ptr<Provider> provider;
    bool cacheEnabled = true;
    QString run;
    int backoffBase = 500;
    int backoffMax = 30000;
    int flushInterval = 0;

    QByteArray apiKey;
    ProviderProfile sendProfile; ///< the profile with its header references resolved (what is sent)
    QList<QByteArray> secrets;   ///< the key and the header values, redacted from every message
    bool keyReady = false;
    bool urlRefused = false; ///< the base URL carries a credential
    QString keyError;

    std::vector<std::unique_ptr<QNetworkAccessManager>> pools;
    std::vector<std::vector<int>> poolLoad; // per replica, requests in flight on each manager
    EndpointPool endpoints;
    QVector<QUrl> replicaUrls; // per replica, where its requests are posted

    std::unordered_map<quint64, Job> jobs;
    std::deque<quint64> queue; // waiting to be sent (retries go to the front)
    QHash<QNetworkReply *, quint64> replies;
    QHash<QString, QVector<quint64>> followers; // same key submitted while its leader is pending
    QHash<QString, quint64> leaders;
    quint64 nextId = 1;
    int inFlight = 0;

    QTimer pumpTimer;
    QTimer flushTimer;
    QTimer collectTimer;                // gathers the calls of one pass of the event loop for a batch
    std::unique_ptr<BatchRunner> batch; // with a project: the provider batches of this profile
    BatchOptions batchOptions;
    std::vector<quint64> batchWaiting; // uncached calls not yet given to a batch or the queue
    QVector<JudgeResponse> outbox;     // finished, waiting for their commit before being reported
    JudgeStats stats;
    bool emitting = false;

    /// The cached answer under `key`, else under the legacy key of any replica's URL.
    Result<std::optional<JudgeResponse>> lookup(const JudgeRequest &request, const QString &key) const;

    /// `text` with every secret removed: as it is, percent-encoded (a server that echoes the
    /// request's URL or headers encoded) and JSON-escaped (an error body shown as it came).
    QString redact(const QString &text) const { return EndpointSecrets::redact(text, secrets); }

    int estimateTokens(const JudgeRequest &r) const
    {
        qsizetype chars = 0;
        for (const ChatMessage &m : r.messages)
            chars += m.content.size();
        return int(chars / 4) + r.maxTokens * std::max(1, r.n);
    }

    void enqueueFinished(JudgeResponse response)
    {
        outbox.append(std::move(response));
        if (!store) {
            deliver();
            return;
        }
        if (outbox.size() >= maxBufferedAnswers)
            deliver();
        else if (!flushTimer.isActive())
            flushTimer.start(flushInterval);
    }

    /// Commits what the store buffered, then reports the answers it covers.
    void deliver()
    {
        flushTimer.stop();
        if (store) {
            if (auto r = store->flush(); !r) {
                qWarning("judge store flush failed: %s", qPrintable(r.errorString()));
                // The answers stay valid for this session; say why they were not kept.
                for (JudgeResponse &resp : outbox)
                    if (resp.error.isEmpty())
                        resp.error = tr("could not save the answer in the project: %1").arg(r.errorString());
            }
        }
        if (emitting)
            return; // the outer deliver() loop picks up what was added
        emitting = true;
        while (!outbox.isEmpty()) {
            const QVector<JudgeResponse> batch = std::exchange(outbox, {});
            for (const JudgeResponse &resp : batch) {
                ++stats.done;
                if (resp.status == JudgeStatus::Failed)
                    ++stats.failed;
                emit q->answered(resp);
            }
        }
        emitting = false;
        emit q->statsChanged();
        if (q->pending() == 0)
            emit q->idle();
    }

    void finish(Job &job, JudgeStatus status, JudgeResponse response)
    {
        response.status = status;
        response.cacheKey = job.key;
        response.tag = job.request.tag;
        response.retries = std::max(0, job.attempts - 1);
        response.latencyMs = job.started.isValid() ? double(job.started.nsecsElapsed()) / 1e6 : 0.0;
        response.error = redact(response.error);
        if (status == JudgeStatus::Ok) {
            response.cost = profile.cost(response.tokensIn, response.tokensOut, response.tokensCached)
                            * (job.batch.isEmpty() ? 1.0 : batchOptions.priceFactor);
            stats.tokensIn += response.tokensIn;
            stats.tokensOut += response.tokensOut;
            stats.tokensCached += response.tokensCached;
            stats.cost += response.cost;
        }
        if (store) {
            // The replica that answered (or was asked last) is what the cache and the ledger name.
            const QString base
                    = job.replica >= 0 ? endpoints.baseUrl(job.replica) : EndpointPool::normalisedUrl(profile.baseUrl);
            if (status == JudgeStatus::Ok && cacheEnabled)
                store->addAnswer(job.key, base, profile.model, job.canonical, response);
            if (job.attempts > 0) {
                LedgerEntry e;
                e.key = job.key;
                e.run = run;
                e.baseUrl = base;
                e.model = profile.model;
                e.outcome = status == JudgeStatus::Ok          ? QStringLiteral("ok")
                            : status == JudgeStatus::Cancelled ? QStringLiteral("cancelled")
                                                               : QStringLiteral("failed");
                e.httpStatus = response.httpStatus;
                e.tokensIn = response.tokensIn;
                e.tokensOut = response.tokensOut;
                e.tokensCached = response.tokensCached;
                e.cost = response.cost;
                e.latencyMs = response.latencyMs;
                e.retries = response.retries;
                e.error = response.error;
                e.batch = job.batch;
                store->addLedger(e);
            }
        }
        const QString key = job.key;
        const quint64 id = job.id;
        jobs.erase(id);
        QVector<quint64> waiting;
        if (leaders.value(key) == id) {
            leaders.remove(key);
            waiting = followers.take(key);
        }
        enqueueFinished(response);
        for (quint64 fid : waiting) {
            auto it = jobs.find(fid);
            if (it == jobs.end())
                continue;
            if (status == JudgeStatus::Ok) {
                JudgeResponse copy = response;
                copy.status = JudgeStatus::Cached;
                copy.tag = it->second.request.tag;
                copy.retries = 0;
                copy.cost = 0;
                ++stats.cacheHits;
                jobs.erase(it);
                enqueueFinished(copy);
            } else if (status == JudgeStatus::Cancelled) {
                JudgeResponse copy;
                copy.status = JudgeStatus::Cancelled;
                copy.cacheKey = key;
                copy.tag = it->second.request.tag;
                copy.error = tr("cancelled");
                jobs.erase(it);
                enqueueFinished(copy);
            } else {
                // The leader failed: the follower tries on its own.
                leaders.insert(key, fid);
                queue.push_back(fid);
            }
        }
    }

    void pump()
    {
        if (!keyReady)
            return;
        while (!queue.empty()) {
            const quint64 id = queue.front();
            auto it = jobs.find(id);
            if (it == jobs.end()) {
                queue.pop_front();
                continue;
            }
            Job &job = it->second;
            const double tokens = estimateTokens(job.request);
            qint64 waitMs = -1;
            const int replica = endpoints.pick(tokens, job.failedOn, &waitMs);
            if (replica < 0) { // every slot taken (a reply frees one), or a budget or rest to wait out
                if (waitMs > 0 && (!pumpTimer.isActive() || pumpTimer.remainingTime() > waitMs))
                    pumpTimer.start(int(std::min<qint64>(waitMs, 60000)));
                return;
            }
            queue.pop_front();
            endpoints.sent(replica, tokens);
            send(job, replica);
        }
    }

    void send(Job &job, int replica)
    {
        if (!job.built) {
            job.call = provider->buildRequest(sendProfile, apiKey, job.request);
            job.call.request.setTransferTimeout(profile.timeoutMs);
            job.call.request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
            job.built = true;
        }
        if (!job.started.isValid())
            job.started.start();
        if (endpoints.size() > 1)
            job.call.request.setUrl(replicaUrls[replica]);
        job.replica = replica;
        job.sentAt = endpoints.now();
        std::vector<int> &load = poolLoad[size_t(replica)];
        const auto least = std::min_element(load.begin(), load.end());
        job.pool = int(least - load.begin());
        ++*least;
        ++job.attempts;
        ++stats.sent;
        ++inFlight;
        QNetworkReply *reply = pools[size_t(job.pool)]->post(job.call.request, job.call.body);
        replies.insert(reply, job.id);
        QObject::connect(reply, &QNetworkReply::finished, q, [this, reply] { onFinished(reply); });
    }

    void scheduleRetry(Job &job, int delayMs)
    {
        ++stats.retries;
        const quint64 id = job.id;
        QTimer::singleShot(std::max(0, delayMs), q, [this, id] {
            auto it = jobs.find(id);
            if (it == jobs.end() || it->second.cancelled)
                return;
            queue.push_front(id);
            pump();
        });
    }

    int backoffMs(int attempt) const
    {
        const double exp = double(backoffBase) * std::pow(2.0, std::max(0, attempt - 1));
        const double jitter = 0.5 + QRandomGenerator::global()->generateDouble(); // 0.5 … 1.5
        return int(std::min(double(backoffMax), exp * jitter));
    }

    void onFinished(QNetworkReply *reply)
    {
        reply->deleteLater();
        const quint64 id = replies.take(reply);
        --inFlight;
        auto it = jobs.find(id);
        if (it == jobs.end()) {
            pump();
            return;
        }
        Job &job = it->second;
        const int replica = job.replica;
        if (job.pool >= 0)
            --poolLoad[size_t(replica)][size_t(job.pool)];
        job.pool = -1;
        endpoints.released(replica);
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QNetworkReply::NetworkError err = reply->error();
        // HTTP-level errors (4xx/5xx with a complete body) are told apart from transport faults
        // (dropped connection, truncated body, timeout), which Qt reports with codes below 100.
        const bool transport = err != QNetworkReply::NoError && (int(err) < 100 || status == 0);
        int delay = -1;
        if (status == 429) {
            bool ok = false;
            const double after = reply->rawHeader(QByteArrayLiteral("Retry-After")).trimmed().toDouble(&ok);
            if (ok && after >= 0)
                delay = int(after * 1000.0);
        }
        // The replica's own faults drain it before the freed slot is filled again.
        const auto replicaFailed = [&] {
            endpoints.failed(replica, job.sentAt, delay);
            if (replica < 64)
                job.failedOn |= quint64(1) << replica;
        };
        if (!job.cancelled && (transport || status == 429 || status >= 500))
            replicaFailed();
        // The slot is free: the next queued request goes out before this answer is read and
        // stored, so answers that finish together (a burst) do not keep slots idle in turn.
        // (pump() only sends: `job` stays valid, references into the map are stable.)
        if (!job.cancelled && !queue.empty())
            pump();
        if (job.cancelled) {
            JudgeResponse r;
            r.error = tr("cancelled");
            finish(job, JudgeStatus::Cancelled, r);
            pump();
            return;
        }
        const QByteArray body = reply->readAll();
        job.lastStatus = status;
        // In a pool the message names the replica that failed.
        const QString where
                = endpoints.size() > 1 ? QString(endpoints.baseUrl(replica) + QStringLiteral(": ")) : QString();

        enum class Next { Done, Retry, Fail } next = Next::Retry;
        JudgeResponse response;
        response.httpStatus = status;
        if (transport) {
            job.lastError = where
                            + (err == QNetworkReply::OperationCanceledError || err == QNetworkReply::TimeoutError
                                       ? tr("no answer within %1 ms").arg(profile.timeoutMs)
                                       : tr("network error: %1").arg(reply->errorString()));
        } else if (status == 429) {
            job.lastError = where + tr("HTTP 429 (rate limited): %1").arg(provider->errorMessage(body));
        } else if (status >= 500) {
            job.lastError = where + tr("HTTP %1: %2").arg(status).arg(provider->errorMessage(body));
        } else if (status >= 400 || (status >= 300 && status < 400)) {
            next = Next::Fail;
            job.lastError = where + tr("HTTP %1: %2").arg(status).arg(provider->errorMessage(body));
        } else {
            auto parsed = provider->parseResponse(body);
            if (parsed) {
                response = std::move(parsed.value());
                response.httpStatus = status;
                next = Next::Done;
                endpoints.succeeded(replica, job.sentAt);
            } else {
                job.lastError = where + tr("bad answer (HTTP %1): %2").arg(status).arg(parsed.errorString());
                replicaFailed();
            }
        }

        // Each replica may fail a request once on top of the profile's retries.
        if (next == Next::Done) {
            finish(job, JudgeStatus::Ok, response);
        } else if (next == Next::Retry && job.attempts <= profile.maxRetries + endpoints.size() - 1) {
            // In a pool another replica takes it at once; alone, it waits for the backoff.
            const bool elsewhere = endpoints.size() > 1 && endpoints.hasLiveReplica(job.failedOn);
            scheduleRetry(job, elsewhere ? 0 : delay >= 0 ? delay : backoffMs(job.attempts));
        } else {
            JudgeResponse failed;
            failed.httpStatus = status;
            failed.error = next == Next::Retry
                                   ? tr("gave up after %1 attempts: %2").arg(job.attempts).arg(job.lastError)
                                   : job.lastError;
            finish(job, JudgeStatus::Failed, failed);
        }
        pump();
    }

    /// The headers of an interactive call (the key and the extra headers), for the batch calls.
    BatchClient::Headers batchHeaders() const
    {
        BatchClient::Headers headers;
        const ProviderCall call = provider->buildRequest(sendProfile, apiKey, JudgeRequest());
        for (const QByteArray &name : call.request.rawHeaderList())
            if (name.toLower() != "content-type")
                headers.append({name, call.request.rawHeader(name)});
        return headers;
    }

    void makeBatchRunner()
    {
        BatchRunner::Callbacks callbacks;
        callbacks.answered = [this](const QString &key, const QString &canonical, const JudgeResponse &response,
                                    const QString &remote) { batchAnswered(key, canonical, response, remote); };
        callbacks.failed = [this](const QString &key, const QString &error, const QString &remote) {
            batchFailed(key, error, remote);
        };
        callbacks.commit = [this] { deliver(); };
        batch = std::make_unique<BatchRunner>(
                project, profile, provider.get(), pools.front().get(), [this](const QString &t) { return redact(t); },
                std::move(callbacks));
        batch->setOptions(batchOptions);
        QObject::connect(batch.get(), &BatchRunner::changed, q, &JudgeEngine::statsChanged);
        if (auto loaded = batch->load(); !loaded)
            qWarning("cannot read the project's provider batches: %s", qPrintable(loaded.errorString()));
    }

    /// Sends what gathered in one pass: as a batch when there are enough, interactively otherwise.
    void collect()
    {
        if (batchWaiting.empty() || (!keyReady && keyError.isEmpty()))
            return; // the key's arrival collects again
        std::vector<quint64> ids;
        for (quint64 id : std::exchange(batchWaiting, {}))
            if (jobs.count(id))
                ids.push_back(id);
        if (!keyError.isEmpty() || int(ids.size()) < batchOptions.threshold) {
            for (quint64 id : ids)
                queue.push_back(id);
            if (!keyError.isEmpty())
                failAllQueued(keyError);
            pump();
            return;
        }
        QVector<BatchRunner::Call> calls;
        calls.reserve(qsizetype(ids.size()));
        for (quint64 id : ids) {
            Job &job = jobs.at(id);
            job.inBatch = true;
            job.started.start();
            calls.append({job.key, job.canonical, provider->buildRequest(sendProfile, apiKey, job.request).body});
        }
        stats.batched += int(calls.size());
        batch->submit(run, calls);
        emit q->statsChanged();
    }

    void batchAnswered(const QString &key, const QString &canonical, const JudgeResponse &response,
                       const QString &remote)
    {
        auto it = jobs.find(leaders.value(key, 0));
        if (it != jobs.end() && it->second.inBatch) {
            Job &job = it->second;
            job.inBatch = false;
            job.batch = remote;
            job.attempts = 1;
            finish(job, JudgeStatus::Ok, response);
            return;
        }
        // No call of this process waits for it (another run's batch): the paid answer is kept all
        // the same, once.
        if (!store)
            return;
        if (auto have = store->contains(key); !have.ok() || *have)
            return;
        JudgeResponse kept = response;
        kept.cost = profile.cost(kept.tokensIn, kept.tokensOut, kept.tokensCached) * batchOptions.priceFactor;
        const QString base = EndpointPool::normalisedUrl(profile.baseUrl);
        store->addAnswer(key, base, profile.model, canonical, kept);
        LedgerEntry e;
        e.key = key;
        e.baseUrl = base;
        e.model = profile.model;
        e.outcome = QStringLiteral("ok");
        e.httpStatus = kept.httpStatus;
        e.tokensIn = kept.tokensIn;
        e.tokensOut = kept.tokensOut;
        e.tokensCached = kept.tokensCached;
        e.cost = kept.cost;
        e.batch = remote;
        store->addLedger(e);
    }

    void batchFailed(const QString &key, const QString &error, const QString &remote)
    {
        if (store && !remote.isEmpty()) { // a line of a batch that failed: in the ledger, at no cost
            LedgerEntry e;
            e.key = key;
            e.run = run;
            e.baseUrl = EndpointPool::normalisedUrl(profile.baseUrl);
            e.model = profile.model;
            e.outcome = QStringLiteral("failed");
            e.error = redact(error);
            e.batch = remote;
            store->addLedger(e);
        }
        auto it = jobs.find(leaders.value(key, 0));
        if (it == jobs.end() || !it->second.inBatch)
            return;
        Job &job = it->second;
        job.inBatch = false;
        job.lastError = redact(error);
        queue.push_back(job.id); // sent interactively, with the profile's retries
        pump();
    }

    void failAllQueued(const QString &reason)
    {
        while (!queue.empty()) {
            const quint64 id = queue.front();
            queue.pop_front();
            auto it = jobs.find(id);
            if (it == jobs.end())
                continue;
            JudgeResponse r;
            r.error = reason;
            finish(it->second, JudgeStatus::Failed, r);
        }
        deliver();
    }
};

JudgeEngine::JudgeEngine(ProviderProfile profile, Project *project, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->profile = std::move(profile);
    d->profile.concurrency = std::max(1, d->profile.concurrency);
    d->profile.maxRetries = std::max(0, d->profile.maxRetries);
    d->project = project;
    if (project)
        d->store = std::make_unique<CallStore>(project);
    d->provider = Provider::create(d->profile.kind);
    d->endpoints = EndpointPool(d->profile);
    // Qt's six connections are per host and manager: the managers serve every replica, each
    // replica spreading over them by its own load.
    const int poolCount = (d->endpoints.maxCapacity() + connectionsPerManager - 1) / connectionsPerManager;
    for (int i = 0; i < poolCount; ++i) {
        d->pools.push_back(std::make_unique<QNetworkAccessManager>());
        d->pools.back()->setAutoDeleteReplies(false);
    }
    d->poolLoad.assign(size_t(d->endpoints.size()), std::vector<int>(size_t(poolCount), 0));
    for (const QString &url : d->profile.baseUrls()) {
        ProviderProfile replica = d->profile;
        replica.baseUrl = url;
        d->replicaUrls.append(d->provider->buildRequest(replica, {}, JudgeRequest()).request.url());
    }
    d->pumpTimer.setSingleShot(true);
    connect(&d->pumpTimer, &QTimer::timeout, this, [this] { d->pump(); });
    d->flushTimer.setSingleShot(true);
    connect(&d->flushTimer, &QTimer::timeout, this, [this] { d->deliver(); });
    d->collectTimer.setSingleShot(true);
    connect(&d->collectTimer, &QTimer::timeout, this, [this] { d->collect(); });
    if (d->store)
        d->makeBatchRunner(); // picks up the batches an earlier process left open

    d->sendProfile = d->profile;
    for (const QString &base : d->profile.baseUrls())
        if (auto url = EndpointSecrets::checkBaseUrl(base); !url) {
            d->keyError = url.errorString(); // nothing is sent to it, cached or written in the ledger
            d->urlRefused = true;
            return;
        }
    auto headers = EndpointSecrets::resolveHeaders(d->profile.headers);
    if (!headers) {
        d->keyError = headers.errorString();
        return;
    }
    d->sendProfile.headers.clear();
    for (const auto &[name, value] : std::as_const(*headers)) {
        d->sendProfile.headers.insert(QString::fromUtf8(name), QString::fromUtf8(value));
        d->secrets.append(value);
    }

    // The API key and the header values kept in the keychain are read asynchronously; requests
    // wait until every one is there, and fail (unsent) when one cannot be read.
    const auto fromKeychain = EndpointSecrets::keychainHeaders(d->profile.headers);
    auto pending = std::make_shared<int>(1 + int(fromKeychain.size()));
    const auto arrived = [this, pending] {
        if (--*pending == 0 && d->keyError.isEmpty()) {
            d->keyReady = true;
            if (d->batch)
                d->batch->start(d->batchHeaders());
            d->collect();
            d->pump();
        }
    };
    const auto failed = [this](ApiKeySource *source, const QString &reason) {
        source->deleteLater();
        if (!d->keyError.isEmpty())
            return; // the first reason is the one reported
        d->keyError = d->redact(reason);
        d->collect();
        d->failAllQueued(d->keyError);
    };
    for (const auto &[header, account] : fromKeychain) {
        auto *source = new ApiKeySource(d->profile, this);
        connect(source, &ApiKeySource::resolved, this, [this, source, header, arrived](const QByteArray &value) {
            d->sendProfile.headers.insert(header, QString::fromUtf8(value));
            d->secrets.append(value);
            source->deleteLater();
            arrived();
        });
        connect(source, &ApiKeySource::failed, this,
                [source, failed](const QString &reason) { failed(source, reason); });
        source->readKeychain(account, tr("the value of the header '%1'").arg(header));
    }
    auto *keys = new ApiKeySource(d->profile, this);
    connect(keys, &ApiKeySource::resolved, this, [this, keys, arrived](const QByteArray &key) {
        d->apiKey = key;
        d->secrets.prepend(key);
        keys->deleteLater();
        arrived();
    });
    connect(keys, &ApiKeySource::failed, this, [keys, failed](const QString &reason) { failed(keys, reason); });
    keys->start();
}

JudgeEngine::~JudgeEngine()
{
    // Abort what is in flight without reporting; keep every answer already received.
    for (auto it = d->replies.begin(); it != d->replies.end(); ++it) {
        it.key()->disconnect(this);
        it.key()->abort();
        it.key()->deleteLater();
    }
    d->replies.clear();
    if (d->store)
        (void)d->store->flush();
}

const ProviderProfile &JudgeEngine::profile() const
{
    return d->profile;
}

void JudgeEngine::setCacheEnabled(bool enabled)
{
    d->cacheEnabled = enabled;
}

void JudgeEngine::setRunName(const QString &run)
{
    d->run = run;
}

void JudgeEngine::setRetryBackoff(int baseMs, int maxMs)
{
    d->backoffBase = std::max(0, baseMs);
    d->backoffMax = std::max(d->backoffBase, maxMs);
}

void JudgeEngine::setReplicaRest(int baseMs, int maxMs)
{
    d->endpoints.setRest(baseMs, maxMs);
}

void JudgeEngine::setBatchOptions(const BatchOptions &options)
{
    d->batchOptions = options;
    if (d->batch)
        d->batch->setOptions(options);
}

QVector<BatchStatus> JudgeEngine::batches() const
{
    return d->batch ? d->batch->status() : QVector<BatchStatus>();
}

int JudgeEngine::waitingForBatches() const
{
    int n = 0;
    for (const auto &[id, job] : d->jobs)
        n += job.inBatch ? 1 : 0;
    return n;
}

void JudgeEngine::setFlushInterval(int ms)
{
    d->flushInterval = std::max(0, ms);
}

QString JudgeEngine::keyError() const
{
    return d->keyError;
}

int JudgeEngine::connectionPools() const
{
    return int(d->pools.size());
}

QVector<ReplicaStats> JudgeEngine::replicaStats() const
{
    return d->endpoints.stats();
}

QString JudgeEngine::canonicalRequest(const JudgeRequest &r) const
{
    return CacheKey::canonical(d->profile, r);
}

Result<std::optional<JudgeResponse>> JudgeEngine::Private::lookup(const JudgeRequest &request, const QString &key) const
{
    auto hit = store->lookup(key);
    if (!hit || *hit)
        return hit;
    for (const QString &legacy : CacheKey::legacyKeys(profile, request)) {
        auto old = store->lookup(legacy);
        if (!old)
            return old;
        if (*old) {
            (*old)->cacheKey = key; // what the caller stores with its score is the current key
            return old;
        }
    }
    return hit;
}

QString JudgeEngine::cacheKey(const JudgeRequest &request) const
{
    return CacheKey::hash(canonicalRequest(request));
}

Result<bool> JudgeEngine::isCached(const JudgeRequest &request) const
{
    if (!d->store)
        return false;
    auto found = d->store->contains(cacheKey(request));
    const QStringList legacy = found.ok() && !*found ? CacheKey::legacyKeys(d->profile, request) : QStringList();
    for (qsizetype i = 0; i < legacy.size() && found.ok() && !*found; ++i)
        found = d->store->contains(legacy[i]);
    return found;
}

Result<std::optional<JudgeResponse>> JudgeEngine::cached(const JudgeRequest &request) const
{
    if (!d->store)
        return std::optional<JudgeResponse>();
    return d->lookup(request, cacheKey(request));
}

void JudgeEngine::submit(const QVector<JudgeRequest> &requests)
{
    d->stats.submitted += int(requests.size());
    for (const JudgeRequest &request : requests) {
        Private::Job job;
        job.id = d->nextId++;
        job.request = request;
        job.canonical = canonicalRequest(request);
        job.key = CacheKey::hash(job.canonical);
        if (d->urlRefused) { // not even the cache answers for it
            auto &j = d->jobs.emplace(job.id, std::move(job)).first->second;
            JudgeResponse r;
            r.error = d->keyError;
            d->finish(j, JudgeStatus::Failed, r);
            continue;
        }
        if (request.n > 1 && !d->provider->supportsChoices()) {
            auto &j = d->jobs.emplace(job.id, std::move(job)).first->second;
            JudgeResponse r;
            r.error = tr("%1 returns one answer per call; ask for several samples with sampleIndex instead of n")
                              .arg(Provider::kindName(d->profile.kind));
            d->finish(j, JudgeStatus::Failed, r);
            continue;
        }
        if (d->cacheEnabled && d->store) {
            auto hit = d->lookup(request, job.key);
            if (!hit) { // a cache that cannot be read must not look empty and pay for the call again
                auto &j = d->jobs.emplace(job.id, std::move(job)).first->second;
                JudgeResponse r;
                r.error = hit.errorString();
                d->finish(j, JudgeStatus::Failed, r);
                continue;
            }
            if (auto &cached = *hit) {
                cached->tag = request.tag;
                cached->cost = 0;
                cached->retries = 0;
                ++d->stats.cacheHits;
                d->enqueueFinished(*cached);
                continue;
            }
        }
        const quint64 id = job.id;
        const QString key = job.key;
        d->jobs.emplace(id, std::move(job));
        if (d->cacheEnabled && d->leaders.contains(key)) {
            d->followers[key].append(id);
            continue;
        }
        if (d->cacheEnabled)
            d->leaders.insert(key, id);
        if (d->batch && d->cacheEnabled && d->batch->holds(key)) {
            d->jobs.at(id).inBatch = true; // an open batch already has it: its answer comes from there
            continue;
        }
        if (d->batch && d->cacheEnabled && d->batchOptions.enabled) {
            d->batchWaiting.push_back(id);
            continue;
        }
        d->queue.push_back(id);
    }
    if (!d->batchWaiting.empty())
        d->collectTimer.start(0);
    if (!d->keyError.isEmpty())
        d->failAllQueued(d->keyError);
    d->pump();
    emit statsChanged();
    if (d->store && !d->outbox.isEmpty())
        d->deliver(); // cache hits are reported at once (nothing new to commit)
}

void JudgeEngine::cancel()
{
    // Everything not yet sent ends now; replies in flight are aborted and end in onFinished.
    d->pumpTimer.stop();
    d->collectTimer.stop();
    d->batchWaiting.clear(); // a batch already submitted stays open: a later run picks it up
    std::vector<quint64> ids;
    for (auto &[id, job] : d->jobs)
        ids.push_back(id);
    for (quint64 id : ids) {
        auto it = d->jobs.find(id);
        if (it == d->jobs.end())
            continue;
        it->second.cancelled = true;
        if (it->second.pool >= 0)
            continue; // in flight
        JudgeResponse r;
        r.error = tr("cancelled");
        d->finish(it->second, JudgeStatus::Cancelled, r);
    }
    d->queue.clear();
    const auto inflight = d->replies.keys();
    for (QNetworkReply *reply : inflight)
        reply->abort(); // finished() is emitted synchronously and reports Cancelled
    d->deliver();
}

JudgeStats JudgeEngine::stats() const
{
    return d->stats;
}

int JudgeEngine::pending() const
{
    return d->stats.submitted - d->stats.done;
}

} // namespace rubric
