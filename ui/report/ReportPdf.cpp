#include "ReportCharts.h"
#include "ReportWriter.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rubric::report {

namespace {

/// Lays the document out on pages and, unless `dry`, paints it. Run dry first to learn the
/// page count and the page of every heading (for the contents and "page n of m").
class PdfFlow
{
public:
    PdfFlow(QPdfWriter &writer, QPainter *painter, bool dry)
        : m_writer(writer)
        , m_painter(painter)
        , m_dry(dry)
    {
        const double dpi = writer.resolution();
        m_pt = dpi / 72.0;
        const QRectF page = QRectF(QPointF(0, 0), QSizeF(writer.width(), writer.height()));
        m_body = page.adjusted(0, 0, 0, -24 * m_pt);
    }

    int page() const { return m_page; }
    double pt() const { return m_pt; }

    QFont font(double points, bool bold = false, bool italic = false) const
    {
        QFont f(QStringLiteral("DejaVu Sans"));
        f.setPointSizeF(points);
        f.setBold(bold);
        f.setItalic(italic);
        return f;
    }

    double textHeight(const QString &text, const QFont &f, double width) const
    {
        const QFontMetricsF fm(f, &m_writer);
        return fm.boundingRect(QRectF(0, 0, width, 1e7), Qt::TextWordWrap, text).height();
    }

    void newPage()
    {
        footer();
        if (!m_dry)
            m_writer.newPage();
        ++m_page;
        m_y = m_body.top();
    }

    /// Starts a new page unless `height` still fits.
    void ensure(double height)
    {
        if (m_y + height > m_body.bottom() && m_y > m_body.top())
            newPage();
    }

    void text(const QString &t, const QFont &f, double indent = 0, double spaceAfter = 4, QColor color = Qt::black)
    {
        const double w = m_body.width() - indent;
        const double h = textHeight(t, f, w);
        ensure(h);
        if (!m_dry) {
            m_painter->setFont(f);
            m_painter->setPen(color);
            m_painter->drawText(QRectF(m_body.left() + indent, m_y, w, h + 2), Qt::TextWordWrap, t);
        }
        m_y += h + spaceAfter * m_pt;
    }

    void gap(double points) { m_y += points * m_pt; }

    void table(const ReportTable &t)
    {
        const QFont cellFont = font(7), headFont = font(7, true), captionFont = font(8, false, true);
        const int cols = int(t.header.size());
        // Each column gets at least its longest word (so no word breaks inside), the rest of the
        // width goes by the columns' text length.
        const double pad = 2 * m_pt;
        const QFontMetricsF cellMetrics(cellFont, &m_writer), headMetrics(headFont, &m_writer);
        QVector<double> weight(cols, 1.0), minimum(cols, 0.0);
        for (int c = 0; c < cols; ++c) {
            double longest = t.header[c].size();
            const auto words = [&](const QString &text, const QFontMetricsF &fm) {
                for (const QString &w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    minimum[c] = std::max(minimum[c], fm.horizontalAdvance(w) + 2 * pad + 1);
            };
            words(t.header[c], headMetrics);
            for (const QStringList &row : t.rows) {
                longest = std::max<double>(longest, std::min<qsizetype>(row.value(c).size(), 90));
                words(row.value(c), cellMetrics);
            }
            minimum[c] = std::min(minimum[c], m_body.width() * 0.3);
            weight[c] = std::max(4.0, longest);
        }
        const double fixedPart = std::accumulate(minimum.begin(), minimum.end(), 0.0);
        const double spare = std::max(0.0, m_body.width() - fixedPart);
        const double sum = std::accumulate(weight.begin(), weight.end(), 0.0);
        QVector<double> width(cols);
        for (int c = 0; c < cols; ++c)
            width[c] = fixedPart > m_body.width() ? m_body.width() * minimum[c] / fixedPart
                                                  : minimum[c] + spare * weight[c] / sum;
        const auto rowHeight = [&](const QStringList &cells, const QFont &f) {
            double h = 0;
            for (int c = 0; c < cols; ++c)
                h = std::max(h, textHeight(cells.value(c), f, width[c] - 2 * pad));
            return h + 2 * pad;
        };
        const auto drawRow = [&](const QStringList &cells, const QFont &f, double h, bool head) {
            if (m_dry)
                return;
            double x = m_body.left();
            m_painter->setFont(f);
            for (int c = 0; c < cols; ++c) {
                const QRectF cell(x, m_y, width[c], h);
                m_painter->setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 0.5 * m_pt));
                m_painter->setBrush(head ? QColor(0xee, 0xf3, 0xf8) : QColor(Qt::white));
                m_painter->drawRect(cell);
                m_painter->setPen(Qt::black);
                m_painter->drawText(cell.adjusted(pad, pad, -pad, -pad), Qt::TextWordWrap, cells.value(c));
                x += width[c];
            }
        };
        const double headH = rowHeight(t.header, headFont);
        const double firstH = t.rows.isEmpty() ? 0 : rowHeight(t.rows.first(), cellFont);
        ensure(textHeight(t.caption, captionFont, m_body.width()) + headH + firstH + 6 * m_pt);
        text(t.caption, captionFont, 0, 2, QColor(0x44, 0x44, 0x44));
        drawRow(t.header, headFont, headH, true);
        m_y += headH;
        for (const QStringList &row : t.rows) {
            const double h = std::min(rowHeight(row, cellFont), m_body.height() - headH);
            if (m_y + h > m_body.bottom()) {
                newPage();
                drawRow(t.header, headFont, headH, true);
                m_y += headH;
            }
            drawRow(row, cellFont, h, false);
            m_y += h;
        }
        m_y += 8 * m_pt;
    }

    void chart(const ReportChart &c)
    {
        const double w = m_body.width() * 0.92;
        const double h = std::min(ReportCharts::preferredHeight(c, w), m_body.height());
        ensure(h);
        if (!m_dry)
            ReportCharts::paint(*m_painter, QRectF(m_body.left(), m_y, w, h), c);
        m_y += h + 8 * m_pt;
    }

    void setTotal(int pages) { m_total = pages; }

    /// The page number at the foot of the page being finished.
    void footer()
    {
        if (m_dry)
            return;
        m_painter->setFont(font(8));
        m_painter->setPen(QColor(0x55, 0x55, 0x55));
        const QString label = m_total > 0 ? ReportWriter::tr("page %1 of %2").arg(m_page).arg(m_total)
                                          : ReportWriter::tr("page %1").arg(m_page);
        m_painter->drawText(QRectF(m_body.left(), m_body.bottom() + 8 * m_pt, m_body.width(), 14 * m_pt),
                            Qt::AlignCenter, label);
    }

    double left() const { return m_body.left(); }
    double width() const { return m_body.width(); }
    double y() const { return m_y; }
    void setY(double y) { m_y = y; }

private:
    QPdfWriter &m_writer;
    QPainter *m_painter;
    bool m_dry;
    double m_pt = 1;
    QRectF m_body;
    double m_y = 0;
    int m_page = 1;
    int m_total = 0;
};

/// Lays out (and unless dry, paints) the whole document; fills `headingPages` with the page of
/// each heading block (by block index) and returns the page count.
int layout(const ReportDocument &doc, QPdfWriter &writer, QPainter *painter, bool dry, QHash<int, int> &headingPages,
           int total)
{
    PdfFlow flow(writer, painter, dry);
    flow.setTotal(total);
    flow.text(doc.title, flow.font(20, true), 0, 6);
    flow.text(doc.subtitle, flow.font(10), 0, 14, QColor(0x55, 0x55, 0x55));
    flow.text(ReportWriter::tr("Contents"), flow.font(14, true), 0, 8);
    for (int i = 0; i < doc.blocks.size(); ++i) {
        const ReportBlock &b = doc.blocks[i];
        if (b.kind != ReportBlock::Kind::Heading || b.level > 2)
            continue;
        const QFont f = flow.font(b.level == 1 ? 10.5 : 9.5, b.level == 1);
        const double indent = b.level == 1 ? 0 : 14 * flow.pt();
        const double y = flow.y();
        flow.text(b.text, f, indent, 3);
        if (!dry) {
            painter->setFont(f);
            painter->drawText(QRectF(flow.left(), y, flow.width(), 30 * flow.pt()), Qt::AlignRight | Qt::AlignTop,
                              QString::number(headingPages.value(i)));
        }
    }
    flow.newPage();
    for (int i = 0; i < doc.blocks.size(); ++i) {
        const ReportBlock &b = doc.blocks[i];
        switch (b.kind) {
        case ReportBlock::Kind::Heading: {
            if (b.level == 1 && flow.y() > 0 && i > 0)
                flow.newPage();
            const double size = b.level == 1 ? 16 : b.level == 2 ? 13 : 11;
            // Keep a heading with the start of what follows it.
            flow.ensure(flow.textHeight(b.text, flow.font(size, true), flow.width()) + 80 * flow.pt());
            flow.gap(b.level == 1 ? 0 : 6);
            headingPages.insert(i, flow.page());
            flow.text(b.text, flow.font(size, true), 0, 6, QColor(0x1f, 0x4f, 0x84));
            break;
        }
        case ReportBlock::Kind::Paragraph:
            flow.text(b.text, flow.font(9), 0, 6);
            break;
        case ReportBlock::Kind::Quote:
            flow.text(b.text, flow.font(8.5, false, true), 16 * flow.pt(), 5, QColor(0x33, 0x33, 0x33));
            break;
        case ReportBlock::Kind::Table:
            flow.table(doc.tables[b.index]);
            break;
        case ReportBlock::Kind::Chart:
            flow.chart(doc.charts[b.index]);
            break;
        }
    }
    flow.footer();
    return flow.page();
}

} // namespace

Result<void> ReportWriter::writePdf(const ReportDocument &doc, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(file.errorString(), path);
    {
        QPdfWriter writer(&file);
        writer.setResolution(300);
        writer.setTitle(doc.title);
        writer.setCreator(QStringLiteral("Rubric Studio"));
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(18, 18, 18, 14),
                                         QPageLayout::Millimeter));
        // Dry run: the page of every heading and the page count, then the real run.
        QHash<int, int> pages;
        const int total = layout(doc, writer, nullptr, true, pages, 0);
        QPainter painter;
        if (!painter.begin(&writer))
            return makeError(tr("cannot paint the PDF"), path);
        QHash<int, int> again = pages;
        layout(doc, writer, &painter, false, again, total);
        painter.end();
    }
    if (!file.commit())
        return makeError(file.errorString(), path);
    return {};
}

} // namespace rubric::report
