#pragma once

#include "report/ReportDocument.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QString>

namespace rubric::report {

/// Writes a ReportDocument as HTML, PDF or a paper bundle — three views of one source.
/// - HTML: one self-contained file (charts as inline SVG, styles inline, no script, a
///   Content-Security-Policy that forbids every request); every text from the document escaped.
/// - PDF: A4, a title page with the table of contents (with page numbers), numbered pages, charts
///   painted as vector paths.
/// - Bundle: a folder with every table as CSV and JSON, every chart as SVG and PNG, the
///   attachments (rubrics as JSON and Markdown, comparison tables), report.html, report.pdf and a
///   README.md that lists each file.
/// Needs a QGuiApplication (fonts); safe on a worker thread. Files are replaced atomically; a
/// failure names the file and leaves an existing one untouched.
class ReportWriter
{
    Q_DECLARE_TR_FUNCTIONS(ReportWriter)
public:
    static QByteArray html(const ReportDocument &doc);
    static Result<void> writeHtml(const ReportDocument &doc, const QString &path);
    static Result<void> writePdf(const ReportDocument &doc, const QString &path);
    static Result<void> writeBundle(const ReportDocument &doc, const QString &dir);
    /// By the path: *.html / *.htm → HTML, *.pdf → PDF, anything else → a bundle folder.
    static Result<void> write(const ReportDocument &doc, const QString &path);
};

} // namespace rubric::report
