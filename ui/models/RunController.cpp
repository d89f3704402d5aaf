#include "models/RunController.h"

#include "models/RunWorker.h"
#include "models/ScoreModel.h"
#include "store/Project.h"

#include <QLocale>
#include <QThread>

#include <future>

namespace rubric {

RunController::RunController(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<rubric::RunProgress>();
    qRegisterMetaType<rubric::RunEstimate>();
    m_scoreRefresh.setInterval(500);
    connect(&m_scoreRefresh, &QTimer::timeout, this, [this] {
        if (m_scoresDirty)
            refreshScores();
    });
}

RunController::~RunController()
{
    shutdown();
}

void RunController::setProject(Project *project)
{
    if (project == m_project)
        return;
    shutdown();
    m_project = project;
}

Project *RunController::project() const
{
    return m_project;
}

void RunController::setProgressInterval(int ms)
{
    m_progressMs = ms;
    if (m_worker)
        QMetaObject::invokeMethod(
                m_worker, [w = m_worker, ms] { w->setProgressInterval(ms); }, Qt::QueuedConnection);
}

void RunController::ensureThread()
{
    if (m_thread)
        return;
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("RunWorker"));
    m_worker = new RunWorker(m_project, m_progressMs);
    m_worker->moveToThread(m_thread);
    connect(m_worker, &RunWorker::progressed, this, &RunController::onWorkerProgress);
    connect(m_worker, &RunWorker::finished, this, &RunController::onWorkerFinished);
    connect(m_worker, &RunWorker::estimated, this, [this](quint64 generation, const RunEstimate &e) {
        if (generation == m_generation)
            emit estimated(generation, e);
    });
    connect(m_worker, &RunWorker::estimateFailed, this, [this](quint64 generation, const QString &error) {
        if (generation == m_generation)
            emit estimateFailed(generation, error);
    });
    m_thread->start();
}

quint64 RunController::estimate(const RunSpec &spec)
{
    const quint64 generation = ++m_generation;
    if (!m_project) {
        QMetaObject::invokeMethod(
                this, [this, generation] { emit estimateFailed(generation, tr("no project is open")); },
                Qt::QueuedConnection);
        return generation;
    }
    ensureThread();
    QMetaObject::invokeMethod(
            m_worker, [w = m_worker, spec, generation] { w->estimate(spec, generation); }, Qt::QueuedConnection);
    return generation;
}

bool RunController::start(const RunSpec &spec)
{
    if (!m_project || isRunning())
        return false;
    ensureThread();
    m_judge = spec.judge;
    m_aspect = spec.aspect;
    m_last = {};
    m_doneAtStart = -1;
    m_clock.start();
    // The heatmap and the correlation chart follow the run that was just started.
    if (ScoreModel *scores = ScoreModel::of(m_project)) {
        scores->setAspect(spec.aspect);
        scores->setJudge(spec.judge);
    }
    m_scoresDirty = false;
    m_scoreRefresh.start();
    QMetaObject::invokeMethod(
            m_worker, [w = m_worker, spec] { w->start(spec); }, Qt::QueuedConnection);
    emit started(spec.judge);
    return true;
}

void RunController::cancel()
{
    if (!m_worker || !isRunning())
        return;
    QMetaObject::invokeMethod(
            m_worker, [w = m_worker] { w->cancel(); }, Qt::QueuedConnection);
}

void RunController::shutdown()
{
    if (!m_thread)
        return;
    // Everything queued before (a start, an estimate) runs first; then the run is cancelled and
    // destroyed in its own thread, and the thread ends. The thread is told to quit from here, once
    // the stop has run, and not by the stop itself: QCoreApplication::postEvent (Qt 6.4) wakes the
    // receiving thread's event dispatcher after it has queued the event, so a thread that quit on
    // that event could delete its dispatcher while postEvent is still waking it (TSan saw it).
    if (m_thread->isRunning()) {
        std::promise<void> stopped;
        std::future<void> done = stopped.get_future();
        QMetaObject::invokeMethod(
                m_worker,
                [w = m_worker, &stopped] {
                    w->stop();
                    stopped.set_value();
                },
                Qt::QueuedConnection);
        done.wait();
    }
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    m_worker = nullptr;
    delete m_thread;
    m_thread = nullptr;
    m_scoreRefresh.stop();
    const bool wasRunning = isRunning();
    const QString judge = m_judge;
    m_judge.clear();
    if (wasRunning) {
        refreshScores();
        emit finished(judge, false, tr("cancelled"), {});
    }
}

double RunController::etaSeconds(int total) const
{
    if (total < 0)
        total = m_last.total;
    if (!isRunning() || m_doneAtStart < 0 || total <= 0)
        return -1;
    const int answered = m_last.done - m_doneAtStart;
    const double elapsed = m_clock.elapsed() / 1000.0;
    if (answered <= 0 || elapsed <= 0.2)
        return -1;
    return qMax(0.0, (total - m_last.done) * elapsed / answered);
}

void RunController::onWorkerProgress(const RunProgress &progress)
{
    if (!isRunning())
        return;
    if (m_doneAtStart < 0) {
        // Rate is measured from the first report on (cache hits of a resumed run come at once).
        m_doneAtStart = progress.done;
        m_clock.restart();
    }
    m_last = progress;
    m_scoresDirty = true;
    emit progressed(progress);
}

void RunController::onWorkerFinished(bool ok, const QString &error, const QVariantMap &summary)
{
    if (!isRunning())
        return;
    const QString judge = m_judge;
    m_judge.clear();
    m_scoreRefresh.stop();
    refreshScores();
    emit finished(judge, ok, error, summary);
}

void RunController::refreshScores()
{
    m_scoresDirty = false;
    if (ScoreModel *scores = ScoreModel::of(m_project))
        scores->reload();
}

QString RunController::batchText(const RunProgress &p)
{
    const QLocale l;
    QString text;
    for (const BatchStatus &b : p.batches) {
        if (b.state != QLatin1String("submitted") && b.state != QLatin1String("preparing"))
            continue;
        const qint64 s = b.waitedMs / 1000;
        const QString waited = s >= 60 ? tr("%1 min %2 s").arg(s / 60).arg(s % 60) : tr("%1 s").arg(s);
        text += QLatin1Char('\n')
                + (b.remoteId.isEmpty() ? tr("Batch being created: %1 calls").arg(l.toString(b.requests))
                                        : tr("Batch %1 (%2): %3 / %4 answered, waiting for %5")
                                                  .arg(b.remoteId, b.remoteStatus.isEmpty() ? b.state : b.remoteStatus,
                                                       l.toString(b.completed), l.toString(b.requests), waited));
    }
    return text;
}

} // namespace rubric
