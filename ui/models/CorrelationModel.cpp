#include "CorrelationModel.h"

#include "PlainText.h"
#include "stats/ProjectData.h"
#include "store/ScoreGridStore.h"

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
    // bootstrapCorrelation fans out on the global pool and waits for it; the task that calls it
    // must not take a global-pool thread itself, or concurrent calls starve each other.
    static QThreadPool pool;
    // A task still running when the application ends would use the global pool after
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

QFuture<QVector<stats::Interval>> CorrelationModel::startPearsonIntervals(QVector<QVector<stats::ScoredItem>> inputs,
                                                                          stats::Level level,
                                                                          stats::BootstrapOptions options)
{
    return QtConcurrent::run(bootstrapPool(), [inputs = std::move(inputs), level, options] {
        QVector<stats::Interval> out;
        for (const auto &items : inputs) {
            if (options.stop.stop_requested())
                break;
            out.append(stats::bootstrapCorrelation(items, level, options)[stats::Coefficient::Pearson]);
        }
        return out;
    });
}

CorrelationModel::CorrelationModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(100);
    connect(&m_refresh, &QTimer::timeout, this, &CorrelationModel::reload);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        const quint64 generation = m_watcher.property("generation").toULongLong();
        if (generation != m_generation || m_watcher.isCanceled())
            return; // a superseded setting's result
        const QVector<stats::Interval> cis = m_watcher.result();
        for (int r = 0; r < m_rows.size() && r < cis.size(); ++r)
            m_rows[r].pearsonCi = cis[r];
        if (!m_rows.isEmpty())
            emit dataChanged(index(0, IntervalColumn), index(int(m_rows.size()) - 1, IntervalColumn));
        emit intervalsReady();
    });
}

CorrelationModel::~CorrelationModel()
{
    // A running bootstrap stops between replicates; it reads only its own copies, and its result
    // is dropped (the watcher is disconnected). No wait here: bootstrapPool() is drained at exit.
    m_stop.request_stop();
    m_watcher.disconnect(this);
}

void CorrelationModel::stopBootstrap()
{
    ++m_generation; // its (empty) result is dropped like a superseded one
    m_stop.request_stop();
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
    m_stop.request_stop(); // a superseded bootstrap's result would be dropped anyway
    m_stop = std::stop_source();
    QVector<Row> rows;
    m_error.clear();
    QVector<JudgeInfo> judges;
    if (m_project && !m_aspect.isEmpty() && !m_splitError.isEmpty()) {
        m_error = m_splitError;
    } else if (m_project && !m_aspect.isEmpty()) {
        // A project that cannot be read says so (it does not look like one without judges).
        auto read = ScoreGridStore(m_project).judges();
        if (read)
            judges = std::move(read).value();
        else
            m_error = read.errorString();
    }
    if (m_project && !m_aspect.isEmpty()) {
        for (const JudgeInfo &j : std::as_const(judges)) {
            if (!j.aspects.contains(m_aspect))
                continue;
            Row row;
            row.judge = j.name;
            row.method = j.method;
            auto items = stats::gatherScores(*m_project, m_aspect, j.name, m_split);
            if (items) {
                row.items = std::move(items).value();
                row.c = stats::correlateAtLevel(row.items, m_level, m_constantGroups);
            } else {
                row.error = items.errorString();
            }
            rows.append(std::move(row));
        }
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();

    if (m_resamples <= 0 || m_rows.isEmpty())
        return;
    QVector<QVector<stats::ScoredItem>> inputs;
    for (const Row &r : std::as_const(m_rows))
        inputs.append(r.items);
    m_watcher.setProperty("generation", m_generation);
    m_watcher.setFuture(startPearsonIntervals(std::move(inputs), m_level,
                                              {m_resamples, m_seed, 0.95, m_stop.get_token(), m_constantGroups}));
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
    switch (index.column()) {
    case JudgeColumn:
        return display ? tr("%1 (%2)").arg(row.judge, row.method) : QVariant(row.judge);
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
