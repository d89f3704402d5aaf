#include "Splitter.h"

#include "store/Project.h"
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

Result<QHash<QString, SplitRole>> Splitter::draw(const Project &project, const SplitOptions &options)
{
    QSet<QString> scored;
    const auto addScored = [&](const QString &aspect) -> Result<void> {
        const auto human = project.readHumanScores(aspect);
        if (!human)
            return human.error();
        for (auto it = human->begin(); it != human->end(); ++it)
            scored.insert(it.key());
        return {};
    };
    if (!options.aspect.isEmpty()) {
        const auto known = project.readAspect(options.aspect);
        if (!known)
            return known.error();
        if (!*known)
            return makeError(tr("no aspect named '%1' in the project").arg(options.aspect), project.path(), 0,
                             QStringLiteral("aspect"));
        if (auto r = addScored(options.aspect); !r)
            return r.error();
    } else {
        const auto aspects = project.readAspects();
        if (!aspects)
            return aspects.error();
        for (const Aspect &a : *aspects)
            if (auto r = addScored(a.name); !r)
                return r.error();
    }
    const auto items = project.readItemRows(); // no texts: a split reads ids and labels
    if (!items)
        return items.error();
    // Buckets in import order, keyed by the stratum (std::map: sorted keys, a stable start).
    // Group-disjoint draws bucket by group, an item without one alone (its id cannot be a group's).
    std::map<QString, QVector<QString>> buckets;
    int eligible = 0;
    for (const ItemRow &it : *items) {
        if (!scored.contains(it.id))
            continue;
        const QString key = options.byGroup ? (it.group.isEmpty() ? QStringLiteral("\x1fitem:") + it.id : it.group)
                            : options.stratify == Stratify::Group  ? it.group
                            : options.stratify == Stratify::System ? it.system
                                                                   : QString();
        buckets[key].append(it.id);
        ++eligible;
    }
    if (eligible == 0)
        return makeError(options.aspect.isEmpty() ? tr("no item has a human score to split on")
                                                  : tr("no item has a human score for '%1'").arg(options.aspect),
                         project.path());
    if (options.train < 1 || options.train > eligible)
        return makeError(tr("the training side must have between 1 and %1 items (the items with human scores), not %2")
                                 .arg(eligible)
                                 .arg(options.train),
                         project.path(), 0, QStringLiteral("train"));

    SeededRng rng(options.seed);
    QVector<QVector<QString>> order;
    for (auto &[key, ids] : buckets) {
        seededShuffle(ids, rng);
        order.append(ids);
    }
    seededShuffle(order, rng);

    QHash<QString, SplitRole> roles;
    for (const auto &ids : std::as_const(order))
        for (const QString &id : ids)
            roles.insert(id, SplitRole::Test);
    if (options.byGroup) {
        int drawn = 0;
        qsizetype groups = 0;
        for (; groups < order.size() && drawn < options.train; ++groups)
            for (const QString &id : std::as_const(order[groups])) {
                roles.insert(id, SplitRole::Train);
                ++drawn;
            }
        if (groups == order.size())
            return makeError(tr("a group-disjoint split of %1 training items leaves no group for the test side (%2 "
                                "groups, %3 items)")
                                     .arg(options.train)
                                     .arg(order.size())
                                     .arg(eligible),
                             project.path(), 0, QStringLiteral("train"));
        return roles;
    }
    int drawn = 0;
    for (qsizetype round = 0; drawn < options.train; ++round) {
        for (const auto &ids : std::as_const(order)) {
            if (round < ids.size() && drawn < options.train) {
                roles.insert(ids.at(round), SplitRole::Train);
                ++drawn;
            }
        }
    }
    return roles;
}

Result<SplitSummary> Splitter::apply(Project &project, const SplitOptions &options)
{
    auto roles = draw(project, options);
    if (!roles)
        return roles.error();
    if (auto w = project.setSplit(*roles); !w)
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
    for (SplitRole r : std::as_const(*roles))
        (r == SplitRole::Train ? s.train : s.test)++;
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
