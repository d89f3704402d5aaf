#include "ReportWriter.h"

#include "ReportCharts.h"
#include "util/Csv.h"
#include "util/Markup.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace rubric::report {

namespace {

Result<void> save(const QString &path, const QByteArray &data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(file.errorString(), path);
    file.write(data);
    if (!file.commit())
        return makeError(file.errorString(), path);
    return {};
}

QByteArray tableCsv(const ReportTable &t)
{
    QString out;
    const auto line = [&](const QStringList &cells) {
        QStringList f;
        for (const QString &c : cells)
            f << csv::field(c);
        out += f.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    };
    line(t.header);
    for (const QStringList &row : t.rows)
        line(row);
    return out.toUtf8();
}

/// {"caption", "columns": [...], "rows": [{column: cell}]}.
QByteArray tableJson(const ReportTable &t)
{
    QJsonArray rows;
    for (const QStringList &row : t.rows) {
        QJsonObject o;
        for (int c = 0; c < t.header.size(); ++c)
            o.insert(t.header[c], row.value(c));
        rows.append(o);
    }
    const QJsonObject root{{QStringLiteral("caption"), t.caption},
                           {QStringLiteral("columns"), QJsonArray::fromStringList(t.header)},
                           {QStringLiteral("rows"), rows}};
    return QJsonDocument(root).toJson();
}

} // namespace

Result<void> ReportWriter::writeBundle(const ReportDocument &doc, const QString &dir)
{
    QDir root(dir);
    if (!root.mkpath(QStringLiteral("tables")) || !root.mkpath(QStringLiteral("charts"))
        || !root.mkpath(QStringLiteral("rubrics")))
        return makeError(tr("cannot create the bundle's folders"), dir);
    QStringList readme{QStringLiteral("# ") + markup::markdown(doc.title),
                       QString(),
                       markup::markdown(doc.subtitle),
                       QString(),
                       tr("Written by Rubric Studio's `rubric report`. Every number here comes from the same source "
                          "as report.html and report.pdf."),
                       QString(),
                       QStringLiteral("| ") + tr("file") + QStringLiteral(" | ") + tr("what it is")
                               + QStringLiteral(" |"),
                       QStringLiteral("|---|---|")};
    const auto list = [&](const QString &file, const QString &what) {
        readme << QStringLiteral("| `%1` | %2 |").arg(file, markup::markdown(what));
    };

    if (auto r = writeHtml(doc, root.filePath(QStringLiteral("report.html"))); !r)
        return r;
    list(QStringLiteral("report.html"), tr("the report as one self-contained HTML file"));
    if (auto r = writePdf(doc, root.filePath(QStringLiteral("report.pdf"))); !r)
        return r;
    list(QStringLiteral("report.pdf"), tr("the report as PDF (vector charts, contents, page numbers)"));

    for (const ReportTable &t : doc.tables) {
        for (const auto &[suffix, data] :
             {std::pair{QStringLiteral(".csv"), tableCsv(t)}, std::pair{QStringLiteral(".json"), tableJson(t)}}) {
            const QString name = QStringLiteral("tables/") + t.id + suffix;
            if (auto r = save(root.filePath(name), data); !r)
                return r;
            list(name, t.caption);
        }
    }
    for (const ReportChart &c : doc.charts) {
        const QString svg = QStringLiteral("charts/") + c.id + QStringLiteral(".svg");
        if (auto r = save(root.filePath(svg), ReportCharts::svg(c)); !r)
            return r;
        list(svg, c.title + tr(" (vector)"));
        const QString png = QStringLiteral("charts/") + c.id + QStringLiteral(".png");
        QSaveFile file(root.filePath(png));
        if (!file.open(QIODevice::WriteOnly) || !ReportCharts::image(c).save(&file, "PNG") || !file.commit())
            return makeError(tr("cannot write the chart"), root.filePath(png));
        list(png, c.title + tr(" (PNG, 1440 px wide)"));
    }
    for (const ReportAttachment &a : doc.attachments) {
        const QString folder = a.fileName.contains(QLatin1String("-rubric.")) ? QStringLiteral("rubrics/")
                                                                              : QStringLiteral("tables/");
        if (auto r = save(root.filePath(folder + a.fileName), a.content); !r)
            return r;
        list(folder + a.fileName, a.description);
    }
    list(QStringLiteral("README.md"), tr("this list"));
    return save(root.filePath(QStringLiteral("README.md")), readme.join(QLatin1Char('\n')).toUtf8() + '\n');
}

Result<void> ReportWriter::write(const ReportDocument &doc, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return writeHtml(doc, path);
    if (suffix == QLatin1String("pdf"))
        return writePdf(doc, path);
    if (QFileInfo(path).isFile())
        return makeError(tr("neither .html, .pdf nor a folder: a bundle is written into a folder"), path);
    return writeBundle(doc, path);
}

} // namespace rubric::report
