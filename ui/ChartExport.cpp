#include "ChartExport.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace rubric {

namespace {

QString trc(const char *text)
{
    return QCoreApplication::translate("rubric::ChartExport", text);
}

constexpr int kMargin = 12;

int titleHeight(const QWidget *chart, const QString &title)
{
    if (title.isEmpty())
        return 0;
    QFont f = chart->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    return QFontMetrics(f).height() + kMargin;
}

/// Title on top, the widget as it is drawn on screen below, on the widget's base colour.
void paint(QPainter &p, QWidget *chart, const QString &title)
{
    const int th = titleHeight(chart, title);
    const QRect all(0, 0, chart->width() + 2 * kMargin, chart->height() + th + 2 * kMargin);
    p.fillRect(all, chart->palette().base());
    if (th > 0) {
        QFont f = chart->font();
        f.setBold(true);
        f.setPointSizeF(f.pointSizeF() * 1.15);
        p.setFont(f);
        p.setPen(chart->palette().text().color());
        p.drawText(QRect(kMargin, kMargin, chart->width(), th - kMargin), Qt::AlignLeft | Qt::AlignVCenter, title);
    }
    chart->render(&p, QPoint(kMargin, kMargin + th), QRegion(), QWidget::DrawChildren);
}

} // namespace

QStringList ChartExport::fileFilters()
{
    return {trc("PNG image (*.png)"), trc("SVG drawing (*.svg)")};
}

Result<void> ChartExport::write(QWidget *chart, const QString &title, const QString &path)
{
    if (!chart || chart->width() <= 0 || chart->height() <= 0)
        return makeError(trc("There is no chart to export on this pane."), path);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return makeError(trc("Unknown chart format '%1': use .png or .svg.").arg(suffix), path);

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(trc("Cannot write the file: %1").arg(file.errorString()), path);
    const QSize size(chart->width() + 2 * kMargin, chart->height() + titleHeight(chart, title) + 2 * kMargin);

    if (suffix == QLatin1String("png")) {
        constexpr qreal kScale = 2.0;
        QImage image(size * kScale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(kScale);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            p.setRenderHint(QPainter::Antialiasing);
            p.setRenderHint(QPainter::TextAntialiasing);
            paint(p, chart, title);
        }
        if (!image.save(&file, "PNG"))
            return makeError(trc("Cannot encode the PNG image."), path);
    } else {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        // Qt 6.4 writes the title into <title> as it is: a judge named "</title><script>…" would be markup.
        svg.setTitle(title.toHtmlEscaped());
        svg.setDescription(trc("Exported from Rubric Studio"));
        QPainter p;
        if (!p.begin(&svg))
            return makeError(trc("Cannot start the SVG drawing."), path);
        p.setRenderHint(QPainter::Antialiasing);
        paint(p, chart, title);
        p.end();
    }
    if (!file.commit())
        return makeError(trc("Cannot write the file: %1").arg(file.errorString()), path);
    return {};
}

} // namespace rubric
