// The judge engine's provider batches: the calls of one pass go to a BatchRunner when there are
// enough of them, its answers and failed lines come back here by their cache key.
#include "judge/JudgeEngine_p.h"

namespace rubric {

/// The headers of an interactive call (the key and the extra headers), for the batch calls.
BatchClient::Headers JudgeEngine::Private::batchHeaders() const
{
    BatchClient::Headers headers;
    const ProviderCall call = provider->buildRequest(sendProfile, apiKey, JudgeRequest());
    for (const QByteArray &name : call.request.rawHeaderList())
        if (name.toLower() != "content-type")
            headers.append({name, call.request.rawHeader(name)});
    return headers;
}

void JudgeEngine::Private::makeBatchRunner()
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
void JudgeEngine::Private::collect()
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
        calls.append(
                {job.key, job.canonical, provider->buildRequest(sendProfile, apiKey, job.request, adaptations).body});
    }
    stats.batched += int(calls.size());
    batch->submit(run, calls);
    emit q->statsChanged();
}

void JudgeEngine::Private::batchAnswered(const QString &key, const QString &canonical, const JudgeResponse &response,
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

void JudgeEngine::Private::batchFailed(const QString &key, const QString &error, const QString &remote)
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

} // namespace rubric
