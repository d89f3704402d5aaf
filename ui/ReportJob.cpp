#include "ReportJob.h"

#include "ReportWriter.h"
#include "store/Project.h"

#include <QPromise>
#include <QtConcurrent>

namespace rubric {

ReportJob::ReportJob(QObject *parent)
    : QObject(parent)
{
}

ReportJob::~ReportJob()
{
    cancel();
}

bool ReportJob::isRunning() const
{
    return m_watcher && m_watcher->isRunning();
}

void ReportJob::cancel()
{
    m_stop.request_stop();
    ++m_generation;
    if (m_watcher)
        m_watcher->disconnect(this);
}

void ReportJob::start(const QString &projectPath, const QString &outPath, report::ReportOptions options)
{
    cancel();
    m_stop = std::stop_source();
    options.stop = m_stop.get_token();
    const quint64 generation = m_generation;
    m_outPath = outPath;
    // Progress and the result travel through the future (QPromise → QFutureWatcher), which Qt hands to
    // this thread: the worker holds no pointer to this object, so a job deleted meanwhile is never
    // touched from the worker (ThreadSanitizer found a QPointer shared with it).
    // A superseded worker runs to its end unobserved (its watcher goes; the future does not wait).
    m_watcher = std::make_unique<QFutureWatcher<QString>>();
    QFutureWatcher<QString> *watcher = m_watcher.get();
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher, generation](int done) {
        if (generation == m_generation)
            emit progressed(done, watcher->progressMaximum());
    });
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, generation] {
        if (generation != m_generation)
            return;
        emit finished(m_outPath,
                      watcher->future().resultCount() > 0 ? watcher->result() : tr("the report was not written"));
    });
    watcher->setFuture(QtConcurrent::run([projectPath, outPath, options](QPromise<QString> &promise) {
        const auto progress = [&promise, total = -1](int done, int of) mutable {
            if (of != total) {
                total = of;
                promise.setProgressRange(0, of);
            }
            promise.setProgressValue(done);
        };
        auto project = Project::open(projectPath, Project::OpenMode::OpenExisting);
        if (!project) {
            promise.addResult(project.errorString());
            return;
        }
        const auto doc = report::ReportBuilder::build(**project, options, progress);
        if (!doc) {
            promise.addResult(doc.errorString());
            return;
        }
        auto r = report::ReportWriter::write(*doc, outPath);
        promise.addResult(r ? QString() : r.errorString());
    }));
}

} // namespace rubric
