#include "CliUtil.h"
#include "io/Importer.h"
#include "store/DatabaseUrl.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <memory>
#include <unistd.h>

namespace rubric::cli {
namespace {

/// Parses "MIN:MAX".
std::optional<std::pair<double, double>> parseScale(const QString &text)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() != 2)
        return std::nullopt;
    bool okA = false, okB = false;
    const double lo = parts[0].trimmed().toDouble(&okA);
    const double hi = parts[1].trimmed().toDouble(&okB);
    if (!okA || !okB || !(lo < hi))
        return std::nullopt;
    return std::make_pair(lo, hi);
}

QString originName(ScaleOrigin origin)
{
    switch (origin) {
    case ScaleOrigin::Given:
        return QStringLiteral("given");
    case ScaleOrigin::Project:
        return QStringLiteral("project");
    case ScaleOrigin::Inferred:
        return QStringLiteral("inferred");
    }
    return {};
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Import a dataset (JSON list, JSONL, CSV, TSV) into a project, creating it if missing. "
            "A FIELD is a column name or a dot path into a JSON object (scores.coherence). Without --id an item's "
            "id is its 0-based position in the file. A human-score field holding a list gives one annotation per "
            "rater (rater#1, rater#2, ...); a single number gives one by the annotator 'imported'. Explicit flags "
            "override the preset's entries. Nothing is written when any record is malformed."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The dataset file."));
    parser.addOption({QStringLiteral("project"),
                      QStringLiteral("Project file (created if missing) or postgresql:// URL (an existing database)."),
                      QStringLiteral("P")});
    parser.addOption({QStringLiteral("preset"),
                      QStringLiteral("Mapping preset: %1.").arg(Importer::presetNames().join(QStringLiteral(", "))),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("format"),
                      QStringLiteral("json, jsonl, csv or tsv (default: from the file name)."), QStringLiteral("F")});
    for (const char *name : {"id", "group", "system", "source", "output", "reference"})
        parser.addOption({QString::fromLatin1(name),
                          QStringLiteral("Field for the item's %1.").arg(QLatin1String(name)),
                          QStringLiteral("FIELD")});
    parser.addOption({QStringLiteral("context"), QStringLiteral("Extra item field NAME from FIELD (repeatable)."),
                      QStringLiteral("NAME=FIELD")});
    parser.addOption({QStringLiteral("human"), QStringLiteral("Human scores of ASPECT from FIELD (repeatable)."),
                      QStringLiteral("ASPECT=FIELD")});
    parser.addOption({QStringLiteral("scale"),
                      QStringLiteral("Scale of ASPECT (repeatable). Without it an aspect new to the project takes "
                                     "its scale from the data: the smallest and largest score, widened to 0:1, 1:3, "
                                     "1:5 or 1:10 when one holds them."),
                      QStringLiteral("ASPECT=MIN:MAX")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the summary as JSON.")});
    parser.addOption({QStringLiteral("progress"),
                      QStringLiteral("Print the progress (items, rate, what is left) to stderr every second; the "
                                     "default on a terminal.")});
    if (auto rc = parse(parser, QStringLiteral("import"), args, io))
        return *rc;
    if (parser.positionalArguments().size() != 1) {
        io.err << "rubric import: expects exactly one FILE\n";
        return 2;
    }
    if (!require(parser, QStringLiteral("project"), io))
        return 2;

    ImportSpec spec;
    spec.file = parser.positionalArguments().first();
    if (parser.isSet(QStringLiteral("format"))) {
        auto f = Importer::parseFormat(parser.value(QStringLiteral("format")));
        if (!f) {
            io.err << "rubric import: " << f.errorString() << '\n';
            return 2;
        }
        spec.format = *f;
    }
    FieldMapping &m = spec.mapping;
    if (parser.isSet(QStringLiteral("preset"))) {
        auto p = Importer::preset(parser.value(QStringLiteral("preset")));
        if (!p) {
            io.err << "rubric import: " << p.errorString() << '\n';
            return 2;
        }
        m = *p;
    }
    const auto set = [&](const char *option, QString &target) {
        if (parser.isSet(QString::fromLatin1(option)))
            target = parser.value(QString::fromLatin1(option));
    };
    set("id", m.id);
    set("group", m.group);
    set("system", m.system);
    set("source", m.source);
    set("output", m.output);
    set("reference", m.reference);
    for (const QString &kv : parser.values(QStringLiteral("context"))) {
        auto p = keyValue(kv, QStringLiteral("context"), io);
        if (!p)
            return 2;
        m.context.removeIf([&](const auto &e) { return e.first == p->first; });
        m.context.append({p->first, p->second});
    }
    for (const QString &kv : parser.values(QStringLiteral("human"))) {
        auto p = keyValue(kv, QStringLiteral("human"), io);
        if (!p)
            return 2;
        m.human.removeIf([&](const auto &e) { return e.first == p->first; });
        m.human.append({p->first, p->second});
    }
    for (const QString &kv : parser.values(QStringLiteral("scale"))) {
        auto p = keyValue(kv, QStringLiteral("scale"), io);
        if (!p)
            return 2;
        const auto scale = parseScale(p->second);
        if (!scale) {
            io.err << "rubric import: --scale expects ASPECT=MIN:MAX with MIN < MAX, got '" << kv << "'\n";
            return 2;
        }
        m.scales.insert(p->first, *scale);
    }

    const QString path = parser.value(QStringLiteral("project"));
    const bool existed = DatabaseUrl::isDatabaseUrl(path) || QFileInfo::exists(path); // a database is never removed
    for (auto it = m.scales.begin(); it != m.scales.end(); ++it) {
        if (std::none_of(m.human.begin(), m.human.end(), [&](const auto &h) { return h.first == it.key(); })) {
            io.err << "rubric import: --scale names '" << it.key() << "', which no --human maps\n";
            return 2;
        }
    }
    auto project = openProject(parser, io, true);
    if (!project)
        return 1;
    QElapsedTimer timer;
    timer.start();
    const bool terminal = isatty(STDERR_FILENO) == 1;
    if (terminal || parser.isSet(QStringLiteral("progress"))) {
        auto lastLine = std::make_shared<qint64>(-1000);
        spec.progress = [&io, terminal, lastLine](const ImportProgress &p) {
            const qint64 ms = qint64(p.seconds * 1000);
            const bool done = p.bytesRead >= p.bytesTotal;
            if (ms - *lastLine < 1000 && !done)
                return true;
            *lastLine = ms;
            // On a terminal one line rewritten in place; in a log one line a second.
            io.err << (terminal ? "\r" : "") << "rubric import: " << p.text() << (terminal && !done ? "" : "\n");
            io.err.flush();
            return true;
        };
    }
    auto summary = Importer::run(*project, spec);
    if (!summary) {
        io.err << "rubric import: " << summary.errorString() << '\n';
        if (!existed) {
            // Leave no empty project behind when the file it was created for is refused.
            project.reset();
            for (const char *suffix : {"", "-wal", "-shm"})
                QFile::remove(path + QLatin1String(suffix));
        }
        return 1;
    }
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (parser.isSet(QStringLiteral("json"))) {
        QVariantList scales;
        for (const AspectScale &s : std::as_const(summary->scales))
            scales.append(QVariantMap{{QStringLiteral("aspect"), s.aspect},
                                      {QStringLiteral("min"), s.min},
                                      {QStringLiteral("max"), s.max},
                                      {QStringLiteral("origin"), originName(s.origin)}});
        printJson(io, QVariantMap{{QStringLiteral("items"), summary->items},
                                  {QStringLiteral("annotations"), summary->annotations},
                                  {QStringLiteral("aspects"), summary->aspects},
                                  {QStringLiteral("scales"), scales},
                                  {QStringLiteral("ms"), ms}});
        return 0;
    }
    io.out << "imported " << summary->items << " items and " << summary->annotations << " annotations";
    if (!summary->aspects.isEmpty())
        io.out << " (" << summary->aspects.join(QStringLiteral(", ")) << ")";
    io.out << " into " << project->path() << " in " << QString::number(ms, 'f', 1) << " ms\n";
    QStringList inferred;
    for (const AspectScale &s : std::as_const(summary->scales))
        if (s.origin == ScaleOrigin::Inferred)
            inferred << s.aspect + QLatin1Char(' ') + Importer::scaleText(s.min, s.max);
    if (!inferred.isEmpty())
        io.out << "scales inferred from the data (set them with --scale ASPECT=MIN:MAX): "
               << inferred.join(QStringLiteral(", ")) << '\n';
    return 0;
}

const Registration reg({QStringLiteral("import"),
                        QStringLiteral("Import a dataset (JSON, JSONL, CSV, TSV) into a project."), &run});

} // namespace
} // namespace rubric::cli
