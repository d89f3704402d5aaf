#include "ProjectData.h"

#include "store/ColumnStore.h"
#include "store/Project.h"
#include "store/ScoreColumns.h"

#include <QCoreApplication>
#include <QHash>

#include <limits>

namespace rubric::stats {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::stats", text);
}

// The lists are read with their errors: a project that cannot be read must not look like one
// without the aspect or the judge (or, further down, without scores).
Result<void> checkAspect(const Project &project, const QString &aspect)
{
    const auto aspects = project.readAspects();
    if (!aspects)
        return aspects.error();
    for (const Aspect &a : *aspects)
        if (a.name == aspect)
            return {};
    return makeError(tr("unknown aspect '%1'").arg(aspect), project.path(), 0, QStringLiteral("aspect"));
}

Result<void> checkJudge(const Project &project, const QString &judge)
{
    // By name alone: the judges' list counts every judge's items, seconds at a million items.
    const auto exists = ScoreColumnStore(&project).judgeExists(judge);
    if (!exists.ok())
        return exists.error();
    if (*exists)
        return {};
    return makeError(tr("unknown judge '%1'").arg(judge), project.path(), 0, QStringLiteral("judge"));
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

Result<SplitFilter> defaultSplitFilter(const Project &project)
{
    const auto split = ScoreColumnStore(&project).hasSplit(); // one row, not the whole split
    if (!split.ok())
        return split.error();
    return *split ? SplitFilter::Test : SplitFilter::All;
}

Result<StatsColumns> gatherColumns(const Project &project, const QString &aspect, const QStringList &judges,
                                   SplitFilter filter)
{
    if (auto r = checkAspect(project, aspect); !r)
        return r.error();
    for (const QString &j : judges)
        if (auto r = checkJudge(project, j); !r)
            return r.error();
    return ScoreColumnStore(&project).read(aspect, judges, filter);
}

Result<QVector<ScoredItem>> gatherScores(const Project &project, const QString &aspect, const QString &judge,
                                         SplitFilter filter)
{
    if (auto r = checkAspect(project, aspect); !r)
        return r.error();
    if (auto r = checkJudge(project, judge); !r)
        return r.error();
    // One query of the columns the statistics need (never the texts).
    const auto rows = ColumnStore(&project).scoredRows(aspect, {judge}, filter);
    if (!rows)
        return rows.error();
    QVector<ScoredItem> out;
    out.reserve(rows->size());
    for (const ScoreRow &r : *rows)
        out.append({r.id, r.group, r.system, r.human, r.judge[0]});
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
    const auto rows = ColumnStore(&project).scoredRows(aspect, {judgeA, judgeB}, filter);
    if (!rows)
        return rows.error();
    QVector<PairedItem> out;
    out.reserve(rows->size());
    for (const ScoreRow &r : *rows)
        out.append({r.id, r.group, r.system, r.human, r.judge[0], r.judge[1]});
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
    auto ids = project.readItemIds(filter);
    if (!ids)
        return ids.error();
    m.itemIds = std::move(ids).value();
    const auto annotations = project.readAnnotations(aspect);
    if (!annotations)
        return annotations.error();
    QHash<QString, int> row;
    for (int i = 0; i < m.itemIds.size(); ++i)
        row.insert(m.itemIds.at(i), i);
    auto coders = project.readAnnotators(aspect);
    if (!coders)
        return coders.error();
    m.coders = std::move(coders).value();
    m.coders.sort();
    QHash<QString, int> column;
    for (int c = 0; c < m.coders.size(); ++c)
        column.insert(m.coders.at(c), c);
    const size_t width = size_t(m.coders.size() + judges.size());
    m.data.assign(size_t(m.itemIds.size()), std::vector<double>(width, std::numeric_limits<double>::quiet_NaN()));
    for (const Annotation &a : *annotations) {
        const auto r = row.constFind(a.itemId);
        const auto c = column.constFind(a.annotator);
        if (r != row.constEnd() && c != column.constEnd())
            m.data[size_t(*r)][size_t(*c)] = a.score;
    }
    // The judges' columns follow the annotators' (m.coders grows in the loop: count them first).
    const qsizetype annotators = m.coders.size();
    for (int j = 0; j < judges.size(); ++j) {
        const auto scores = project.readJudgeScores(judges.at(j), aspect);
        if (!scores)
            return scores.error();
        const size_t c = size_t(annotators + j);
        for (auto it = scores->constBegin(); it != scores->constEnd(); ++it) {
            const auto r = row.constFind(it.key());
            if (r != row.constEnd())
                m.data[size_t(*r)][c] = it.value();
        }
        m.coders.append(judges.at(j));
    }
    return m;
}

} // namespace rubric::stats
