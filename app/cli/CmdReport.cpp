#include "CliUtil.h"
#include "ReportWriter.h"
#include "report/ReportBuilder.h"
#include "stats/ProjectData.h"

#include <QElapsedTimer>

namespace rubric::cli {
namespace {

using namespace rubric::report;

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Write a report of the project's judges: the project and its annotators, each judge's rubric,\n"
            "its correlation with people at every level with bootstrap intervals, the comparison of the\n"
            "judges with significance, charts, the largest disagreements, cost, and the settings that\n"
            "reproduce it. --out decides the format: report.html (one self-contained file), report.pdf,\n"
            "or a folder (a paper bundle: every table as CSV and JSON, every chart as SVG and PNG, the\n"
            "rubrics as JSON and Markdown, and a README listing each file)."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("aspect"),
                      QStringLiteral("Aspect (repeatable; default: every aspect people scored)."),
                      QStringLiteral("A")});
    parser.addOption({QStringLiteral("judge"),
                      QStringLiteral("Judge (repeatable; default: every judge of the aspect)."), QStringLiteral("J")});
    parser.addOption(
            {QStringLiteral("out"), QStringLiteral("report.html, report.pdf or a folder."), QStringLiteral("PATH")});
    parser.addOption({QStringLiteral("level"),
                      QStringLiteral("Level of the comparison: item = dataset (default), group or system."),
                      QStringLiteral("L"), QStringLiteral("dataset")});
    parser.addOption({QStringLiteral("split"),
                      QStringLiteral("all, train or test (default: test if the project has a split, else all)."),
                      QStringLiteral("S")});
    parser.addOption({QStringLiteral("bootstrap"),
                      QStringLiteral("Bootstrap resamples of every interval (default 1000)."), QStringLiteral("N"),
                      QStringLiteral("1000")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed (default 1, as rubric compare)."),
                      QStringLiteral("S"), QStringLiteral("1")});
    if (auto rc = parse(parser, QStringLiteral("report"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("project"), io) || !require(parser, QStringLiteral("out"), io))
        return 2;
    ReportOptions options;
    // "item" is the dataset level (one correlation over the items), as in `rubric compare`.
    QString levelText = parser.value(QStringLiteral("level"));
    if (levelText == QLatin1String("item"))
        levelText = QStringLiteral("dataset");
    const auto level = stats::parseLevel(levelText);
    if (!level) {
        io.err << "rubric report: --level must be item, dataset, group or system\n";
        return 2;
    }
    options.level = *level;
    bool ok = false;
    options.resamples = parser.value(QStringLiteral("bootstrap")).toInt(&ok);
    if (!ok || options.resamples < 1) {
        io.err << "rubric report: --bootstrap expects a positive number of resamples\n";
        return 2;
    }
    options.seed = parser.value(QStringLiteral("seed")).toULongLong(&ok);
    if (!ok) {
        io.err << "rubric report: --seed expects a non-negative integer\n";
        return 2;
    }
    options.aspects = parser.values(QStringLiteral("aspect"));
    options.judges = parser.values(QStringLiteral("judge"));
    options.softwareVersion = QCoreApplication::applicationVersion();
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const auto split = splitOption(parser, *project, QStringLiteral("report"), io);
    if (!split)
        return 2;
    options.split = *split;

    QElapsedTimer timer;
    timer.start();
    const auto doc = ReportBuilder::build(*project, options);
    if (!doc) {
        io.err << "rubric report: " << doc.errorString() << '\n';
        return 1;
    }
    const qint64 built = timer.elapsed();
    const QString out = parser.value(QStringLiteral("out"));
    if (auto r = ReportWriter::write(*doc, out); !r) {
        io.err << "rubric report: " << r.errorString() << '\n';
        return 1;
    }
    io.out << "wrote " << out << " (" << doc->tables.size() << " tables, " << doc->charts.size() << " charts; " << built
           << " ms to compute, " << timer.elapsed() - built << " ms to write)\n";
    return 0;
}

const Registration reg({QStringLiteral("report"),
                        QStringLiteral("Write a report (HTML, PDF, or a paper bundle folder) of the judges."), &run});

} // namespace
} // namespace rubric::cli
