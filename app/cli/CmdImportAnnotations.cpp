#include "CliUtil.h"
#include "io/Importer.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Import human scores in long format: columns item_id, annotator, aspect, score[, note] "
            "(CSV, TSV, JSON list or JSONL). A score replaces the same annotator's score for that item and aspect; "
            "new aspects get the scale 1-5. Nothing is written when any row is malformed."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The annotations file."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("format"),
                      QStringLiteral("json, jsonl, csv or tsv (default: from the file name)."), QStringLiteral("F")});
    if (auto rc = parse(parser, QStringLiteral("import-annotations"), args, io))
        return *rc;
    if (parser.positionalArguments().size() != 1) {
        io.err << "rubric import-annotations: expects exactly one FILE\n";
        return 2;
    }
    auto format = Importer::parseFormat(parser.value(QStringLiteral("format")));
    if (!format) {
        io.err << "rubric import-annotations: " << format.errorString() << '\n';
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    auto summary = Importer::runAnnotations(*project, parser.positionalArguments().first(), *format);
    if (!summary) {
        io.err << "rubric import-annotations: " << summary.errorString() << '\n';
        return 1;
    }
    io.out << "imported " << summary->annotations << " annotations (" << summary->aspects.join(QStringLiteral(", "))
           << ")\n";
    return 0;
}

const Registration reg({QStringLiteral("import-annotations"),
                        QStringLiteral("Import human scores in long format (item_id, annotator, aspect, score)."),
                        &run});

} // namespace
} // namespace rubric::cli
