#include "CorrelationModel.h"

#include "PlainText.h"
#include "stats/ProjectData.h"
#include "store/ScoreGridStore.h"
#include "store/WorkerProject.h"

#include <QPromise>
#include <QtConcurrent>

#include <cmath>

namespace rubric {
namespace {

QString number(double v)
{
    return std::isnan(v) ? QCoreApplication::translate("rubric::CorrelationModel", "n/a") : QString::number(v, 'f', 4);
}

} // namespace

QThreadPool *CorrelationModel::bootstrapPool()
{
    // bootstrapCorrelation fans out on a pool of its own and waits for it; the tasks that call it
    // stay off the global pool, which Qt's raster painting waits on.
    static QThreadPool pool;
    // A task still running when the application ends would use the thread pools after
    // QCoreApplication deleted it: the application drains this pool first, once, on its way out
    // (post routines run before that). Owners that go away only request a stop and never wait.
    static const bool drainAtExit = [] {
        pool.setMaxThreadCount(2);
        qAddPostRoutine([] { pool.waitForDone(); });
        return true;
    }();
    Q_UNUSED(drainAtExit);
    return &pool;
}

CorrelationModel::CorrelationModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(100);
    connect(&m_refresh, &QTimer::timeout, this, &CorrelationModel::reload);
    connect(&m_watcher, &QFutureWatcherBase::resultReadyAt, this, &CorrelationModel::onResult);
    connect(&m_watcher, &QFutureWatcherBase::started, this, [this] { emit computingChanged(true); });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_watcher.property("generation").toULongLong() != m_generation)
            return;      // a superseded setting's work; the current one's watcher has started again
        if (m_pending) { // the work ended without coefficients (stopped): none will come
            m_pending = false;
            if (!m_rows.isEmpty())
                emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
        } else if (!m_rows.isEmpty()) {
            emit dataChanged(index(0, IntervalColumn), index(int(m_rows.size()) - 1, IntervalColumn)); // n/a now
        }
        emit computingChanged(false);
    });
}

void CorrelationModel::onResult(int index)
{
    if (m_watcher.property("generation").toULongLong() != m_generation)
        return; // a superseded setting's result
    const Update u = m_watcher.resultAt(index);
    if (!u.intervals) {
        m_pending = false;
        for (int r = 0; r < m_rows.size(); ++r) {
            if (!u.error.isEmpty())
                m_rows[r].error = u.error;
            else if (r < u.coefficients.size())
                m_rows[r].c = u.coefficients[r];
        }
        if (!m_rows.isEmpty())
            emit dataChanged(this->index(0, 0), this->index(int(m_rows.size()) - 1, ColumnCount - 1));
        emit coefficientsReady();
        return;
    }
    if (m_watcher.property("intervalGeneration").toULongLong() != m_intervalGeneration)
        return; // stopped by stopBootstrap
    for (int r = 0; r < m_rows.size() && r < u.pearsonCi.size(); ++r)
        m_rows[r].pearsonCi = u.pearsonCi[r];
    if (!m_rows.isEmpty())
        emit dataChanged(this->index(0, IntervalColumn), this->index(int(m_rows.size()) - 1, IntervalColumn));
    emit intervalsReady();
}

CorrelationModel::~CorrelationModel()
{
    // Running work stops between replicates; it reads only its own connection and copies, and its
    // result is dropped (the watcher is disconnected). No wait here: bootstrapPool() is drained at exit.
    m_stop.request_stop();
    m_bootstrapStop.request_stop();
    m_watcher.disconnect(this);
}

void CorrelationModel::stopBootstrap()
{
    ++m_intervalGeneration; // its (empty) result is dropped; the coefficients still come
    m_bootstrapStop.request_stop();
}

void CorrelationModel::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project) {
        // A split that cannot be read is an error, not "all items" (that would mix train and test).
        const auto def = stats::defaultSplitFilter(*m_project);
        m_split = def ? *def : SplitFilter::All;
        m_splitError = def ? QString() : def.errorString();
        const auto start = [this] { m_refresh.start(); };
        connect(m_project, &Project::judgesChanged, this, start);
        connect(m_project, &Project::annotationChanged, this, start);
        connect(m_project, &Project::annotationsReset, this, start);
        connect(m_project, &Project::splitChanged, this, start);
        connect(m_project, &Project::itemsChanged, this, start);
    }
    reload();
}

void CorrelationModel::setAspect(const QString &aspect)
{
    if (aspect == m_aspect)
        return;
    m_aspect = aspect;
    reload();
}

void CorrelationModel::setLevel(stats::Level level)
{
    if (level == m_level)
        return;
    m_level = level;
    reload();
}

void CorrelationModel::setSplit(SplitFilter split)
{
    if (split == m_split)
        return;
    m_split = split;
    m_splitError.clear(); // chosen, not defaulted
    reload();
}

void CorrelationModel::setConstantGroups(stats::ConstantGroups rule)
{
    if (rule == m_constantGroups)
        return;
    m_constantGroups = rule;
    reload();
}

stats::LevelCorrelation CorrelationModel::correlation(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].c : stats::LevelCorrelation();
}

QString CorrelationModel::rowError(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].error : QString();
}

void CorrelationModel::setSelection(const QString &aspect, stats::Level level, SplitFilter split)
{
    if (aspect == m_aspect && level == m_level && split == m_split)
        return;
    m_aspect = aspect;
    m_level = level;
    m_split = split;
    reload();
}

void CorrelationModel::setBootstrap(int resamples, quint64 seed)
{
    m_resamples = resamples;
    m_seed = seed;
    reload();
}

int CorrelationModel::rowOfJudge(const QString &judge) const
{
    for (int r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].judge == judge)
            return r;
    return -1;
}

void CorrelationModel::reload()
{
    m_refresh.stop();
    ++m_generation;
    ++m_intervalGeneration;
    m_stop.request_stop(); // a superseded setting's result would be dropped anyway
    m_bootstrapStop.request_stop();
    m_stop = std::stop_source();
    m_bootstrapStop = std::stop_source();
    QVector<Row> rows;
    m_error.clear();
    QVector<JudgeInfo> judges;
    if (m_project && !m_aspect.isEmpty() && !m_splitError.isEmpty()) {
        m_error = m_splitError;
    } else if (m_project && !m_aspect.isEmpty()) {
        // A project that cannot be read says so (it does not look like one without judges). The
        // judges and the aspects they score are a few index probes: the GUI thread lists them.
        auto read = ScoreGridStore(m_project).judges();
        if (read)
            judges = std::move(read).value();
        else
            m_error = read.errorString();
    }
    QStringList names;
    for (const JudgeInfo &j : std::as_const(judges)) {
        if (!j.aspects.contains(m_aspect))
            continue;
        Row row;
        row.judge = j.name;
        row.method = j.method;
        names.append(j.name);
        rows.append(std::move(row));
    }
    m_pending = !rows.isEmpty();
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
    if (m_rows.isEmpty())
        return;

    // The worker opens the file itself and reads the columns `rubric correlate` reads, for every
    // judge in one query (a judge's column does not depend on the others: the rows are the
    // split's items with a human score); it never touches the Project object, which may be
    // replaced (or deleted) while it runs.
    const QString path = m_project->path();
    const QString aspect = m_aspect;
    const stats::Level level = m_level;
    const SplitFilter split = m_split;
    const stats::ConstantGroups rule = m_constantGroups;
    const int resamples = m_resamples;
    const quint64 seed = m_seed;
    const std::stop_token stop = m_stop.get_token();
    const std::stop_token bootstrapStop = m_bootstrapStop.get_token();
    m_watcher.setProperty("generation", m_generation);
    m_watcher.setProperty("intervalGeneration", m_intervalGeneration);
    m_watcher.setFuture(QtConcurrent::run(bootstrapPool(), [=](QPromise<Update> &promise) {
        Update coefficients;
        const auto project = openForWorker(path);
        if (!project) {
            coefficients.error = project.errorString();
            promise.addResult(std::move(coefficients));
            return;
        }
        const auto columns = stats::gatherColumns(**project, aspect, names, split);
        if (!columns) {
            coefficients.error = columns.errorString();
            promise.addResult(std::move(coefficients));
            return;
        }
        for (int k = 0; k < names.size() && !stop.stop_requested(); ++k)
            coefficients.coefficients.append(stats::correlateAtLevel(*columns, k, level, rule));
        if (stop.stop_requested())
            return;
        promise.addResult(std::move(coefficients));
        if (resamples <= 0)
            return;
        // The pane shows Pearson's interval alone: the other coefficients are not resampled.
        // Replicate i draws the same units whatever is resampled, so the interval is the one
        // `rubric correlate --bootstrap` prints.
        stats::BootstrapOptions options{resamples,     seed, 0.95,
                                        bootstrapStop, rule, stats::coefficientBit(stats::Coefficient::Pearson)};
        Update intervals;
        intervals.intervals = true;
        for (int k = 0; k < names.size(); ++k) {
            if (stop.stop_requested() || bootstrapStop.stop_requested())
                return;
            intervals.pearsonCi.append(
                    stats::bootstrapCorrelation(*columns, k, level, options)[stats::Coefficient::Pearson]);
        }
        if (!stop.stop_requested() && !bootstrapStop.stop_requested())
            promise.addResult(std::move(intervals));
    }));
}

int CorrelationModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CorrelationModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CorrelationModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[index.row()];
    const bool intervalKnown = !std::isnan(row.pearsonCi.lo);
    if (role == JudgeNameRole)
        return row.judge;
    if (role == Qt::ToolTipRole && !row.error.isEmpty())
        return plain::toolTip(row.error);
    if (role == IntervalLowRole)
        return intervalKnown ? QVariant(row.pearsonCi.lo) : QVariant();
    if (role == IntervalHighRole)
        return intervalKnown ? QVariant(row.pearsonCi.hi) : QVariant();
    if (role != Qt::DisplayRole && role != ValueRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    if (index.column() == JudgeColumn)
        return display ? tr("%1 (%2)").arg(row.judge, row.method) : QVariant(row.judge);
    if (m_pending && row.error.isEmpty()) // the coefficients are being computed
        return display ? QVariant(tr("computing…")) : QVariant();
    if (!row.error.isEmpty())
        return display ? QVariant(tr("n/a")) : QVariant();
    switch (index.column()) {
    case NColumn:
        return row.c.n;
    case PearsonColumn:
        return display ? QVariant(number(row.c.pearson)) : QVariant(row.c.pearson);
    case SpearmanColumn:
        return display ? QVariant(number(row.c.spearman)) : QVariant(row.c.spearman);
    case KendallColumn:
        return display ? QVariant(number(row.c.kendall)) : QVariant(row.c.kendall);
    case IntervalColumn:
        if (!display)
            return {};
        if (intervalKnown)
            return tr("[%1, %2]").arg(number(row.pearsonCi.lo), number(row.pearsonCi.hi));
        return m_watcher.isRunning() ? tr("computing…") : tr("n/a");
    default:
        return {};
    }
}

QVariant CorrelationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case JudgeColumn:
        return tr("Judge");
    case NColumn:
        return tr("n");
    case PearsonColumn:
        return tr("Pearson");
    case SpearmanColumn:
        return tr("Spearman");
    case KendallColumn:
        return tr("Kendall τ-b");
    case IntervalColumn:
        return tr("Pearson 95% CI");
    default:
        return {};
    }
}

} // namespace rubric
