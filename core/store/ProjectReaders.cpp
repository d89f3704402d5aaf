#include "ItemTexts.h"
#include "Project.h"
#include "ScoreColumns.h"
#include "ScoreGridStore.h"
#include "SqlDialect.h"
#include "SqlUtil.h"
#include "util/Json.h"

#include <QDateTime>

// The project's readers: every query that only reads. Project.cpp holds opening, the
// connections and the writers.

namespace rubric {
namespace {

/// A query's rows end early when the file turns out locked or damaged while reading.
Result<void> rowsRead(const QSqlQuery &q)
{
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return {};
}

template <typename T> T orEmpty(Result<T> r)
{
    return r ? std::move(r).value() : T{};
}

} // namespace

Error Project::readError(const QString &what, const Result<void> &failed) const
{
    return makeError(tr("cannot read %1 from the project: %2").arg(what, failed.error().message), m_path);
}

// ---------------------------------------------------------------- settings

Result<QString> Project::readMeta(const QString &key, const QString &fallback) const
{
    QSqlQuery q(database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT value FROM meta WHERE key = ?"), {key}); !r)
        return readError(tr("the setting '%1'").arg(key), r);
    if (q.next())
        return q.value(0).toString();
    if (auto r = rowsRead(q); !r)
        return readError(tr("the setting '%1'").arg(key), r);
    return fallback;
}

QString Project::meta(const QString &key, const QString &fallback) const
{
    const auto r = readMeta(key, fallback);
    return r ? *r : fallback;
}

// ---------------------------------------------------------------- items

Result<int> Project::readItemCount() const
{
    QSqlQuery q(database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT COUNT(*) FROM items")); !r)
        return readError(tr("the number of items"), r);
    if (!q.next()) // a count always has a row: none means reading it failed
        return readError(tr("the number of items"), rowsRead(q));
    return q.value(0).toInt();
}

int Project::itemCount() const
{
    return orEmpty(readItemCount());
}

using itemtexts::itemFromQuery;

Result<QVector<Item>> Project::readItems() const
{
    QVector<Item> out;
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q, itemtexts::selectItems() + QStringLiteral(" ORDER BY i.position")); !r)
        return readError(tr("the items"), r);
    while (q.next())
        out.append(itemFromQuery(q));
    if (auto r = rowsRead(q); !r)
        return readError(tr("the items"), r);
    return out;
}

QVector<Item> Project::items() const
{
    return orEmpty(readItems());
}

Result<QVector<ItemRow>> Project::readItemRows() const
{
    QVector<ItemRow> out;
    QHash<QString, QString> shared; // one string per distinct group or system
    const auto intern = [&shared](QString s) {
        const auto it = shared.constFind(s);
        if (it != shared.constEnd())
            return *it;
        shared.insert(s, s);
        return s;
    };
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r
        = sql::exec(q, QStringLiteral("SELECT ext_id, position, group_id, system_id FROM items ORDER BY position"));
        !r)
        return readError(tr("the items"), r);
    while (q.next())
        out.append({q.value(0).toString(), intern(q.value(2).toString()), intern(q.value(3).toString()),
                    q.value(1).toInt()});
    if (auto r = rowsRead(q); !r)
        return readError(tr("the items"), r);
    return out;
}

Result<void> Project::forEachItem(const std::function<bool(const Item &)> &visit) const
{
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q, itemtexts::selectItems() + QStringLiteral(" ORDER BY i.position")); !r)
        return readError(tr("the items"), r);
    while (q.next())
        if (!visit(itemFromQuery(q)))
            return {};
    if (auto r = rowsRead(q); !r)
        return readError(tr("the items"), r);
    return {};
}

Result<std::optional<Item>> Project::readItem(const QString &id) const
{
    QSqlQuery q(database());
    if (auto r = sql::exec(q, itemtexts::selectItems() + QStringLiteral(" WHERE i.ext_id = ?"), {id}); !r)
        return readError(tr("the item '%1'").arg(id), r);
    if (q.next())
        return std::optional<Item>(itemFromQuery(q));
    if (auto r = rowsRead(q); !r)
        return readError(tr("the item '%1'").arg(id), r);
    return std::optional<Item>();
}

std::optional<Item> Project::item(const QString &id) const
{
    return orEmpty(readItem(id));
}

/// The rows of a one-column query, or the SQL error.
static Result<QStringList> stringColumn(QSqlQuery &q, const Result<void> &executed)
{
    if (!executed)
        return executed.error();
    QStringList out;
    while (q.next())
        out.append(q.value(0).toString());
    if (auto r = rowsRead(q); !r)
        return r.error();
    return out;
}

Result<QStringList> Project::readGroups() const
{
    QSqlQuery q(database());
    auto r = stringColumn(
            q, sql::exec(q, QStringLiteral("SELECT DISTINCT group_id FROM items WHERE group_id <> '' ORDER BY 1")));
    if (!r)
        return readError(tr("the groups"), Result<void>(r.error()));
    return r;
}

QStringList Project::groups() const
{
    return orEmpty(readGroups());
}

Result<QStringList> Project::readSystems() const
{
    QSqlQuery q(database());
    auto r = stringColumn(
            q, sql::exec(q, QStringLiteral("SELECT DISTINCT system_id FROM items WHERE system_id <> '' ORDER BY 1")));
    if (!r)
        return readError(tr("the systems"), Result<void>(r.error()));
    return r;
}

QStringList Project::systems() const
{
    return orEmpty(readSystems());
}

// ---------------------------------------------------------------- aspects

Result<QVector<Aspect>> Project::readAspects() const
{
    QVector<Aspect> out;
    QSqlQuery q(database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT name, definition, scale_min, scale_max FROM aspects ORDER BY id"));
        !r)
        return readError(tr("the aspects"), r);
    while (q.next())
        out.append(Aspect{q.value(0).toString(), q.value(1).toString(), q.value(2).toDouble(), q.value(3).toDouble()});
    if (auto r = rowsRead(q); !r)
        return readError(tr("the aspects"), r);
    return out;
}

QVector<Aspect> Project::aspects() const
{
    return orEmpty(readAspects());
}

Result<std::optional<Aspect>> Project::readAspect(const QString &name) const
{
    QSqlQuery q(database());
    if (auto r = sql::exec(
                q, QStringLiteral("SELECT name, definition, scale_min, scale_max FROM aspects WHERE name = ?"), {name});
        !r)
        return readError(tr("the aspect '%1'").arg(name), r);
    if (q.next())
        return std::optional<Aspect>(
                Aspect{q.value(0).toString(), q.value(1).toString(), q.value(2).toDouble(), q.value(3).toDouble()});
    if (auto r = rowsRead(q); !r)
        return readError(tr("the aspect '%1'").arg(name), r);
    return std::optional<Aspect>();
}

std::optional<Aspect> Project::aspect(const QString &name) const
{
    return orEmpty(readAspect(name));
}

// ---------------------------------------------------------------- annotations

Result<QVector<Annotation>> Project::readAnnotations(const QString &aspect) const
{
    QVector<Annotation> out;
    QSqlQuery q(database());
    q.setForwardOnly(true);
    const QString base
            = QStringLiteral("SELECT i.ext_id, a.name, n.annotator, n.score, n.note, n.created_at FROM annotations n "
                             "JOIN items i ON i.id = n.item_id JOIN aspects a ON a.id = n.aspect_id");
    const Result<void> r
            = aspect.isEmpty()
                      ? sql::exec(q, base + QStringLiteral(" ORDER BY i.position, a.id, n.annotator"))
                      : sql::exec(q, base + QStringLiteral(" WHERE a.name = ? ORDER BY i.position, n.annotator"),
                                  {aspect});
    if (!r)
        return readError(tr("the annotations"), r);
    while (q.next()) {
        out.append(Annotation{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                              q.value(3).toDouble(), q.value(4).toString(),
                              QDateTime::fromString(q.value(5).toString(), Qt::ISODateWithMs)});
    }
    if (auto e = rowsRead(q); !e)
        return readError(tr("the annotations"), e);
    return out;
}

QVector<Annotation> Project::annotations(const QString &aspect) const
{
    return orEmpty(readAnnotations(aspect));
}

Result<QHash<QString, double>> Project::readHumanScores(const QString &aspect) const
{
    QHash<QString, double> out;
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT i.ext_id, AVG(n.score) FROM annotations n JOIN items i ON i.id = "
                                          "n.item_id JOIN aspects a ON a.id = n.aspect_id WHERE a.name = ? GROUP BY "
                                          "n.item_id, i.ext_id"),
                           {aspect});
        !r)
        return readError(tr("the human scores"), r);
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toDouble());
    if (auto r = rowsRead(q); !r)
        return readError(tr("the human scores"), r);
    return out;
}

QHash<QString, double> Project::humanScores(const QString &aspect) const
{
    return orEmpty(readHumanScores(aspect));
}

Result<QStringList> Project::readAnnotators(const QString &aspect) const
{
    QSqlQuery q(database());
    const Result<void> executed
            = aspect.isEmpty()
                      ? sql::exec(q, QStringLiteral("SELECT DISTINCT annotator FROM annotations ORDER BY annotator"))
                      : sql::exec(q,
                                  QStringLiteral("SELECT DISTINCT n.annotator FROM annotations n JOIN aspects a "
                                                 "ON a.id = n.aspect_id WHERE a.name = ? ORDER BY n.annotator"),
                                  {aspect});
    auto r = stringColumn(q, executed);
    if (!r)
        return readError(tr("the annotators"), Result<void>(r.error()));
    return r;
}

QStringList Project::annotators(const QString &aspect) const
{
    return orEmpty(readAnnotators(aspect));
}

// ---------------------------------------------------------------- split

Result<QHash<QString, SplitRole>> Project::readSplit() const
{
    QHash<QString, SplitRole> out;
    QSqlQuery q(database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT i.ext_id, s.role FROM splits s JOIN items i ON i.id = s.item_id"));
        !r)
        return readError(tr("the split"), r);
    while (q.next())
        out.insert(q.value(0).toString(),
                   q.value(1).toString() == QLatin1String("train") ? SplitRole::Train : SplitRole::Test);
    if (auto r = rowsRead(q); !r)
        return readError(tr("the split"), r);
    return out;
}

QHash<QString, SplitRole> Project::split() const
{
    return orEmpty(readSplit());
}

Result<QStringList> Project::readItemIds(SplitFilter filter) const
{
    QStringList out;
    QSqlQuery q(database());
    q.setForwardOnly(true);
    const Result<void> r
            = filter == SplitFilter::All
                      ? sql::exec(q, QStringLiteral("SELECT ext_id FROM items ORDER BY position"))
                      : sql::exec(q,
                                  QStringLiteral("SELECT i.ext_id FROM items i JOIN splits s ON s.item_id = i.id "
                                                 "WHERE s.role = ? ORDER BY i.position"),
                                  {filter == SplitFilter::Train ? QStringLiteral("train") : QStringLiteral("test")});
    if (!r)
        return readError(tr("the items"), r);
    while (q.next())
        out.append(q.value(0).toString());
    if (auto e = rowsRead(q); !e)
        return readError(tr("the items"), e);
    return out;
}

QStringList Project::itemIds(SplitFilter filter) const
{
    return orEmpty(readItemIds(filter));
}

// ---------------------------------------------------------------- judges

Result<QVector<JudgeInfo>> Project::readJudges(JudgeCounts counts) const
{
    // Counting per judge with COUNT(DISTINCT item_id) walks the scores' key and reads the row of
    // every key entry for its score: ~10 s a judge at a million items. The statistics' column
    // store counts all judges in one pass over the score rows in storage order instead (same
    // figures: the distinct items with a score that is not NULL).
    if (counts == JudgeCounts::Items)
        return ScoreColumnStore(this).judges();
    auto read = ScoreGridStore(this).judges();
    if (!read)
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the judges"), read.error().message), path());
    return read;
}

QVector<JudgeInfo> Project::judges() const
{
    return orEmpty(readJudges());
}

Result<std::optional<JudgeInfo>> Project::readJudge(const QString &name, JudgeCounts counts) const
{
    auto all = readJudges(counts);
    if (!all)
        return all.error();
    for (JudgeInfo &j : *all)
        if (j.name == name)
            return std::optional<JudgeInfo>(std::move(j));
    return std::optional<JudgeInfo>();
}

std::optional<JudgeInfo> Project::judge(const QString &name) const
{
    return orEmpty(readJudge(name));
}

Result<QHash<QString, double>> Project::readJudgeScores(const QString &judge, const QString &aspect) const
{
    QHash<QString, double> out;
    QSqlQuery q(database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT i.ext_id, s.score FROM judge_scores s JOIN runs r ON r.id = s.run_id "
                                          "JOIN items i ON i.id = s.item_id JOIN aspects a ON a.id = s.aspect_id "
                                          "WHERE r.name = ? AND a.name = ? AND s.score IS NOT NULL"),
                           {judge, aspect});
        !r)
        return readError(tr("the scores of '%1'").arg(judge), r);
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toDouble());
    if (auto r = rowsRead(q); !r)
        return readError(tr("the scores of '%1'").arg(judge), r);
    return out;
}

QHash<QString, double> Project::judgeScores(const QString &judge, const QString &aspect) const
{
    return orEmpty(readJudgeScores(judge, aspect));
}

} // namespace rubric
