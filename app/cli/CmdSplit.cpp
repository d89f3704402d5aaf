#include "CliUtil.h"
#include "io/Splitter.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Draw a seeded train/test split: N training items among those with human scores (for --aspect, or for any "
            "aspect), spread round-robin over groups or systems; the other scored items are the test side.\n"
            "--by-group draws whole groups (sources) instead, so that no source of the training side appears on\n"
            "the test side; the training side then has at least N items (less than one group more)."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("train"), QStringLiteral("Number of training items."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Random seed (default 0)."), QStringLiteral("S"),
                      QStringLiteral("0")});
    parser.addOption(
            {QStringLiteral("aspect"), QStringLiteral("Only items scored for this aspect."), QStringLiteral("A")});
    parser.addOption({QStringLiteral("stratify"), QStringLiteral("group (default), system or none."),
                      QStringLiteral("BY"), QStringLiteral("group")});
    parser.addOption(
            {QStringLiteral("by-group"),
             QStringLiteral("Group-disjoint: draw whole groups, no group on both sides (--stratify ignored).")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the counts as JSON.")});
    if (auto rc = parse(parser, QStringLiteral("split"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("train"), io))
        return 2;
    SplitOptions options;
    bool ok = false;
    options.train = parser.value(QStringLiteral("train")).toInt(&ok);
    if (!ok || options.train < 1) {
        io.err << "rubric split: --train expects a positive whole number\n";
        return 2;
    }
    options.seed = parser.value(QStringLiteral("seed")).toULongLong(&ok);
    if (!ok) {
        io.err << "rubric split: --seed expects a non-negative whole number\n";
        return 2;
    }
    options.aspect = parser.value(QStringLiteral("aspect"));
    auto stratify = Splitter::parseStratify(parser.value(QStringLiteral("stratify")));
    if (!stratify) {
        io.err << "rubric split: " << stratify.errorString() << '\n';
        return 2;
    }
    options.stratify = *stratify;
    options.byGroup = parser.isSet(QStringLiteral("by-group"));
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    auto summary = Splitter::apply(*project, options);
    if (!summary) {
        io.err << "rubric split: " << summary.errorString() << '\n';
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("train"), summary->train},
                                  {QStringLiteral("test"), summary->test},
                                  {QStringLiteral("unassigned"), summary->unassigned}});
        return 0;
    }
    io.out << "split: train " << summary->train << ", test " << summary->test << ", unassigned " << summary->unassigned
           << '\n';
    return 0;
}

const Registration reg({QStringLiteral("split"), QStringLiteral("Draw a seeded, stratified train/test split."), &run});

} // namespace
} // namespace rubric::cli
