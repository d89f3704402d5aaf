#include "store/BrowseStore.h"

#include "store/Project.h"
#include "store/SqlDialect.h"
#include "store/SqlUtil.h"

#include <QHash>
#include <QSqlQuery>

#include <algorithm>
#include <limits>
#include <vector>

namespace rubric {

BrowseStore::BrowseStore(const Project *project)
    : m_project(project)
{
}

Result<QVector<ItemPreview>> BrowseStore::itemPreviews(int length, int fromIndex) const
{
    QVector<ItemPreview> out;
    const QSqlDatabase db = m_project->database();
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral("SELECT i.ext_id, i.group_id, i.system_id, substr(COALESCE(ts.body, ''), 1, %1), "
                                  "substr(COALESCE(tout.body, ''), 1, %1) FROM items i LEFT JOIN texts ts ON ts.id = "
                                  "i.source_id LEFT JOIN texts tout ON tout.id = i.output_id ORDER BY i.position %2 "
                                  "OFFSET ?")
                           .arg(length)
                           .arg(sql::noLimit(db))))
        return makeError(q.lastError().text());
    q.addBindValue(fromIndex);
    if (!q.exec())
        return makeError(q.lastError().text());
    while (q.next()) {
        ItemPreview r;
        r.id = q.value(0).toString();
        r.group = q.value(1).toString();
        r.system = q.value(2).toString();
        r.source = q.value(3).toString();
        r.output = q.value(4).toString();
        out.append(std::move(r));
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QVector<ItemPreview>> BrowseStore::itemPreviewsBetween(int length, int fromPosition, int toPosition) const
{
    QVector<ItemPreview> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral("SELECT i.ext_id, i.group_id, i.system_id, substr(COALESCE(ts.body, ''), 1, %1), "
                                  "substr(COALESCE(tout.body, ''), 1, %1) FROM items i LEFT JOIN texts ts ON ts.id = "
                                  "i.source_id LEFT JOIN texts tout ON tout.id = i.output_id WHERE i.position >= ? AND "
                                  "i.position <= ? ORDER BY i.position")
                           .arg(length)))
        return makeError(q.lastError().text());
    q.addBindValue(fromPosition);
    q.addBindValue(toPosition);
    if (!q.exec())
        return makeError(q.lastError().text());
    while (q.next()) {
        ItemPreview r;
        r.id = q.value(0).toString();
        r.group = q.value(1).toString();
        r.system = q.value(2).toString();
        r.source = q.value(3).toString();
        r.output = q.value(4).toString();
        out.append(std::move(r));
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QStringList> BrowseStore::itemsContaining(const QString &text) const
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    const QString pattern = QLatin1Char('%') + escaped + QLatin1Char('%');
    const QSqlDatabase db = m_project->database();
    // PostgreSQL's LIKE minds the case; ILIKE is SQLite's LIKE there.
    const QString like = sql::isPostgres(db) ? QStringLiteral("ILIKE") : QStringLiteral("LIKE");
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.prepare(
                QStringLiteral("SELECT i.ext_id FROM items i WHERE i.ext_id %1 ? ESCAPE '\\' OR i.group_id %1 ? "
                               "ESCAPE '\\' OR i.system_id %1 ? ESCAPE '\\' OR i.source_id IN (SELECT id FROM texts "
                               "WHERE body %1 ? ESCAPE '\\') OR i.output_id IN (SELECT id FROM texts WHERE body %1 ? "
                               "ESCAPE '\\') ORDER BY i.position")
                        .arg(like)))
        return makeError(q.lastError().text());
    for (int i = 0; i < 5; ++i)
        q.addBindValue(pattern);
    if (!q.exec())
        return makeError(q.lastError().text());
    QStringList out;
    while (q.next())
        out.append(q.value(0).toString());
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QVector<ItemListRow>> BrowseStore::itemList(const QStringList &aspects) const
{
    QString means;
    for (qsizetype a = 0; a < aspects.size(); ++a)
        means += QStringLiteral(", (SELECT AVG(n.score) FROM annotations n WHERE n.item_id = i.id AND n.aspect_id = "
                                "(SELECT id FROM aspects WHERE name = ?))");
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral("SELECT i.ext_id, i.group_id, i.system_id, i.position, COALESCE(s.role, '')%1 FROM "
                                  "items i LEFT JOIN splits s ON s.item_id = i.id ORDER BY i.position")
                           .arg(means)))
        return makeError(q.lastError().text());
    for (const QString &a : aspects)
        q.addBindValue(a);
    if (!q.exec())
        return makeError(q.lastError().text());
    QVector<ItemListRow> out;
    QHash<QString, QString> shared;
    const auto intern = [&shared](QString s) {
        const auto it = shared.constFind(s);
        if (it != shared.constEnd())
            return *it;
        shared.insert(s, s);
        return s;
    };
    const QVector<double> none(aspects.size(), std::numeric_limits<double>::quiet_NaN());
    while (q.next()) {
        ItemListRow r;
        r.id = q.value(0).toString();
        r.group = intern(q.value(1).toString());
        r.system = intern(q.value(2).toString());
        r.position = q.value(3).toInt();
        const QString role = q.value(4).toString();
        r.split = role == QLatin1String("train")  ? SplitRole::Train
                  : role == QLatin1String("test") ? SplitRole::Test
                                                  : SplitRole::None;
        r.human = none; // shared until a score is set
        for (qsizetype a = 0; a < aspects.size(); ++a) {
            const QVariant v = q.value(5 + int(a));
            if (!v.isNull())
                r.human[a] = v.toDouble();
        }
        out.append(std::move(r));
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QVector<ItemLabel>> BrowseStore::itemLabels() const
{
    QVector<ItemLabel> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT ext_id, group_id, system_id FROM items ORDER BY position")))
        return makeError(q.lastError().text());
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString()});
    return out;
}

Result<void> BrowseStore::useSmallCache() const
{
    const QSqlDatabase db = m_project->database();
    if (sql::isPostgres(db))
        return {};
    QSqlQuery q(db);
    for (const char *pragma : {"PRAGMA mmap_size = 0", "PRAGMA cache_size = -8192"})
        if (auto r = sql::exec(q, QString::fromLatin1(pragma)); !r)
            return r;
    return {};
}

Result<QVector<ItemLabel>> BrowseStore::itemLabels(bool train) const
{
    QVector<ItemLabel> out;
    QHash<QString, QString> shared; // one string per distinct group or system
    const auto intern = [&shared](const QString &s) {
        const auto it = shared.constFind(s);
        if (it != shared.constEnd())
            return *it;
        shared.insert(s, s);
        return s;
    };
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    const QString sql = train ? QStringLiteral("SELECT i.ext_id, i.group_id, i.system_id FROM items i JOIN splits s ON "
                                               "s.item_id = i.id WHERE s.role = 'train' ORDER BY i.position")
                              : QStringLiteral("SELECT ext_id, group_id, system_id FROM items ORDER BY position");
    if (auto r = sql::exec(q, sql); !r)
        return r.error();
    while (q.next())
        out.append({q.value(0).toString(), intern(q.value(1).toString()), intern(q.value(2).toString())});
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<NonTestItems> BrowseStore::nonTestItems(const QString &aspect) const
{
    NonTestItems out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r
        = sql::exec(q, QStringLiteral("SELECT i.id, i.ext_id FROM items i LEFT JOIN splits s ON s.item_id = i.id "
                                      "WHERE s.role IS NULL OR s.role <> 'test' ORDER BY i.position"));
        !r)
        return r.error();
    while (q.next()) {
        out.keys.append(q.value(0).toLongLong());
        out.ids.append(q.value(1).toString());
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    // Row key → index: the keys are dense (items' row ids), so a table.
    qint64 top = 0;
    for (qint64 k : std::as_const(out.keys))
        top = std::max(top, k);
    std::vector<int> row(size_t(top) + 1, -1);
    for (int i = 0; i < out.keys.size(); ++i)
        row[size_t(out.keys[i])] = i;
    out.human.fill(std::numeric_limits<double>::quiet_NaN(), out.keys.size());
    // The same mean as Project::readHumanScores (AVG over the item's annotators).
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT n.item_id, AVG(n.score) FROM annotations n JOIN aspects a ON a.id = "
                                          "n.aspect_id WHERE a.name = ? GROUP BY n.item_id"),
                           {aspect});
        !r)
        return r.error();
    while (q.next()) {
        const qint64 key = q.value(0).toLongLong();
        if (key >= 0 && key <= top && row[size_t(key)] >= 0)
            out.human[row[size_t(key)]] = q.value(1).toDouble();
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<bool> BrowseStore::hasJudgeScore(const QString &judge, const QString &aspect) const
{
    QSqlQuery q(m_project->database());
    return sql::firstRow(
            q,
            QStringLiteral("SELECT 1 FROM judge_scores s WHERE s.run_id = (SELECT id FROM runs WHERE name = "
                           "?) AND s.aspect_id = (SELECT id FROM aspects WHERE name = ?) AND s.score IS NOT "
                           "NULL LIMIT 1"),
            {judge, aspect});
}

Result<QVector<QPair<qint64, double>>> BrowseStore::judgeScoresByKey(const QString &judge, const QString &aspect) const
{
    QVector<QPair<qint64, double>> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r
        = sql::exec(q,
                    QStringLiteral("SELECT s.item_id, s.score FROM judge_scores s WHERE s.run_id = (SELECT id FROM "
                                   "runs WHERE name = ?) AND s.aspect_id = (SELECT id FROM aspects WHERE name = "
                                   "?) AND s.score IS NOT NULL"),
                    {judge, aspect});
        !r)
        return r.error();
    while (q.next())
        out.append({q.value(0).toLongLong(), q.value(1).toDouble()});
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<double> BrowseStore::humanScore(const QString &itemId, const QString &aspect) const
{
    QSqlQuery q(m_project->database());
    q.prepare(QStringLiteral("SELECT AVG(n.score) FROM annotations n JOIN items i ON i.id = n.item_id "
                             "JOIN aspects s ON s.id = n.aspect_id WHERE i.ext_id = ? AND s.name = ?"));
    q.addBindValue(itemId);
    q.addBindValue(aspect);
    if (!q.exec())
        return makeError(q.lastError().text());
    double mean = std::numeric_limits<double>::quiet_NaN();
    if (q.next() && !q.value(0).isNull())
        mean = q.value(0).toDouble();
    return mean;
}

Result<QVector<Annotation>> BrowseStore::itemAnnotations(const QString &itemId, const QString &annotator) const
{
    QVector<Annotation> out;
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT a.name, n.score, n.note FROM annotations n JOIN items i ON "
                                          "i.id = n.item_id JOIN aspects a ON a.id = n.aspect_id WHERE i.ext_id "
                                          "= ? AND n.annotator = ?"),
                           {itemId, annotator});
        !r)
        return r.error();
    while (q.next()) {
        Annotation a;
        a.itemId = itemId;
        a.aspect = q.value(0).toString();
        a.annotator = annotator;
        a.score = q.value(1).toDouble();
        a.note = q.value(2).toString();
        out.append(a);
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QHash<QString, int>> BrowseStore::scoredAspectsPerItem(const QString &annotator) const
{
    QHash<QString, int> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT i.ext_id, COUNT(*) FROM annotations n JOIN items i ON i.id = "
                                          "n.item_id WHERE n.annotator = ? GROUP BY n.item_id, i.ext_id"),
                           {annotator});
        !r)
        return r.error();
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toInt());
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QVector<ItemJudgeScore>> BrowseStore::itemJudgeScores(const QString &itemId) const
{
    QVector<ItemJudgeScore> out;
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q,
                           // run_id IN (…) has the primary key (run, item, aspect) probed per judge:
                           // joined on the item's id instead, SQLite scanned every score (0.5 s at 1M).
                           QStringLiteral("SELECT a.name, r.name, s.score FROM judge_scores s JOIN runs r ON r.id = "
                                          "s.run_id JOIN aspects a ON a.id = s.aspect_id WHERE s.run_id IN (SELECT id "
                                          "FROM runs) AND s.item_id = (SELECT id FROM items WHERE ext_id = ?) AND "
                                          "s.score IS NOT NULL ORDER BY r.id"),
                           {itemId});
        !r)
        return r.error();
    while (q.next())
        out.append({itemId, q.value(1).toString(), q.value(0).toString(), q.value(2).toDouble()});
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QVector<ItemJudgeScore>> BrowseStore::judgeScores() const
{
    QVector<ItemJudgeScore> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral(
                "SELECT i.ext_id, r.name, a.name, s.score FROM judge_scores s JOIN runs r ON r.id = s.run_id "
                "JOIN items i ON i.id = s.item_id JOIN aspects a ON a.id = s.aspect_id WHERE s.score IS NOT NULL")))
        return makeError(q.lastError().text());
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toDouble()});
    return out;
}

} // namespace rubric
