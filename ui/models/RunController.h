#pragma once

#include "methods/RunTypes.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

class QThread;

namespace rubric {

class Project;
class RunWorker;

/// Runs one judge run (rubric::Run) at a time off the GUI thread for the studio.
///
/// Owns a worker QThread in which the Run, its RunContext and JudgeEngines live (created there,
/// destroyed there). Progress crosses to the GUI thread as value types, coalesced to at most one
/// `progressed` per interval (default 100 ms); the project's shared ScoreModel is told to reload
/// at most every `scoreRefreshMs` (default 500 ms) while a run goes and once when it ends, so the
/// heatmap and the correlation chart fill without a refresh per answer. Estimates are computed
/// in the worker too; each carries a generation and superseded ones are dropped.
///
/// `shutdown()` (also run by the destructor and when the project changes) cancels a run in
/// flight, which the Run records as "cancelled" (resumable), lets the engines commit what they
/// received, and joins the thread. The project is not owned and must outlive the binding.
/// GUI thread only.
class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(QObject *parent = nullptr);
    ~RunController() override;

    void setProject(Project *project);
    Project *project() const;

    bool isRunning() const { return !m_judge.isEmpty(); }
    QString runningJudge() const { return m_judge; }
    RunProgress lastProgress() const { return m_last; }
    /// The open provider batches of a progress report, one line each ("" when there is none):
    /// "Batch batch_1 (in_progress): 3,400 / 10,000 answered, waiting for 2 min 10 s".
    static QString batchText(const RunProgress &progress);
    /// Seconds left at the current rate until `total` calls are answered (-1: the calls known so
    /// far, lastProgress().total; a run submits its calls in chunks, so a caller that knows the
    /// run's estimate passes it); negative when not known yet.
    double etaSeconds(int total = -1) const;

    void setProgressInterval(int ms);
    void setScoreRefreshInterval(int ms) { m_scoreRefresh.setInterval(ms); }

    /// Computes the estimate of `spec` in the worker; `estimated` or `estimateFailed` follows.
    /// Returns the generation the answer will carry.
    quint64 estimate(const RunSpec &spec);
    /// Starts (or resumes, same judge name) a run; false with `finished` not emitted when one is
    /// already running or no project is bound. `started` then `progressed`… `finished` follow.
    bool start(const RunSpec &spec);
    /// Stops the running run; it is left resumable ("cancelled"). `finished` follows.
    void cancel();
    /// Cancels a running run and joins the worker thread (blocks until the engines have
    /// committed what they received; used when the window closes).
    void shutdown();

signals:
    void estimated(quint64 generation, const rubric::RunEstimate &estimate);
    void estimateFailed(quint64 generation, const QString &error);
    void started(const QString &judge);
    void progressed(const rubric::RunProgress &progress);
    void finished(const QString &judge, bool ok, const QString &error, const QVariantMap &summary);

private:
    void ensureThread();
    void onWorkerProgress(const rubric::RunProgress &progress);
    void onWorkerFinished(bool ok, const QString &error, const QVariantMap &summary);
    void refreshScores();

    QPointer<Project> m_project;
    QThread *m_thread = nullptr;
    RunWorker *m_worker = nullptr;
    quint64 m_generation = 0;
    QString m_judge;
    QString m_aspect;
    RunProgress m_last;
    QElapsedTimer m_clock;
    int m_doneAtStart = -1;
    int m_progressMs = 100;
    QTimer m_scoreRefresh;
    bool m_scoresDirty = false;
};

} // namespace rubric
