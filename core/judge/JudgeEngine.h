#pragma once

#include "data/BatchTypes.h"
#include "data/JudgeTypes.h"
#include "judge/EndpointAdaptations.h"
#include "judge/EndpointPool.h"
#include "util/Result.h"

#include <QObject>

#include <memory>
#include <optional>

namespace rubric {

class Project;

/// Running totals of an engine (or one batch), for progress displays and the ledger.
struct JudgeStats
{
    int submitted = 0;
    int done = 0; ///< answered, cached, failed or cancelled
    int sent = 0; ///< HTTP requests actually made (retries included)
    int cacheHits = 0;
    int failed = 0;
    int retries = 0;
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
    qint64 tokensCached = 0;    ///< input tokens the provider read from its prompt cache
    qint64 tokensReasoning = 0; ///< of tokensOut, those a reasoning model spent thinking
    double cost = 0;
    int batched = 0; ///< calls submitted in provider batches (not counted in `sent`)
    /// Of `sent`, requests sent again at once because the endpoint taught an adaptation (a refused
    /// parameter, a reasoning model's budget); not retries.
    int resent = 0;
    /// Paid answers that a reasoning model's thinking used up (no answer; asked again, not cached).
    int thoughtOut = 0;
};

/// Sends JudgeRequests to one provider profile: cache lookup in the project file, then
/// concurrency and token-bucket limits, retries with backoff, then the provider over HTTP.
/// A profile with replicas (ProviderProfile::replicaUrls) spreads its requests over them by free
/// capacity and drains a replica that fails (EndpointPool); a request that fails on one replica
/// goes to another at once, and may be sent maxRetries + (replicas − 1) times in all. Errors of a
/// pool name the replica's URL.
///
/// Lives in (and must be used from) the thread that created it; everything is asynchronous
/// (QNetworkAccessManager, no thread per request). Failures are reported with their reason,
/// never turned into scores.
///
/// Durability: every answer is committed to the project's cache and ledger before it is
/// reported through `answered` (the answers that arrive in one pass of the event loop share one
/// transaction; in WAL mode with synchronous=NORMAL a commit is cheap). So an answer anyone has
/// seen is always on disk, and a SIGKILL loses only the requests in flight. setFlushInterval()
/// can trade that for fewer, larger transactions. Cancelling or destroying the engine commits
/// everything received first.
///
/// Endpoint adaptations: an HTTP 400 or 422 that says a parameter the request sent is not
/// supported (max_tokens, temperature, top_p, logprobs, n, the system role; see
/// EndpointAdaptations::refusal) teaches the engine to send it otherwise; the request is rebuilt
/// and sent again at once (not a retry), and so is every later one. An answer that a reasoning
/// model's thinking used up (empty, cut off, with signs of reasoning) teaches it to add the
/// profile's reasoningBudget to max_tokens: that answer is paid, so it is counted and in the
/// ledger, but it is not cached, and the request goes again with the larger budget. Each
/// adaptation is learned once; the same refusal after adapting fails the request as any 400. While
/// a request sends something the endpoint has not yet accepted, it goes alone (the others that
/// would send it wait), so each discovery costs one extra call. The cache key stays that of the
/// request as asked: for one model the adaptations are always the same.
class JudgeEngine : public QObject
{
    Q_OBJECT
public:
    /// `project` may be null (no cache, no ledger: e.g. `rubric bench judge`). Not owned.
    JudgeEngine(ProviderProfile profile, Project *project, QObject *parent = nullptr);
    ~JudgeEngine() override;

    const ProviderProfile &profile() const;
    void setCacheEnabled(bool enabled);
    /// The run name written in the ledger for calls made from now on.
    void setRunName(const QString &run);
    /// Exponential backoff for retries: base * 2^attempt, ±50 % jitter, capped at `maxMs`
    /// (defaults 500 ms and 30 s). A 429's Retry-After (seconds) takes precedence.
    void setRetryBackoff(int baseMs, int maxMs);
    /// How long a failed replica of a pool rests before it is tried again (EndpointPool::setRest).
    void setReplicaRest(int baseMs, int maxMs);
    /// How long answers may wait in memory before they are committed to the project together
    /// (default 0: the next pass of the event loop; at most 256 answers). This bounds what a
    /// SIGKILL can lose beyond the requests in flight; answers are reported only after their commit.
    void setFlushInterval(int ms);
    /// Provider batches (OpenAI's Batch API, Anthropic's Message Batches): with `enabled`, the
    /// uncached calls submitted together (in one pass of the event loop) go as one batch when they are
    /// at least `threshold`, else interactively. Whatever the options, a call that an open batch of
    /// the project already holds (this process's or one a killed process left) waits for that batch
    /// instead of being sent again. Batch answers are cached and recorded in the ledger at
    /// `priceFactor` × the price, with the batch's id; lines that failed, and calls a batch ended
    /// without (expired, cancelled), are sent interactively and never cached as answers.
    void setBatchOptions(const BatchOptions &options);
    /// The batches of this engine's provider and model that this process submitted or picked up.
    QVector<BatchStatus> batches() const;
    /// Calls waiting for a provider batch.
    int waitingForBatches() const;
    /// Key resolution failed (environment variable missing, keychain error); empty otherwise.
    QString keyError() const;
    /// Number of separate connection pools used (QNetworkAccessManager caps HTTP/1.1 at six
    /// connections per host, so the engine spreads requests over ceil(concurrency / 6) managers,
    /// for the replica with the largest capacity).
    int connectionPools() const;
    /// What each replica of the profile did so far (one entry for a profile without replicas).
    QVector<ReplicaStats> replicaStats() const;

    /// Starts from adaptations learned before (the project keeps them per endpoint and model), so
    /// that nothing refused is sent again. Call before submitting; the budget is the profile's.
    void setAdaptations(const EndpointAdaptations &adaptations);
    /// What the endpoint was found to need so far (loaded and learned).
    EndpointAdaptations adaptations() const;

    /// The cache key of a request under this engine's profile (hash of provider, model,
    /// messages, every sampling parameter and the sample index). It names the model, not a base
    /// URL: whichever replica answered, the answer serves them all.
    QString cacheKey(const JudgeRequest &request) const;
    /// True when the project's cache already holds an answer for the request; an error when
    /// the cache cannot be read. Answers cached before keys stopped naming the base URL are
    /// found under their old key (that of any of the profile's URLs).
    Result<bool> isCached(const JudgeRequest &request) const;
    /// The cached answer to a request, or nullopt (no project, or not asked yet); an error when
    /// the cache cannot be read.
    Result<std::optional<JudgeResponse>> cached(const JudgeRequest &request) const;

    /// Queues requests; each ends in exactly one `answered` signal (possibly synchronously
    /// for cache hits, so connect before submitting).
    void submit(const QVector<JudgeRequest> &requests);
    /// Drops everything not yet sent and aborts what is in flight (reported as Cancelled).
    void cancel();

    JudgeStats stats() const;
    int pending() const; ///< submitted but not yet answered

    /// Canonical JSON of everything that changes the answer (the text hashed into the key).
    QString canonicalRequest(const JudgeRequest &request) const;

signals:
    void answered(const rubric::JudgeResponse &response);
    /// Emitted when the last pending request has been answered.
    void idle();
    void statsChanged();
    /// The engine learned an adaptation (`why` says what and why); adaptations() has it.
    void adapted(const QString &why);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace rubric
