#include "CliUtil.h"
#include "data/Exporter.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Export items with their human means and judge scores to FILE.jsonl (one object per item) or FILE.csv."));
    parser.addOption({QStringLiteral("project"), QStringLiteral("Project file."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Output file (.jsonl or .csv)."), QStringLiteral("FILE")});
    if (auto rc = parse(parser, QStringLiteral("export"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("out"), io))
        return 2;
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    auto n = Exporter::write(*project, parser.value(QStringLiteral("out")));
    if (!n) {
        io.err << "rubric export: " << n.errorString() << '\n';
        return 1;
    }
    io.out << "exported " << *n << " items to " << parser.value(QStringLiteral("out")) << '\n';
    return 0;
}

const Registration reg({QStringLiteral("export"),
                        QStringLiteral("Export items, human means and judge scores (JSONL, CSV)."), &run});

} // namespace
} // namespace rubric::cli
