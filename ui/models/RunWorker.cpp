#include "models/RunWorker.h"

#include "runs/Run.h"

namespace rubric {

RunWorker::RunWorker(Project *project, int progressMs)
    : m_project(project)
    , m_flush(this)
{
    m_flush.setSingleShot(true);
    m_flush.setInterval(progressMs);
    connect(&m_flush, &QTimer::timeout, this, [this] {
        if (!m_pending)
            return;
        m_pending = false;
        emit progressed(m_latest);
    });
}

RunWorker::~RunWorker() = default;

void RunWorker::estimate(const RunSpec &spec, quint64 generation)
{
    Run probe(m_project, spec);
    auto e = probe.estimate();
    if (e)
        emit estimated(generation, *e);
    else
        emit estimateFailed(generation, e.errorString());
}

void RunWorker::start(const RunSpec &spec)
{
    if (m_run) {
        emit finished(false, tr("a run is already going"), {});
        return;
    }
    m_run = std::make_unique<Run>(m_project, spec);
    m_latest = {};
    m_pending = false;
    connect(m_run.get(), &Run::progressed, this, &RunWorker::onProgress);
    connect(m_run.get(), &Run::finished, this, &RunWorker::onFinished);
    if (auto r = m_run->start(); !r) {
        // Nothing was recorded as running; the Run is dropped (it may still be the sender of nothing).
        m_run.release()->deleteLater();
        emit finished(false, r.errorString(), {});
    }
}

void RunWorker::cancel()
{
    if (m_run)
        m_run->cancel();
}

void RunWorker::stop()
{
    if (m_run) {
        // Destroyed here, not later: the thread is about to end, and destroying the Run makes
        // its engines commit what they received.
        disconnect(m_run.get(), nullptr, this, nullptr);
        m_run->cancel();
        m_run.reset();
    }
    m_flush.stop();
}

void RunWorker::onProgress(const RunProgress &progress)
{
    m_latest = progress;
    m_pending = true;
    if (!m_flush.isActive())
        m_flush.start();
}

void RunWorker::onFinished(bool ok, const QString &error)
{
    if (!m_run)
        return;
    m_flush.stop();
    if (m_pending) {
        m_pending = false;
        emit progressed(m_latest);
    }
    const QVariantMap summary = m_run->summary();
    // The Run is the sender: destroy it once this signal has returned.
    m_run.release()->deleteLater();
    emit finished(ok, error, summary);
}

} // namespace rubric
