#include "RubricStore.h"

#include "Project.h"
#include "SqlDialect.h"
#include "SqlUtil.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RubricStore", text);
}

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QVariantMap parseObject(const QString &text)
{
    return json::parse(text).toMap();
}

/// The value, or an empty one when reading failed (the plain readers; see RubricStore).
template <typename T> T orEmpty(Result<T> r)
{
    return r ? std::move(r).value() : T{};
}

/// A query's rows end early when the file turns out locked or damaged while reading.
Result<void> rowsRead(const QSqlQuery &q)
{
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return {};
}

} // namespace

Error RubricStore::readError(const QString &what, const Result<void> &failed) const
{
    return makeError(tr("cannot read %1 from the project: %2").arg(what, failed.error().message), m_project->path());
}

RubricStore::RubricStore(Project *project)
    : m_project(project)
{
}

Result<QVector<RubricVersionInfo>> RubricStore::readVersions(const QString &judge) const
{
    QVector<RubricVersionInfo> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r
        = sql::exec(q,
                    QStringLiteral("SELECT v.version, v.aspect, v.method, v.created_at, v.note, v.alignment, "
                                   "v.test_alignment, v.test_basis, p.version FROM rubric_versions v JOIN runs r "
                                   "ON r.id = v.run_id LEFT JOIN rubric_versions p ON p.id = v.parent_id "
                                   "WHERE r.name = ? ORDER BY v.version"),
                    {judge});
        !r)
        return readError(tr("the rubric versions of '%1'").arg(judge), r);
    while (q.next()) {
        RubricVersionInfo v;
        v.version = q.value(0).toInt();
        v.aspect = q.value(1).toString();
        v.method = q.value(2).toString();
        v.created = QDateTime::fromString(q.value(3).toString(), Qt::ISODateWithMs);
        v.note = q.value(4).toString();
        if (!q.value(5).isNull())
            v.alignment = q.value(5).toDouble();
        if (!q.value(6).isNull())
            v.testAlignment = q.value(6).toDouble();
        v.testBasis = q.value(7).toString();
        v.parentVersion = q.value(8).isNull() ? 0 : q.value(8).toInt();
        out.append(v);
    }
    if (auto r = rowsRead(q); !r)
        return readError(tr("the rubric versions of '%1'").arg(judge), r);
    return out;
}

QVector<RubricVersionInfo> RubricStore::versions(const QString &judge) const
{
    return orEmpty(readVersions(judge));
}

Result<int> RubricStore::readLatestVersion(const QString &judge) const
{
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT MAX(v.version) FROM rubric_versions v JOIN runs r ON r.id = "
                                          "v.run_id WHERE r.name = ?"),
                           {judge});
        !r)
        return readError(tr("the rubric versions of '%1'").arg(judge), r);
    if (!q.next()) // an aggregate always has a row: none means reading it failed
        return readError(tr("the rubric versions of '%1'").arg(judge), rowsRead(q));
    return q.value(0).toInt();
}

int RubricStore::latestVersion(const QString &judge) const
{
    return orEmpty(readLatestVersion(judge));
}

Result<QVector<Criterion>> RubricStore::readCriteria(const QString &judge, int version) const
{
    QVector<Criterion> out;
    if (version <= 0) {
        auto latest = readLatestVersion(judge);
        if (!latest)
            return latest.error();
        version = *latest;
    }
    if (version <= 0)
        return out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r = sql::exec(q,
                           QStringLiteral("SELECT c.key, c.parent_key, c.kind, c.text, c.definition, c.enabled, "
                                          "c.weight, c.position, c.origin, c.stats FROM criteria c "
                                          "JOIN rubric_versions v ON v.id = c.rubric_version_id "
                                          "JOIN runs r ON r.id = v.run_id WHERE r.name = ? AND v.version = ? "
                                          "ORDER BY c.position, c.id"),
                           {judge, version});
        !r)
        return readError(tr("the criteria of '%1'").arg(judge), r);
    while (q.next()) {
        Criterion c;
        c.key = q.value(0).toString();
        c.parentKey = q.value(1).toString();
        if (!parseCriterionKind(q.value(2).toString(), &c.kind))
            c.kind = CriterionKind::Criterion;
        c.text = q.value(3).toString();
        c.definition = q.value(4).toString();
        c.enabled = q.value(5).toInt() != 0;
        c.weight = q.value(6).toDouble();
        c.position = q.value(7).toInt();
        c.origin = parseObject(q.value(8).toString());
        c.stats = parseObject(q.value(9).toString());
        out.append(c);
    }
    if (auto r = rowsRead(q); !r)
        return readError(tr("the criteria of '%1'").arg(judge), r);
    return out;
}

QVector<Criterion> RubricStore::criteria(const QString &judge, int version) const
{
    return orEmpty(readCriteria(judge, version));
}

Result<Rubric> RubricStore::load(const QString &judge, int version) const
{
    auto read = readVersions(judge);
    if (!read)
        return read.error();
    const QVector<RubricVersionInfo> &all = *read;
    if (all.isEmpty())
        return makeError(tr("judge '%1' has no rubric").arg(judge), {}, 0, QStringLiteral("judge"));
    const RubricVersionInfo *info = &all.last();
    if (version > 0) {
        info = nullptr;
        for (const RubricVersionInfo &v : all)
            if (v.version == version)
                info = &v;
        if (!info)
            return makeError(tr("judge '%1' has no rubric version %2").arg(judge).arg(version), {}, 0,
                             QStringLiteral("version"));
    }
    auto criteria = readCriteria(judge, info->version);
    if (!criteria)
        return criteria.error();
    Rubric r(info->method, info->aspect, std::move(criteria).value());
    r.setVersion(info->version);
    return r;
}

Result<std::optional<Rubric>> RubricStore::loadLatest(const QString &judge) const
{
    auto latest = readLatestVersion(judge);
    if (!latest)
        return latest.error();
    if (*latest <= 0)
        return std::optional<Rubric>();
    auto loaded = load(judge, *latest);
    if (!loaded)
        return loaded.error();
    return std::optional<Rubric>(std::move(loaded).value());
}

Result<int> RubricStore::saveVersion(const QString &judge, const Rubric &rubric, const QString &note,
                                     std::optional<double> alignment)
{
    int saved = 0;
    auto r = m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        if (auto w = m_project->checkJudgeWritable(db, judge); !w)
            return w;
        QSqlQuery q(db);
        if (!sql::exec(q, QStringLiteral("SELECT id FROM runs WHERE name = ?"), {judge}) || !q.next())
            return makeError(tr("no judge named '%1'").arg(judge), {}, 0, QStringLiteral("judge"));
        const qint64 run = q.value(0).toLongLong();
        QVariant parent{QMetaType(QMetaType::LongLong)}; // braces: clang reads parentheses as a function declaration
        int version = 1;
        if (auto e = sql::exec(q,
                               QStringLiteral("SELECT id, version FROM rubric_versions WHERE run_id = ? "
                                              "ORDER BY version DESC LIMIT 1"),
                               {run});
            !e)
            return e;
        if (q.next()) {
            parent = q.value(0);
            version = q.value(1).toInt() + 1;
        }
        // An edit of an earlier version (a teammate saved one meanwhile, or "Edit from this
        // version") descends from that version, not from the latest.
        if (rubric.version() > 0 && rubric.version() < version - 1) {
            if (auto e = sql::exec(q, QStringLiteral("SELECT id FROM rubric_versions WHERE run_id = ? AND version = ?"),
                                   {run, rubric.version()});
                !e)
                return e;
            if (q.next())
                parent = q.value(0);
        }
        if (auto e
            = sql::exec(q,
                        sql::withReturningId(db, QStringLiteral("INSERT INTO rubric_versions(run_id, aspect, method, "
                                                                "version, parent_id, note, alignment, created_at) "
                                                                "VALUES(?, ?, ?, ?, ?, COALESCE(?, ''), ?, ?)")),
                        {run, rubric.aspect(), rubric.method(), version, parent, note,
                         alignment ? QVariant(*alignment) : QVariant(QMetaType(QMetaType::Double)), now()});
            !e)
            return e;
        const qint64 versionId = sql::insertedId(q);
        QSet<QString> keys;
        for (const Criterion &c : rubric.criteria()) {
            if (c.key.isEmpty())
                return makeError(tr("a criterion needs a key"), {}, 0, QStringLiteral("key"));
            if (keys.contains(c.key))
                return makeError(tr("criterion key '%1' is used twice").arg(c.key), {}, 0, QStringLiteral("key"));
            keys.insert(c.key);
        }
        for (const Criterion &c : rubric.criteria()) {
            if (!c.parentKey.isEmpty() && !keys.contains(c.parentKey))
                return makeError(
                        tr("criterion '%1' names a parent '%2' that is not in the rubric").arg(c.key, c.parentKey), {},
                        0, QStringLiteral("parent"));
            if (auto e = sql::exec(
                        q,
                        QStringLiteral(
                                "INSERT INTO criteria(rubric_version_id, key, parent_key, kind, text, "
                                "definition, enabled, weight, position, origin, stats) "
                                "VALUES(?, ?, COALESCE(?, ''), ?, COALESCE(?, ''), COALESCE(?, ''), ?, ?, ?, ?, ?)"),
                        {versionId, c.key, c.parentKey, criterionKindName(c.kind), c.text, c.definition,
                         c.enabled ? 1 : 0, c.weight, c.position, json::stringify(c.origin), json::stringify(c.stats)});
                !e)
                return e;
        }
        saved = version;
        return sql::exec(q, QStringLiteral("UPDATE runs SET updated_at = ? WHERE id = ?"), {now(), run});
    });
    if (!r)
        return r.error();
    emit m_project->judgesChanged(judge);
    return saved;
}

Result<void> RubricStore::setCriterionMeasures(const QString &judge, int version, const QVector<Criterion> &criteria)
{
    return m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        for (const Criterion &c : criteria) {
            if (auto e = sql::exec(q,
                                   QStringLiteral("UPDATE criteria SET stats = ?, weight = ? WHERE key = ? AND "
                                                  "rubric_version_id = (SELECT v.id FROM rubric_versions v JOIN runs r "
                                                  "ON v.run_id = r.id WHERE r.name = ? AND v.version = ?)"),
                                   {json::stringify(c.stats), c.weight, c.key, judge, version});
                !e)
                return e;
        }
        return {};
    });
}

Result<void> RubricStore::setTestAlignment(const QString &judge, int version, double alignment, const QString &basis)
{
    QSqlDatabase db = m_project->database();
    if (auto w = m_project->checkJudgeWritable(db, judge); !w)
        return w;
    QSqlQuery q(db);
    auto r = sql::exec(q,
                       QStringLiteral("UPDATE rubric_versions SET test_alignment = ?, test_basis = ? WHERE version = ? "
                                      "AND run_id = (SELECT id FROM runs WHERE name = ?)"),
                       {sql::nullableDouble(alignment), basis, version, judge});
    if (r && q.numRowsAffected() != 1)
        return makeError(tr("judge '%1' has no rubric version %2").arg(judge).arg(version), {}, 0,
                         QStringLiteral("version"));
    if (r)
        emit m_project->judgesChanged(judge);
    return r;
}

Result<void> RubricStore::setAlignment(const QString &judge, int version, double alignment, const QString &basis)
{
    QSqlDatabase db = m_project->database();
    if (auto w = m_project->checkJudgeWritable(db, judge); !w)
        return w;
    QSqlQuery q(db);
    auto r = basis.isEmpty()
                     ? sql::exec(q,
                                 QStringLiteral("UPDATE rubric_versions SET alignment = ? WHERE version = ? AND "
                                                "run_id = (SELECT id FROM runs WHERE name = ?)"),
                                 {sql::nullableDouble(alignment), version, judge})
                     : sql::exec(q,
                                 QStringLiteral(
                                         "UPDATE rubric_versions SET alignment = ?, note = CASE WHEN note = '' THEN ? "
                                         "ELSE note || ' — ' || ? END WHERE version = ? AND "
                                         "run_id = (SELECT id FROM runs WHERE name = ?)"),
                                 {sql::nullableDouble(alignment), basis, basis, version, judge});
    if (r && q.numRowsAffected() != 1)
        return makeError(tr("judge '%1' has no rubric version %2").arg(judge).arg(version), {}, 0,
                         QStringLiteral("version"));
    if (r)
        emit m_project->judgesChanged(judge);
    return r;
}

Result<QVector<CriterionScore>> RubricStore::readSampleScores(const QString &judge) const
{
    QVector<CriterionScore> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r
        = sql::exec(q,
                    QStringLiteral("SELECT i.ext_id, s.criterion_key, s.sample, s.score, s.parse_status, s.raw, "
                                   "s.reasoning, s.call_key, s.answer FROM criterion_scores s JOIN runs r ON r.id = "
                                   "s.run_id JOIN items i ON i.id = s.item_id WHERE r.name = ? "
                                   "ORDER BY i.position, s.criterion_key, s.sample"),
                    {judge});
        !r)
        return readError(tr("the criterion scores of '%1'").arg(judge), r);
    while (q.next()) {
        CriterionScore s;
        s.itemId = q.value(0).toString();
        s.criterionKey = q.value(1).toString();
        s.sample = q.value(2).toInt();
        if (!q.value(3).isNull())
            s.score = q.value(3).toDouble();
        s.parseStatus = q.value(4).toString();
        s.raw = q.value(5).toString();
        s.reasoning = q.value(6).toString();
        s.callKey = q.value(7).toString();
        if (!q.value(8).isNull())
            s.answer = q.value(8).toDouble();
        out.append(s);
    }
    if (auto r = rowsRead(q); !r)
        return readError(tr("the criterion scores of '%1'").arg(judge), r);
    return out;
}

QVector<CriterionScore> RubricStore::sampleScores(const QString &judge) const
{
    return orEmpty(readSampleScores(judge));
}

Result<QHash<QString, QString>> RubricStore::failedItems(const QString &judge) const
{
    QHash<QString, QString> out;
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (auto r
        = sql::exec(q,
                    QStringLiteral("SELECT i.ext_id, s.raw FROM criterion_scores s JOIN runs r ON r.id = s.run_id "
                                   "JOIN items i ON i.id = s.item_id WHERE r.name = ? AND s.parse_status = "
                                   "'failed' ORDER BY i.position, s.criterion_key, s.sample"),
                    {judge});
        !r)
        return readError(tr("the refused calls of '%1'").arg(judge), r);
    while (q.next())
        if (!out.contains(q.value(0).toString()))
            out.insert(q.value(0).toString(), q.value(1).toString());
    if (auto r = rowsRead(q); !r)
        return readError(tr("the refused calls of '%1'").arg(judge), r);
    return out;
}

Result<QVector<ItemCriterionScores>> RubricStore::readCriterionScores(const QString &judge) const
{
    QVector<ItemCriterionScores> out;
    const auto rows = readSampleScores(judge);
    if (!rows)
        return rows.error();
    for (const CriterionScore &s : *rows) {
        if (out.isEmpty() || out.last().itemId != s.itemId || out.last().criterionKey != s.criterionKey) {
            ItemCriterionScores g;
            g.itemId = s.itemId;
            g.criterionKey = s.criterionKey;
            g.parseStatus = QStringLiteral("ok");
            out.append(g);
        }
        ItemCriterionScores &g = out.last();
        while (g.samples.size() < s.sample)
            g.samples.append(std::numeric_limits<double>::quiet_NaN());
        g.samples.append(s.score);
        if (s.sample == 0) {
            g.raw = s.raw;
            g.reasoning = s.reasoning;
        }
        if (s.parseStatus != QLatin1String("ok") && g.parseStatus == QLatin1String("ok"))
            g.parseStatus = s.parseStatus;
    }
    for (ItemCriterionScores &g : out) {
        double sum = 0;
        int n = 0;
        for (double v : std::as_const(g.samples))
            if (!std::isnan(v)) {
                sum += v;
                ++n;
            }
        if (n > 0)
            g.mean = sum / n;
    }
    return out;
}

QVector<ItemCriterionScores> RubricStore::criterionScores(const QString &judge) const
{
    return orEmpty(readCriterionScores(judge));
}

Result<void> RubricStore::writeCriterionScores(const QString &judge, const QVector<CriterionScore> &rows)
{
    if (rows.isEmpty())
        return {};
    auto r = m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        if (auto w = m_project->checkJudgeWritable(db, judge); !w)
            return w;
        QSqlQuery q(db);
        if (!sql::exec(q, QStringLiteral("SELECT id FROM runs WHERE name = ?"), {judge}) || !q.next())
            return makeError(tr("no judge named '%1'").arg(judge), {}, 0, QStringLiteral("judge"));
        const qint64 run = q.value(0).toLongLong();
        if (auto p = sql::prepare(
                    q, QStringLiteral("INSERT INTO criterion_scores(run_id, item_id, criterion_key, sample, "
                                      "score, parse_status, raw, reasoning, call_key, answer) "
                                      "SELECT ?, id, ?, ?, ?, ?, COALESCE(?, ''), COALESCE(?, ''), COALESCE(?, ''), ? "
                                      "FROM items WHERE ext_id = ? "
                                      "ON CONFLICT(run_id, item_id, criterion_key, sample) DO UPDATE SET "
                                      "score = excluded.score, parse_status = excluded.parse_status, "
                                      "raw = excluded.raw, reasoning = excluded.reasoning, "
                                      "call_key = excluded.call_key, answer = excluded.answer"));
            !p)
            return p;
        for (const CriterionScore &s : rows) {
            if (auto e = sql::rebind(q, {run, s.criterionKey, s.sample, sql::nullableDouble(s.score),
                                         s.parseStatus.isEmpty() ? QStringLiteral("ok") : s.parseStatus, s.raw,
                                         s.reasoning, s.callKey, sql::nullableDouble(s.answer), s.itemId});
                !e)
                return e;
            if (q.numRowsAffected() != 1)
                return makeError(tr("no item with id '%1' in the project").arg(s.itemId), {}, 0, QStringLiteral("id"));
        }
        return {};
    });
    if (r)
        emit m_project->judgesChanged(judge);
    return r;
}

Result<void> RubricStore::clearCriterionScores(const QString &judge)
{
    QSqlDatabase db = m_project->database();
    if (auto w = m_project->checkJudgeWritable(db, judge); !w)
        return w;
    QSqlQuery q(db);
    auto r = sql::exec(
            q, QStringLiteral("DELETE FROM criterion_scores WHERE run_id = (SELECT id FROM runs WHERE name = ?)"),
            {judge});
    if (r)
        emit m_project->judgesChanged(judge);
    return r;
}

Result<int> RubricStore::pruneCriterionScores(const QString &judge,
                                              const std::function<bool(const CriterionScore &)> &keep)
{
    QVector<CriterionScore> drop;
    for (const CriterionScore &s : sampleScores(judge))
        if (!keep(s))
            drop.append(s);
    if (drop.isEmpty())
        return 0;
    auto r = m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        if (auto w = m_project->checkJudgeWritable(db, judge); !w)
            return w;
        QSqlQuery q(db);
        if (!sql::exec(q, QStringLiteral("SELECT id FROM runs WHERE name = ?"), {judge}) || !q.next())
            return makeError(tr("no judge named '%1'").arg(judge), {}, 0, QStringLiteral("judge"));
        const qint64 run = q.value(0).toLongLong();
        for (const CriterionScore &s : std::as_const(drop))
            if (auto e
                = sql::exec(q,
                            QStringLiteral("DELETE FROM criterion_scores WHERE run_id = ? AND criterion_key = ? "
                                           "AND sample = ? AND item_id = (SELECT id FROM items WHERE ext_id = ?)"),
                            {run, s.criterionKey, s.sample, s.itemId});
                !e)
                return e;
        return {};
    });
    if (!r)
        return r.error();
    emit m_project->judgesChanged(judge);
    return int(drop.size());
}

Result<QVariantMap> RubricStore::readRunConfig(const QString &judge) const
{
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT config FROM runs WHERE name = ?"), {judge}); !r)
        return readError(tr("the settings of '%1'").arg(judge), r);
    if (q.next())
        return parseObject(q.value(0).toString());
    if (auto r = rowsRead(q); !r)
        return readError(tr("the settings of '%1'").arg(judge), r);
    return QVariantMap(); // no judge of that name: no settings
}

QVariantMap RubricStore::runConfig(const QString &judge) const
{
    return orEmpty(readRunConfig(judge));
}

Result<void> RubricStore::setRunConfig(const QString &judge, const QVariantMap &config)
{
    QSqlDatabase db = m_project->database();
    if (auto w = m_project->checkJudgeWritable(db, judge); !w)
        return w;
    QSqlQuery q(db);
    auto r = sql::exec(q, QStringLiteral("UPDATE runs SET config = ?, updated_at = ? WHERE name = ?"),
                       {json::stringify(config), now(), judge});
    if (r && q.numRowsAffected() != 1)
        return makeError(tr("no judge named '%1'").arg(judge), {}, 0, QStringLiteral("judge"));
    return r;
}

Result<QString> RubricStore::readRunStatus(const QString &judge) const
{
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT status FROM runs WHERE name = ?"), {judge}); !r)
        return readError(tr("the status of '%1'").arg(judge), r);
    if (q.next())
        return q.value(0).toString();
    if (auto r = rowsRead(q); !r)
        return readError(tr("the status of '%1'").arg(judge), r);
    return QString(); // no judge of that name
}

QString RubricStore::runStatus(const QString &judge) const
{
    return orEmpty(readRunStatus(judge));
}

} // namespace rubric
