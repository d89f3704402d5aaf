#pragma once

#include <QAbstractAxis>
#include <QChart>

namespace rubric {

/// Empties a chart for a redraw: removeAllSeries() deletes the series, but removeAxis() hands each
/// axis back to the caller, so the axes are deleted here (LeakSanitizer found them leaked).
inline void clearChart(QChart *chart)
{
    chart->removeAllSeries();
    const QList<QAbstractAxis *> axes = chart->axes();
    for (QAbstractAxis *axis : axes) {
        chart->removeAxis(axis);
        delete axis;
    }
}

} // namespace rubric
