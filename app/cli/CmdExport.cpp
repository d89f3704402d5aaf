#include "CliUtil.h"
#include "io/Exporter.h"
#include "methods/MethodRegistry.h"
#include "store/RubricStore.h"
#include "util/Csv.h"

#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>

#include <cmath>
#include <functional>

namespace rubric::cli {
namespace {

QString number(double v)
{
    return std::isnan(v) ? QString() : QString::number(v, 'g', QLocale::FloatingPointShortest);
}

/// --criteria: one row per item with the judge's per-criterion scores (any method): id, split,
/// human.<aspect> (an HD-Eval tree over several aspects: one per aspect, the run's own first), then one column per
/// enabled criterion of the latest rubric version that has scores, in tree order; a cell is a checklist question's 1/0
/// answer (sample 0) or any other criterion's mean over its scored samples, empty when there is none.
int exportCriteria(Project &project, const QString &judge, const QString &file, Io &io)
{
    if (QFileInfo(file).suffix().toLower() != QLatin1String("csv")) {
        io.err << "rubric export: --criteria writes a .csv file\n";
        return 2;
    }
    const auto known = project.readJudge(judge);
    if (!known) {
        io.err << "rubric export: " << known.errorString() << '\n';
        return 1;
    }
    if (!*known) {
        io.err << "rubric export: no judge named '" << judge << "'\n";
        return 1;
    }
    RubricStore store(&project);
    const auto rubric = store.load(judge);
    if (!rubric) {
        io.err << "rubric export: judge '" << judge << "' has no rubric: " << rubric.errorString() << '\n';
        return 1;
    }
    const auto items = project.readItems();
    const auto split = project.readSplit();
    for (const QString &e : {items.errorString(), split.errorString()})
        if (!e.isEmpty()) {
            io.err << "rubric export: " << e << '\n';
            return 1;
        }
    // The rubric's aspect; an HD-Eval tree over several aspects has one human column per layer-1 aspect.
    QStringList aspects{rubric->aspect()};
    for (const Criterion &root : rubric->children(QString()))
        if (const QString a = root.stats.value(QStringLiteral("aspect")).toString();
            !a.isEmpty() && !aspects.contains(a))
            aspects.append(a);
    QVector<QHash<QString, double>> human;
    for (const QString &a : std::as_const(aspects)) {
        auto h = project.readHumanScores(a);
        if (!h) {
            io.err << "rubric export: " << h.errorString() << '\n';
            return 1;
        }
        human.append(*h);
    }
    // criterion -> item -> value: a question's answer is sample 0, any other criterion's the mean.
    QHash<QString, QHash<QString, double>> scores;
    for (const ItemCriterionScores &s : store.criterionScores(judge)) {
        const Criterion *c = rubric->find(s.criterionKey);
        if (c && c->kind == CriterionKind::Question)
            scores[s.criterionKey].insert(s.itemId, s.samples.isEmpty() ? std::nan("") : s.samples.first());
        else
            scores[s.criterionKey].insert(s.itemId, s.mean);
    }
    QStringList columns;
    const std::function<void(const QString &)> walk = [&](const QString &parent) {
        for (const Criterion &c : rubric->children(parent)) {
            if (c.enabled && scores.contains(c.key))
                columns.append(c.key);
            walk(c.key);
        }
    };
    walk(QString());
    if (columns.isEmpty()) {
        io.err << "rubric export: judge '" << judge << "' has no criterion scores for the enabled criteria of rubric "
               << "version " << rubric->version() << '\n';
        return 1;
    }

    // A checklist judge: per item the questions answered and asked, and how a missing answer counts.
    const auto notes = MethodRegistry::scoreNotesFor(project)(judge);
    if (!notes) {
        io.err << "rubric export: " << notes.errorString() << '\n';
        return 1;
    }

    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly)) {
        io.err << "rubric export: " << file << ": cannot write the file: " << out.errorString() << '\n';
        return 1;
    }
    QStringList header{QStringLiteral("id"), QStringLiteral("split")};
    for (const QString &a : std::as_const(aspects))
        header.append(csv::field(QStringLiteral("human.") + a));
    for (const QString &c : std::as_const(columns))
        header.append(csv::field(c));
    if (*notes)
        header << QStringLiteral("answered") << QStringLiteral("asked") << QStringLiteral("missing");
    out.write((header.join(QLatin1Char(',')) + QStringLiteral("\r\n")).toUtf8());
    for (const Item &it : *items) {
        QStringList cells{csv::field(it.id), splitRoleName(split->value(it.id, SplitRole::None))};
        for (const QHash<QString, double> &h : std::as_const(human))
            cells.append(h.contains(it.id) ? number(h.value(it.id)) : QString());
        for (const QString &c : std::as_const(columns)) {
            const auto &byItem = scores[c];
            const auto s = byItem.constFind(it.id);
            cells.append(s == byItem.constEnd() ? QString() : number(s.value()));
        }
        if (*notes) {
            const auto n = (*notes)->answeredAsked.constFind(it.id);
            if (n == (*notes)->answeredAsked.cend())
                cells << QString() << QString() << QString();
            else
                cells << QString::number(n->first) << QString::number(n->second) << (*notes)->missing;
        }
        out.write((cells.join(QLatin1Char(',')) + QStringLiteral("\r\n")).toUtf8());
    }
    if (!out.commit()) {
        io.err << "rubric export: " << file << ": cannot write the file: " << out.errorString() << '\n';
        return 1;
    }
    io.out << "exported " << items->size() << " items x " << columns.size() << " criteria of judge " << judge
           << " (rubric version " << rubric->version() << ") to " << file << '\n';
    return 0;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Export items with their human means and judge scores to FILE.jsonl (one object per item) or FILE.csv.\n"
            "With --judge NAME --criteria: one row per item with id, split, human.<aspect> and one column per\n"
            "criterion of the judge's latest rubric (a checklist question's 1/0 answer, else the criterion's mean\n"
            "score; empty = no score), CSV only.\n"
            "A checklist (CheckEval) judge adds, per item, the questions answered and asked and how an unanswered\n"
            "question counts in its score (missing: skip = left out of the share of met answers, no = counted as\n"
            "not met): columns judge.<judge>.<aspect>.answered/.asked/.missing in the CSV, \"coverage\" in the JSONL,\n"
            "and answered, asked, missing with --criteria."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Output file (.jsonl or .csv)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("The judge whose criteria --criteria exports."),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("criteria"), QStringLiteral("Per-criterion scores of --judge (CSV).")});
    if (auto rc = parse(parser, QStringLiteral("export"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("out"), io))
        return 2;
    if (parser.isSet(QStringLiteral("criteria")) != parser.isSet(QStringLiteral("judge"))) {
        io.err << "rubric export: --criteria and --judge go together\n";
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    if (parser.isSet(QStringLiteral("criteria")))
        return exportCriteria(*project, parser.value(QStringLiteral("judge")), parser.value(QStringLiteral("out")), io);
    auto n = Exporter::write(*project, parser.value(QStringLiteral("out")), MethodRegistry::scoreNotesFor(*project));
    if (!n) {
        io.err << "rubric export: " << n.errorString() << '\n';
        return 1;
    }
    io.out << "exported " << *n << " items to " << parser.value(QStringLiteral("out")) << '\n';
    return 0;
}

const Registration reg({QStringLiteral("export"),
                        QStringLiteral("Export items, human means and judge scores (JSONL, CSV)."), &run});

} // namespace
} // namespace rubric::cli
