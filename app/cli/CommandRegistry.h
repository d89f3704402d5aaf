#pragma once

#include <QStringList>
#include <QTextStream>
#include <QVector>

namespace rubric::cli {

/// Where a command writes: normal output and diagnostics.
struct Io
{
    QTextStream &out;
    QTextStream &err;
};

/// One `rubric <name> …` command. `run` gets the arguments after the command name and
/// returns the process exit code (0 success, 1 bad input or failure, 2 usage error).
struct Command
{
    QString name;
    QString summary;
    int (*run)(const QStringList &args, Io &io);
};

/// The table of commands; each Cmd*.cpp adds its own through a static Registration.
class CommandRegistry
{
public:
    static void add(const Command &command);
    static const QVector<Command> &all();
    static const Command *find(const QString &name);
};

struct Registration
{
    explicit Registration(const Command &command) { CommandRegistry::add(command); }
};

} // namespace rubric::cli
