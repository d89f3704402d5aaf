// The judge engine's interactive path (JudgeEngine::Private): the queue, sending to the replicas,
// reading the answers, retries with backoff, the ledger and the cost, and the adaptations learned
// from an endpoint's refusals. JudgeEngine.cpp holds the interface, JudgeEngineBatch.cpp the
// provider batches.

#include "judge/EndpointJson.h"
#include "judge/JudgeEngine_p.h"

namespace rubric {

int JudgeEngine::Private::estimateTokens(const JudgeRequest &r) const
{
    qsizetype chars = 0;
    for (const ChatMessage &m : r.messages)
        chars += m.content.size();
    if (!adaptations.has(Adaptation::NoStructured)) // the schema is read as input too
        chars += StructuredAnswers::sentText(profile, r).size();
    return int(chars / 4) + adaptations.maxTokens(r) * std::max(1, r.n);
}

void JudgeEngine::Private::enqueueFinished(JudgeResponse response)
{
    outbox.append(std::move(response));
    if (!store) {
        deliver();
        return;
    }
    if (outbox.size() >= detail::maxBufferedAnswers)
        deliver();
    else if (!flushTimer.isActive())
        flushTimer.start(flushInterval);
}

void JudgeEngine::Private::deliver()
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

void JudgeEngine::Private::account(const Job &job, JudgeResponse &response)
{
    response.cost = profile.cost(response.tokensIn, response.tokensOut, response.tokensCached)
                    * (job.batch.isEmpty() ? 1.0 : batchOptions.priceFactor);
    stats.tokensIn += response.tokensIn;
    stats.tokensOut += response.tokensOut;
    stats.tokensCached += response.tokensCached;
    stats.tokensReasoning += response.tokensReasoning;
    stats.cost += response.cost;
}

QString JudgeEngine::Private::answeredBy(const Job &job) const
{
    return job.replica >= 0 ? endpoints.baseUrl(job.replica) : EndpointPool::normalisedUrl(profile.baseUrl);
}

void JudgeEngine::Private::addLedger(const Job &job, const QString &outcome, const JudgeResponse &response)
{
    LedgerEntry e;
    e.key = job.key;
    e.run = run;
    e.baseUrl = answeredBy(job);
    e.model = profile.model;
    e.outcome = outcome;
    e.httpStatus = response.httpStatus;
    e.tokensIn = response.tokensIn;
    e.tokensOut = response.tokensOut;
    e.tokensCached = response.tokensCached;
    e.tokensReasoning = response.tokensReasoning;
    e.cost = response.cost;
    e.latencyMs = response.latencyMs;
    e.retries = response.retries;
    e.error = response.error;
    e.batch = job.batch;
    store->addLedger(e);
}

void JudgeEngine::Private::finish(Job &job, JudgeStatus status, JudgeResponse response)
{
    if (probe == job.id)
        releaseProbe(job, false);
    response.status = status;
    response.cacheKey = job.key;
    response.tag = job.request.tag;
    response.retries = std::max(0, job.attempts - 1 - job.resent);
    response.latencyMs = job.started.isValid() ? double(job.started.nsecsElapsed()) / 1e6 : 0.0;
    response.error = redact(response.error);
    if (status == JudgeStatus::Ok)
        account(job, response);
    if (store) {
        if (status == JudgeStatus::Ok && cacheEnabled)
            store->addAnswer(job.key, answeredBy(job), profile.model, job.canonical, response);
        if (job.attempts > 0)
            addLedger(job,
                      status == JudgeStatus::Ok          ? QStringLiteral("ok")
                      : status == JudgeStatus::Cancelled ? QStringLiteral("cancelled")
                                                         : QStringLiteral("failed"),
                      response);
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

void JudgeEngine::Private::pump()
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
        const bool probing = unsettled(job);
        if (probing && probe != 0 && probe != id) { // waits for the probe's answer
            queue.pop_front();
            held.push_back(id);
            continue;
        }
        const double tokens = estimateTokens(job.request);
        qint64 waitMs = -1;
        const int replica = endpoints.pick(tokens, job.failedOn, &waitMs);
        if (replica < 0) { // every slot taken (a reply frees one), or a budget or rest to wait out
            if (waitMs > 0 && (!pumpTimer.isActive() || pumpTimer.remainingTime() > waitMs))
                pumpTimer.start(int(std::min<qint64>(waitMs, 60000)));
            return;
        }
        queue.pop_front();
        if (probing)
            probe = id;
        endpoints.sent(replica, tokens);
        send(job, replica);
    }
}

bool JudgeEngine::Private::unsettled(const Job &job) const
{
    const QVector<Adaptation> open = adaptations.applicable(profile.kind, job.request);
    return std::any_of(open.cbegin(), open.cend(), [this](Adaptation a) { return !settled.contains(int(a)); });
}

void JudgeEngine::Private::releaseProbe(const Job &job, bool settle)
{
    if (settle)
        for (Adaptation a : adaptations.applicable(profile.kind, job.request))
            settled.insert(int(a));
    probe = 0;
    for (auto it = held.rbegin(); it != held.rend(); ++it)
        queue.push_front(*it);
    held.clear();
}

void JudgeEngine::Private::learn(Adaptation what, const QString &why)
{
    if (!adaptations.add(what, why))
        return;
    ++adaptGeneration;
    emit q->adapted(what == Adaptation::ReasoningBudget ? adaptations.reasoningWhy() : why);
}

void JudgeEngine::Private::resend(Job &job)
{
    ++job.resent;
    ++stats.resent;
    queue.push_front(job.id);
}

void JudgeEngine::Private::send(Job &job, int replica)
{
    if (!job.built || job.builtAt != adaptGeneration) {
        job.call = provider->buildRequest(sendProfile, apiKey, job.request, adaptations);
        job.call.request.setTransferTimeout(profile.timeoutMs);
        job.call.request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        // The key and the custom headers never follow a redirect to another origin.
        job.call.request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                                      QNetworkRequest::SameOriginRedirectPolicy);
        job.built = true;
        job.builtAt = adaptGeneration;
        job.sentWith = adaptations;
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
    guard(reply);
    QObject::connect(reply, &QNetworkReply::finished, q, [this, reply] { onFinished(reply); });
}

namespace {
constexpr char cutOff[] = "rubric_cut_off"; ///< why the engine aborted a reply: "deadline" or "size"
}

void JudgeEngine::Private::guard(QNetworkReply *reply)
{
    // A per-call deadline (the transfer timeout only catches stalls) and a size cap (checked as
    // the body arrives, and against Content-Length before it does).
    const qint64 cap = profile.maxResponseBytes;
    const auto cut = [reply](const char *why) {
        if (reply->property(cutOff).isValid() || !reply->isRunning())
            return;
        reply->setProperty(cutOff, QByteArray(why));
        reply->abort();
    };
    if (cap > 0) {
        QObject::connect(reply, &QNetworkReply::metaDataChanged, reply, [reply, cap, cut] {
            bool ok = false;
            const qint64 length = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&ok);
            if (ok && length > cap)
                cut("size");
        });
        QObject::connect(reply, &QNetworkReply::downloadProgress, reply, [cap, cut](qint64 received, qint64) {
            if (received > cap)
                cut("size");
        });
    }
    if (profile.deadlineMs > 0)
        QTimer::singleShot(profile.deadlineMs, reply, [cut] { cut("deadline"); });
}

void JudgeEngine::Private::scheduleRetry(Job &job, int delayMs)
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

int JudgeEngine::Private::backoffMs(int attempt) const
{
    const double exp = double(backoffBase) * std::pow(2.0, std::max(0, attempt - 1));
    const double jitter = 0.5 + QRandomGenerator::global()->generateDouble(); // 0.5 … 1.5
    return int(std::min(double(backoffMax), exp * jitter));
}

void JudgeEngine::Private::onFinished(QNetworkReply *reply)
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
    if (status == 429) // seconds up to an hour; "inf", dates and negatives are ignored (the backoff applies)
        delay = endpointJson::retryAfterMs(reply->rawHeader(QByteArrayLiteral("Retry-After")));
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
    const QByteArray cut = reply->property(cutOff).toByteArray();
    const QByteArray body = cut.isEmpty() ? reply->readAll() : QByteArray(); // a cut reply is not read
    job.lastStatus = status;
    // In a pool the message names the replica that failed.
    const QString where = endpoints.size() > 1 ? QString(endpoints.baseUrl(replica) + QStringLiteral(": ")) : QString();

    enum class Next { Done, Retry, Fail, Resend } next = Next::Retry;
    JudgeResponse response;
    response.httpStatus = status;
    if (err == QNetworkReply::InsecureRedirectError) { // the same question would be sent there again
        next = Next::Fail;
        job.lastError = where
                        + tr("the endpoint redirected the call to another origin (%1); the key and the headers are "
                             "not sent there")
                                  .arg(QUrl(QString::fromUtf8(reply->rawHeader(QByteArrayLiteral("Location"))))
                                               .adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveUserInfo)
                                               .toString());
    } else if (cut == "size") { // the same question would bring the same flood: not asked again
        next = Next::Fail;
        job.lastError = where
                        + tr("the answer was larger than %1 MB (the profile's limit); it was not read")
                                  .arg(double(profile.maxResponseBytes) / (1024.0 * 1024.0), 0, 'g', 4);
    } else if (cut == "deadline") {
        next = Next::Fail;
        job.lastError = where
                        + tr("no complete answer within %1 s (the profile's deadline per call)")
                                  .arg(double(profile.deadlineMs) / 1000.0, 0, 'g', 4);
    } else if (transport) {
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
        // A refusal of a parameter the endpoint does not support (and the call was built with
        // it): learn what to send instead and ask again. The same refusal after adapting fails.
        if (const auto refused = job.sentWith.refusal(profile.kind, job.request, status, body)) {
            learn(refused->what, refused->why);
            next = Next::Resend;
        }
    } else {
        auto parsed = provider->parseResponse(body);
        if (parsed) {
            response = std::move(parsed.value());
            response.httpStatus = status;
            next = Next::Done;
            endpoints.succeeded(replica, job.sentAt);
            if (profile.reasoningBudget > 0 && !job.sentWith.has(Adaptation::ReasoningBudget)
                && job.sentWith.thoughtOut(response)) {
                // A reasoning model thought until the budget ran out: the answer is paid for and
                // kept in the ledger, but it is no answer. Asked again with room to think.
                keepThoughtOut(job, response);
                learn(Adaptation::ReasoningBudget, {});
                next = Next::Resend;
            }
        } else {
            job.lastError = where + tr("bad answer (HTTP %1): %2").arg(status).arg(parsed.errorString());
            replicaFailed();
        }
    }

    // An attempt that taught nothing settles what the probe sent; one that taught an adaptation
    // is the probe still, sent again at once.
    if (probe == job.id && next != Next::Resend)
        releaseProbe(job, true);
    // Each replica may fail a request once on top of the profile's retries.
    if (next == Next::Resend) {
        resend(job);
    } else if (next == Next::Done) {
        finish(job, JudgeStatus::Ok, response);
    } else if (next == Next::Retry && job.attempts - job.resent <= profile.maxRetries + endpoints.size() - 1) {
        // In a pool another replica takes it at once; alone, it waits for the backoff.
        const bool elsewhere = endpoints.size() > 1 && endpoints.hasLiveReplica(job.failedOn);
        scheduleRetry(job, elsewhere ? 0 : delay >= 0 ? delay : backoffMs(job.attempts));
    } else {
        JudgeResponse failed;
        failed.httpStatus = status;
        failed.error = next == Next::Retry ? tr("gave up after %1 attempts: %2").arg(job.attempts).arg(job.lastError)
                                           : job.lastError;
        finish(job, JudgeStatus::Failed, failed);
    }
    pump();
}

void JudgeEngine::Private::keepThoughtOut(const Job &job, JudgeResponse response)
{
    account(job, response);
    ++stats.thoughtOut;
    if (!store)
        return;
    response.latencyMs = job.started.isValid() ? double(job.started.nsecsElapsed()) / 1e6 : 0.0;
    response.error = tr("no answer: the reasoning used the whole budget of %1 tokens; asked again with %2 more")
                             .arg(job.sentWith.maxTokens(job.request))
                             .arg(profile.reasoningBudget);
    addLedger(job, QStringLiteral("ok"), response);
}

void JudgeEngine::Private::failAllQueued(const QString &reason)
{
    for (auto it = held.rbegin(); it != held.rend(); ++it)
        queue.push_front(*it);
    held.clear();
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

} // namespace rubric
