#pragma once

#include "data/JudgeTypes.h"
#include "util/Result.h"

#include <QString>
#include <QVector>

#include <array>
#include <memory>
#include <optional>

class QSqlQuery;

namespace rubric {

class Project;

/// One row of the judge ledger: one finished call (answered or failed), never the key.
struct LedgerEntry
{
    QString key;
    QString run;
    QString baseUrl;
    QString model;
    QString outcome; ///< "ok", "failed" or "cancelled"
    int httpStatus = 0;
    int tokensIn = 0;
    int tokensOut = 0;
    int tokensCached = 0;    ///< input tokens read from the provider's prompt cache (part of tokensIn)
    int tokensReasoning = 0; ///< output tokens a reasoning model spent thinking (part of tokensOut)
    double cost = 0;
    double latencyMs = 0;
    int retries = 0;
    QString error;
    QString batch; ///< the provider batch that answered it ("" for an interactive call)
};

/// Totals of the ledger for one run (or all runs when the run is empty).
struct LedgerTotals
{
    int calls = 0;
    int failed = 0;
    int retries = 0;
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
    qint64 tokensCached = 0;
    qint64 tokensReasoning = 0;
    double cost = 0;
};

/// The judge's answer cache and call ledger in a project file (tables judge_cache, judge_ledger).
///
/// Writes are buffered and committed together in one transaction by `flush()`: the engine calls it
/// at least every ~50 ms and before it reports the answers, so an answer is on disk before anyone
/// hears of it. Reads go straight to the file. Used from the thread that created it (the project
/// gives each thread its own connection). Only successful answers enter the cache.
class CallStore
{
public:
    explicit CallStore(Project *project);
    ~CallStore();

    /// The cached answer for `key` (status Cached), or nullopt when there is none; an error
    /// (never "not cached", which would pay for the call again) when the file cannot be read.
    Result<std::optional<JudgeResponse>> lookup(const QString &key) const;
    Result<bool> contains(const QString &key) const;
    Result<int> cacheSize() const;

    /// Buffers a cache row (the request's canonical JSON and the answer).
    void addAnswer(const QString &key, const QString &baseUrl, const QString &model, const QString &requestJson,
                   const JudgeResponse &response);
    void addLedger(const LedgerEntry &entry);
    int buffered() const { return int(m_answers.size() + m_ledger.size()); }
    /// Writes everything buffered in one transaction.
    Result<void> flush();

    /// The ledger rows (of `run`, or all), oldest first; an error when the file cannot be read.
    Result<QVector<LedgerEntry>> ledger(const QString &run = {}) const;
    /// Totals of the ledger; an error (never zeros) when the file cannot be read.
    Result<LedgerTotals> totals(const QString &run = {}) const;

    static QString serialize(const JudgeResponse &response);
    static std::optional<JudgeResponse> deserialize(const QString &json);

private:
    Error readError(const Result<void> &failed) const;

    struct PendingAnswer
    {
        QString key, baseUrl, model, request, response;
    };
    enum class Statement { Lookup, Contains, InsertAnswer, InsertLedger, Count };
    /// The statement, prepared once per connection (a run asks and stores one call after the
    /// other: parsing the SQL each time was a good part of an answer's cost); nullptr, with the
    /// reason in `error`, when it cannot be prepared.
    QSqlQuery *statement(Statement which, QString *error = nullptr) const;

    Project *m_project;
    mutable QString m_connection; ///< the connection the statements are prepared on
    mutable std::array<std::unique_ptr<QSqlQuery>, size_t(Statement::Count)> m_statements;
    QVector<PendingAnswer> m_answers;
    QVector<LedgerEntry> m_ledger;
};

} // namespace rubric
