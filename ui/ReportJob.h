#pragma once

#include "report/ReportBuilder.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <stop_token>

namespace rubric {

/// File → Report…: builds and writes a report off the GUI thread (QtConcurrent). The worker opens
/// its own connection to the project file by path, so closing or switching the project while it
/// runs cannot pull the data from under it. Progress and the result come through the future; a new start
/// or the job's destruction cancels the running report (its late result is dropped).
class ReportJob : public QObject
{
    Q_OBJECT
public:
    explicit ReportJob(QObject *parent = nullptr);
    ~ReportJob() override;

    /// Starts writing the report of `projectPath` to `outPath` (.html, .pdf or a folder).
    void start(const QString &projectPath, const QString &outPath, report::ReportOptions options);
    bool isRunning() const;
    void cancel();

signals:
    void progressed(int done, int total);
    /// `error` is empty on success.
    void finished(const QString &outPath, const QString &error);

private:
    std::unique_ptr<QFutureWatcher<QString>> m_watcher;
    std::stop_source m_stop;
    quint64 m_generation = 0;
    QString m_outPath;
};

} // namespace rubric
