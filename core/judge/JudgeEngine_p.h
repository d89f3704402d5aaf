#pragma once

// The judge engine's private state and its inline steps, shared by JudgeEngine.cpp and
// JudgeEngineBatch.cpp (provider batches). Not part of the engine's interface.

#include "judge/BatchRunner.h"
#include "judge/CacheKey.h"
#include "judge/EndpointSecrets.h"
#include "judge/JudgeEngine.h"
#include "judge/Provider.h"
#include "judge/StructuredAnswers.h"
#include "store/CallStore.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <unordered_map>

namespace rubric {
namespace detail {

constexpr int connectionsPerManager = 6; // Qt's HTTP/1.1 limit per host and manager
constexpr int maxBufferedAnswers = 256;

} // namespace detail

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
        int builtAt = -1;             // the adaptations' generation the call was built with
        EndpointAdaptations sentWith; // the adaptations the call was built with
        int attempts = 0;             // HTTP requests made
        int resent = 0;               // of them, sent again after the endpoint taught an adaptation
        int pool = -1;                // connection pool of the attempt in flight
        int replica = -1;             // replica of the last attempt
        quint64 failedOn = 0;         // bit i: replica i failed this request
        qint64 sentAt = 0;            // when the last attempt went out (EndpointPool::now())
        QElapsedTimer started;        // since the first send
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

    // What the endpoint needs (learned from its refusals, or loaded by the owner), and the probe:
    // while a request sends something not yet shown to be accepted (applicable adaptations not
    // `settled`), it goes alone and the others that would send such things wait in `held`, so that
    // discovering an adaptation costs one refused call, not one per request in flight.
    EndpointAdaptations adaptations;
    int adaptGeneration = 0;
    QSet<int> settled; // Adaptation values
    quint64 probe = 0;
    std::deque<quint64> held;

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
        if (!adaptations.has(Adaptation::NoStructured)) // the schema is read as input too
            chars += StructuredAnswers::sentText(profile, r).size();
        return int(chars / 4) + adaptations.maxTokens(r) * std::max(1, r.n);
    }

    void enqueueFinished(JudgeResponse response)
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

    /// Prices a paid answer and adds it to the totals.
    void account(const Job &job, JudgeResponse &response)
    {
        response.cost = profile.cost(response.tokensIn, response.tokensOut, response.tokensCached)
                        * (job.batch.isEmpty() ? 1.0 : batchOptions.priceFactor);
        stats.tokensIn += response.tokensIn;
        stats.tokensOut += response.tokensOut;
        stats.tokensCached += response.tokensCached;
        stats.tokensReasoning += response.tokensReasoning;
        stats.cost += response.cost;
    }

    /// The replica that answered (or was asked last): what the cache and the ledger name.
    QString answeredBy(const Job &job) const
    {
        return job.replica >= 0 ? endpoints.baseUrl(job.replica) : EndpointPool::normalisedUrl(profile.baseUrl);
    }

    void addLedger(const Job &job, const QString &outcome, const JudgeResponse &response)
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

    void finish(Job &job, JudgeStatus status, JudgeResponse response)
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

    /// Whether the request would send something the endpoint has not yet been seen to accept.
    bool unsettled(const Job &job) const
    {
        const QVector<Adaptation> open = adaptations.applicable(profile.kind, job.request);
        return std::any_of(open.cbegin(), open.cend(), [this](Adaptation a) { return !settled.contains(int(a)); });
    }

    /// The probe's answer is in: what it sent is settled (`settle`: accepted, or refused for a
    /// reason no adaptation answers), and the requests held for it go back to the queue's front.
    void releaseProbe(const Job &job, bool settle)
    {
        if (settle)
            for (Adaptation a : adaptations.applicable(profile.kind, job.request))
                settled.insert(int(a));
        probe = 0;
        for (auto it = held.rbegin(); it != held.rend(); ++it)
            queue.push_front(*it);
        held.clear();
    }

    /// Learns an adaptation (once per engine) and says so.
    void learn(Adaptation what, const QString &why)
    {
        if (!adaptations.add(what, why))
            return;
        ++adaptGeneration;
        emit q->adapted(what == Adaptation::ReasoningBudget ? adaptations.reasoningWhy() : why);
    }

    /// Sends a request again at once, rebuilt with what the endpoint was found to need; not a retry.
    void resend(Job &job)
    {
        ++job.resent;
        ++stats.resent;
        queue.push_front(job.id);
    }

    void send(Job &job, int replica)
    {
        if (!job.built || job.builtAt != adaptGeneration) {
            job.call = provider->buildRequest(sendProfile, apiKey, job.request, adaptations);
            job.call.request.setTransferTimeout(profile.timeoutMs);
            job.call.request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
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

        enum class Next { Done, Retry, Fail, Resend } next = Next::Retry;
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
            failed.error = next == Next::Retry
                                   ? tr("gave up after %1 attempts: %2").arg(job.attempts).arg(job.lastError)
                                   : job.lastError;
            finish(job, JudgeStatus::Failed, failed);
        }
        pump();
    }

    // Provider batches (JudgeEngineBatch.cpp).
    /// The headers of an interactive call (the key and the extra headers), for the batch calls.
    BatchClient::Headers batchHeaders() const;
    void makeBatchRunner();
    /// Sends what gathered in one pass: as a batch when there are enough, interactively otherwise.
    void collect();
    void batchAnswered(const QString &key, const QString &canonical, const JudgeResponse &response,
                       const QString &remote);
    void batchFailed(const QString &key, const QString &error, const QString &remote);

    /// Records an answer that thinking used up: paid, so counted and in the ledger; never cached.
    void keepThoughtOut(const Job &job, JudgeResponse response)
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

    void failAllQueued(const QString &reason)
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
};

} // namespace rubric
