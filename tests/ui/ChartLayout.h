#pragma once

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>

namespace rubric::test {

/// Waits until a chart's plot area holds still over three event-loop passes: a chart lays itself
/// out again in posted events after a new series, axis range or title, so a position read or an
/// export right after the data arrived can see the old layout. A condition, polled as QTRY_* polls.
inline bool waitChartLaidOut(const QChartView *view, int timeoutMs = 10000)
{
    QRectF before;
    int still = 0;
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < timeoutMs) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        const QRectF now = view->chart()->plotArea();
        still = !now.isEmpty() && now == before ? still + 1 : 0;
        if (still >= 3)
            return true;
        before = now;
        QTest::qWait(10);
    }
    return false;
}

} // namespace rubric::test
