#include "CliUtil.h"
#include "stats/Bootstrap.h"
#include "stats/ProjectData.h"

namespace rubric::cli {
namespace {

using namespace rubric::stats;

QVariantList interval(const Interval &iv)
{
    return {jsonNumber(iv.lo), jsonNumber(iv.hi)};
}

QString number(double v)
{
    return v == v ? QString::number(v, 'f', 4) : QStringLiteral("n/a");
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Correlate a judge's scores with the human scores of one aspect (Pearson, Spearman, Kendall tau-b).\n"
            "Levels: dataset = over all items; group = per group, averaged over the groups; system = per-system\n"
            "means first, then correlated. At group level --constant-groups says what a group with all-equal\n"
            "scores does: skip (default; G-Eval, UniEval) leaves out a group whose human or judge scores are\n"
            "constant; one (PairS, HypoEval) counts a group with constant human scores as 1 and leaves out one\n"
            "with constant judge scores. The output names the rule and how many groups each side removed.\n"
            "Only items with both a human and a judge score take part. The default split is 'test' when the\n"
            "project has a split, otherwise 'all'."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("aspect"), QStringLiteral("Aspect to correlate."), QStringLiteral("A")});
    parser.addOption(
            {QStringLiteral("judge"), QStringLiteral("Judge (run or imported scores)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("level"), QStringLiteral("dataset (default), group or system."),
                      QStringLiteral("L"), QStringLiteral("dataset")});
    parser.addOption({QStringLiteral("constant-groups"),
                      QStringLiteral("Group level: skip (default) or one, see above."), QStringLiteral("RULE"),
                      QStringLiteral("skip")});
    parser.addOption({QStringLiteral("split"),
                      QStringLiteral("all, train or test (default: test if the project has a split, else all)."),
                      QStringLiteral("S")});
    parser.addOption({QStringLiteral("bootstrap"),
                      QStringLiteral("Percentile bootstrap with N resamples (groups at group level, systems at system "
                                     "level, items at dataset level)."),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Bootstrap seed (default 0)."), QStringLiteral("S"),
                      QStringLiteral("0")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one line of JSON.")});
    if (auto rc = parse(parser, QStringLiteral("correlate"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("aspect"), io) || !require(parser, QStringLiteral("judge"), io))
        return 2;
    const auto level = parseLevel(parser.value(QStringLiteral("level")));
    if (!level) {
        io.err << "rubric correlate: --level must be dataset, group or system\n";
        return 2;
    }
    const auto constantGroups = parseConstantGroups(parser.value(QStringLiteral("constant-groups")));
    if (!constantGroups) {
        io.err << "rubric correlate: --constant-groups must be skip or one\n";
        return 2;
    }
    int resamples = 0;
    if (parser.isSet(QStringLiteral("bootstrap"))) {
        bool ok = false;
        resamples = parser.value(QStringLiteral("bootstrap")).toInt(&ok);
        if (!ok || resamples < 1) {
            io.err << "rubric correlate: --bootstrap expects a positive number of resamples\n";
            return 2;
        }
    }
    bool seedOk = false;
    const quint64 seed = parser.value(QStringLiteral("seed")).toULongLong(&seedOk);
    if (!seedOk) {
        io.err << "rubric correlate: --seed expects a non-negative integer\n";
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const auto splitFilter = splitOption(parser, *project, QStringLiteral("correlate"), io);
    if (!splitFilter) // a bad --split is a usage error; without one, the split could not be read
        return parser.isSet(QStringLiteral("split")) ? 2 : 1;
    const SplitFilter split = *splitFilter;
    const QString aspect = parser.value(QStringLiteral("aspect"));
    const QString judge = parser.value(QStringLiteral("judge"));
    // The columns alone (scores, groups, systems as numbers): no id or text per item.
    const auto columns = gatherColumns(*project, aspect, {judge}, split);
    if (!columns) {
        io.err << "rubric correlate: " << columns.errorString() << '\n';
        return 1;
    }
    const LevelCorrelation c = correlateAtLevel(*columns, 0, *level, *constantGroups);
    std::optional<CorrelationIntervals> ci;
    if (resamples > 0) {
        BootstrapOptions options{resamples, seed, 0.95};
        options.constantGroups = *constantGroups;
        ci = bootstrapCorrelation(*columns, 0, *level, options);
    }

    if (parser.isSet(QStringLiteral("json"))) {
        QVariantMap out{{QStringLiteral("aspect"), aspect},
                        {QStringLiteral("judge"), judge},
                        {QStringLiteral("level"), levelName(*level)},
                        {QStringLiteral("split"), splitFilterName(split)},
                        {QStringLiteral("n"), c.n},
                        {QStringLiteral("groups_used"), c.groupsUsed},
                        {QStringLiteral("pearson"), jsonNumber(c.pearson)},
                        {QStringLiteral("spearman"), jsonNumber(c.spearman)},
                        {QStringLiteral("kendall"), jsonNumber(c.kendall)}};
        if (*level == Level::Group) {
            out.insert(QStringLiteral("groups_skipped"), c.groupsSkipped);
            out.insert(QStringLiteral("constant_groups"), constantGroupsName(c.constantGroups));
            out.insert(QStringLiteral("groups_human_constant"), c.groupsHumanConstant);
            out.insert(QStringLiteral("groups_judge_constant"), c.groupsJudgeConstant);
            out.insert(QStringLiteral("groups_too_small"), c.groupsTooSmall);
        }
        if (ci) {
            QVariantMap m;
            for (Coefficient k : kCoefficients)
                m.insert(coefficientName(k), interval((*ci)[k]));
            out.insert(QStringLiteral("ci"), m);
            out.insert(QStringLiteral("bootstrap"), ci->resamples);
            out.insert(QStringLiteral("seed"), QString::number(seed));
        }
        printJson(io, out);
        return 0;
    }
    io.out << "judge " << judge << " vs human, aspect " << aspect << ", level " << levelName(*level) << ", split "
           << splitFilterName(split) << '\n';
    io.out << "n " << c.n;
    if (*level == Level::Group) {
        io.out << ", groups used " << c.groupsUsed << " (skipped " << c.groupsSkipped << ")\n";
        io.out << "constant groups: " << constantGroupsName(c.constantGroups) << " — "
               << constantGroupsConvention(c.constantGroups) << "; human scores constant in " << c.groupsHumanConstant
               << (c.constantGroups == ConstantGroups::One ? " (counted as 1)" : " (skipped)")
               << ", judge scores constant in " << c.groupsJudgeConstant << " (skipped), under 2 items "
               << c.groupsTooSmall;
    }
    if (*level == Level::System)
        io.out << ", systems " << c.groupsUsed;
    io.out << '\n';
    for (Coefficient k : kCoefficients) {
        io.out << "  " << coefficientName(k).leftJustified(9) << ' ' << number(c.value(k));
        if (ci)
            io.out << "  95% CI [" << number((*ci)[k].lo) << ", " << number((*ci)[k].hi) << ']';
        io.out << '\n';
    }
    return 0;
}

const Registration reg({QStringLiteral("correlate"),
                        QStringLiteral("Correlate a judge with the human scores (dataset/group/system level)."), &run});

} // namespace
} // namespace rubric::cli
