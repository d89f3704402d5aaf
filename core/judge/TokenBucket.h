#pragma once

#include <QtGlobal>

#include <functional>

namespace rubric {

/// A token bucket for a per-minute budget (requests or tokens). It refills continuously at
/// `perMinute / 60000` per millisecond up to `capacity` (default: ten seconds' worth, at least one
/// request's need), so a run starts without a minute-long burst. The clock is injected so tests
/// can drive it; by default a monotonic clock. `perMinute <= 0` means unlimited.
class TokenBucket
{
public:
    using Clock = std::function<qint64()>; ///< milliseconds, monotonic

    explicit TokenBucket(double perMinute = 0, Clock clock = {}, double capacity = 0);

    bool unlimited() const { return m_perMinute <= 0; }
    /// Takes `amount` if the bucket holds it (or is full, for an amount larger than the capacity).
    bool tryTake(double amount);
    /// Milliseconds until `amount` could be taken (0 when it can be taken now).
    qint64 msUntil(double amount);
    double level();
    double capacity() const { return m_capacity; }

private:
    void refill();

    double m_perMinute = 0;
    double m_capacity = 0;
    double m_level = 0;
    qint64 m_last = 0;
    Clock m_clock;
};

} // namespace rubric
