#pragma once

#include "data/BatchTypes.h"
#include "util/Result.h"

#include <QDateTime>
#include <QHash>
#include <QString>
#include <QVector>

namespace rubric {

class Project;

/// One provider batch as the project keeps it (table judge_batches).
struct BatchRecord
{
    qint64 id = 0;
    QString provider; ///< "openai" or "anthropic"
    QString baseUrl;
    QString model;
    QString run;
    QString remoteId;  ///< the provider's batch id; "" until the batch was created there
    QString inputFile; ///< OpenAI: the uploaded file of requests
    QString state = QStringLiteral("preparing");
    QString remoteStatus;
    int requests = 0;
    int completed = 0;
    int failed = 0;
    QString error;
    QDateTime createdAt;
    QDateTime updatedAt;

    /// Still to be picked up: created (or being created) and not yet taken in.
    bool open() const { return state == QLatin1String("preparing") || state == QLatin1String("submitted"); }
    BatchStatus status() const;
};

/// The provider batches of a project and the calls in each (tables judge_batches and
/// judge_batch_requests), so that a run closed while its batch is at the provider picks the
/// results up when it runs again, without submitting the calls a second time.
///
/// A batch is written with its calls (cache key and the request's canonical JSON, what the judge
/// cache stores with the answer) before anything is sent: a result line is matched to its call by
/// the key, whichever process asks for it. Every write is one transaction. Used from the thread
/// that created it (the project gives each thread its own connection).
class BatchStore
{
public:
    explicit BatchStore(Project *project);

    /// Records a batch about to be submitted (state "preparing") with its calls: key → canonical request.
    Result<qint64> create(const BatchRecord &batch, const QVector<QPair<QString, QString>> &calls);
    /// OpenAI: the input file is uploaded (the batch is about to be created over it).
    Result<void> setInputFile(qint64 id, const QString &inputFile);
    /// The provider accepted the batch: its id (and OpenAI's input file); state "submitted".
    Result<void> setSubmitted(qint64 id, const QString &remoteId, const QString &inputFile);
    /// What the provider last said of it, and its state here.
    Result<void> update(const BatchRecord &batch);
    /// Marks calls of a batch "answered" or "failed" (their result was taken in).
    Result<void> markCalls(qint64 id, const QStringList &keys, const QString &state);

    /// The open batches (preparing or submitted) of a provider and model, oldest first.
    Result<QVector<BatchRecord>> openBatches(const QString &provider, const QString &baseUrl,
                                             const QString &model) const;
    /// Every batch (of a run, or all), oldest first.
    Result<QVector<BatchRecord>> batches(const QString &run = {}) const;
    /// The calls of a batch still waiting for their result: key → canonical request.
    Result<QHash<QString, QString>> pendingCalls(qint64 id) const;

private:
    Error readError(const Result<void> &failed) const;

    Project *m_project;
};

} // namespace rubric
