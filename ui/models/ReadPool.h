#pragma once

#include <QCoreApplication>
#include <QThreadPool>

namespace rubric {

/// The thread pool the views read the project on (the Dataset pane's sorts and filters, the Run
/// pane's item counts): seconds each at a million items. Not the global pool: Qt's raster engine
/// borrows the global pool's threads to fill large areas and the painting GUI thread waits for
/// them, so a long read there froze the window for seconds at every repaint (measured: 3–15 s
/// event-loop gaps at 1M items). Drained once when the application ends.
inline QThreadPool *readPool()
{
    static QThreadPool pool;
    static const bool drainAtExit = [] {
        pool.setMaxThreadCount(2);
        // Threads that never expire: a Project keeps one connection per thread that read it until
        // it closes, and an expired thread's successor would open another every idle half-minute.
        pool.setExpiryTimeout(-1);
        qAddPostRoutine([] { pool.waitForDone(); });
        return true;
    }();
    (void)drainAtExit;
    return &pool;
}

} // namespace rubric
