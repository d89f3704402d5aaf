#pragma once

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <limits>

namespace rubric::report {

/// A table of the report: plain text cells (writers escape them), kept whole so the paper
/// bundle can write it as CSV and JSON.
struct ReportTable
{
    QString id; ///< file-name stem in the bundle, e.g. "coherence-comparison"
    QString caption;
    QStringList header;
    QVector<QStringList> rows;
};

enum class ChartKind {
    Scatter, ///< points (x = human, y = judge)
    Bars,    ///< one bar per label, with an optional interval (lo, hi) per bar
    Heatmap, ///< rows × columns of values between cellMin and cellMax
    Pareto,  ///< points labelled by name (x = cost per item, y = alignment)
};

/// A chart as data; the writers paint it (vector in the PDF and the SVG, raster only in PNG).
struct ReportChart
{
    QString id;
    QString title;
    ChartKind kind = ChartKind::Scatter;
    QString xLabel;
    QString yLabel;
    QVector<double> x;      ///< Scatter/Pareto
    QVector<double> y;      ///< Scatter/Pareto
    QStringList labels;     ///< Bars: one per bar; Pareto: one per point; Heatmap: row labels
    QVector<double> values; ///< Bars
    QVector<double> lo;     ///< Bars: interval ends (NaN = none)
    QVector<double> hi;
    QStringList columns;            ///< Heatmap column labels
    QVector<QVector<double>> cells; ///< Heatmap rows × columns (NaN = no score)
    double cellMin = 0.0;
    double cellMax = 1.0;
};

/// One element of the report's flow, in reading order.
struct ReportBlock
{
    enum class Kind { Heading, Paragraph, Table, Chart, Quote };
    Kind kind = Kind::Paragraph;
    int level = 1;  ///< Heading: 1 = section, 2 = subsection, 3 = minor
    QString text;   ///< Heading, Paragraph, Quote: plain text (never markup)
    int index = -1; ///< Table / Chart: index into ReportDocument::tables / charts
};

/// A file the paper bundle carries as it is (a rubric as JSON or Markdown).
struct ReportAttachment
{
    QString fileName;
    QString description;
    QByteArray content;
};

/// The report as one source: the HTML, the PDF and the paper bundle are all written from it, so
/// they hold the same numbers. A value type; built on a worker thread by ReportBuilder.
struct ReportDocument
{
    QString title;
    QString subtitle;
    QString language; ///< "en", "de": the HTML's lang attribute
    QVector<ReportBlock> blocks;
    QVector<ReportTable> tables;
    QVector<ReportChart> charts;
    QVector<ReportAttachment> attachments;

    void heading(int level, const QString &text) { blocks.append({ReportBlock::Kind::Heading, level, text, -1}); }
    void paragraph(const QString &text) { blocks.append({ReportBlock::Kind::Paragraph, 0, text, -1}); }
    void quote(const QString &text) { blocks.append({ReportBlock::Kind::Quote, 0, text, -1}); }
    void table(ReportTable t)
    {
        tables.append(std::move(t));
        blocks.append({ReportBlock::Kind::Table, 0, {}, int(tables.size()) - 1});
    }
    void chart(ReportChart c)
    {
        charts.append(std::move(c));
        blocks.append({ReportBlock::Kind::Chart, 0, {}, int(charts.size()) - 1});
    }
};

} // namespace rubric::report
