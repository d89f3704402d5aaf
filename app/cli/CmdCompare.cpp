#include "CliUtil.h"
#include "stats/Comparison.h"
#include "stats/ProjectData.h"

#include <QJsonDocument>

namespace rubric::cli {
namespace {

using namespace rubric::stats;

std::optional<int> nonNegative(const QCommandLineParser &parser, const QString &option, Io &io)
{
    bool ok = false;
    const int v = parser.value(option).toInt(&ok);
    if (!ok || v < 0) {
        io.err << "rubric compare: --" << option << " expects a non-negative integer\n";
        return std::nullopt;
    }
    return v;
}

/// "item" is the dataset level under the name the contract uses (one correlation over
/// all items); the other three are Levels.h's names.
std::optional<Level> compareLevel(const QString &name)
{
    if (name == QLatin1String("item"))
        return Level::Dataset;
    return parseLevel(name);
}

std::optional<Coefficient> parseCoefficient(const QString &name)
{
    for (Coefficient c : kCoefficients)
        if (coefficientName(c) == name)
            return c;
    return std::nullopt;
}

void printText(Io &io, const Comparison &c)
{
    const CompareOptions &o = c.options;
    io.out << "aspect " << o.aspect << ", " << c.convention << ", split " << splitFilterName(o.split) << '\n';
    int width = 5;
    for (const JudgeAlignment &j : c.judges)
        width = std::max(width, int(j.judge.size()));
    const QString pct = QString::number(o.confidence * 100.0, 'g', 3);
    io.out << "  " << QStringLiteral("judge").leftJustified(width) << "  pearson spearman  kendall  "
           << QString(coefficientName(o.primary) + QLatin1Char(' ') + pct + QStringLiteral("% CI")).leftJustified(22)
           << "     n  calls/item  cost/item\n";
    for (const JudgeAlignment &j : c.judges) {
        const QString ci = QStringLiteral("[%1, %2]").arg(formatStatistic(j.lo), formatStatistic(j.hi));
        io.out << "  " << j.judge.leftJustified(width) << ' ' << formatStatistic(j.pearson).rightJustified(8) << ' '
               << formatStatistic(j.spearman).rightJustified(8) << ' ' << formatStatistic(j.kendall).rightJustified(8)
               << "  " << ci.leftJustified(22) << ' ' << QString::number(j.n).rightJustified(5) << ' '
               << formatCalls(j.callsPerItem).rightJustified(11) << ' ' << formatCost(j.costPerItem).rightJustified(10)
               << '\n';
    }
    if (c.ceiling.available)
        io.out << "human ceiling: Krippendorff's alpha (interval) " << formatStatistic(c.ceiling.alpha) << " between "
               << c.ceiling.annotators << " annotators on " << c.ceiling.n << " items\n";
    else
        io.out << "human ceiling: not available (fewer than two annotators on the same items)\n";
    for (const PairComparison &p : c.pairs) {
        io.out << '\n'
               << p.a << " − " << p.b << ": " << formatStatistic(p.difference) << " [" << formatStatistic(p.lo) << ", "
               << formatStatistic(p.hi) << "], permutation p " << formatP(p.p);
        if (p.williamsP == p.williamsP)
            io.out << ", Williams p " << formatP(p.williamsP);
        io.out << ", n " << p.n << '\n' << "  " << p.plainWords << '\n';
    }
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Compare judges against the same human scores: each judge's Pearson, Spearman and Kendall tau-b\n"
            "with a percentile bootstrap interval of the chosen coefficient, n, calls and cost per item (the\n"
            "judge's whole call ledger over the items it scored; n/a for imported scores), and the annotators'\n"
            "Krippendorff alpha as the human ceiling. Every pair of judges (in the order given) on the items\n"
            "both scored: the difference A − B of the chosen coefficient, its paired bootstrap interval, a\n"
            "paired permutation test p (every level) and Williams' test p (Pearson; dataset or system level),\n"
            "with the result in words. No --judge: every judge that scored the aspect.\n"
            "The default split is 'test' when the project has a split, otherwise 'all'."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("aspect"), QStringLiteral("Aspect."), QStringLiteral("A")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Judge (repeat; none = every judge of the aspect)."),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("level"),
                      QStringLiteral("item or dataset (the same: one correlation over all items; default), group "
                                     "or system."),
                      QStringLiteral("L"), QStringLiteral("dataset")});
    parser.addOption({QStringLiteral("split"),
                      QStringLiteral("all, train or test (default: test if the project has a split, else all)."),
                      QStringLiteral("S")});
    parser.addOption({QStringLiteral("coefficient"),
                      QStringLiteral("pearson (default), spearman or kendall: the interval and the pair test."),
                      QStringLiteral("C"), QStringLiteral("pearson")});
    parser.addOption({QStringLiteral("constant-groups"),
                      QStringLiteral("Group level: skip (default) or one (see rubric correlate --help)."),
                      QStringLiteral("RULE"), QStringLiteral("skip")});
    parser.addOption({QStringLiteral("bootstrap"), QStringLiteral("Bootstrap resamples (default 1000)."),
                      QStringLiteral("N"), QStringLiteral("1000")});
    parser.addOption({QStringLiteral("permutations"), QStringLiteral("Permutations (default 1000)."),
                      QStringLiteral("N"), QStringLiteral("1000")});
    parser.addOption(
            {QStringLiteral("seed"), QStringLiteral("Seed (default 1)."), QStringLiteral("S"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one line of JSON.")});
    if (auto rc = parse(parser, QStringLiteral("compare"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("aspect"), io))
        return 2;
    CompareOptions options;
    options.aspect = parser.value(QStringLiteral("aspect"));
    options.judges = parser.values(QStringLiteral("judge"));
    const auto level = compareLevel(parser.value(QStringLiteral("level")));
    if (!level) {
        io.err << "rubric compare: --level must be item, group, system or dataset\n";
        return 2;
    }
    options.level = *level;
    const auto coefficient = parseCoefficient(parser.value(QStringLiteral("coefficient")));
    if (!coefficient) {
        io.err << "rubric compare: --coefficient must be pearson, spearman or kendall\n";
        return 2;
    }
    options.primary = *coefficient;
    const auto rule = parseConstantGroups(parser.value(QStringLiteral("constant-groups")));
    if (!rule) {
        io.err << "rubric compare: --constant-groups must be skip or one\n";
        return 2;
    }
    options.constantGroups = *rule;
    const auto resamples = nonNegative(parser, QStringLiteral("bootstrap"), io);
    const auto permutations = nonNegative(parser, QStringLiteral("permutations"), io);
    bool seedOk = false;
    options.seed = parser.value(QStringLiteral("seed")).toULongLong(&seedOk);
    if (!resamples || !permutations || !seedOk) {
        if (!seedOk)
            io.err << "rubric compare: --seed expects a non-negative integer\n";
        return 2;
    }
    options.bootstrap = *resamples;
    options.permutations = *permutations;
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const auto split = splitOption(parser, *project, QStringLiteral("compare"), io);
    if (!split) // a bad --split is a usage error; without one, the split could not be read
        return parser.isSet(QStringLiteral("split")) ? 2 : 1;
    options.split = *split;
    const auto comparison = compareJudges(*project, options);
    if (!comparison) {
        io.err << "rubric compare: " << comparison.errorString() << '\n';
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        io.out << QString::fromUtf8(QJsonDocument(comparisonToJson(*comparison)).toJson(QJsonDocument::Compact))
               << '\n';
        return 0;
    }
    printText(io, *comparison);
    return 0;
}

const Registration reg({QStringLiteral("compare"),
                        QStringLiteral("Compare judges: correlations with intervals, cost per item, pairwise tests."),
                        &run});

} // namespace
} // namespace rubric::cli
