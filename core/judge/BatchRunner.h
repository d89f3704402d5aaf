#pragma once

#include "data/BatchTypes.h"
#include "data/JudgeTypes.h"
#include "judge/BatchClient.h"
#include "store/BatchStore.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <map>

class QNetworkAccessManager;

namespace rubric {

class Project;
class Provider;

/// The provider batches of one engine (one provider and model): submits calls as batches, keeps
/// them in the project (BatchStore) before anything is sent, polls the open ones — its own and
/// those an earlier process left — and hands each result line to the engine by its cache key.
///
/// Lines that failed, and the calls of a batch that ended (expired, cancelled, failed) without
/// answering them, go back to the engine with the reason: it sends them interactively. They are
/// never cached. Lives in the engine's thread.
class BatchRunner : public QObject
{
    Q_OBJECT
public:
    struct Call
    {
        QString key;
        QString canonical;
        QByteArray body;
    };
    struct Callbacks
    {
        /// An answer from a batch (`canonical` is the request, for the cache row).
        std::function<void(const QString &key, const QString &canonical, const JudgeResponse &response,
                           const QString &batch)>
                answered;
        /// A call the batch did not answer; the engine sends it interactively.
        std::function<void(const QString &key, const QString &error, const QString &batch)> failed;
        /// Commit what the callbacks above buffered (before the calls are marked as taken in).
        std::function<void()> commit;
    };

    BatchRunner(Project *project, const ProviderProfile &profile, const Provider *provider, QNetworkAccessManager *nam,
                std::function<QString(const QString &)> redact, Callbacks callbacks, QObject *parent = nullptr);
    ~BatchRunner() override;

    void setOptions(const BatchOptions &options);
    const BatchOptions &options() const { return m_options; }
    /// Reads the open batches of this provider and model (left by an earlier process too).
    Result<void> load();
    /// The key and headers are known: batches can be created and polled.
    void start(const BatchClient::Headers &headers);
    /// Whether an open batch holds a call with this key (its answer will come from there).
    bool holds(const QString &key) const;
    /// Submits calls as one batch or more (at most options().maxPerBatch each).
    void submit(const QString &run, const QVector<Call> &calls);

    QVector<BatchStatus> status() const;
    /// The most recent error of a batch's creation, polling or results ("" when none).
    QString lastError() const { return m_lastError; }

signals:
    void changed();

private:
    struct Open
    {
        BatchRecord record;
        QSet<QString> pending;
        bool busy = false;   ///< a poll or download is in flight
        int failedPolls = 0; ///< polls and downloads that failed in a row
    };
    /// After this many failed polls or downloads in a row the batch is given up: its calls go
    /// interactive (a batch answered later is still read if the process polls it again, and
    /// nothing paid is lost: answers already stored are in the cache).
    static constexpr int maxFailedPolls = 8;
    /// Counts a failed poll or download of `id`; gives the batch up at maxFailedPolls.
    void pollFailed(qint64 id, const QString &error);
    void create(qint64 id, QVector<BatchClient::Line> lines);
    /// A batch recorded with its input file but no id: asks the provider's list whether it exists.
    void recover(qint64 id);
    void pollAll();
    void takeResults(qint64 id, const BatchClient::Poll &poll);
    void giveBack(Open &open, const QStringList &keys, const QString &error);
    void close(qint64 id, const QString &state, const QString &error = {});
    void schedule();
    /// Keeps the reason when a state update could not be written (the batch stays open in the file).
    void note(const Result<void> &written);

    Project *m_project;
    ProviderProfile m_profile;
    const Provider *m_provider;
    BatchStore m_store;
    QNetworkAccessManager *m_nam;
    std::function<QString(const QString &)> m_redact;
    Callbacks m_callbacks;
    BatchOptions m_options;
    std::unique_ptr<BatchClient> m_client;
    std::map<qint64, Open> m_open;
    QHash<QString, qint64> m_byKey;                     ///< pending key → its batch
    QHash<qint64, QVector<BatchClient::Line>> m_unsent; ///< recorded before the key was known
    QVector<BatchStatus> m_closed;                      ///< batches of this process that ended, for status()
    QTimer m_pollTimer;
    int m_nextPollMs = 1000;
    QString m_lastError;
};

} // namespace rubric
