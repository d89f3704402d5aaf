#pragma once

#include "CommandRegistry.h"
#include "data/JudgeTypes.h"
#include "store/Project.h"

#include <QCommandLineParser>
#include <QVariant>

#include <memory>
#include <optional>

namespace rubric::cli {

/// Parses `args` (the words after the command name) with `parser`, adding --help.
/// Returns an exit code to return at once (0 after --help, 2 on a usage error) or nullopt to go on.
std::optional<int> parse(QCommandLineParser &parser, const QString &command, const QStringList &args, Io &io);

/// Requires a value for `option`; prints a usage error when it is missing.
bool require(const QCommandLineParser &parser, const QString &option, Io &io);

/// Opens the project named by --project (creating it only when `create`). Prints the error.
std::unique_ptr<Project> openProject(const QCommandLineParser &parser, Io &io, bool create = false);

/// Splits "KEY=VALUE"; prints a usage error naming `option` when there is no '='.
std::optional<std::pair<QString, QString>> keyValue(const QString &text, const QString &option, Io &io);

/// The --header NAME=env:VAR options (repeatable) as a profile's headers. Prints a usage error
/// (never the value) and returns nullopt for a header given by value or one that carries the key.
std::optional<QVariantMap> headersFromOptions(const QCommandLineParser &parser, Io &io, const QString &command);

/// The --base-url options (repeatable: replicas of one model, the first is the profile's baseUrl)
/// and `weights` ("2,1": one positive number per URL; "" = 1 each) into `profile`. Prints a usage
/// error and returns false for a URL with a credential, a URL given twice or bad weights.
bool poolFromOptions(const QCommandLineParser &parser, const QString &weights, ProviderProfile &profile, Io &io,
                     const QString &command);

/// The --split option of the statistics commands: its value when given, else the project's
/// default (test when a split exists, all otherwise). Prints a usage error and returns nullopt
/// for an unknown name.
std::optional<SplitFilter> splitOption(const QCommandLineParser &parser, const Project &project, const QString &command,
                                       Io &io);

/// Writes a QVariant tree as one line of JSON.
void printJson(Io &io, const QVariant &value);

/// Text an endpoint wrote (answers, reasoning, error messages), made safe to print to a
/// terminal: control characters other than newline and tab (ESC sequences that move the cursor,
/// retitle the window or rewrite the line; C1 controls; DEL) are shown as \xNN, as are the bidi
/// overrides that reorder what is shown.
QString terminalSafe(const QString &text);

/// A double for JSON: NaN becomes null.
QVariant jsonNumber(double v);

} // namespace rubric::cli
