#include "judge/JudgeEngine.h"

#include "judge/ApiKeySource.h"
#include "judge/JudgeEngine_p.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QPointer>

namespace rubric {

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
    d->adaptations.setReasoningBudget(d->profile.reasoningBudget);
    d->adaptations.setStructuredMode(d->profile.structuredAnswers);
    d->endpoints = EndpointPool(d->profile);
    // Qt's six connections are per host and manager: the managers serve every replica, each
    // replica spreading over them by its own load.
    const int poolCount
            = (d->endpoints.maxCapacity() + detail::connectionsPerManager - 1) / detail::connectionsPerManager;
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
    for (const auto &[name, account] : fromKeychain) {
        auto *source = new ApiKeySource(d->profile, this);
        // A copy, not the binding: clang before 16 cannot capture structured bindings.
        connect(source, &ApiKeySource::resolved, this, [this, source, header = name, arrived](const QByteArray &value) {
            d->sendProfile.headers.insert(header, QString::fromUtf8(value));
            d->secrets.append(value);
            source->deleteLater();
            arrived();
        });
        connect(source, &ApiKeySource::failed, this,
                [source, failed](const QString &reason) { failed(source, reason); });
        source->readKeychain(account, tr("the value of the header '%1'").arg(name));
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

void JudgeEngine::setAdaptations(const EndpointAdaptations &adaptations)
{
    d->adaptations = adaptations;
    d->adaptations.setReasoningBudget(d->profile.reasoningBudget);
    d->adaptations.setStructuredMode(d->profile.structuredAnswers);
    ++d->adaptGeneration;
}

EndpointAdaptations JudgeEngine::adaptations() const
{
    return d->adaptations;
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
