#pragma once

#include "methods/RunTypes.h"
#include "util/Result.h"

#include <QObject>
#include <QVariantMap>

#include <memory>

namespace rubric {

class Method;
class Project;
class RunContext;

/// One run of a method under a judge name: creates (or resumes) the judge in the project,
/// records its configuration and status in `runs` ("running", then "done" or "failed" — a
/// failed or killed run is resumed by starting the same judge name again: what the store and
/// the judge cache hold is not asked again), and drives the method asynchronously.
///
/// Lives in (and must be used from) one thread with an event loop; never blocks it. The
/// project is not owned and must outlive the run.
class Run : public QObject
{
    Q_OBJECT
public:
    Run(Project *project, RunSpec spec, QObject *parent = nullptr);
    ~Run() override;

    static QStringList methods();

    /// Calls, tokens and cost the run would need now (nothing is sent, nothing is written). With
    /// provider batches, the phases of at least batch.threshold calls are priced at the batch rate.
    Result<RunEstimate> estimate();
    /// Checks the spec, records the run and starts it; `finished` follows (unless this fails).
    /// Refuses a judge name that was run with another configuration (RunConfig::differences:
    /// the error lists the differences) unless the spec resumes (`resume`) or replaces it
    /// (`replace`: the old judge's scores, rubric and record are deleted first; the cache stays).
    Result<void> start();
    /// Stops sending; the run is left resumable ("cancelled").
    void cancel();

    /// Calls per phase, templates used and the method's summary (after `finished`).
    QVariantMap summary() const { return m_summary; }

signals:
    void progressed(const rubric::RunProgress &progress);
    void finished(bool ok, const QString &error);

private:
    Result<void> setUp();
    /// Refuses a run (or estimate) under an existing judge name with another configuration
    /// (RunConfig::differences), unless it resumes or replaces the judge.
    Result<void> checkConfiguration() const;
    void onCompleted(const QVariantMap &methodSummary);
    void onFailed(const QString &message);
    void record(const QString &status, const QString &error = {});

    Project *m_project;
    RunSpec m_spec;
    std::unique_ptr<RunContext> m_ctx;
    std::unique_ptr<Method> m_method;
    QVariantMap m_summary;
    bool m_done = false;
};

} // namespace rubric
