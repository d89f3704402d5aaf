#include "ReportCharts.h"
#include "ReportWriter.h"

#include <QSaveFile>

namespace rubric::report {

namespace {

/// Escapes text for HTML element content and attribute values (double-quoted).
QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

/// The SVG element of a chart for inlining: QSvgGenerator's document without its XML prolog.
/// QSvgGenerator escapes the text it draws, and ReportCharts::svg escapes the title it gives it (Qt 6.4
/// writes the title as it is): the chart's texts never become markup.
QString inlineSvg(const ReportChart &chart)
{
    const QString svg = QString::fromUtf8(ReportCharts::svg(chart));
    const qsizetype start = svg.indexOf(QLatin1String("<svg"));
    return start < 0 ? QString() : svg.mid(start);
}

const char kStyle[] = R"(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #1f6fb4;padding-bottom:.2em;margin-top:1.6em}
h2{margin-top:1.4em;color:#1f4f84}
h3{margin-top:1.1em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.88em}
caption{text-align:left;font-style:italic;padding:.3em 0;color:#444}
th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#eef3f8}
td.tree{white-space:pre-wrap}
blockquote{border-left:3px solid #ccc;margin:.4em 0 .4em 1em;padding:.2em .8em;color:#333;white-space:pre-wrap;background:#fafafa}
figure{margin:1em 0}
figure svg{max-width:100%;height:auto}
nav ol{columns:2}
.subtitle{color:#555}
)";

} // namespace

QByteArray ReportWriter::html(const ReportDocument &doc)
{
    QString out;
    out += QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\">\n<head>\n<meta charset=\"utf-8\">\n")
                   .arg(esc(doc.language));
    // Nothing may leave the file: no script, no fetch, no remote image, font or style.
    out += QStringLiteral("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                          "style-src 'unsafe-inline'; img-src data:\">\n");
    out += QStringLiteral("<title>%1</title>\n<style>%2</style>\n</head>\n<body>\n")
                   .arg(esc(doc.title), QString::fromUtf8(kStyle));
    out += QStringLiteral("<h1>%1</h1>\n<p class=\"subtitle\">%2</p>\n").arg(esc(doc.title), esc(doc.subtitle));

    out += QStringLiteral("<nav><h2>%1</h2>\n<ol>\n").arg(esc(tr("Contents")));
    for (int i = 0; i < doc.blocks.size(); ++i) {
        const ReportBlock &b = doc.blocks[i];
        if (b.kind == ReportBlock::Kind::Heading && b.level <= 2)
            out += QStringLiteral("<li%1><a href=\"#s%2\">%3</a></li>\n")
                           .arg(b.level == 2 ? QStringLiteral(" style=\"margin-left:1.2em\"") : QString())
                           .arg(i)
                           .arg(esc(b.text));
    }
    out += QStringLiteral("</ol></nav>\n");

    for (int i = 0; i < doc.blocks.size(); ++i) {
        const ReportBlock &b = doc.blocks[i];
        switch (b.kind) {
        case ReportBlock::Kind::Heading:
            out += QStringLiteral("<h%1 id=\"s%2\">%3</h%1>\n").arg(b.level + 0).arg(i).arg(esc(b.text));
            break;
        case ReportBlock::Kind::Paragraph:
            out += QStringLiteral("<p>%1</p>\n").arg(esc(b.text));
            break;
        case ReportBlock::Kind::Quote:
            out += QStringLiteral("<blockquote>%1</blockquote>\n").arg(esc(b.text));
            break;
        case ReportBlock::Kind::Table: {
            const ReportTable &t = doc.tables[b.index];
            out += QStringLiteral("<table id=\"%1\">\n<caption>%2</caption>\n<tr>").arg(esc(t.id), esc(t.caption));
            for (const QString &h : t.header)
                out += QStringLiteral("<th>%1</th>").arg(esc(h));
            out += QStringLiteral("</tr>\n");
            for (const QStringList &row : t.rows) {
                out += QStringLiteral("<tr>");
                for (int c = 0; c < row.size(); ++c)
                    out += QStringLiteral("<td%1>%2</td>")
                                   .arg(c == 0 ? QStringLiteral(" class=\"tree\"") : QString(), esc(row[c]));
                out += QStringLiteral("</tr>\n");
            }
            out += QStringLiteral("</table>\n");
            break;
        }
        case ReportBlock::Kind::Chart: {
            const ReportChart &c = doc.charts[b.index];
            out += QStringLiteral("<figure id=\"%1\">\n%2\n</figure>\n").arg(esc(c.id), inlineSvg(c));
            break;
        }
        }
    }
    out += QStringLiteral("</body>\n</html>\n");
    return out.toUtf8();
}

Result<void> ReportWriter::writeHtml(const ReportDocument &doc, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(file.errorString(), path);
    file.write(html(doc));
    if (!file.commit())
        return makeError(file.errorString(), path);
    return {};
}

} // namespace rubric::report
