#include "CommandRegistry.h"

#include <algorithm>

namespace rubric::cli {
namespace {
QVector<Command> &table()
{
    static QVector<Command> commands;
    return commands;
}
} // namespace

void CommandRegistry::add(const Command &command)
{
    auto &t = table();
    t.append(command);
    std::sort(t.begin(), t.end(), [](const Command &a, const Command &b) { return a.name < b.name; });
}

const QVector<Command> &CommandRegistry::all()
{
    return table();
}

const Command *CommandRegistry::find(const QString &name)
{
    for (const Command &c : table())
        if (c.name == name)
            return &c;
    return nullptr;
}

} // namespace rubric::cli
