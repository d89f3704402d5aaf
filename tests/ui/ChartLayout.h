#pragma once

#include <QChart>
#include <QChartView>
#include <QTest>

namespace rubric::test {

/// Waits until a chart's plot area holds still over three event-loop passes (QTest::qWaitFor
/// processes events between them): a chart lays itself out again in posted events after a new
/// series, axis range or title, so a position read or an export right after the data arrived can
/// see the old layout.
inline bool waitChartLaidOut(const QChartView *view, int timeoutMs = 10000)
{
    QRectF before;
    int still = 0;
    return QTest::qWaitFor(
            [&] {
                const QRectF now = view->chart()->plotArea();
                still = !now.isEmpty() && now == before ? still + 1 : 0;
                before = now;
                return still >= 3;
            },
            timeoutMs);
}

} // namespace rubric::test
