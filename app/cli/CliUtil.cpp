#include "CliUtil.h"

#include "judge/EndpointSecrets.h"
#include "stats/ProjectData.h"
#include "util/Json.h"

#include <cmath>

namespace rubric::cli {

std::optional<int> parse(QCommandLineParser &parser, const QString &command, const QStringList &args, Io &io)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    QStringList full = args;
    full.prepend(QStringLiteral("rubric ") + command);
    if (!parser.parse(full)) {
        io.err << "rubric " << command << ": " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(help)) {
        io.out << parser.helpText().replace(QStringLiteral("Usage: rubric %1").arg(command),
                                            QStringLiteral("Usage: rubric %1").arg(command));
        return 0;
    }
    return std::nullopt;
}

bool require(const QCommandLineParser &parser, const QString &option, Io &io)
{
    if (parser.isSet(option) && !parser.value(option).isEmpty())
        return true;
    io.err << "rubric: missing required option --" << option << '\n';
    return false;
}

std::unique_ptr<Project> openProject(const QCommandLineParser &parser, Io &io, bool create)
{
    if (!require(parser, QStringLiteral("project"), io))
        return nullptr;
    auto p = Project::open(parser.value(QStringLiteral("project")),
                           create ? Project::OpenMode::OpenOrCreate : Project::OpenMode::OpenExisting);
    if (!p) {
        io.err << "rubric: " << p.errorString() << '\n';
        return nullptr;
    }
    return std::move(p).value();
}

std::optional<std::pair<QString, QString>> keyValue(const QString &text, const QString &option, Io &io)
{
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0) {
        io.err << "rubric: --" << option << " expects NAME=VALUE, got '" << text << "'\n";
        return std::nullopt;
    }
    return std::make_pair(text.left(eq), text.mid(eq + 1));
}

bool poolFromOptions(const QCommandLineParser &parser, const QString &weights, ProviderProfile &profile, Io &io,
                     const QString &command)
{
    const QStringList urls = parser.values(QStringLiteral("base-url"));
    QStringList seen;
    for (const QString &url : urls) {
        if (auto ok = EndpointSecrets::checkBaseUrl(url); !ok) {
            io.err << "rubric " << command << ": " << ok.errorString() << '\n';
            return false;
        }
        QString normal = url.trimmed();
        while (normal.endsWith(QLatin1Char('/')))
            normal.chop(1);
        if (seen.contains(normal)) {
            io.err << "rubric " << command << ": --base-url " << normal << " is given twice\n";
            return false;
        }
        seen << normal;
    }
    profile.baseUrl = urls.value(0);
    profile.replicaUrls = urls.mid(1);
    profile.replicaWeights.clear();
    if (weights.isEmpty())
        return true;
    const QStringList parts = weights.split(QLatin1Char(','));
    for (const QString &part : parts) {
        bool ok = false;
        const double w = part.trimmed().toDouble(&ok);
        if (!ok || w <= 0 || !std::isfinite(w)) {
            io.err << "rubric " << command << ": pool.weights: '" << part << "' is not a positive number\n";
            return false;
        }
        profile.replicaWeights << w;
    }
    if (parts.size() != urls.size()) {
        io.err << "rubric " << command << ": pool.weights gives " << parts.size() << " weight(s) for " << urls.size()
               << " --base-url\n";
        return false;
    }
    return true;
}

std::optional<QVariantMap> headersFromOptions(const QCommandLineParser &parser, Io &io, const QString &command)
{
    QVariantMap headers;
    for (const QString &text : parser.values(QStringLiteral("header"))) {
        const qsizetype eq = text.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            io.err << "rubric " << command << ": --header expects NAME=env:VAR\n";
            return std::nullopt;
        }
        headers.insert(text.left(eq).trimmed(), text.mid(eq + 1).trimmed());
    }
    if (auto r = EndpointSecrets::checkHeaders(headers); !r) {
        io.err << "rubric " << command << ": " << r.errorString() << '\n';
        return std::nullopt;
    }
    return headers;
}

std::optional<SplitFilter> splitOption(const QCommandLineParser &parser, const Project &project, const QString &command,
                                       Io &io)
{
    if (!parser.isSet(QStringLiteral("split"))) {
        const auto def = stats::defaultSplitFilter(project);
        if (!def) {
            io.err << "rubric " << command << ": " << def.errorString() << '\n';
            return std::nullopt;
        }
        return *def;
    }
    const auto s = stats::parseSplitFilter(parser.value(QStringLiteral("split")));
    if (!s)
        io.err << "rubric " << command << ": --split must be all, train or test\n";
    return s;
}

void printJson(Io &io, const QVariant &value)
{
    io.out << json::stringify(value) << '\n';
}

QVariant jsonNumber(double v)
{
    return v == v ? QVariant(v) : QVariant::fromValue(nullptr);
}

QString terminalSafe(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool control = (u < 0x20 && u != u'\n' && u != u'\t') || (u >= 0x7F && u <= 0x9F);
        const bool bidi = (u >= 0x202A && u <= 0x202E) || (u >= 0x2066 && u <= 0x2069);
        if (control || bidi)
            out += u < 0x100 ? QStringLiteral("\\x%1").arg(int(u), 2, 16, QLatin1Char('0'))
                             : QStringLiteral("\\u%1").arg(int(u), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

} // namespace rubric::cli
