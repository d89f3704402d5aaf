#include "CliUtil.h"
#include "io/ScoreImporter.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Import another tool's per-item scores as a named judge (method 'imported').\n"
            "FILE is CSV/TSV (header row) or JSON (list of objects) / JSONL; FIELD is a column name or a dot path.\n"
            "Without --id, row k (0-based) scores the item whose id is k, as the item import numbers them.\n"
            "All-or-nothing: any bad row (unknown id, missing field, non-numeric score) writes nothing.\n"
            "Empty or null scores are stored as missing."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Score file."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Name of the judge to create or update."),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("id"), QStringLiteral("Field holding the item id."), QStringLiteral("FIELD")});
    parser.addOption(
            {QStringLiteral("score"), QStringLiteral("ASPECT=FIELD (repeatable)."), QStringLiteral("ASPECT=FIELD")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one line of JSON.")});
    if (auto rc = parse(parser, QStringLiteral("import-scores"), args, io))
        return *rc;
    if (parser.positionalArguments().size() != 1) {
        io.err << "rubric import-scores: give exactly one FILE\n";
        return 2;
    }
    if (!require(parser, QStringLiteral("judge"), io))
        return 2;
    ScoreImportSpec spec;
    spec.file = parser.positionalArguments().front();
    spec.judge = parser.value(QStringLiteral("judge"));
    spec.idField = parser.value(QStringLiteral("id"));
    for (const QString &s : parser.values(QStringLiteral("score"))) {
        const auto kv = keyValue(s, QStringLiteral("score"), io);
        if (!kv)
            return 2;
        spec.scores.append(*kv);
    }
    if (spec.scores.isEmpty()) {
        io.err << "rubric: missing required option --score\n";
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const auto r = ScoreImporter::run(*project, spec);
    if (!r) {
        io.err << "rubric import-scores: " << r.errorString() << '\n';
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("judge"), spec.judge},
                                  {QStringLiteral("records"), r->records},
                                  {QStringLiteral("scores"), r->scores},
                                  {QStringLiteral("missing"), r->missing},
                                  {QStringLiteral("aspects"), r->aspects}});
        return 0;
    }
    io.out << "imported " << r->scores << " scores (" << r->missing << " missing) from " << r->records
           << " records as judge '" << spec.judge << "' for " << r->aspects.join(QStringLiteral(", ")) << '\n';
    return 0;
}

const Registration reg({QStringLiteral("import-scores"),
                        QStringLiteral("Import another tool's per-item scores as a named judge."), &run});

} // namespace
} // namespace rubric::cli
