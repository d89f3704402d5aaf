#include "CliUtil.h"
#include "methods/hdeval/HdEvalCurves.h"

#include <cmath>

namespace rubric::cli {
namespace {

QString num(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("—");
}

void printCurve(Io &io, const char *title, const char *x, const QVector<hdeval::CurvePoint> &points)
{
    io.out << title << '\n' << "  " << QString::fromLatin1(x).rightJustified(6) << "  mean r     sd  per seed\n";
    for (const hdeval::CurvePoint &p : points) {
        QStringList seeds;
        for (double v : p.values)
            seeds << num(v);
        io.out << "  " << QString::number(p.x).rightJustified(6) << "  " << num(p.mean).rightJustified(6) << ' '
               << num(p.sd).rightJustified(6) << "  " << seeds.join(QLatin1Char(' ')) << '\n';
    }
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "An HD-Eval judge's data-efficiency curve (test r against the number of training items, several "
            "seeds), criteria-efficiency curve (test r against the number of nodes kept, ranked by "
            "cross-validated permutation importance on the train split) and per-node contribution summary "
            "(mean |contribution| over the test items), the full model's test r over seeds and each of the "
            "paper's ablations against it (paired bootstrap interval, permutation and Williams p), from the "
            "stored node scores: 0 calls. Test r is on the test items with a node score (the items rubric "
            "compare correlates)."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption(
            {QStringLiteral("judge"), QStringLiteral("Judge name (an HD-Eval judge)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("aggregator"),
                      QStringLiteral("Aggregator kind to fit at every point (default: the judge's)."),
                      QStringLiteral("KIND")});
    parser.addOption({QStringLiteral("seeds"), QStringLiteral("Seeds per point (default 5)."), QStringLiteral("N"),
                      QStringLiteral("5")});
    parser.addOption({QStringLiteral("sizes"),
                      QStringLiteral("Training sizes, comma-separated (default 5, 10, … all train items)."),
                      QStringLiteral("LIST")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("efficiency"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("judge"), io))
        return 2;
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const QString judge = parser.value(QStringLiteral("judge"));
    auto summary = hdeval::contributionSummary(project.get(), judge);
    if (!summary) {
        io.err << "rubric efficiency: " << summary.errorString() << '\n';
        return 1;
    }
    hdeval::CurveOptions options;
    const QString kind = parser.isSet(QStringLiteral("aggregator")) ? parser.value(QStringLiteral("aggregator"))
                                                                    : summary->aggregator;
    auto parsed = learn::parseAggregatorKind(kind);
    if (!parsed) {
        io.err << "rubric efficiency: --aggregator: " << parsed.errorString() << '\n';
        return 2;
    }
    options.aggregator.kind = *parsed;
    bool ok = false;
    options.seeds = parser.value(QStringLiteral("seeds")).toInt(&ok);
    if (!ok || options.seeds < 1) {
        io.err << "rubric efficiency: --seeds expects a positive integer\n";
        return 2;
    }
    for (const QString &s : parser.value(QStringLiteral("sizes")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        options.sizes << s.trimmed().toInt(&ok);
        if (!ok) {
            io.err << "rubric efficiency: --sizes expects integers, got '" << s << "'\n";
            return 2;
        }
    }
    auto curves = hdeval::efficiencyCurves(project.get(), judge, options);
    if (!curves) {
        io.err << "rubric efficiency: " << curves.errorString() << '\n';
        return 1;
    }
    auto ablations = hdeval::ablationReport(project.get(), judge, options.aggregator, options.seeds);
    if (!ablations) {
        io.err << "rubric efficiency: " << ablations.errorString() << '\n';
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QVariantMap out = curves->toMap();
        out.insert(QStringLiteral("contributions"), summary->toMap());
        out.insert(QStringLiteral("ablations"), ablations->toMap());
        printJson(io, out);
        return 0;
    }
    io.out << "judge " << judge << ", aspect " << curves->aspect << ", " << curves->aggregator << " aggregator, "
           << curves->nTrain << " train / " << curves->nTest << " test items, " << curves->seeds << " seeds, 0 calls\n";
    printCurve(io, "data efficiency (test r by training items)", "items", curves->data);
    printCurve(io, "criteria efficiency (test r by nodes kept)", "nodes", curves->criteria);
    io.out << "  ranking: " << curves->ranking.join(QStringLiteral(", ")) << '\n';
    io.out << "contributions over " << summary->items.size() << " test items (" << summary->method << ")\n";
    for (int j = 0; j < summary->nodes.size(); ++j)
        io.out << "  " << num(summary->meanAbs[j]).rightJustified(7) << "  " << summary->nodes[j] << '\n';
    io.out << "full model's test r over " << ablations->seedR.size() << " seeds: mean " << num(ablations->mean)
           << ", sd " << num(ablations->sd) << ", range " << num(ablations->min) << "–" << num(ablations->max) << '\n';
    for (const hdeval::AblationTest &t : ablations->tests)
        io.out << "  " << t.tag << ": test r " << num(t.ablationR) << " vs full " << num(t.fullR)
               << ", full − ablation " << num(t.difference) << " [" << num(t.lo) << ", " << num(t.hi)
               << "], permutation p " << num(t.permutationP) << ", Williams p " << num(t.williamsP) << ", n " << t.n
               << '\n';
    return 0;
}

const Registration reg({QStringLiteral("efficiency"),
                        QStringLiteral("HD-Eval's data- and criteria-efficiency curves and contribution summary (0 "
                                       "calls)."),
                        &run});

} // namespace
} // namespace rubric::cli
