#include "Splitter.h"

#include "store/Project.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <map>
#include <random>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Splitter", text);
}

/// Fisher–Yates with the raw engine output (std::shuffle's distribution is implementation-defined).
template <typename T> void shuffle(QVector<T> &v, std::mt19937_64 &rng)
{
    for (qsizetype i = v.size() - 1; i > 0; --i) {
        const qsizetype j = qsizetype(rng() % quint64(i + 1));
        std::swap(v[i], v[j]);
    }
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
    if (!options.aspect.isEmpty()) {
        if (!project.aspect(options.aspect))
            return makeError(tr("no aspect named '%1' in the project").arg(options.aspect), project.path(), 0,
                             QStringLiteral("aspect"));
        const auto human = project.humanScores(options.aspect);
        for (auto it = human.begin(); it != human.end(); ++it)
            scored.insert(it.key());
    } else {
        for (const Aspect &a : project.aspects()) {
            const auto human = project.humanScores(a.name);
            for (auto it = human.begin(); it != human.end(); ++it)
                scored.insert(it.key());
        }
    }
    // Buckets in import order, keyed by the stratum (std::map: sorted keys, a stable start).
    std::map<QString, QVector<QString>> buckets;
    int eligible = 0;
    for (const Item &it : project.items()) {
        if (!scored.contains(it.id))
            continue;
        const QString key = options.stratify == Stratify::Group    ? it.group
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

    std::mt19937_64 rng(options.seed);
    QVector<QVector<QString>> order;
    for (auto &[key, ids] : buckets) {
        shuffle(ids, rng);
        order.append(ids);
    }
    shuffle(order, rng);

    QHash<QString, SplitRole> roles;
    for (const auto &ids : std::as_const(order))
        for (const QString &id : ids)
            roles.insert(id, SplitRole::Test);
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
                             {QStringLiteral("stratify"), stratifyName(options.stratify)}};
    if (auto w = project.setMeta(QStringLiteral("split.seed"), QString::number(options.seed)); !w)
        return w.error();
    if (auto w = project.setMeta(QStringLiteral("split.params"), json::stringify(params)); !w)
        return w.error();
    SplitSummary s;
    for (SplitRole r : std::as_const(*roles))
        (r == SplitRole::Train ? s.train : s.test)++;
    s.unassigned = project.itemCount() - s.train - s.test;
    return s;
}

} // namespace rubric
