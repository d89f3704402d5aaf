#include "CliUtil.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <cmath>

namespace rubric::cli {
namespace {

using namespace hpss;

/// The strategy to show: --strategy, else the judge's winner (its latest rubric version), else
/// the origin of its stored search.
std::optional<PromptStrategy> chosenStrategy(const QCommandLineParser &parser, const Project &project,
                                             const QString &judge, const QVariantMap &state, Io &io)
{
    if (parser.isSet(QStringLiteral("strategy"))) {
        auto s = PromptStrategy::parse(parser.value(QStringLiteral("strategy")));
        if (!s) {
            io.err << "rubric: --strategy: " << s.errorString() << '\n';
            return std::nullopt;
        }
        return *s;
    }
    if (auto rubric = RubricStore(const_cast<Project *>(&project)).load(judge); rubric)
        if (const Criterion *root = rubric->find(QStringLiteral("aspect"));
            root && root->stats.contains(QStringLiteral("strategy"))) {
            auto s = PromptStrategy::fromVariant(root->stats.value(QStringLiteral("strategy")));
            if (s)
                return *s;
        }
    const QString origin = state.value(QStringLiteral("params")).toMap().value(QStringLiteral("origin")).toString();
    auto s = origin.isEmpty() ? Result<PromptStrategy>(PromptStrategy::mtBenchOrigin()) : PromptStrategy::parse(origin);
    if (!s) {
        io.err << "rubric: the stored search's origin: " << s.errorString() << '\n';
        return std::nullopt;
    }
    return *s;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
            QStringLiteral("Print the prompt an HPSS judge sends for one item under a strategy (default: the judge's "
                           "winner, or the origin while it has none), with the judge's stored auxiliary texts."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("HPSS judge name."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("strategy"),
                      QStringLiteral("factor:value,… with all eight factors (scale, examples, criteria, reference, "
                                     "cot, autocot, metrics, order)."),
                      QStringLiteral("S")});
    parser.addOption({QStringLiteral("item"), QStringLiteral("Item id."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("system"), QStringLiteral("Print the system message too.")});
    if (auto rc = parse(parser, QStringLiteral("show-prompt"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("judge"), io) || !require(parser, QStringLiteral("item"), io))
        return 2;
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const QString judge = parser.value(QStringLiteral("judge"));
    const auto readInfo = project->readJudge(judge);
    if (!readInfo) {
        io.err << "rubric: " << readInfo.errorString() << '\n';
        return 1;
    }
    const auto &info = *readInfo;
    if (!info) {
        io.err << "rubric: no judge '" << judge << "' in " << project->path() << '\n';
        return 1;
    }
    if (info->method != QLatin1String(hpss::kMethodName)) {
        io.err << "rubric: judge '" << judge << "' was built by " << info->method
               << ", not hpss: show-prompt renders HPSS strategies\n";
        return 1;
    }
    auto state = state::load(*project, judge);
    if (!state) {
        io.err << "rubric: " << state.errorString() << '\n';
        return 1;
    }
    const QString aspectName = RubricStore(project.get()).runConfig(judge).value(QStringLiteral("aspect")).toString();
    const auto readAspect = project->readAspect(aspectName);
    if (!readAspect) {
        io.err << "rubric: " << readAspect.errorString() << '\n';
        return 1;
    }
    const auto &aspect = *readAspect;
    if (!aspect) {
        io.err << "rubric: judge '" << judge << "' names aspect '" << aspectName << "', which the project lacks\n";
        return 1;
    }
    const auto readItem = project->readItem(parser.value(QStringLiteral("item")));
    if (!readItem) {
        io.err << "rubric: " << readItem.errorString() << '\n';
        return 1;
    }
    const auto &item = *readItem;
    if (!item) {
        io.err << "rubric: no item '" << parser.value(QStringLiteral("item")) << "' in " << project->path() << '\n';
        return 1;
    }
    const auto strategy = chosenStrategy(parser, *project, judge, *state, io);
    if (!strategy)
        return 1;
    const QString taskName = state->value(QStringLiteral("task"), QStringLiteral("summeval")).toString();
    auto task = TaskWording::preset(taskName);
    if (!task) {
        io.err << "rubric: " << task.errorString() << '\n';
        return 1;
    }
    // The validation split as the run saw it: the train items with a human score, in import order.
    const auto readHuman = project->readHumanScores(aspect->name);
    const auto trainIds = project->readItemIds(SplitFilter::Train);
    const auto allItems = project->readItems();
    for (const QString &error : {readHuman.errorString(), trainIds.errorString(), allItems.errorString()})
        if (!error.isEmpty()) {
            io.err << "rubric: " << error << '\n';
            return 1;
        }
    const QHash<QString, double> &human = *readHuman;
    QHash<QString, const Item *> byId;
    for (const Item &it : *allItems)
        byId.insert(it.id, &it);
    QVector<Item> validation;
    for (const QString &id : *trainIds)
        if (human.contains(id) && !std::isnan(human.value(id)) && byId.contains(id))
            validation.append(*byId.value(id));
    // The examples' own seed (issue 32), not the search's.
    const quint64 exampleSeed
            = state->value(QStringLiteral("params")).toMap().value(QStringLiteral("example_seed"), 1).toULongLong();
    PromptBuilder builder(*task, *aspect, validation, human, exampleSeed);
    const Auxiliaries aux = Auxiliaries::fromVariant(state->value(QStringLiteral("aux")));
    auto prompt = builder.render(*strategy, *item, aux);
    if (!prompt) {
        io.err << "rubric: " << strategy->format() << " for item '" << item->id << "': " << prompt.errorString()
               << " (the judge makes it when it evaluates a strategy that needs it)\n";
        return 1;
    }
    if (parser.isSet(QStringLiteral("system")))
        for (const ChatMessage &m : prompt->messages)
            if (m.role == QLatin1String("system"))
                io.out << "=== system ===\n" << m.content << "\n=== user ===\n";
    io.out << prompt->text << '\n';
    return 0;
}

const Registration reg({QStringLiteral("show-prompt"),
                        QStringLiteral("Print an HPSS judge's prompt for one item under a strategy."), &run});

} // namespace
} // namespace rubric::cli
