#pragma once

// The judge engine's private state and its steps: declared here, shared by JudgeEngine.cpp (the
// interface: submit, the cache, settings), JudgeEngineRequests.cpp (the interactive path: queue,
// send, answer, retry, ledger, learned adaptations) and JudgeEngineBatch.cpp (provider batches).
// Not part of the engine's interface.

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

    int estimateTokens(const JudgeRequest &r) const;

    void enqueueFinished(JudgeResponse response);

    /// Commits what the store buffered, then reports the answers it covers.
    void deliver();

    /// Prices a paid answer and adds it to the totals.
    void account(const Job &job, JudgeResponse &response);

    /// The replica that answered (or was asked last): what the cache and the ledger name.
    QString answeredBy(const Job &job) const;

    void addLedger(const Job &job, const QString &outcome, const JudgeResponse &response);

    void finish(Job &job, JudgeStatus status, JudgeResponse response);

    void pump();

    /// Whether the request would send something the endpoint has not yet been seen to accept.
    bool unsettled(const Job &job) const;

    /// The probe's answer is in: what it sent is settled (`settle`: accepted, or refused for a
    /// reason no adaptation answers), and the requests held for it go back to the queue's front.
    void releaseProbe(const Job &job, bool settle);

    /// Learns an adaptation (once per engine) and says so.
    void learn(Adaptation what, const QString &why);

    /// Sends a request again at once, rebuilt with what the endpoint was found to need; not a retry.
    void resend(Job &job);

    void send(Job &job, int replica);
    /// Aborts `reply` past the profile's deadline or size cap (onFinished says which).
    void guard(QNetworkReply *reply);

    void scheduleRetry(Job &job, int delayMs);

    int backoffMs(int attempt) const;

    void onFinished(QNetworkReply *reply);

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
    void keepThoughtOut(const Job &job, JudgeResponse response);

    void failAllQueued(const QString &reason);
};

} // namespace rubric
