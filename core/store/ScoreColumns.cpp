#include "store/ScoreColumns.h"

#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::Project", text);
}

/// Strings to indices in order of first appearance; rows come in import order, where an item's
/// group is usually the previous item's, so that case skips the hash.
class Interner
{
public:
    explicit Interner(QStringList &names)
        : m_names(names)
    {
    }
    int operator()(const QString &s)
    {
        if (s.isEmpty())
            return -1;
        if (m_last >= 0 && s == m_names.at(m_last))
            return m_last;
        const auto it = m_index.constFind(s);
        if (it != m_index.constEnd())
            return m_last = *it;
        m_last = int(m_names.size());
        m_index.insert(s, m_last);
        m_names.append(s);
        return m_last;
    }

private:
    QStringList &m_names;
    QHash<QString, int> m_index;
    int m_last = -1;
};

} // namespace

ScoreColumnStore::ScoreColumnStore(const Project *project)
    : m_project(project)
{
}

Result<ItemColumns> ScoreColumnStore::items(Ids ids) const
{
    // A scan of the table in row order (its pages in file order), put in import order after:
    // walking the position index instead visits the rows at random, which is many times slower
    // once the file outgrows the caches.
    const QString idColumn = ids == Ids::All ? QStringLiteral("ext_id")
                             : ids == Ids::WithoutGroup
                                     ? QStringLiteral("CASE WHEN group_id = '' THEN ext_id ELSE '' END")
                                     : QStringLiteral("''");
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q, QStringLiteral("SELECT id, position, group_id, system_id, %1 FROM items").arg(idColumn));
        !r)
        return m_project->readError(tr("the items"), r);
    struct Row
    {
        qint64 position, row;
        int group, system;
        QString id;
    };
    std::vector<Row> rows;
    QStringList groups, systems;
    Interner group(groups), system(systems);
    bool ordered = true;
    while (q.next()) {
        Row r{q.value(1).toLongLong(), q.value(0).toLongLong(), group(q.value(2).toString()),
              system(q.value(3).toString()), q.value(4).toString()};
        ordered = ordered && (rows.empty() || rows.back().position < r.position);
        rows.push_back(std::move(r));
    }
    if (q.lastError().isValid())
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the items"), q.lastError().text()),
                         m_project->path());
    if (!ordered) // rows written out of import order: sort (positions are unique)
        std::sort(rows.begin(), rows.end(), [](const Row &x, const Row &y) { return x.position < y.position; });
    // Groups and systems numbered in import order, as a reader in that order would.
    ItemColumns out;
    Interner inOrderGroups(out.groups), inOrderSystems(out.systems);
    out.rows.reserve(rows.size());
    out.group.reserve(rows.size());
    out.system.reserve(rows.size());
    for (Row &r : rows) {
        out.rows.push_back(r.row);
        out.group.push_back(r.group < 0 ? -1 : inOrderGroups(groups.at(r.group)));
        out.system.push_back(r.system < 0 ? -1 : inOrderSystems(systems.at(r.system)));
        out.ids.append(std::move(r.id));
    }
    return out;
}

namespace {

/// Row id → index into `rows`: a table when the ids are dense (as the items' are), a hash if not.
class RowIndex
{
public:
    explicit RowIndex(const std::vector<qint64> &rows)
    {
        qint64 top = 0;
        for (qint64 r : rows)
            top = std::max(top, r);
        if (top >= 0 && top <= qint64(rows.size()) * 4 + 1024) {
            m_table.assign(size_t(top) + 1, -1);
            for (size_t i = 0; i < rows.size(); ++i)
                if (rows[i] >= 0)
                    m_table[size_t(rows[i])] = int(i);
        } else {
            for (size_t i = 0; i < rows.size(); ++i)
                m_hash.insert(rows[i], int(i));
        }
    }
    int operator()(qint64 row) const
    {
        if (!m_table.empty())
            return row >= 0 && row < qint64(m_table.size()) ? m_table[size_t(row)] : -1;
        return m_hash.value(row, -1);
    }

private:
    std::vector<int> m_table;
    QHash<qint64, int> m_hash;
};

} // namespace

Result<StatsColumns> ScoreColumnStore::read(const QString &aspect, const QStringList &judges, SplitFilter filter) const
{
    // One scan per table, joined here by row id: the items, the split's side, the annotations'
    // means and the judges' scores (one scan of the scores in row order for all judges; the "+"
    // keeps SQLite from walking a key index, which visits the rows at random).
    const auto items = this->items(Ids::None);
    if (!items)
        return items.error();
    const RowIndex index(items->rows);
    const size_t n = items->size();
    const auto failed = [this](QSqlQuery &q) {
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the scores"), q.lastError().text()),
                         m_project->path());
    };
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);

    std::vector<char> keep(n, filter == SplitFilter::All);
    if (filter != SplitFilter::All) {
        if (auto r = sql::exec(q, QStringLiteral("SELECT item_id FROM splits WHERE role = ?"),
                               {filter == SplitFilter::Train ? QStringLiteral("train") : QStringLiteral("test")});
            !r)
            return m_project->readError(tr("the split"), r);
        while (q.next())
            if (const int i = index(q.value(0).toLongLong()); i >= 0)
                keep[size_t(i)] = 1;
        if (q.lastError().isValid())
            return failed(q);
    }

    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    // The annotations in row order, summed per item here: GROUP BY item_id walks the key index and
    // reads each row at random (~3 s at a million items against under 1 s). Each item's scores are
    // added in the order they were written; the mean is the sum over the count, as AVG's.
    std::vector<double> human(n, 0.0);
    std::vector<int> annotated(n, 0);
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT item_id, score FROM annotations WHERE +aspect_id = (SELECT id "
                                          "FROM aspects WHERE name = ?)"),
                           {aspect});
        !r)
        return m_project->readError(tr("the human scores"), r);
    while (q.next())
        if (const int i = index(q.value(0).toLongLong()); i >= 0) {
            human[size_t(i)] += q.value(1).toDouble();
            ++annotated[size_t(i)];
        }
    if (q.lastError().isValid())
        return failed(q);
    for (size_t i = 0; i < n; ++i)
        human[i] = annotated[i] > 0 ? human[i] / double(annotated[i]) : nan;

    // Every judge's scores from one scan of the scores in row order (a judge's column each).
    std::vector<std::vector<double>> scores(size_t(judges.size()), std::vector<double>(n, nan));
    if (!judges.isEmpty()) {
        QHash<qint64, QVector<int>> columnsOfRun; // a name given twice fills two columns
        if (auto r = sql::exec(q, QStringLiteral("SELECT id, name FROM runs")); !r)
            return m_project->readError(tr("the judges"), r);
        while (q.next()) {
            const QString name = q.value(1).toString();
            for (int j = 0; j < judges.size(); ++j)
                if (judges.at(j) == name)
                    columnsOfRun[q.value(0).toLongLong()].append(j);
        }
        if (q.lastError().isValid())
            return failed(q);
        if (!columnsOfRun.isEmpty()) {
            QStringList runs;
            for (auto it = columnsOfRun.cbegin(); it != columnsOfRun.cend(); ++it)
                runs << QString::number(it.key());
            if (auto r = sql::exec(q,
                                   QStringLiteral("SELECT run_id, item_id, score FROM judge_scores WHERE +run_id IN "
                                                  "(%1) AND aspect_id = (SELECT id FROM aspects WHERE name = ?) AND "
                                                  "score IS NOT NULL")
                                           .arg(runs.join(QLatin1Char(','))),
                                   {aspect});
                !r)
                return m_project->readError(tr("the scores"), r);
            qint64 lastRun = -1;
            const QVector<int> *columns = nullptr;
            while (q.next()) {
                const qint64 run = q.value(0).toLongLong();
                if (run != lastRun) { // rows come in runs of one judge
                    lastRun = run;
                    columns = &columnsOfRun[run];
                }
                if (const int i = index(q.value(1).toLongLong()); i >= 0) {
                    const double v = q.value(2).toDouble();
                    for (const int j : *columns)
                        scores[size_t(j)][size_t(i)] = v;
                }
            }
            if (q.lastError().isValid())
                return failed(q);
        }
    }

    // The kept items with a human score, in import order; groups and systems numbered again among them.
    StatsColumns out;
    out.judges.resize(size_t(judges.size()));
    Interner groups(out.groups), systems(out.systems);
    for (size_t i = 0; i < n; ++i) {
        if (!keep[i] || std::isnan(human[i]))
            continue;
        out.human.push_back(human[i]);
        out.rows.push_back(items->rows[i]);
        const int g = items->group[i], s = items->system[i];
        out.group.push_back(g < 0 ? -1 : groups(items->groups.at(g)));
        out.system.push_back(s < 0 ? -1 : systems(items->systems.at(s)));
        for (size_t j = 0; j < out.judges.size(); ++j)
            out.judges[j].push_back(scores[j][i]);
    }
    return out;
}

Result<QVector<JudgeName>> ScoreColumnStore::judgesFor(const QString &aspect) const
{
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r
        = sql::exec(q,
                    QStringLiteral("SELECT r.name, r.method, EXISTS(SELECT 1 FROM judge_scores s WHERE s.run_id = "
                                   "r.id AND s.aspect_id = (SELECT id FROM aspects WHERE name = ?)) FROM runs r "
                                   "ORDER BY r.id"),
                    {aspect});
        !r)
        return m_project->readError(tr("the judges"), r);
    QVector<JudgeName> out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toBool()});
    if (q.lastError().isValid())
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the judges"), q.lastError().text()),
                         m_project->path());
    return out;
}

Result<bool> ScoreColumnStore::judgeExists(const QString &name) const
{
    QSqlQuery q(m_project->database());
    const Result<bool> row = sql::firstRow(q, QStringLiteral("SELECT 1 FROM runs WHERE name = ?"), {name});
    if (!row.ok())
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the judges"), row.error().message),
                         m_project->path());
    return *row;
}

Result<int> ScoreColumnStore::itemsScored(const QString &judge) const
{
    QSqlQuery q(m_project->database());
    const Result<bool> row = sql::firstRow(q,
                                           QStringLiteral("SELECT COUNT(DISTINCT s.item_id) FROM judge_scores s JOIN "
                                                          "runs r ON r.id = s.run_id WHERE r.name = ? AND s.score IS "
                                                          "NOT NULL"),
                                           {judge});
    if (!row.ok() || !*row)
        return makeError(tr("cannot read %1 from the project: %2")
                                 .arg(tr("the judges"), row.ok() ? QString() : row.error().message),
                         m_project->path());
    return q.value(0).toInt();
}

Result<QVector<JudgeInfo>> ScoreColumnStore::judges() const
{
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    const auto failed = [this](QSqlQuery &q) {
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the judges"), q.lastError().text()),
                         m_project->path());
    };
    if (auto r = sql::exec(q, QStringLiteral("SELECT id, name, method, status FROM runs ORDER BY id")); !r)
        return m_project->readError(tr("the judges"), r);
    QVector<JudgeInfo> out;
    QVector<qint64> runs;
    QHash<qint64, int> index;
    while (q.next()) {
        index.insert(q.value(0).toLongLong(), int(out.size()));
        runs.append(q.value(0).toLongLong());
        out.append({q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), {}, 0});
    }
    if (q.lastError().isValid())
        return failed(q);
    if (auto r = sql::exec(q, QStringLiteral("SELECT id, name FROM aspects ORDER BY id")); !r)
        return m_project->readError(tr("the aspects"), r);
    QVector<std::pair<qint64, QString>> aspects;
    while (q.next())
        aspects.append({q.value(0).toLongLong(), q.value(1).toString()});
    if (q.lastError().isValid())
        return failed(q);
    // Which aspects each judge scored: a look-up in the scores' key per judge and aspect.
    QSqlQuery has(m_project->database());
    if (auto r = sql::prepare(has, QStringLiteral("SELECT 1 FROM judge_scores WHERE run_id = ? AND aspect_id = ? "
                                                  "LIMIT 1"));
        !r)
        return m_project->readError(tr("the judges"), r);
    for (int j = 0; j < runs.size(); ++j)
        for (const auto &[aspect, name] : std::as_const(aspects)) {
            if (auto r = sql::rebind(has, {runs[j], aspect}); !r)
                return m_project->readError(tr("the judges"), r);
            if (has.next())
                out[j].aspects.append(name);
            else if (has.lastError().isValid())
                return failed(has);
        }
    // Distinct items with a score per judge, from one pass over the scores in row order.
    if (auto r = sql::exec(q, QStringLiteral("SELECT run_id, item_id FROM judge_scores WHERE score IS NOT NULL")); !r)
        return m_project->readError(tr("the judges"), r);
    std::vector<std::vector<bool>> seen(size_t(out.size()));
    QVector<QSet<qint64>> sparse(out.size()); // item ids too large for a table
    constexpr qint64 kTable = qint64(1) << 26;
    while (q.next()) {
        const auto j = index.constFind(q.value(0).toLongLong());
        if (j == index.constEnd())
            continue;
        const qint64 item = q.value(1).toLongLong();
        if (item < 0 || item >= kTable) {
            if (!sparse[*j].contains(item)) {
                sparse[*j].insert(item);
                ++out[*j].items;
            }
            continue;
        }
        std::vector<bool> &s = seen[size_t(*j)];
        if (size_t(item) >= s.size())
            s.resize(std::max(size_t(item) + 1, s.size() * 2), false);
        if (!s[size_t(item)]) {
            s[size_t(item)] = true;
            ++out[*j].items;
        }
    }
    if (q.lastError().isValid())
        return failed(q);
    return out;
}

Result<std::vector<double>> ScoreColumnStore::humanMeans(const QString &aspect) const
{
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT AVG(score) FROM annotations WHERE aspect_id = (SELECT id FROM "
                                          "aspects WHERE name = ?) GROUP BY item_id"),
                           {aspect});
        !r)
        return m_project->readError(tr("the human scores"), r);
    std::vector<double> out;
    while (q.next())
        out.push_back(q.value(0).toDouble());
    if (q.lastError().isValid())
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the human scores"), q.lastError().text()),
                         m_project->path());
    return out;
}

Result<std::pair<int, int>> ScoreColumnStore::splitCounts() const
{
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT role, COUNT(*) FROM splits GROUP BY role")); !r)
        return m_project->readError(tr("the split"), r);
    std::pair<int, int> out{0, 0};
    while (q.next())
        (q.value(0).toString() == QLatin1String("train") ? out.first : out.second) = q.value(1).toInt();
    if (q.lastError().isValid())
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the split"), q.lastError().text()),
                         m_project->path());
    return out;
}

Result<bool> ScoreColumnStore::hasSplit() const
{
    const Project &project = *m_project;
    QSqlQuery q(project.database());
    const Result<bool> row = sql::firstRow(q, QStringLiteral("SELECT 1 FROM splits LIMIT 1"));
    if (!row.ok())
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the split"), row.error().message),
                         project.path());
    return *row;
}

Result<void> ScoreColumnStore::readWithoutMapping() const
{
    QSqlDatabase db = m_project->database();
    if (db.driverName() != QLatin1String("QSQLITE"))
        return {};
    QSqlQuery q(db);
    for (const char *pragma : {"PRAGMA mmap_size = 0", "PRAGMA cache_size = -8192"})
        if (!q.exec(QString::fromLatin1(pragma)))
            return makeError(q.lastError().text(), m_project->path());
    return {};
}

} // namespace rubric
