#include "judge/TokenBucket.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <memory>

namespace rubric {

TokenBucket::TokenBucket(double perMinute, Clock clock, double capacity)
    : m_perMinute(perMinute)
    , m_capacity(capacity > 0 ? capacity : std::max(1.0, perMinute / 6.0))
    , m_level(m_capacity)
    , m_clock(std::move(clock))
{
    if (!m_clock) {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        m_clock = [timer] { return timer->elapsed(); };
    }
    m_last = m_clock();
}

void TokenBucket::refill()
{
    const qint64 now = m_clock();
    if (now > m_last) {
        m_level = std::min(m_capacity, m_level + double(now - m_last) * m_perMinute / 60000.0);
        m_last = now;
    }
}

bool TokenBucket::tryTake(double amount)
{
    if (unlimited())
        return true;
    refill();
    const double need = std::min(amount, m_capacity);
    if (m_level + 1e-9 < need)
        return false;
    m_level -= amount; // may go negative for an oversized amount: later takes wait for it
    return true;
}

qint64 TokenBucket::msUntil(double amount)
{
    if (unlimited())
        return 0;
    refill();
    const double need = std::min(amount, m_capacity);
    if (m_level + 1e-9 >= need)
        return 0;
    return qint64(std::ceil((need - m_level) * 60000.0 / m_perMinute));
}

double TokenBucket::level()
{
    refill();
    return m_level;
}

} // namespace rubric
