#include "ProjectData.h"

#include "store/Project.h"

#include <QCoreApplication>
#include <QHash>

#include <limits>

namespace rubric::stats {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::stats", text);
}

Result<void> checkAspect(const Project &project, const QString &aspect)
{
    if (!project.aspect(aspect))
        return makeError(tr("unknown aspect '%1'").arg(aspect), project.path(), 0, QStringLiteral("aspect"));
    return {};
}

Result<void> checkJudge(const Project &project, const QString &judge)
{
    if (!project.judge(judge))
        return makeError(tr("unknown judge '%1'").arg(judge), project.path(), 0, QStringLiteral("judge"));
    return {};
}

} // namespace

QString splitFilterName(SplitFilter filter)
{
    switch (filter) {
    case SplitFilter::All:
        return QStringLiteral("all");
    case SplitFilter::Train:
        return QStringLiteral("train");
    case SplitFilter::Test:
        return QStringLiteral("test");
    }
    return {};
}

std::optional<SplitFilter> parseSplitFilter(const QString &name)
{
    for (SplitFilter f : {SplitFilter::All, SplitFilter::Train, SplitFilter::Test})
        if (splitFilterName(f) == name)
            return f;
    return std::nullopt;
}

SplitFilter defaultSplitFilter(const Project &project)
{
    const auto split = project.split();
    for (SplitRole r : split)
        if (r == SplitRole::Train || r == SplitRole::Test)
            return SplitFilter::Test;
    return SplitFilter::All;
}

Result<QVector<ScoredItem>> gatherScores(const Project &project, const QString &aspect, const QString &judge,
                                         SplitFilter filter)
{
    if (auto r = checkAspect(project, aspect); !r)
        return r.error();
    if (auto r = checkJudge(project, judge); !r)
        return r.error();
    const QHash<QString, double> human = project.humanScores(aspect);
    const QHash<QString, double> scores = project.judgeScores(judge, aspect);
    QHash<QString, const Item *> byId;
    const QVector<Item> items = project.items();
    for (const Item &it : items)
        byId.insert(it.id, &it);
    QVector<ScoredItem> out;
    for (const QString &id : project.itemIds(filter)) {
        const auto h = human.constFind(id);
        const auto j = scores.constFind(id);
        const Item *item = byId.value(id);
        if (h == human.constEnd() || j == scores.constEnd() || !item)
            continue;
        out.append({id, item->group, item->system, *h, *j});
    }
    return out;
}

Result<QVector<PairedItem>> gatherPaired(const Project &project, const QString &aspect, const QString &judgeA,
                                         const QString &judgeB, SplitFilter filter)
{
    if (auto r = checkAspect(project, aspect); !r)
        return r.error();
    for (const QString &j : {judgeA, judgeB})
        if (auto r = checkJudge(project, j); !r)
            return r.error();
    const QHash<QString, double> human = project.humanScores(aspect);
    const QHash<QString, double> a = project.judgeScores(judgeA, aspect);
    const QHash<QString, double> b = project.judgeScores(judgeB, aspect);
    QHash<QString, const Item *> byId;
    const QVector<Item> items = project.items();
    for (const Item &it : items)
        byId.insert(it.id, &it);
    QVector<PairedItem> out;
    for (const QString &id : project.itemIds(filter)) {
        const Item *item = byId.value(id);
        if (!item || !human.contains(id) || !a.contains(id) || !b.contains(id))
            continue;
        out.append({id, item->group, item->system, human.value(id), a.value(id), b.value(id)});
    }
    return out;
}

Result<CoderMatrix> gatherCoders(const Project &project, const QString &aspect, SplitFilter filter,
                                 const QStringList &judges)
{
    if (auto r = checkAspect(project, aspect); !r)
        return r.error();
    for (const QString &j : judges)
        if (auto r = checkJudge(project, j); !r)
            return r.error();
    CoderMatrix m;
    m.itemIds = project.itemIds(filter);
    QHash<QString, int> row;
    for (int i = 0; i < m.itemIds.size(); ++i)
        row.insert(m.itemIds.at(i), i);
    m.coders = project.annotators(aspect);
    m.coders.sort();
    QHash<QString, int> column;
    for (int c = 0; c < m.coders.size(); ++c)
        column.insert(m.coders.at(c), c);
    const size_t width = size_t(m.coders.size() + judges.size());
    m.data.assign(size_t(m.itemIds.size()), std::vector<double>(width, std::numeric_limits<double>::quiet_NaN()));
    for (const Annotation &a : project.annotations(aspect)) {
        const auto r = row.constFind(a.itemId);
        const auto c = column.constFind(a.annotator);
        if (r != row.constEnd() && c != column.constEnd())
            m.data[size_t(*r)][size_t(*c)] = a.score;
    }
    for (int j = 0; j < judges.size(); ++j) {
        const QHash<QString, double> scores = project.judgeScores(judges.at(j), aspect);
        const size_t c = size_t(m.coders.size() + j);
        for (auto it = scores.constBegin(); it != scores.constEnd(); ++it) {
            const auto r = row.constFind(it.key());
            if (r != row.constEnd())
                m.data[size_t(*r)][c] = it.value();
        }
        m.coders.append(judges.at(j));
    }
    return m;
}

} // namespace rubric::stats
