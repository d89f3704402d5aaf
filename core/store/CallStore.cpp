#include "store/CallStore.h"

#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSqlQuery>

#include <nlohmann/json.hpp>

namespace rubric {
namespace {
/// A null QString binds as SQL NULL; the columns are NOT NULL text.
QVariant text(const QString &s)
{
    return s.isNull() ? QVariant(QString(QLatin1String(""))) : QVariant(s);
}

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::CallStore", text);
}
} // namespace

CallStore::CallStore(Project *project)
    : m_project(project)
{
}

CallStore::~CallStore()
{
    if (buffered() > 0)
        (void)flush();
}

QSqlQuery *CallStore::statement(Statement which, QString *error) const
{
    QSqlDatabase db = m_project->database();
    if (db.connectionName() != m_connection) {
        for (auto &q : m_statements)
            q.reset();
        m_connection = db.connectionName();
    }
    std::unique_ptr<QSqlQuery> &slot = m_statements[size_t(which)];
    if (slot)
        return slot.get();
    QString sqlText;
    switch (which) {
    case Statement::Lookup:
        sqlText = QStringLiteral("SELECT response FROM judge_cache WHERE key = ?");
        break;
    case Statement::Contains:
        sqlText = QStringLiteral("SELECT 1 FROM judge_cache WHERE key = ?");
        break;
    case Statement::InsertAnswer:
        // An upsert, not INSERT OR REPLACE: the same row either way, in SQL PostgreSQL reads too.
        sqlText = QStringLiteral(
                "INSERT INTO judge_cache(key, base_url, model, request, response, created_at) "
                "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET base_url = excluded.base_url, "
                "model = excluded.model, request = excluded.request, response = excluded.response, "
                "created_at = excluded.created_at");
        break;
    case Statement::InsertLedger:
        sqlText = QStringLiteral("INSERT INTO judge_ledger(key, run, base_url, model, outcome, http_status, tokens_in,"
                                 " tokens_out, tokens_cached, cost, latency_ms, retries, error, created_at, batch,"
                                 " tokens_reasoning) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        break;
    case Statement::Count:
        break;
    }
    auto q = std::make_unique<QSqlQuery>(db);
    q->setForwardOnly(true);
    if (!q->prepare(sqlText)) {
        if (error)
            *error = q->lastError().text();
        return nullptr;
    }
    slot = std::move(q);
    return slot.get();
}

QString CallStore::serialize(const JudgeResponse &r)
{
    nlohmann::json choices = nlohmann::json::array();
    for (const JudgeChoice &c : r.choices) {
        nlohmann::json top = nlohmann::json::array();
        for (const auto &pos : c.topLogprobs) {
            nlohmann::json alts = nlohmann::json::array();
            for (const TokenLogprob &t : pos)
                alts.push_back({t.token.toStdString(), t.logprob});
            top.push_back(std::move(alts));
        }
        nlohmann::json jc = {{"text", c.text.toStdString()}};
        if (!c.topLogprobs.isEmpty())
            jc["top_logprobs"] = std::move(top);
        if (!c.finishReason.isEmpty())
            jc["finish_reason"] = c.finishReason.toStdString();
        if (!c.reasoning.isEmpty())
            jc["reasoning"] = c.reasoning.toStdString();
        choices.push_back(std::move(jc));
    }
    const nlohmann::json j = {{"choices", std::move(choices)},
                              {"tokens_in", r.tokensIn},
                              {"tokens_out", r.tokensOut},
                              {"tokens_cached", r.tokensCached},
                              {"tokens_reasoning", r.tokensReasoning},
                              {"latency_ms", r.latencyMs},
                              {"http_status", r.httpStatus},
                              {"cost", r.cost}};
    return QString::fromStdString(j.dump());
}

std::optional<JudgeResponse> CallStore::deserialize(const QString &json)
{
    const std::string text = json.toStdString();
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("choices") || !j["choices"].is_array())
        return std::nullopt;
    JudgeResponse r;
    for (const auto &jc : j["choices"]) {
        JudgeChoice c;
        c.text = QString::fromStdString(jc.value("text", std::string()));
        c.finishReason = QString::fromStdString(jc.value("finish_reason", std::string()));
        c.reasoning = QString::fromStdString(jc.value("reasoning", std::string()));
        if (jc.contains("top_logprobs") && jc["top_logprobs"].is_array()) {
            for (const auto &pos : jc["top_logprobs"]) {
                QVector<TokenLogprob> alts;
                for (const auto &a : pos)
                    if (a.is_array() && a.size() == 2 && a[0].is_string() && a[1].is_number())
                        alts.append({QString::fromStdString(a[0].get<std::string>()), a[1].get<double>()});
                c.topLogprobs.append(alts);
            }
        }
        r.choices.append(c);
    }
    r.tokensIn = j.value("tokens_in", 0);
    r.tokensOut = j.value("tokens_out", 0);
    r.tokensCached = j.value("tokens_cached", 0);
    r.tokensReasoning = j.value("tokens_reasoning", 0);
    r.latencyMs = j.value("latency_ms", 0.0);
    r.httpStatus = j.value("http_status", 0);
    r.cost = j.value("cost", 0.0);
    r.status = JudgeStatus::Cached;
    return r;
}

Result<std::optional<JudgeResponse>> CallStore::lookup(const QString &key) const
{
    QString error;
    QSqlQuery *q = statement(Statement::Lookup, &error);
    if (!q)
        return readError(makeError(error));
    q->bindValue(0, key);
    if (!q->exec())
        return readError(makeError(q->lastError().text()));
    const bool found = q->next();
    const QString json = found ? q->value(0).toString() : QString();
    const QString failure = found ? QString() : q->lastError().text();
    q->finish(); // no read transaction stays open between calls
    if (!failure.isEmpty())
        return readError(makeError(failure));
    if (!found)
        return std::optional<JudgeResponse>();
    auto r = deserialize(json);
    if (r)
        r->cacheKey = key;
    return r;
}

Result<bool> CallStore::contains(const QString &key) const
{
    QString error;
    QSqlQuery *q = statement(Statement::Contains, &error);
    if (!q)
        return readError(makeError(error));
    q->bindValue(0, key);
    if (!q->exec())
        return readError(makeError(q->lastError().text()));
    const bool found = q->next();
    const QString failure = found ? QString() : q->lastError().text();
    q->finish();
    if (!failure.isEmpty())
        return readError(makeError(failure));
    return found;
}

Result<int> CallStore::cacheSize() const
{
    QSqlQuery q(m_project->database());
    if (auto r = sql::exec(q, QStringLiteral("SELECT COUNT(*) FROM judge_cache")); !r)
        return readError(r);
    if (!q.next())
        return readError(makeError(q.lastError().text()));
    return q.value(0).toInt();
}

Error CallStore::readError(const Result<void> &failed) const
{
    return makeError(tr("cannot read the judge cache: %1").arg(failed.error().message), m_project->path());
}

void CallStore::addAnswer(const QString &key, const QString &baseUrl, const QString &model, const QString &requestJson,
                          const JudgeResponse &response)
{
    m_answers.append({key, baseUrl, model, requestJson, serialize(response)});
}

void CallStore::addLedger(const LedgerEntry &entry)
{
    m_ledger.append(entry);
}

Result<void> CallStore::flush()
{
    if (m_answers.isEmpty() && m_ledger.isEmpty())
        return {};
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    auto r = m_project->transact([&](QSqlDatabase &) -> Result<void> {
        QString error;
        if (!m_answers.isEmpty()) {
            QSqlQuery *q = statement(Statement::InsertAnswer, &error);
            if (!q)
                return makeError(error);
            for (const PendingAnswer &a : std::as_const(m_answers)) {
                q->bindValue(0, text(a.key));
                q->bindValue(1, text(a.baseUrl));
                q->bindValue(2, text(a.model));
                q->bindValue(3, text(a.request));
                q->bindValue(4, text(a.response));
                q->bindValue(5, now);
                const bool ok = q->exec();
                const QString failure = ok ? QString() : q->lastError().text();
                q->finish();
                if (!ok)
                    return makeError(failure);
            }
        }
        if (!m_ledger.isEmpty()) {
            QSqlQuery *l = statement(Statement::InsertLedger, &error);
            if (!l)
                return makeError(error);
            for (const LedgerEntry &e : std::as_const(m_ledger)) {
                l->bindValue(0, text(e.key));
                l->bindValue(1, text(e.run));
                l->bindValue(2, text(e.baseUrl));
                l->bindValue(3, text(e.model));
                l->bindValue(4, text(e.outcome));
                l->bindValue(5, e.httpStatus > 0 ? QVariant(e.httpStatus) : QVariant(QMetaType(QMetaType::Int)));
                l->bindValue(6, e.tokensIn);
                l->bindValue(7, e.tokensOut);
                l->bindValue(8, e.tokensCached);
                l->bindValue(9, e.cost);
                l->bindValue(10, e.latencyMs);
                l->bindValue(11, e.retries);
                l->bindValue(12, text(e.error));
                l->bindValue(13, now);
                l->bindValue(14, text(e.batch));
                l->bindValue(15, e.tokensReasoning);
                const bool ok = l->exec();
                const QString failure = ok ? QString() : l->lastError().text();
                l->finish();
                if (!ok)
                    return makeError(failure);
            }
        }
        return {};
    });
    if (r) {
        m_answers.clear();
        m_ledger.clear();
    }
    return r;
}

Result<QVector<LedgerEntry>> CallStore::ledger(const QString &run) const
{
    QVector<LedgerEntry> out;
    QSqlQuery q(m_project->database());
    const QString sqlText
            = QStringLiteral("SELECT key, run, base_url, model, outcome, COALESCE(http_status, 0), tokens_in,"
                             " tokens_out, tokens_cached, cost, latency_ms, retries, error, batch, tokens_reasoning"
                             " FROM judge_ledger")
              + (run.isEmpty() ? QString() : QStringLiteral(" WHERE run = ?")) + QStringLiteral(" ORDER BY id");
    Result<void> r = run.isEmpty() ? sql::exec(q, sqlText) : sql::exec(q, sqlText, {run});
    if (!r)
        return makeError(tr("cannot read the call ledger: %1").arg(r.errorString()), m_project->path());
    while (q.next()) {
        LedgerEntry e;
        e.key = q.value(0).toString();
        e.run = q.value(1).toString();
        e.baseUrl = q.value(2).toString();
        e.model = q.value(3).toString();
        e.outcome = q.value(4).toString();
        e.httpStatus = q.value(5).toInt();
        e.tokensIn = q.value(6).toInt();
        e.tokensOut = q.value(7).toInt();
        e.tokensCached = q.value(8).toInt();
        e.cost = q.value(9).toDouble();
        e.latencyMs = q.value(10).toDouble();
        e.retries = q.value(11).toInt();
        e.error = q.value(12).toString();
        e.batch = q.value(13).toString();
        e.tokensReasoning = q.value(14).toInt();
        out.append(e);
    }
    return out;
}

Result<LedgerTotals> CallStore::totals(const QString &run) const
{
    LedgerTotals t;
    QSqlQuery q(m_project->database());
    const QString sqlText
            = QStringLiteral("SELECT COUNT(*), COALESCE(SUM(CASE WHEN outcome = 'failed' THEN 1 ELSE 0 END), 0), "
                             "COALESCE(SUM(retries), 0),"
                             " COALESCE(SUM(tokens_in), 0), COALESCE(SUM(tokens_out), 0), COALESCE(SUM(cost), 0),"
                             " COALESCE(SUM(tokens_cached), 0), COALESCE(SUM(tokens_reasoning), 0)"
                             " FROM judge_ledger")
              + (run.isEmpty() ? QString() : QStringLiteral(" WHERE run = ?"));
    Result<void> r = run.isEmpty() ? sql::exec(q, sqlText) : sql::exec(q, sqlText, {run});
    if (!r)
        return makeError(tr("cannot read the call ledger: %1").arg(r.errorString()), m_project->path());
    if (q.next()) {
        t.calls = q.value(0).toInt();
        t.failed = q.value(1).toInt();
        t.retries = q.value(2).toInt();
        t.tokensIn = q.value(3).toLongLong();
        t.tokensOut = q.value(4).toLongLong();
        t.cost = q.value(5).toDouble();
        t.tokensCached = q.value(6).toLongLong();
        t.tokensReasoning = q.value(7).toLongLong();
    }
    return t;
}

} // namespace rubric
