#include "Splitter.h"

#include "store/Project.h"
#include "store/SplitStore.h"
#include "util/Json.h"
#include "util/Shuffle.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <map>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Splitter", text);
}

} // namespace

Result<Stratify> Splitter::parseStratify(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("group"))
        return Stratify::Group;
    if (n == QLatin1String("system"))
        return Stratify::System;
    if (n == QLatin1String("none"))
        return Stratify::None;
    return makeError(tr("unknown stratification '%1' (group, system or none)").arg(name), {}, 0,
                     QStringLiteral("stratify"));
}

QString Splitter::stratifyName(Stratify s)
{
    switch (s) {
    case Stratify::Group:
        return QStringLiteral("group");
    case Stratify::System:
        return QStringLiteral("system");
    case Stratify::None:
        break;
    }
    return QStringLiteral("none");
}

namespace {

/// The drawn split over the candidates: true for a training item.
struct Drawn
{
    SplitCandidates items;
    std::vector<bool> train;
};

Result<Drawn> drawRows(const Project &project, const SplitOptions &options, bool withIds)
{
    if (!options.aspect.isEmpty()) {
        const auto known = project.readAspect(options.aspect);
        if (!known)
            return known.error();
        if (!*known)
            return makeError(tr("no aspect named '%1' in the project").arg(options.aspect), project.path(), 0,
                             QStringLiteral("aspect"));
    }
    // Ids, labels and row numbers of the items with human scores; no texts, no string per item.
    auto candidates = SplitStore(const_cast<Project *>(&project)).candidates(options.aspect, withIds);
    if (!candidates)
        return candidates.error();
    Drawn out;
    out.items = std::move(candidates).value();
    const SplitCandidates &items = out.items;
    const int eligible = int(items.rows.size());
    if (eligible == 0)
        return makeError(options.aspect.isEmpty() ? tr("no item has a human score to split on")
                                                  : tr("no item has a human score for '%1'").arg(options.aspect),
                         project.path());
    if (options.train < 1 || options.train > eligible)
        return makeError(tr("the training side must have between 1 and %1 items (the items with human scores), not %2")
                                 .arg(eligible)
                                 .arg(options.train),
                         project.path(), 0, QStringLiteral("train"));

    // Buckets in import order, taken in the order of their keys (sorted: a stable start). The key
    // is the stratum; group-disjoint draws bucket by group, an item without one alone (its id
    // cannot be a group's). Items are bucketed by index first, the keys sorted once.
    const bool byGroup = options.byGroup;
    const std::vector<int> *label = byGroup || options.stratify == Stratify::Group ? &items.group
                                    : options.stratify == Stratify::System         ? &items.system
                                                                                   : nullptr;
    const QStringList &names = options.stratify == Stratify::System && !byGroup ? items.systems : items.groups;
    std::vector<QVector<int>> labelled(size_t(names.size()));
    QVector<int> unlabelled;               // no group / system: one bucket keyed ''
    std::map<QString, QVector<int>> alone; // group-disjoint: an item without a group
    for (int i = 0; i < eligible; ++i) {
        const int l = label ? (*label)[size_t(i)] : -1;
        if (l >= 0)
            labelled[size_t(l)].append(i);
        else if (byGroup)
            alone[QStringLiteral("\x1fitem:") + items.ids.at(i)].append(i);
        else
            unlabelled.append(i);
    }
    std::map<QString, QVector<int> *> buckets;
    if (!unlabelled.isEmpty())
        buckets.emplace(QString(), &unlabelled);
    for (int l = 0; l < names.size(); ++l)
        if (!labelled[size_t(l)].isEmpty())
            buckets.emplace(names.at(l), &labelled[size_t(l)]);
    for (auto &[key, ids] : alone)
        buckets.emplace(key, &ids);

    SeededRng rng(options.seed);
    QVector<QVector<int>> order;
    order.reserve(qsizetype(buckets.size()));
    for (auto &[key, ids] : buckets) {
        seededShuffle(*ids, rng);
        order.append(std::move(*ids));
    }
    seededShuffle(order, rng);

    out.train.assign(size_t(eligible), false);
    if (byGroup) {
        int drawn = 0;
        qsizetype groups = 0;
        for (; groups < order.size() && drawn < options.train; ++groups)
            for (int i : std::as_const(order[groups])) {
                out.train[size_t(i)] = true;
                ++drawn;
            }
        if (groups == order.size())
            return makeError(tr("a group-disjoint split of %1 training items leaves no group for the test side (%2 "
                                "groups, %3 items)")
                                     .arg(options.train)
                                     .arg(order.size())
                                     .arg(eligible),
                             project.path(), 0, QStringLiteral("train"));
        return out;
    }
    int drawn = 0;
    for (qsizetype round = 0; drawn < options.train; ++round) {
        for (const auto &ids : std::as_const(order)) {
            if (round < ids.size() && drawn < options.train) {
                out.train[size_t(ids.at(round))] = true;
                ++drawn;
            }
        }
    }
    return out;
}

} // namespace

Result<QHash<QString, SplitRole>> Splitter::draw(const Project &project, const SplitOptions &options)
{
    const auto drawn = drawRows(project, options, true);
    if (!drawn)
        return drawn.error();
    QHash<QString, SplitRole> roles;
    for (size_t i = 0; i < drawn->train.size(); ++i)
        roles.insert(drawn->items.ids.at(qsizetype(i)), drawn->train[i] ? SplitRole::Train : SplitRole::Test);
    return roles;
}

Result<SplitSummary> Splitter::apply(Project &project, const SplitOptions &options)
{
    const auto drawn = drawRows(project, options, false);
    if (!drawn)
        return drawn.error();
    std::vector<qint64> train, test;
    for (size_t i = 0; i < drawn->train.size(); ++i)
        (drawn->train[i] ? train : test).push_back(drawn->items.rows[i]);
    if (auto w = SplitStore(&project).write(train, test); !w)
        return w.error();
    const QVariantMap params{{QStringLiteral("train"), options.train},
                             {QStringLiteral("seed"), QString::number(options.seed)},
                             {QStringLiteral("aspect"), options.aspect},
                             {QStringLiteral("stratify"), stratifyName(options.stratify)},
                             {QStringLiteral("by_group"), options.byGroup}};
    if (auto w = project.setMeta(QStringLiteral("split.seed"), QString::number(options.seed)); !w)
        return w.error();
    if (auto w = project.setMeta(QStringLiteral("split.params"), json::stringify(params)); !w)
        return w.error();
    SplitSummary s;
    s.train = int(train.size());
    s.test = int(test.size());
    const auto count = project.readItemCount();
    if (!count)
        return count.error();
    s.unassigned = *count - s.train - s.test;
    return s;
}

Result<QHash<QString, SplitRole>> Splitter::wholeGroupsFrom(const Project &project, const QStringList &order, int train)
{
    const auto items = project.readItemRows(); // no texts: a split reads ids and labels
    if (!items)
        return items.error();
    QHash<QString, QString> groupOf;
    for (const ItemRow &it : *items)
        groupOf.insert(it.id, it.group);
    // Members of each group among `order`, in `order`.
    QHash<QString, QStringList> members;
    for (const QString &id : order)
        if (const QString g = groupOf.value(id); !g.isEmpty())
            members[g].append(id);
    QHash<QString, SplitRole> roles;
    for (const QString &id : order)
        roles.insert(id, SplitRole::Test);
    int drawn = 0;
    for (const QString &id : order) {
        if (drawn >= train)
            break;
        if (roles.value(id) == SplitRole::Train)
            continue;
        const QString g = groupOf.value(id);
        for (const QString &m : g.isEmpty() ? QStringList{id} : members.value(g)) {
            roles.insert(m, SplitRole::Train);
            ++drawn;
        }
    }
    if (drawn >= int(order.size()))
        return makeError(tr("a group-disjoint split of %1 training items leaves no group for the test side (%2 items)")
                                 .arg(train)
                                 .arg(order.size()),
                         project.path(), 0, QStringLiteral("train"));
    return roles;
}

} // namespace rubric
