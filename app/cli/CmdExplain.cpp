#include "CliUtil.h"
#include "methods/hdeval/HdEvalExplain.h"
#include "methods/stack/StackExplain.h"

#include <cmath>

namespace rubric::cli {
namespace {

QString num(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("—");
}

/// A stacked judge's item, criterion by criterion (grouped under their source judges in the JSON).
int explainStacked(Project *project, const QString &judge, const QString &item, bool json, Io &io)
{
    auto e = stack::explainItem(project, judge, item);
    if (!e) {
        io.err << "rubric: " << e.errorString() << '\n';
        return 1;
    }
    if (json) {
        printJson(io, e->toMap());
        return 0;
    }
    io.out << "item " << e->item << ", " << e->aspect << ": " << num(e->prediction) << " (stacked, " << e->aggregator
           << " aggregator, rubric version " << e->version << "; base " << num(e->base) << ")\n";
    for (const stack::CriterionPart &c : e->parts)
        io.out << "  " << (c.contribution >= 0 ? "+" : "") << num(c.contribution) << "  " << c.key << " (score "
               << num(c.score) << "): " << c.text.simplified().left(80) << '\n';
    return 0;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
            QStringLiteral("Explain one item's score under an HD-Eval or a stacked judge: the aggregator's base and "
                           "each node's (criterion's) contribution (prediction = base + the sum of the "
                           "contributions)."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Judge name (an HD-Eval or a stacked judge)."),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("item"), QStringLiteral("Item id."), QStringLiteral("ID")});
    parser.addOption(
            {QStringLiteral("aspect"),
             QStringLiteral("Which aspect's score, for a tree over several aspects (default: the judge's own)."),
             QStringLiteral("A")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("explain"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("judge"), io) || !require(parser, QStringLiteral("item"), io))
        return 2;
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const QString judge = parser.value(QStringLiteral("judge")), item = parser.value(QStringLiteral("item"));
    const auto stacked = stack::isStackJudge(project.get(), judge);
    if (!stacked.ok()) {
        io.err << "rubric: " << stacked.errorString() << '\n';
        return 1;
    }
    if (*stacked)
        return explainStacked(project.get(), judge, item, parser.isSet(QStringLiteral("json")), io);
    auto e = hdeval::explainItem(project.get(), parser.value(QStringLiteral("judge")),
                                 parser.value(QStringLiteral("item")), parser.value(QStringLiteral("aspect")));
    if (!e) {
        io.err << "rubric: " << e.errorString() << '\n';
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, e->toMap());
        return 0;
    }
    io.out << "item " << e->item << ", " << e->aspect << ": " << num(e->prediction) << " (" << e->aggregator
           << " aggregator, rubric version " << e->version << "; base " << num(e->base) << ")\n";
    for (const hdeval::NodeContribution &n : e->nodes)
        io.out << "  " << (n.contribution >= 0 ? "+" : "") << num(n.contribution) << "  L" << n.layer << ' ' << n.key
               << " (score " << num(n.score) << "): " << n.text.simplified().left(80) << '\n';
    return 0;
}

const Registration reg({QStringLiteral("explain"),
                        QStringLiteral("Explain an item's HD-Eval or stacked score node by node (contributions)."),
                        &run});

} // namespace
} // namespace rubric::cli
