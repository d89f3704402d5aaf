#pragma once

#include "store/Project.h"
#include "util/Result.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QTreeWidget>

namespace rubric {

/// The Run pane's list of the project's runs: judge, method, aspects, status and the items each
/// scored. The names, methods, statuses and aspects are read at once (a few index probes); the
/// items are counted on the thread pool (one pass over every score row: about a second at a
/// million items) while the column shows "…", so the event loop never waits for a count. One
/// count at a time: a refill while one runs counts again when it is done. The row of a judge
/// carries its name in Qt::UserRole of column 0. Bound through setProject() (not owned; a
/// count in flight is waited for before the project is let go); GUI thread only.
class RunList : public QTreeWidget
{
    Q_OBJECT
public:
    enum Column { JudgeColumn, MethodColumn, AspectColumn, StatusColumn, ItemsColumn };

    explicit RunList(QWidget *parent = nullptr);
    ~RunList() override;

    void setProject(Project *project);
    /// Reads the runs again (the selected judge stays selected) and starts counting their items.
    /// Error: the runs could not be read (the list is then empty).
    Result<void> refill();
    /// The name of the selected run, empty without one.
    QString selectedRun() const;
    /// Whether item counts are being read (the Items column shows "…" until they are).
    bool counting() const;

signals:
    /// The Items column shows the counts of the last refill.
    void countsShown();
    /// Counting the items failed (the column keeps "…"); `message` says why.
    void countFailed(const QString &message);

private:
    void startCount();
    void onCounted();
    void waitForCount();

    QPointer<Project> m_project;
    QFutureWatcher<Result<QVector<JudgeInfo>>> m_count;
    quint64 m_generation = 0;  ///< of the project bound; a count of an earlier one is dropped
    bool m_countAgain = false; ///< a refill came while a count ran
};

} // namespace rubric
