#include "judge/EndpointPool.h"

#include "judge/EndpointSecrets.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <memory>

namespace rubric {

QString EndpointPool::normalisedUrl(const QString &base)
{
    // A URL with a credential is refused before anything is sent; should it get here all the
    // same, the cache, the ledger and the key never see the credential.
    QString b = EndpointSecrets::checkBaseUrl(base) ? base.trimmed() : EndpointSecrets::stripUrl(base);
    while (b.endsWith(QLatin1Char('/')))
        b.chop(1);
    return b;
}

EndpointPool::EndpointPool(const ProviderProfile &profile, Clock clock)
    : m_clock(std::move(clock))
{
    if (!m_clock) {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        m_clock = [timer] { return timer->elapsed(); };
    }
    const QStringList urls = profile.baseUrls();
    const int concurrency = std::max(1, profile.concurrency);
    for (qsizetype i = 0; i < urls.size(); ++i) {
        Replica r;
        r.url = normalisedUrl(urls[i]);
        r.weight = std::max(0.0, profile.replicaWeight(i));
        r.capacity = std::max(1, int(std::lround(r.weight * concurrency)));
        r.requests = TokenBucket(profile.requestsPerMinute * r.weight, m_clock);
        r.tokens = TokenBucket(profile.tokensPerMinute * r.weight, m_clock);
        r.stats.baseUrl = r.url;
        r.stats.weight = r.weight;
        r.stats.capacity = r.capacity;
        m_replicas.push_back(std::move(r));
    }
}

int EndpointPool::maxCapacity() const
{
    int most = 0;
    for (const Replica &r : m_replicas)
        most = std::max(most, r.capacity);
    return most;
}

int EndpointPool::totalCapacity() const
{
    int sum = 0;
    for (const Replica &r : m_replicas)
        sum += r.capacity;
    return sum;
}

void EndpointPool::setRest(int baseMs, int maxMs)
{
    m_restBase = std::max(1, baseMs);
    m_restMax = std::max(m_restBase, maxMs);
}

bool EndpointPool::hasLiveReplica(quint64 avoid) const
{
    const qint64 now = m_clock();
    for (size_t i = 0; i < m_replicas.size(); ++i)
        if ((i >= 64 || !((avoid >> i) & 1U)) && !resting(m_replicas[i], now))
            return true;
    return false;
}

int EndpointPool::pick(double tokens, quint64 avoid, qint64 *waitMs)
{
    const qint64 now = m_clock();
    // A request that failed on a replica goes elsewhere while somewhere else is up; when every
    // other replica rests, the one it failed on may take it again.
    const bool elsewhere = hasLiveReplica(avoid);
    int best = -1;
    double bestFree = 0;
    qint64 wait = -1;
    const auto until = [&wait](qint64 ms) {
        if (ms > 0 && (wait < 0 || ms < wait))
            wait = ms;
    };
    for (size_t i = 0; i < m_replicas.size(); ++i) {
        Replica &r = m_replicas[i];
        if (elsewhere && i < 64 && ((avoid >> i) & 1U))
            continue;
        if (resting(r, now)) {
            until(r.restUntil - now);
            continue;
        }
        const int room = r.probation ? 1 : r.capacity;
        if (r.load >= room)
            continue;
        if (const qint64 budget = std::max(r.requests.msUntil(1), r.tokens.msUntil(tokens)); budget > 0) {
            until(budget);
            continue;
        }
        // The share of its whole capacity that is free: weights are kept when the pool is not
        // saturated, and a replica on probation (load 0) is tried as soon as the others are busy.
        const double free = double(r.capacity - r.load) / double(r.capacity);
        if (free > bestFree) {
            best = int(i);
            bestFree = free;
        }
    }
    if (waitMs)
        *waitMs = best >= 0 ? 0 : wait;
    return best;
}

void EndpointPool::sent(int replica, double tokens)
{
    Replica &r = m_replicas[size_t(replica)];
    ++r.load;
    ++r.stats.sent;
    r.requests.tryTake(1);
    r.tokens.tryTake(tokens);
}

void EndpointPool::released(int replica)
{
    Replica &r = m_replicas[size_t(replica)];
    r.load = std::max(0, r.load - 1);
}

void EndpointPool::succeeded(int replica, qint64 sentAtMs)
{
    Replica &r = m_replicas[size_t(replica)];
    ++r.stats.answered;
    if (sentAtMs > r.drainedAt) { // an answer to a request sent before the drain proves nothing
        r.failuresInARow = 0;
        r.probation = false;
    }
}

bool EndpointPool::failed(int replica, qint64 sentAtMs, qint64 restMs)
{
    Replica &r = m_replicas[size_t(replica)];
    ++r.stats.failed;
    if (m_replicas.size() < 2 || sentAtMs <= r.drainedAt)
        return false; // alone it never rests; sent before the drain: the rest already counts it
    ++r.failuresInARow;
    const double doubled = double(m_restBase) * std::pow(2.0, std::min(30, r.failuresInARow - 1));
    const qint64 rest = std::max<qint64>(restMs, qint64(std::min(double(m_restMax), doubled)));
    const qint64 now = m_clock();
    r.restUntil = now + rest;
    r.drainedAt = now;
    r.probation = true;
    ++r.stats.drained;
    return true;
}

QVector<ReplicaStats> EndpointPool::stats() const
{
    const qint64 now = m_clock();
    QVector<ReplicaStats> out;
    for (const Replica &r : m_replicas) {
        ReplicaStats s = r.stats;
        s.resting = resting(r, now);
        out.append(s);
    }
    return out;
}

} // namespace rubric
