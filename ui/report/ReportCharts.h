#pragma once

#include "report/ReportDocument.h"

#include <QByteArray>
#include <QImage>
#include <QRectF>

class QPainter;

namespace rubric::report {

/// Paints the report's charts with QPainter, so one drawing serves every format: the PDF (a
/// QPdfWriter: vector), the SVG inlined in the HTML and written to the bundle (QSvgGenerator:
/// vector, text stays text) and the bundle's PNG. Needs a QGuiApplication (fonts); any thread.
class ReportCharts
{
public:
    /// The height a chart wants at `width` (bars and heatmap rows grow with their count).
    static double preferredHeight(const ReportChart &chart, double width);
    /// Paints `chart` into `rect`; sizes (fonts, marks) scale with the rect's width.
    static void paint(QPainter &painter, const QRectF &rect, const ReportChart &chart);
    /// The chart as a standalone SVG document of `width` px (height from preferredHeight).
    static QByteArray svg(const ReportChart &chart, int width = 720);
    /// The chart as a PNG-ready image at twice `width` px.
    static QImage image(const ReportChart &chart, int width = 720);
};

} // namespace rubric::report
