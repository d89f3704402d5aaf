#pragma once

#include "stats/Bootstrap.h"
#include "stats/Levels.h"
#include "store/Project.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

#include <stop_token>

namespace rubric {

/// Judges side by side: one row per judge that scores the aspect, with n and the three
/// coefficients at the chosen level and split, and the bootstrap interval of Pearson's r.
///
/// Coefficients come from the same column path and core functions as `rubric correlate`
/// (gatherColumns, correlateAtLevel and bootstrapCorrelation over StatsColumns: the same figures
/// bit for bit) and are shown with the CLI's four decimals. The GUI thread only lists the judges
/// (a few index probes); the columns are read and the coefficients and intervals computed on the
/// thread pool (QtConcurrent + QFutureWatcher) on a connection of the worker's own, the
/// coefficients first, then the intervals. Until they arrive the cells say "computing…"; a new
/// setting stops the running work and drops its result (generation id). GUI thread; holds a
/// pointer to the project.
class CorrelationModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { JudgeColumn, NColumn, PearsonColumn, SpearmanColumn, KendallColumn, IntervalColumn, ColumnCount };
    enum Role { ValueRole = Qt::UserRole + 1, IntervalLowRole, IntervalHighRole, JudgeNameRole };

    explicit CorrelationModel(QObject *parent = nullptr);
    ~CorrelationModel() override;

    void setProject(Project *project);
    void setAspect(const QString &aspect);
    void setLevel(stats::Level level);
    void setSplit(SplitFilter split);
    /// Group level: what a group with constant scores does (default Skip, as `rubric correlate`).
    void setConstantGroups(stats::ConstantGroups rule);
    stats::ConstantGroups constantGroups() const { return m_constantGroups; }
    /// The coefficients of a row with their group counts (default-constructed for a bad row).
    stats::LevelCorrelation correlation(int row) const;
    /// The error of a row whose scores could not be read (empty when it could).
    QString rowError(int row) const;
    /// Sets aspect, level and split with one recomputation.
    void setSelection(const QString &aspect, stats::Level level, SplitFilter split);
    /// The pool the bootstrap tasks run on (kept off the global pool, which painting uses);
    /// drained once when the application ends.
    static QThreadPool *bootstrapPool();
    /// Bootstrap resamples (0: no intervals) and seed, as `rubric correlate --bootstrap --seed`.
    void setBootstrap(int resamples, quint64 seed = 0);
    QString aspect() const { return m_aspect; }
    stats::Level level() const { return m_level; }
    SplitFilter split() const { return m_split; }
    /// Row of a judge, -1 when not listed.
    int rowOfJudge(const QString &judge) const;
    /// True while coefficients or bootstrap intervals are being computed.
    bool computing() const { return m_watcher.isRunning(); }
    /// True while the coefficients of the current setting have not arrived yet.
    bool coefficientsPending() const { return m_pending; }
    /// Stops a running bootstrap between replicates and drops its result (no intervalsReady);
    /// returns at once. The destructor does it too; an owner with bootstrap work of its own stops
    /// both before it waits on either (their fan-outs share one pool).
    void stopBootstrap();
    void reload();
    /// Why the judges could not be listed (the project cannot be read); empty otherwise.
    QString error() const { return m_error; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    /// The coefficients of the current setting have arrived (or failed: rowError / error).
    void coefficientsReady();
    /// Bootstrap intervals of the current setting have arrived.
    void intervalsReady();
    /// computing() changed.
    void computingChanged(bool computing);

private:
    struct Row
    {
        QString judge;
        QString method;
        QString error;
        stats::LevelCorrelation c;
        stats::Interval pearsonCi;
    };
    /// What the worker hands back: first the coefficients of every judge (or why the columns
    /// could not be read), then the Pearson intervals.
    struct Update
    {
        bool intervals = false;
        QString error;
        QVector<stats::LevelCorrelation> coefficients;
        QVector<stats::Interval> pearsonCi;
    };
    void onResult(int index);
    QPointer<Project> m_project;
    QString m_aspect;
    stats::Level m_level = stats::Level::Dataset;
    SplitFilter m_split = SplitFilter::All;
    stats::ConstantGroups m_constantGroups = stats::ConstantGroups::Skip;
    int m_resamples = 1000;
    quint64 m_seed = 0;
    QVector<Row> m_rows;
    QString m_error;
    QString m_splitError;   ///< why the default split could not be read (until one is chosen)
    bool m_pending = false; ///< the coefficients of the current setting are being computed
    quint64 m_generation = 0;
    quint64 m_intervalGeneration = 0; ///< stopBootstrap drops the intervals, not the coefficients
    std::stop_source m_stop;          ///< of the running work; a new setting or the destructor stops it
    std::stop_source m_bootstrapStop; ///< of its bootstrap alone (stopBootstrap)
    QFutureWatcher<Update> m_watcher;
    QTimer m_refresh;
};

} // namespace rubric
