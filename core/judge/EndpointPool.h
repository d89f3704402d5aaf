#pragma once

#include "data/JudgeTypes.h"
#include "judge/TokenBucket.h"

#include <QString>
#include <QVector>

#include <vector>

namespace rubric {

/// What one replica of a pool did, for progress displays and `rubric bench judge`.
struct ReplicaStats
{
    QString baseUrl; ///< as the cache and the ledger write it (no credential, no trailing slash)
    double weight = 1;
    int capacity = 0;     ///< requests it may have in flight
    int sent = 0;         ///< HTTP requests sent to it, retries included
    int answered = 0;     ///< of those, answered (a readable HTTP 200)
    int failed = 0;       ///< of those, failed the replica's way (see EndpointPool)
    int drained = 0;      ///< times it was drained
    bool resting = false; ///< drained now, waiting for its rest to end
};

/// The replicas of one provider profile (ProviderProfile::baseUrls(): replicas of the same model)
/// and which of them takes the next request.
///
/// Capacity: replica i takes max(1, round(weight_i × concurrency)) requests in flight and has its
/// own request and token budgets of weight_i × the profile's per-minute limits (weights default to
/// 1: each replica gets the profile's concurrency and limits). A request goes to the replica with
/// the largest share of its capacity free (the first on a tie): equal replicas share the load
/// evenly, weights 2,1 send two requests in three to the first, and a slow replica, whose slots
/// stay taken longer, gets fewer.
///
/// Draining (pools of two or more replicas): a failure that is the replica's (network error, no
/// answer within the timeout, HTTP 429 or 5xx, an answer that cannot be read) drains it: it rests
/// for restBase × 2^(failures in a row − 1), at most restMax, or a 429's Retry-After when longer;
/// then it takes one request at a time until one is answered, which gives it its whole capacity
/// back. Failures of requests sent before it was drained do not lengthen the rest. A pool of one
/// never rests: its requests are retried with the engine's backoff as before pools existed.
///
/// Plain bookkeeping, no I/O and no timers: JudgeEngine asks and tells it. Not thread-safe; lives
/// with its engine. The clock (milliseconds, monotonic) is injectable for tests.
class EndpointPool
{
public:
    using Clock = TokenBucket::Clock;

    EndpointPool() = default;
    explicit EndpointPool(const ProviderProfile &profile, Clock clock = {});

    /// A base URL as the cache, the ledger and the legacy cache keys write it: without a
    /// trailing slash and, should one get this far, without a credential.
    static QString normalisedUrl(const QString &base);

    int size() const { return int(m_replicas.size()); }
    /// The replica's base URL as the cache and the ledger write it.
    QString baseUrl(int replica) const { return m_replicas[size_t(replica)].url; }
    int capacity(int replica) const { return m_replicas[size_t(replica)].capacity; }
    int maxCapacity() const;
    int totalCapacity() const;
    int inFlight(int replica) const { return m_replicas[size_t(replica)].load; }
    /// How long a drained replica rests: `baseMs` after its first failure, doubled for each
    /// further failure in a row, at most `maxMs` (defaults 1 s and 30 s).
    void setRest(int baseMs, int maxMs);

    /// The replica that should take a request of about `tokens` tokens now, or -1. Replicas in
    /// the bit mask `avoid` (those that failed this request) are left out while another replica
    /// is not resting. With -1, `*waitMs` is how long until one could take it (a rest or a budget
    /// ends), or -1 when only a request finishing can free a slot.
    int pick(double tokens, quint64 avoid, qint64 *waitMs);
    /// A request of about `tokens` tokens goes to `replica` now (takes a slot and the budgets).
    void sent(int replica, double tokens);
    /// The request `replica` received at `sentAtMs` (now() then) was answered.
    void succeeded(int replica, qint64 sentAtMs);
    /// The request `replica` received at `sentAtMs` failed the replica's way; `restMs` ≥ 0 asks
    /// for at least that rest (Retry-After). True when this failure drained the replica.
    bool failed(int replica, qint64 sentAtMs, qint64 restMs = -1);
    /// The request ended otherwise (a client error, cancelled, aborted): frees its slot only.
    void released(int replica);
    /// True when a replica outside `avoid` is not resting (a failed request may go there at once).
    bool hasLiveReplica(quint64 avoid) const;

    qint64 now() const { return m_clock(); }
    QVector<ReplicaStats> stats() const;

private:
    struct Replica
    {
        QString url;
        double weight = 1;
        int capacity = 1;
        int load = 0;
        TokenBucket requests;
        TokenBucket tokens;
        int failuresInARow = 0;
        qint64 restUntil = 0;
        qint64 drainedAt = -1;  ///< when it was last drained (-1: never)
        bool probation = false; ///< after a rest: one request at a time until one is answered
        ReplicaStats stats;
    };

    bool resting(const Replica &r, qint64 now) const { return r.restUntil > now; }

    std::vector<Replica> m_replicas;
    Clock m_clock;
    int m_restBase = 1000;
    int m_restMax = 30000;
};

} // namespace rubric
