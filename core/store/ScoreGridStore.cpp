#include "store/ScoreGridStore.h"

#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QHash>
#include <QSqlQuery>

#include <limits>

namespace rubric {
namespace {

/// The row id of `name` in `table`, -1 when there is none.
Result<qint64> idOf(const QSqlDatabase &db, const QString &table, const QString &name)
{
    if (name.isEmpty())
        return qint64(-1);
    QSqlQuery q(db);
    const auto found = sql::firstRow(q, QStringLiteral("SELECT id FROM %1 WHERE name = ?").arg(table), {name});
    if (!found.ok())
        return found.error();
    return *found ? q.value(0).toLongLong() : qint64(-1);
}

} // namespace

ScoreGridStore::ScoreGridStore(const Project *project)
    : m_project(project)
{
}

Result<ScoreGrid> ScoreGridStore::read(const QString &aspect, const QString &judge) const
{
    const QSqlDatabase db = m_project->database();
    const auto aspectId = idOf(db, QStringLiteral("aspects"), aspect);
    if (!aspectId)
        return aspectId.error();
    const auto runId = idOf(db, QStringLiteral("runs"), judge);
    if (!runId)
        return runId.error();
    // One pass in import order; each score is one probe of its table's primary key or unique
    // index (annotations: item, aspect, annotator; judge_scores: run, item, aspect).
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral(
                "SELECT i.ext_id, i.group_id, i.system_id, COALESCE(s.role, ''), (SELECT AVG(n.score) FROM "
                "annotations n WHERE n.item_id = i.id AND n.aspect_id = ?), (SELECT j.score FROM judge_scores j WHERE "
                "j.run_id = ? AND j.item_id = i.id AND j.aspect_id = ?) FROM items i LEFT JOIN splits s ON "
                "s.item_id = i.id ORDER BY i.position")))
        return makeError(q.lastError().text());
    q.addBindValue(*aspectId);
    q.addBindValue(*runId);
    q.addBindValue(*aspectId);
    if (!q.exec())
        return makeError(q.lastError().text());
    ScoreGrid g;
    QHash<QString, qint32> groups, systems;
    const auto number = [](QHash<QString, qint32> &seen, QStringList &names, const QString &s) {
        const auto it = seen.constFind(s);
        if (it != seen.constEnd())
            return *it;
        const auto n = qint32(names.size());
        names.append(s);
        seen.insert(s, n);
        return n;
    };
    constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
    while (q.next()) {
        g.ids.append(q.value(0).toString());
        g.group.append(number(groups, g.groupNames, q.value(1).toString()));
        g.system.append(number(systems, g.systemNames, q.value(2).toString()));
        const QString role = q.value(3).toString();
        g.split.append(role == QLatin1String("train")  ? SplitRole::Train
                       : role == QLatin1String("test") ? SplitRole::Test
                                                       : SplitRole::None);
        const QVariant h = q.value(4), j = q.value(5);
        g.human.append(h.isNull() ? NaN : h.toDouble());
        g.judge.append(j.isNull() ? NaN : j.toDouble());
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return g;
}

Result<QVector<JudgeInfo>> ScoreGridStore::judges() const
{
    const QSqlDatabase db = m_project->database();
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (auto r = sql::exec(q, QStringLiteral("SELECT id, name, method, status FROM runs ORDER BY id")); !r)
        return r.error();
    QVector<JudgeInfo> out;
    QVector<qint64> runs;
    while (q.next()) {
        JudgeInfo j;
        runs.append(q.value(0).toLongLong());
        j.name = q.value(1).toString();
        j.method = q.value(2).toString();
        j.status = q.value(3).toString();
        j.items = -1;
        out.append(j);
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    // Per judge and aspect one probe of judge_scores' primary key (run, item, aspect): it stops at
    // the first score of the aspect.
    QSqlQuery a(db);
    if (auto r = sql::prepare(a, QStringLiteral("SELECT name FROM aspects WHERE EXISTS (SELECT 1 FROM judge_scores s "
                                                "WHERE s.run_id = ? AND s.aspect_id = aspects.id) ORDER BY id"));
        !r)
        return r.error();
    for (qsizetype k = 0; k < out.size(); ++k) {
        if (auto r = sql::rebind(a, {runs[k]}); !r)
            return r.error();
        while (a.next())
            out[k].aspects.append(a.value(0).toString());
        if (a.lastError().isValid())
            return makeError(a.lastError().text());
    }
    return out;
}

} // namespace rubric
