#pragma once

// Internal to core/stats: the bootstrap's and the permutation tests' fan-out over the global thread
// pool.

#include <QtConcurrent/QtConcurrentMap>

#include <atomic>
#include <numeric>
#include <vector>

namespace rubric::stats::detail {

/// Runs `body(chunk)` for chunk = 0 … chunks-1 on the global thread pool (the calling thread takes
/// part) and returns when every chunk has run, with everything the chunks wrote visible to the
/// caller.
///
/// The counter is that visibility. QtConcurrent::blockingMap (Qt 6.4) returns from
/// ThreadEngineBarrier::wait() after a relaxed read of its thread count when the other threads have
/// already finished, and a relaxed read orders nothing: the caller's next reads of the results are
/// not ordered after the chunks' writes (ThreadSanitizer reports them, and the C++ memory model
/// calls them a data race). Each chunk's acquire-release increment and the caller's acquire read of
/// the final count are.
template <typename Body> void forEachChunk(int chunks, Body &&body)
{
    std::vector<int> ids(static_cast<size_t>(chunks));
    std::iota(ids.begin(), ids.end(), 0);
    std::atomic<int> finished{0};
    QtConcurrent::blockingMap(ids, [&](int chunk) {
        body(chunk);
        finished.fetch_add(1, std::memory_order_acq_rel);
    });
    [[maybe_unused]] const int all = finished.load(std::memory_order_acquire);
    Q_ASSERT(all == chunks);
}

} // namespace rubric::stats::detail
