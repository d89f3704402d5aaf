#include "ReportJob.h"

#include "ReportWriter.h"
#include "store/Project.h"

#include <QPointer>
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
    QPointer<ReportJob> self(this);
    const auto progress = [self, generation](int done, int total) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
                self.data(),
                [self, generation, done, total] {
                    if (self && self->m_generation == generation)
                        emit self->progressed(done, total);
                },
                Qt::QueuedConnection);
    };
    // A superseded worker runs to its end unobserved (its watcher goes; the future does not wait).
    m_watcher = std::make_unique<QFutureWatcher<QString>>();
    connect(m_watcher.get(), &QFutureWatcher<QString>::finished, this, [this, generation] {
        if (generation != m_generation)
            return;
        emit finished(m_outPath, m_watcher->result());
    });
    m_watcher->setFuture(QtConcurrent::run([projectPath, outPath, options, progress]() -> QString {
        auto project = Project::open(projectPath, Project::OpenMode::OpenExisting);
        if (!project)
            return project.errorString();
        const auto doc = report::ReportBuilder::build(**project, options, progress);
        if (!doc)
            return doc.errorString();
        if (auto r = report::ReportWriter::write(*doc, outPath); !r)
            return r.errorString();
        return QString();
    }));
}

} // namespace rubric
