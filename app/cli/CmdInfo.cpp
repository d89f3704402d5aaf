#include "CliUtil.h"
#include "stats/StableSum.h"
#include "store/BatchStore.h"
#include "store/RubricStore.h"
#include "store/ScoreColumns.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
            QStringLiteral("Summarise a project: items, aspects, human scores, judges, split."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("info"), args, io))
        return *rc;
    auto project = openProject(parser, io);
    if (!project)
        return 1;

    const auto fail = [&io](const Error &e) {
        io.err << "rubric info: " << e.toString() << '\n';
        return 1;
    };
    const auto itemCount = project->readItemCount();
    if (!itemCount)
        return fail(itemCount.error());
    const auto groupList = project->readGroups();
    if (!groupList)
        return fail(groupList.error());
    const auto systemList = project->readSystems();
    if (!systemList)
        return fail(systemList.error());
    const int items = *itemCount;
    const int groups = int(groupList->size());
    const int systems = int(systemList->size());
    const auto aspectList = project->readAspects();
    if (!aspectList)
        return fail(aspectList.error());
    QVariantList aspects;
    const ScoreColumnStore columns(project.get()); // numbers only: no id per item, no hash
    for (const Aspect &a : *aspectList) {
        auto read = columns.humanMeans(a.name);
        if (!read)
            return fail(read.error());
        std::vector<double> human = std::move(read).value();
        const auto coders = project->readAnnotators(a.name);
        if (!coders)
            return fail(coders.error());
        // Summed in an order of their own (sorted): the same figure whatever order the rows come in.
        const int annotated = int(human.size());
        const double mean = stats::stableMean(std::move(human));
        aspects.append(QVariantMap{{QStringLiteral("name"), a.name},
                                   {QStringLiteral("min"), a.min},
                                   {QStringLiteral("max"), a.max},
                                   {QStringLiteral("human_mean"), jsonNumber(mean)},
                                   {QStringLiteral("annotated_items"), annotated},
                                   {QStringLiteral("annotators"), int(coders->size())}});
    }
    const auto judgeList = columns.judges(); // Project::readJudges' list, its counts from one scan
    if (!judgeList)
        return fail(judgeList.error());
    QVariantList judges;
    QHash<QString, int> failedItems; // judge → items the endpoint refused
    for (const JudgeInfo &j : *judgeList) {
        auto failed = RubricStore(project.get()).failedItems(j.name);
        if (!failed)
            return fail(failed.error());
        failedItems.insert(j.name, int(failed->size()));
        judges.append(QVariantMap{{QStringLiteral("name"), j.name},
                                  {QStringLiteral("method"), j.method},
                                  {QStringLiteral("status"), j.status},
                                  {QStringLiteral("aspects"), j.aspects},
                                  {QStringLiteral("items"), j.items},
                                  {QStringLiteral("failed_items"), failedItems.value(j.name)}});
    }
    const auto split = columns.splitCounts();
    if (!split)
        return fail(split.error());
    const auto [train, test] = *split;
    const QVariantMap splits{{QStringLiteral("train"), train},
                             {QStringLiteral("test"), test},
                             {QStringLiteral("unassigned"), items - train - test}};

    // Provider batches: every one in JSON, the open ones (still at the provider) in the text.
    const auto batchList = BatchStore(project.get()).batches();
    if (!batchList)
        return fail(batchList.error());
    QVariantList batches;
    for (const BatchRecord &b : *batchList)
        batches.append(QVariantMap{{QStringLiteral("id"), b.remoteId},
                                   {QStringLiteral("run"), b.run},
                                   {QStringLiteral("provider"), b.provider},
                                   {QStringLiteral("model"), b.model},
                                   {QStringLiteral("state"), b.state},
                                   {QStringLiteral("status"), b.remoteStatus},
                                   {QStringLiteral("calls"), b.requests},
                                   {QStringLiteral("answered"), b.completed},
                                   {QStringLiteral("failed"), b.failed},
                                   {QStringLiteral("created"), b.createdAt.toString(Qt::ISODate)}});

    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("batches"), batches},
                                  {QStringLiteral("items"), items},
                                  {QStringLiteral("groups"), groups},
                                  {QStringLiteral("systems"), systems},
                                  {QStringLiteral("aspects"), aspects},
                                  {QStringLiteral("judges"), judges},
                                  {QStringLiteral("splits"), splits}});
        return 0;
    }
    io.out << project->path() << '\n'
           << "items " << items << ", groups " << groups << ", systems " << systems << '\n'
           << "split: train " << train << ", test " << test << ", unassigned " << (items - train - test) << '\n';
    io.out << "aspects:\n";
    for (const QVariant &v : aspects) {
        const QVariantMap m = v.toMap();
        io.out << "  " << m.value(QStringLiteral("name")).toString().leftJustified(18) << " scale "
               << m.value(QStringLiteral("min")).toDouble() << "–" << m.value(QStringLiteral("max")).toDouble()
               << "  human mean " << QString::number(m.value(QStringLiteral("human_mean")).toDouble(), 'f', 4)
               << "  on " << m.value(QStringLiteral("annotated_items")).toInt() << " items by "
               << m.value(QStringLiteral("annotators")).toInt() << " annotator(s)\n";
    }
    io.out << "judges:\n";
    for (const JudgeInfo &j : *judgeList)
        io.out << "  " << j.name.leftJustified(18) << ' ' << j.method << " (" << j.status << "), "
               << j.aspects.join(QStringLiteral(", ")) << " on " << j.items << " items"
               << (failedItems.value(j.name) > 0
                           ? QStringLiteral(", %1 refused by the endpoint").arg(failedItems.value(j.name))
                           : QString())
               << '\n';
    for (const BatchRecord &b : *batchList) {
        if (!b.open())
            continue;
        const BatchStatus st = b.status();
        io.out << "open provider batch " << (b.remoteId.isEmpty() ? QStringLiteral("(being created)") : b.remoteId)
               << " of " << b.run << ": " << (b.remoteStatus.isEmpty() ? b.state : b.remoteStatus) << ", "
               << b.completed << " of " << b.requests << " calls answered, out for " << st.waitedMs / 60000
               << " min (run the judge again to take the results in)\n";
    }
    return 0;
}

const Registration reg({QStringLiteral("info"), QStringLiteral("Summarise a project (items, aspects, judges, split)."),
                        &run});

} // namespace
} // namespace rubric::cli
