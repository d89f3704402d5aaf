#include "CliUtil.h"
#include "stats/ProjectData.h"
#include "stats/Significance.h"

namespace rubric::cli {
namespace {

using namespace rubric::stats;

QString number(double v)
{
    return v == v ? QString::number(v, 'f', 4) : QStringLiteral("n/a");
}

QVariantMap coefficients(const std::array<double, 3> &v)
{
    QVariantMap m;
    for (Coefficient k : kCoefficients)
        m.insert(coefficientName(k), jsonNumber(v[size_t(k)]));
    return m;
}

std::optional<int> positive(const QCommandLineParser &parser, const QString &option, Io &io)
{
    bool ok = false;
    const int v = parser.value(option).toInt(&ok);
    if (!ok || v < 0) {
        io.err << "rubric compare: --" << option << " expects a non-negative integer\n";
        return std::nullopt;
    }
    return v;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Compare two judges against the same human scores on the items all three scored: both\n"
            "correlations, their difference (X − Y) with a paired percentile bootstrap interval, Williams'\n"
            "test (Pearson; dataset or system level) and a paired permutation test p-value.\n"
            "The default split is 'test' when the project has a split, otherwise 'all'."));
    parser.addOption({QStringLiteral("project"), QStringLiteral("Project file."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("aspect"), QStringLiteral("Aspect."), QStringLiteral("A")});
    parser.addOption(
            {QStringLiteral("judge"), QStringLiteral("Judge; give it twice (X then Y)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("level"), QStringLiteral("dataset (default), group or system."),
                      QStringLiteral("L"), QStringLiteral("dataset")});
    parser.addOption({QStringLiteral("split"),
                      QStringLiteral("all, train or test (default: test if the project has a split, else all)."),
                      QStringLiteral("S")});
    parser.addOption({QStringLiteral("bootstrap"), QStringLiteral("Paired bootstrap resamples (default 1000)."),
                      QStringLiteral("N"), QStringLiteral("1000")});
    parser.addOption({QStringLiteral("permutations"), QStringLiteral("Permutations (default 1000)."),
                      QStringLiteral("N"), QStringLiteral("1000")});
    parser.addOption(
            {QStringLiteral("seed"), QStringLiteral("Seed (default 0)."), QStringLiteral("S"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one line of JSON.")});
    if (auto rc = parse(parser, QStringLiteral("compare"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("aspect"), io))
        return 2;
    const QStringList judges = parser.values(QStringLiteral("judge"));
    if (judges.size() != 2) {
        io.err << "rubric compare: give --judge exactly twice\n";
        return 2;
    }
    const auto level = parseLevel(parser.value(QStringLiteral("level")));
    if (!level) {
        io.err << "rubric compare: --level must be dataset, group or system\n";
        return 2;
    }
    const auto resamples = positive(parser, QStringLiteral("bootstrap"), io);
    const auto permutations = positive(parser, QStringLiteral("permutations"), io);
    bool seedOk = false;
    const quint64 seed = parser.value(QStringLiteral("seed")).toULongLong(&seedOk);
    if (!resamples || !permutations || !seedOk) {
        if (!seedOk)
            io.err << "rubric compare: --seed expects a non-negative integer\n";
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const auto splitFilter = splitOption(parser, *project, QStringLiteral("compare"), io);
    if (!splitFilter) // a bad --split is a usage error; without one, the split could not be read
        return parser.isSet(QStringLiteral("split")) ? 2 : 1;
    const SplitFilter split = *splitFilter;
    const QString aspect = parser.value(QStringLiteral("aspect"));
    const auto items = gatherPaired(*project, aspect, judges[0], judges[1], split);
    if (!items) {
        io.err << "rubric compare: " << items.errorString() << '\n';
        return 1;
    }
    const JudgeComparison c = compareJudges(*items, *level, {*resamples, *permutations, seed, 0.95});
    const auto triple = [](const LevelCorrelation &l) {
        return std::array<double, 3>{l.pearson, l.spearman, l.kendall};
    };

    if (parser.isSet(QStringLiteral("json"))) {
        QVariantMap ci;
        for (Coefficient k : kCoefficients)
            ci.insert(coefficientName(k),
                      QVariantList{jsonNumber(c.differenceCi[size_t(k)].lo), jsonNumber(c.differenceCi[size_t(k)].hi)});
        printJson(io, QVariantMap{{QStringLiteral("aspect"), aspect},
                                  {QStringLiteral("judges"), judges},
                                  {QStringLiteral("level"), levelName(*level)},
                                  {QStringLiteral("split"), splitFilterName(split)},
                                  {QStringLiteral("n"), c.a.n},
                                  {QStringLiteral("groups_used"), QVariantList{c.a.groupsUsed, c.b.groupsUsed}},
                                  {QStringLiteral("x"), coefficients(triple(c.a))},
                                  {QStringLiteral("y"), coefficients(triple(c.b))},
                                  {QStringLiteral("difference"), coefficients(c.difference)},
                                  {QStringLiteral("ci"), ci},
                                  {QStringLiteral("permutation_p"), coefficients(c.permutationP)},
                                  {QStringLiteral("williams"),
                                   QVariantMap{{QStringLiteral("t"), jsonNumber(c.williams.t)},
                                               {QStringLiteral("df"), c.williams.df},
                                               {QStringLiteral("p"), jsonNumber(c.williams.p)},
                                               {QStringLiteral("n"), c.williams.n},
                                               {QStringLiteral("r23"), jsonNumber(c.williams.r23)}}},
                                  {QStringLiteral("bootstrap"), c.resamples},
                                  {QStringLiteral("permutations"), c.permutations},
                                  {QStringLiteral("seed"), QString::number(seed)}});
        return 0;
    }
    io.out << "X = " << judges[0] << ", Y = " << judges[1] << "; aspect " << aspect << ", level " << levelName(*level)
           << ", split " << splitFilterName(split) << ", n " << c.a.n << '\n';
    io.out << "  coefficient       X        Y    X − Y   95% CI (paired bootstrap)   permutation p\n";
    for (Coefficient k : kCoefficients) {
        const size_t i = size_t(k);
        io.out << "  " << coefficientName(k).leftJustified(11) << ' ' << number(c.a.value(k)).rightJustified(8) << ' '
               << number(c.b.value(k)).rightJustified(8) << ' ' << number(c.difference[i]).rightJustified(8) << "   ["
               << number(c.differenceCi[i].lo) << ", " << number(c.differenceCi[i].hi) << "]            "
               << number(c.permutationP[i]) << '\n';
    }
    if (c.williams.t == c.williams.t)
        io.out << "Williams (Pearson, n " << c.williams.n << "): t(" << c.williams.df << ") = " << number(c.williams.t)
               << ", p = " << number(c.williams.p) << '\n';
    else
        io.out << "Williams: not defined here (group level, too few units, or identical judges)\n";
    return 0;
}

const Registration reg({QStringLiteral("compare"),
                        QStringLiteral("Compare two judges: difference, paired bootstrap CI, Williams, permutation."),
                        &run});

} // namespace
} // namespace rubric::cli
