#pragma once

#include "CommandRegistry.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace rubric::cli {

/// One `rubric bench <name> …` benchmark; `run` gets the words after the name.
struct Bench
{
    QString name;
    QString summary;
    int (*run)(const QStringList &args, Io &io);
};

/// The benchmarks `rubric bench` dispatches to; each CmdBench*.cpp adds its own through a
/// static BenchRegistration (so adding one touches no shared list).
class BenchRegistry
{
public:
    static void add(const Bench &bench);
    static const QVector<Bench> &all();
    static const Bench *find(const QString &name);
};

struct BenchRegistration
{
    BenchRegistration(QString name, QString summary, int (*run)(const QStringList &, Io &));
};

} // namespace rubric::cli
