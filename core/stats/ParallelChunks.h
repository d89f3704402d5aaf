#pragma once

// Internal to core/stats: the bootstrap's and the permutation tests' fan-out over the statistics'
// own thread pool.

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <atomic>
#include <memory>
#include <numeric>
#include <vector>

namespace rubric::stats::detail {

/// The pool the chunks run on: one thread per core, apart from the global pool. Qt's raster paint
/// engine hands parts of large fills to the global pool and waits for them: with the chunks of a
/// million-item bootstrap queued there, the studio's GUI thread waited seconds to paint a chart.
/// Never deleted (a chunk may still run while statics are destroyed at exit).
inline QThreadPool *chunkPool()
{
    static QThreadPool *const pool = [] {
        auto *p = new QThreadPool;
        p->setObjectName(QStringLiteral("rubric-stats"));
        return p;
    }();
    return pool;
}

/// Runs `body(chunk)` for chunk = 0 … chunks-1 on chunkPool() (the calling thread takes part) and
/// returns when every chunk has run, with everything the chunks wrote visible to the caller.
///
/// The counter is that visibility. QtConcurrent::blockingMap (Qt 6.4) returns from
/// ThreadEngineBarrier::wait() after a relaxed read of its thread count when the other threads have
/// already finished, and a relaxed read orders nothing: the caller's next reads of the results are
/// not ordered after the chunks' writes (ThreadSanitizer reports them, and the C++ memory model
/// calls them a data race). Each chunk's acquire-release increment and the caller's acquire read of
/// the final count are.
///
/// The body and the counter live on the heap, shared by the map's copies of its functor: the pool's
/// threads never read the calling thread's stack. Callers give `body` a heap-held job to read and
/// write (see bootstrapCorrelation and compareJudges), captured by value, for the same reason.
template <typename Body> void forEachChunk(int chunks, Body body)
{
    struct Shared
    {
        explicit Shared(Body &&b)
            : body(std::move(b))
        {
        }
        Body body;
        std::atomic<int> finished{0};
    };
    const auto shared = std::make_shared<Shared>(std::move(body));
    std::vector<int> ids(static_cast<size_t>(chunks));
    std::iota(ids.begin(), ids.end(), 0);
    QtConcurrent::blockingMap(chunkPool(), ids, [shared](int chunk) {
        shared->body(chunk);
        shared->finished.fetch_add(1, std::memory_order_acq_rel);
    });
    [[maybe_unused]] const int all = shared->finished.load(std::memory_order_acquire);
    Q_ASSERT(all == chunks);
}

} // namespace rubric::stats::detail
