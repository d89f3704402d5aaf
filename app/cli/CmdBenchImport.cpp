#include "BenchRegistry.h"
#include "CliUtil.h"
#include "io/Importer.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>

#include <sys/resource.h>

namespace rubric::cli {
namespace {

/// Peak resident set size of this process so far, in MiB (Linux reports ru_maxrss in KiB).
double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

/// User + system CPU time of this process so far, in ms (wall time suffers on a loaded machine).
double cpuMs()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval &t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Time importing a dataset into a fresh temporary project, then reopening it and loading every item, "
            "annotation and human mean; prints wall times and the peak resident memory (getrusage) after each step."));
    parser.addOption({QStringLiteral("file"), QStringLiteral("Dataset file."), QStringLiteral("F")});
    parser.addOption({QStringLiteral("preset"), QStringLiteral("Mapping preset."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("bench import"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("file"), io) || !require(parser, QStringLiteral("preset"), io))
        return 2;
    auto mapping = Importer::preset(parser.value(QStringLiteral("preset")));
    if (!mapping) {
        io.err << "rubric bench import: " << mapping.errorString() << '\n';
        return 2;
    }
    QTemporaryDir dir;
    if (!dir.isValid()) {
        io.err << "rubric bench import: cannot create a temporary folder\n";
        return 1;
    }
    const QString path = dir.filePath(QStringLiteral("bench.rubric"));
    const double rssStart = peakRssMiB();

    QElapsedTimer timer;
    timer.start();
    const double cpuStart = cpuMs();
    ImportSummary summary;
    {
        auto project = Project::open(path);
        if (!project) {
            io.err << "rubric bench import: " << project.errorString() << '\n';
            return 1;
        }
        auto r = Importer::run(**project,
                               ImportSpec{parser.value(QStringLiteral("file")), ImportFormat::Auto, *mapping});
        if (!r) {
            io.err << "rubric bench import: " << r.errorString() << '\n';
            return 1;
        }
        summary = *r;
    }
    const double importMs = double(timer.nsecsElapsed()) / 1e6;
    const double rssImport = peakRssMiB();
    const double importCpuMs = cpuMs() - cpuStart;

    timer.restart();
    const double cpuOpenStart = cpuMs();
    qsizetype loadedItems = 0, loadedAnnotations = 0;
    {
        auto project = Project::open(path, Project::OpenMode::OpenExisting);
        if (!project) {
            io.err << "rubric bench import: " << project.errorString() << '\n';
            return 1;
        }
        loadedItems = (*project)->items().size();
        loadedAnnotations = (*project)->annotations().size();
        for (const Aspect &a : (*project)->aspects())
            (void)(*project)->humanScores(a.name);
    }
    const double openMs = double(timer.nsecsElapsed()) / 1e6;
    const double rssOpen = peakRssMiB();
    const double openCpuMs = cpuMs() - cpuOpenStart;
    const double fileMiB = double(QFileInfo(path).size()) / (1024.0 * 1024.0);

    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("items"), summary.items},
                                  {QStringLiteral("annotations"), summary.annotations},
                                  {QStringLiteral("import_ms"), importMs},
                                  {QStringLiteral("import_cpu_ms"), importCpuMs},
                                  {QStringLiteral("open_load_ms"), openMs},
                                  {QStringLiteral("open_load_cpu_ms"), openCpuMs},
                                  {QStringLiteral("loaded_items"), int(loadedItems)},
                                  {QStringLiteral("loaded_annotations"), int(loadedAnnotations)},
                                  {QStringLiteral("peak_rss_start_mib"), rssStart},
                                  {QStringLiteral("peak_rss_after_import_mib"), rssImport},
                                  {QStringLiteral("peak_rss_after_open_mib"), rssOpen},
                                  {QStringLiteral("project_file_mib"), fileMiB}});
        return 0;
    }
    io.out << "import " << summary.items << " items, " << summary.annotations
           << " annotations: " << QString::number(importMs, 'f', 1) << " ms wall ("
           << QString::number(importCpuMs, 'f', 1) << " ms CPU), peak RSS " << QString::number(rssImport, 'f', 1)
           << " MiB (at start " << QString::number(rssStart, 'f', 1) << " MiB)\n"
           << "reopen + load " << loadedItems << " items, " << loadedAnnotations
           << " annotations: " << QString::number(openMs, 'f', 1) << " ms wall (" << QString::number(openCpuMs, 'f', 1)
           << " ms CPU), peak RSS " << QString::number(rssOpen, 'f', 1) << " MiB\n"
           << "project file " << QString::number(fileMiB, 'f', 2) << " MiB\n";
    return 0;
}

const BenchRegistration
        reg(QStringLiteral("import"),
            QStringLiteral("Import a dataset into a temporary project and reopen it (time, peak memory)."), &run);

} // namespace
} // namespace rubric::cli
