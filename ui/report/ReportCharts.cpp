#include "ReportCharts.h"

#include <QBuffer>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rubric::report {

namespace {

const QColor kInk(0x22, 0x22, 0x22);
const QColor kGrid(0xdd, 0xdd, 0xdd);
const QColor kAccent(0x1f, 0x6f, 0xb4);
const QColor kFront(0xd9, 0x5f, 0x02);

/// The unit every size derives from: 1 at a 640-wide chart.
double unit(const QRectF &rect)
{
    return rect.width() / 640.0;
}

QFont font(double u, double px, bool bold = false)
{
    QFont f;
    f.setPixelSize(std::max(1, int(std::lround(px * u))));
    f.setBold(bold);
    return f;
}

/// About five round tick values covering [lo, hi].
QVector<double> ticks(double lo, double hi)
{
    QVector<double> out;
    if (!(hi > lo))
        return {lo};
    const double raw = (hi - lo) / 5.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
        out << (std::abs(t) < step * 1e-9 ? 0.0 : t);
    return out;
}

std::pair<double, double> range(const QVector<double> &v)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double x : v)
        if (!std::isnan(x)) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    if (!(lo <= hi))
        return {0.0, 1.0};
    if (lo == hi)
        return {lo - 0.5, hi + 0.5};
    const double pad = (hi - lo) * 0.05;
    return {lo - pad, hi + pad};
}

void title(QPainter &p, const QRectF &rect, const QString &text)
{
    const double u = unit(rect);
    p.setFont(font(u, 13, true));
    p.setPen(kInk);
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), 22 * u), Qt::AlignLeft | Qt::AlignVCenter, text);
}

/// Axes, grid and tick labels of an x/y plot; returns the mapping from data to the plot area.
struct Axes
{
    QRectF plot;
    double x0, x1, y0, y1;
    QPointF map(double x, double y) const
    {
        return {plot.left() + (x - x0) / (x1 - x0) * plot.width(),
                plot.bottom() - (y - y0) / (y1 - y0) * plot.height()};
    }
};

Axes axes(QPainter &p, const QRectF &rect, const ReportChart &c, std::pair<double, double> xr,
          std::pair<double, double> yr)
{
    const double u = unit(rect);
    Axes a{QRectF(rect.left() + 56 * u, rect.top() + 30 * u, rect.width() - 72 * u, rect.height() - 74 * u), xr.first,
           xr.second, yr.first, yr.second};
    p.setFont(font(u, 10));
    const QFontMetricsF fm(p.font());
    for (double t : ticks(a.x0, a.x1)) {
        const QPointF at = a.map(t, a.y0);
        p.setPen(QPen(kGrid, 1 * u));
        p.drawLine(QPointF(at.x(), a.plot.top()), QPointF(at.x(), a.plot.bottom()));
        p.setPen(kInk);
        const QString s = QString::number(t, 'g', 4);
        p.drawText(QPointF(at.x() - fm.horizontalAdvance(s) / 2, a.plot.bottom() + fm.height()), s);
    }
    for (double t : ticks(a.y0, a.y1)) {
        const QPointF at = a.map(a.x0, t);
        p.setPen(QPen(kGrid, 1 * u));
        p.drawLine(QPointF(a.plot.left(), at.y()), QPointF(a.plot.right(), at.y()));
        p.setPen(kInk);
        const QString s = QString::number(t, 'g', 4);
        p.drawText(QPointF(a.plot.left() - fm.horizontalAdvance(s) - 4 * u, at.y() + fm.ascent() / 3), s);
    }
    p.setPen(QPen(kInk, 1.2 * u));
    p.drawRect(a.plot);
    p.setFont(font(u, 11));
    p.drawText(QRectF(a.plot.left(), a.plot.bottom() + 20 * u, a.plot.width(), 20 * u), Qt::AlignCenter, c.xLabel);
    p.save();
    p.translate(rect.left() + 12 * u, a.plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-a.plot.height() / 2, -10 * u, a.plot.height(), 20 * u), Qt::AlignCenter, c.yLabel);
    p.restore();
    return a;
}

void scatter(QPainter &p, const QRectF &rect, const ReportChart &c)
{
    const double u = unit(rect);
    const Axes a = axes(p, rect, c, range(c.x), range(c.y));
    p.setPen(Qt::NoPen);
    QColor fill = kAccent;
    fill.setAlphaF(c.x.size() > 400 ? 0.25 : 0.55);
    p.setBrush(fill);
    const double r = (c.x.size() > 400 ? 2.2 : 3.2) * u;
    for (int i = 0; i < c.x.size(); ++i)
        if (!std::isnan(c.x[i]) && !std::isnan(c.y[i]))
            p.drawEllipse(a.map(c.x[i], c.y[i]), r, r);
}

void pareto(QPainter &p, const QRectF &rect, const ReportChart &c)
{
    const double u = unit(rect);
    // Cost starts at 0; judges that cost nothing (offline metrics) sit on the left edge.
    auto xr = range(c.x);
    xr.first = 0.0;
    if (!(xr.second > 0))
        xr.second = 1e-3;
    const Axes a = axes(p, rect, c, xr, range(c.y));
    // The front: cheapest first, a judge is on it when it beats every cheaper one.
    QVector<int> order(c.x.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int i, int j) { return c.x[i] < c.x[j] || (c.x[i] == c.x[j] && c.y[i] > c.y[j]); });
    QPainterPath front;
    double best = -std::numeric_limits<double>::infinity();
    QVector<bool> onFront(c.x.size(), false);
    for (int i : order)
        if (c.y[i] > best) {
            best = c.y[i];
            onFront[i] = true;
            front.isEmpty() ? front.moveTo(a.map(c.x[i], c.y[i])) : front.lineTo(a.map(c.x[i], c.y[i]));
        }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(kFront, 1.6 * u, Qt::DashLine));
    p.drawPath(front);
    p.setFont(font(u, 10));
    for (int i = 0; i < c.x.size(); ++i) {
        const QPointF at = a.map(c.x[i], c.y[i]);
        p.setPen(Qt::NoPen);
        p.setBrush(onFront[i] ? kFront : kAccent);
        p.drawEllipse(at, 4.5 * u, 4.5 * u);
        p.setPen(kInk);
        p.drawText(at + QPointF(7 * u, -5 * u), c.labels.value(i));
    }
}

void bars(QPainter &p, const QRectF &rect, const ReportChart &c)
{
    const double u = unit(rect);
    const double top = rect.top() + 30 * u, labelW = 230 * u;
    const double rowH = (rect.bottom() - 24 * u - top) / std::max<qsizetype>(1, c.values.size());
    const QRectF plot(rect.left() + labelW, top, rect.width() - labelW - 50 * u, rowH * c.values.size());
    double lo = std::min(0.0, -0.2), hi = 1.0;
    for (double v : c.values)
        if (!std::isnan(v))
            lo = std::min(lo, std::floor(v * 5) / 5);
    const auto x = [&](double v) { return plot.left() + (v - lo) / (hi - lo) * plot.width(); };
    p.setFont(font(u, 9));
    for (double t : ticks(lo, hi)) {
        p.setPen(QPen(kGrid, 1 * u));
        p.drawLine(QPointF(x(t), plot.top()), QPointF(x(t), plot.bottom()));
        p.setPen(kInk);
        p.drawText(QRectF(x(t) - 20 * u, plot.bottom() + 2 * u, 40 * u, 14 * u), Qt::AlignCenter,
                   QString::number(t, 'g', 3));
    }
    const QFontMetricsF fm(p.font());
    for (int i = 0; i < c.values.size(); ++i) {
        const double y = plot.top() + i * rowH;
        p.setPen(kInk);
        p.drawText(QRectF(rect.left(), y, labelW - 6 * u, rowH), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(c.labels.value(i), Qt::ElideRight, labelW - 8 * u));
        const double v = c.values[i];
        if (std::isnan(v))
            continue;
        p.setPen(Qt::NoPen);
        p.setBrush(v >= 0 ? kAccent : kFront);
        p.drawRect(
                QRectF(QPointF(std::min(x(0), x(v)), y + rowH * 0.18), QPointF(std::max(x(0), x(v)), y + rowH * 0.82)));
        if (i < c.lo.size() && !std::isnan(c.lo[i])) {
            p.setPen(QPen(kInk, 1.2 * u));
            p.drawLine(QPointF(x(c.lo[i]), y + rowH / 2), QPointF(x(c.hi[i]), y + rowH / 2));
        }
        p.setPen(kInk);
        p.drawText(QRectF(plot.right() + 4 * u, y, 46 * u, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::number(v, 'f', 2));
    }
    p.setPen(QPen(kInk, 1.2 * u));
    p.drawLine(QPointF(x(0), plot.top()), QPointF(x(0), plot.bottom()));
}

void heatmap(QPainter &p, const QRectF &rect, const ReportChart &c)
{
    const double u = unit(rect);
    const double labelW = 110 * u, headH = 110 * u;
    const double top = rect.top() + 30 * u + headH;
    const int cols = int(c.columns.size()), rows = int(c.cells.size());
    if (cols == 0 || rows == 0)
        return;
    const double cellW = std::min(60 * u, (rect.width() - labelW - 10 * u) / cols);
    const double cellH = (rect.bottom() - top) / rows;
    p.setFont(font(u, 9));
    const QFontMetricsF fm(p.font());
    p.setPen(kInk);
    for (int j = 0; j < cols; ++j) {
        p.save();
        p.translate(rect.left() + labelW + (j + 0.5) * cellW, top - 4 * u);
        p.rotate(-55);
        p.drawText(QPointF(0, fm.ascent() / 3), fm.elidedText(c.columns[j], Qt::ElideRight, headH * 1.15));
        p.restore();
    }
    const double span = c.cellMax - c.cellMin;
    for (int i = 0; i < rows; ++i) {
        const double y = top + i * cellH;
        p.setPen(kInk);
        p.drawText(QRectF(rect.left(), y, labelW - 6 * u, cellH), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(c.labels.value(i), Qt::ElideMiddle, labelW - 8 * u));
        for (int j = 0; j < cols; ++j) {
            const double v = c.cells[i].value(j, std::nan(""));
            QColor fill(0xee, 0xee, 0xee);
            if (!std::isnan(v)) {
                const double t = span > 0 ? (v - c.cellMin) / span : 0.5;
                fill = QColor::fromRgbF(float(1 - 0.88 * t), float(1 - 0.55 * t), float(1 - 0.2 * t));
            }
            const QRectF cell(rect.left() + labelW + j * cellW, y, cellW, cellH);
            p.setPen(QPen(Qt::white, 0.8 * u));
            p.setBrush(fill);
            p.drawRect(cell);
            if (!std::isnan(v) && cellH > 10 * u) {
                p.setPen(span > 0 && (v - c.cellMin) / span > 0.6 ? Qt::white : kInk);
                p.drawText(cell, Qt::AlignCenter, QString::number(v, 'g', 2));
            }
        }
    }
}

} // namespace

double ReportCharts::preferredHeight(const ReportChart &chart, double width)
{
    const double u = width / 640.0;
    switch (chart.kind) {
    case ChartKind::Bars:
        return u * (60 + 18 * std::max<qsizetype>(1, chart.values.size()));
    case ChartKind::Heatmap:
        return u * (150 + 15 * std::max<qsizetype>(1, chart.cells.size()));
    case ChartKind::Scatter:
    case ChartKind::Pareto:
        break;
    }
    return width * 0.6;
}

void ReportCharts::paint(QPainter &painter, const QRectF &rect, const ReportChart &chart)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setClipRect(rect);
    title(painter, rect, chart.title);
    switch (chart.kind) {
    case ChartKind::Scatter:
        scatter(painter, rect, chart);
        break;
    case ChartKind::Pareto:
        pareto(painter, rect, chart);
        break;
    case ChartKind::Bars:
        bars(painter, rect, chart);
        break;
    case ChartKind::Heatmap:
        heatmap(painter, rect, chart);
        break;
    }
    painter.restore();
}

QByteArray ReportCharts::svg(const ReportChart &chart, int width)
{
    const int height = int(std::ceil(preferredHeight(chart, width)));
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setSize(QSize(width, height));
    gen.setViewBox(QRect(0, 0, width, height));
    // Qt 6.4 writes the title into <title> as it is: a judge named "</title><script>…" would be markup.
    gen.setTitle(chart.title.toHtmlEscaped());
    {
        QPainter p(&gen);
        paint(p, QRectF(0, 0, width, height), chart);
    }
    return buffer.data();
}

QImage ReportCharts::image(const ReportChart &chart, int width)
{
    const int height = int(std::ceil(preferredHeight(chart, width)));
    QImage img(width * 2, height * 2, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    p.scale(2, 2);
    paint(p, QRectF(0, 0, width, height), chart);
    return img;
}

} // namespace rubric::report
