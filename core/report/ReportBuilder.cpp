#include "ReportBuilder.h"

#include "report/ReportSections.h"
#include "stats/Agreement.h"
#include "stats/Bootstrap.h"
#include "stats/ProjectData.h"
#include "store/Project.h"

#include <QFileInfo>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace rubric::report {

using namespace rubric::stats;

namespace {

QString splitTitle(SplitFilter filter)
{
    switch (filter) {
    case SplitFilter::Train:
        return ReportBuilder::tr("train split");
    case SplitFilter::Test:
        return ReportBuilder::tr("test split");
    case SplitFilter::All:
        break;
    }
    return ReportBuilder::tr("all items");
}

/// The project section: dataset, aspects, split sizes, annotators and their agreement.
Result<void> projectSection(const Project &project, const QStringList &aspects, SplitFilter split, ReportDocument &doc)
{
    doc.heading(1, ReportBuilder::tr("Project"));
    const auto items = project.readItemCount();
    if (!items)
        return items.error();
    const auto roles = project.readSplit();
    if (!roles)
        return roles.error();
    int train = 0, test = 0;
    for (auto it = roles->begin(); it != roles->end(); ++it) {
        train += it.value() == SplitRole::Train;
        test += it.value() == SplitRole::Test;
    }
    const auto groups = project.readGroups();
    const auto systems = project.readSystems();
    if (!groups || !systems)
        return (groups ? systems.error() : groups.error());
    const QLocale c = QLocale::c();
    doc.paragraph(ReportBuilder::tr("Dataset: %1 items, %2 groups (documents / prompts), %3 systems. Split: %4 train, "
                                    "%5 test, %6 unassigned. Statistics below are on the %7.")
                          .arg(c.toString(*items), c.toString(int(groups->size())), c.toString(int(systems->size())),
                               c.toString(train), c.toString(test), c.toString(*items - train - test),
                               splitTitle(split)));

    const auto allAspects = project.readAspects();
    if (!allAspects)
        return allAspects.error();
    ReportTable aspectTable{QStringLiteral("project-aspects"),
                            ReportBuilder::tr("Aspects, their scale, annotators and agreement between them"),
                            {ReportBuilder::tr("aspect"), ReportBuilder::tr("definition"), ReportBuilder::tr("scale"),
                             ReportBuilder::tr("annotators"), ReportBuilder::tr("scored items"),
                             ReportBuilder::tr("Krippendorff's α (interval)"),
                             ReportBuilder::tr("ceiling (Spearman, one vs rest)")},
                            {}};
    for (const Aspect &a : *allAspects) {
        if (!aspects.contains(a.name))
            continue;
        const auto annotators = project.readAnnotators(a.name);
        if (!annotators)
            return annotators.error();
        const auto coders = gatherCoders(project, a.name, split);
        if (!coders)
            return coders.error();
        int scored = 0;
        for (const auto &row : coders->data)
            scored += std::any_of(row.begin(), row.end(), [](double v) { return !std::isnan(v); });
        QString alpha = QStringLiteral("—"), ceiling = QStringLiteral("—");
        if (annotators->size() > 1) {
            const AlphaResult r = krippendorffAlpha(coders->data, AlphaLevel::Interval);
            alpha = ReportBuilder::tr("%1 (%2 units)").arg(fixed(r.alpha, 3)).arg(r.units);
            ceiling = fixed(humanCeiling(coders->data, coders->coders).spearman, 3);
        }
        aspectTable.rows.append({a.name, a.definition,
                                 QStringLiteral("%1–%2").arg(c.toString(a.min), c.toString(a.max)),
                                 annotators->join(QStringLiteral(", ")), c.toString(scored), alpha, ceiling});
    }
    doc.table(std::move(aspectTable));
    return {};
}

/// Every judge of the project that scored `aspect`, in the project's order.
Result<QStringList> judgesOf(const Project &project, const QString &aspect, const QStringList &wanted)
{
    const auto judges = project.readJudges(Project::JudgeCounts::Skip);
    if (!judges)
        return judges.error();
    QStringList out;
    for (const QString &w : wanted) {
        const auto it = std::find_if(judges->begin(), judges->end(), [&](const JudgeInfo &j) { return j.name == w; });
        if (it == judges->end())
            return makeError(ReportBuilder::tr("the project has no judge '%1'").arg(w), project.path(), 0,
                             QStringLiteral("--judge"));
        if (it->aspects.contains(aspect))
            out << w;
    }
    if (wanted.isEmpty())
        for (const JudgeInfo &j : *judges)
            if (j.aspects.contains(aspect))
                out << j.name;
    return out;
}

} // namespace

Result<ReportDocument> ReportBuilder::build(const Project &project, const ReportOptions &options,
                                            const Progress &progress)
{
    ReportDocument doc;
    doc.language = tr("en", "the report's language code");
    doc.title = tr("Judge report: %1").arg(QFileInfo(project.path()).completeBaseName());
    SplitFilter split = SplitFilter::All;
    if (options.split) {
        split = *options.split;
    } else {
        const auto def = defaultSplitFilter(project); // an unreadable split is an error, never "all items"
        if (!def)
            return def.error();
        split = *def;
    }

    QStringList aspects = options.aspects;
    const auto allAspects = project.readAspects();
    if (!allAspects)
        return allAspects.error();
    for (const QString &a : aspects)
        if (!std::any_of(allAspects->begin(), allAspects->end(), [&](const Aspect &x) { return x.name == a; }))
            return makeError(tr("the project has no aspect '%1'").arg(a), project.path(), 0,
                             QStringLiteral("--aspect"));
    if (aspects.isEmpty()) {
        for (const Aspect &a : *allAspects) {
            const auto human = project.readHumanScores(a.name);
            if (!human)
                return human.error();
            if (!human->isEmpty())
                aspects << a.name;
        }
    }
    if (aspects.isEmpty())
        return makeError(tr("the project has no human scores to report on"), project.path());

    // The work, counted in judges, so the progress bar moves evenly.
    QVector<QStringList> judgesPerAspect;
    int total = 0;
    for (const QString &a : aspects) {
        auto judges = judgesOf(project, a, options.judges);
        if (!judges)
            return judges.error();
        if (judges->isEmpty())
            return makeError(tr("no judge has scores for the aspect '%1'").arg(a), project.path(), 0,
                             QStringLiteral("--aspect"));
        total += int(judges->size()) + 1;
        judgesPerAspect << *judges;
    }
    doc.subtitle = tr("%1 · %2 · comparison at the %3 level · %4 bootstrap resamples, seed %5")
                           .arg(aspects.join(QStringLiteral(", ")), splitTitle(split), levelName(options.level))
                           .arg(options.resamples)
                           .arg(options.seed);

    int done = 0;
    const auto step = [&] {
        if (progress)
            progress(++done, total);
    };
    if (auto r = projectSection(project, aspects, split, doc); !r)
        return r.error();

    SectionContext ctx{project, options, split, doc};
    for (int i = 0; i < aspects.size(); ++i) {
        const QString &aspect = aspects[i];
        doc.heading(1, tr("Aspect: %1").arg(aspect));
        if (auto r = comparisonSection(ctx, aspect, judgesPerAspect[i]); !r)
            return r.error();
        step();
        for (const QString &judge : judgesPerAspect[i]) {
            if (options.stop.stop_requested())
                return makeError(tr("the report was cancelled"));
            if (auto r = judgeSection(ctx, aspect, judge); !r)
                return r.error();
            step();
        }
    }
    if (auto r = reproductionSection(ctx, judgesPerAspect); !r)
        return r.error();
    return doc;
}

} // namespace rubric::report
