#pragma once

// What the tests that drive the `rubric` CLI against an in-process fake server share: the CLI run
// while this thread's event loop serves the server, and a project of plain test items.

#include "store/Project.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStringList>

#include <memory>

namespace rubric::test {

struct CliResult
{
    int exitCode = -1; ///< -1: it did not start or did not finish in time
    QByteArray out;
    QByteArray err;
};

/// Runs $RUBRIC_CLI (set by ctest) with `args`, serving this thread's event loop meanwhile.
inline CliResult runCli(const QStringList &args, int timeoutMs = 60000)
{
    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    CliResult r;
    if (!cli.waitForStarted())
        return r;
    QSignalSpy exited(&cli, &QProcess::finished);
    if (!exited.wait(timeoutMs))
        return r;
    r.exitCode = cli.exitCode();
    r.out = cli.readAllStandardOutput();
    r.err = cli.readAllStandardError();
    return r;
}

/// A new project at `path` with `n` test items ("i0"…, source "source N", output "output N", or
/// the given patterns with %1) and the aspect "fluency" (1–5); nullptr when it cannot be written.
inline std::unique_ptr<Project> testItemsProject(const QString &path, int n,
                                                 const QString &source = QStringLiteral("source %1"),
                                                 const QString &output = QStringLiteral("output %1"))
{
    auto opened = Project::open(path);
    if (!opened)
        return {};
    auto project = std::move(opened).value();
    QVector<Item> items;
    QHash<QString, SplitRole> split;
    for (int i = 0; i < n; ++i) {
        items.append(Item{QStringLiteral("i%1").arg(i), {}, {}, source.arg(i), output.arg(i), {}, {}, i});
        split.insert(items.last().id, SplitRole::Test);
    }
    if (!project->addItems(items)
        || !project->upsertAspect(Aspect{QStringLiteral("fluency"), QStringLiteral("Well written."), 1, 5})
        || !project->setSplit(split))
        return {};
    return project;
}

} // namespace rubric::test
