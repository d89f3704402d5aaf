#pragma once

#include <QElapsedTimer>
#include <QString>

namespace rubric {

class MainWindow;

/// `rubric-studio PROJECT --bench-scroll FILE` (what `rubric bench scale` runs offscreen): once the
/// window is shown, times its first pane until drawn, then scrolls the Dataset pane's table and
/// the Heatmap pane's grid page by page and by jumps while a 2 ms timer measures the longest gap
/// of the event loop, then opens every other pane in turn (its time to be drawn and the peak
/// memory after it), and writes the figures as one JSON object to FILE, then quits.
/// `sinceStart` was started first thing in main().
void startScrollBench(MainWindow &window, const QElapsedTimer &sinceStart, const QString &file);

} // namespace rubric
