#pragma once

#include "methods/RunTypes.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace rubric {

class Project;
class Run;

/// RunController's half in the worker thread: creates, drives and destroys the Run there and
/// coalesces its progress reports (the newest one is sent at most every interval).
/// Every method is called in the worker thread (queued by RunController).
class RunWorker : public QObject
{
    Q_OBJECT
public:
    explicit RunWorker(Project *project, int progressMs);
    ~RunWorker() override;

    void estimate(const RunSpec &spec, quint64 generation);
    void start(const RunSpec &spec);
    void cancel();
    /// Cancels a run in flight and destroys it (its engines commit first); stops the timer.
    void stop();
    void setProgressInterval(int ms) { m_flush.setInterval(ms); }

signals:
    void estimated(quint64 generation, const rubric::RunEstimate &estimate);
    void estimateFailed(quint64 generation, const QString &error);
    void progressed(const rubric::RunProgress &progress);
    void finished(bool ok, const QString &error, const QVariantMap &summary);

private:
    void onProgress(const RunProgress &progress);
    void onFinished(bool ok, const QString &error);

    Project *m_project;
    std::unique_ptr<Run> m_run;
    QTimer m_flush;
    RunProgress m_latest;
    bool m_pending = false;
};

} // namespace rubric
