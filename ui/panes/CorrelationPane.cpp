#include "CorrelationPane.h"

#include "models/CorrelationModel.h"
#include "stats/ProjectData.h"
#include "store/ItemPageStore.h"
#include "store/WorkerProject.h"
#include "widgets/ChartClear.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsItem>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPromise>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric {

/// The scatter's points, drawn by one item. QScatterSeries makes a graphics item per point and
/// adds each to a group whose bounds it recomputes: 20,000 points held the GUI thread for 12 s
/// and 1,500 for over 100 ms; painted here, 5,000 take a few milliseconds. The (empty) series
/// keeps the legend entry and the axes the points are mapped with.
class CorrelationDots : public QGraphicsItem
{
public:
    CorrelationDots(QChart *chart, QScatterSeries *series)
        : QGraphicsItem(chart)
        , m_chart(chart)
        , m_series(series)
    {
    }
    void setPoints(QList<QPointF> points)
    {
        m_points = std::move(points);
        update();
    }
    void plotAreaChanged()
    {
        prepareGeometryChange();
        update();
    }
    QRectF boundingRect() const override { return m_chart->plotArea(); }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        painter->save();
        painter->setClipRect(m_chart->plotArea());
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(QPen(m_series->borderColor(), 1));
        painter->setBrush(m_series->color());
        const double r = m_series->markerSize() / 2;
        for (const QPointF &p : std::as_const(m_points))
            painter->drawEllipse(m_chart->mapToPosition(p, m_series), r, r);
        painter->restore();
    }

private:
    QChart *m_chart;
    QScatterSeries *m_series;
    QList<QPointF> m_points;
};

CorrelationPane::CorrelationPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new CorrelationModel(this))
    , m_level(new QComboBox(this))
    , m_split(new QComboBox(this))
    , m_constantGroups(new QComboBox(this))
    , m_convention(new QLabel(this))
    , m_title(new QLabel(this))
    , m_hover(new QLabel(this))
    , m_scatterChart(new QChart)
    , m_scatterView(new QChartView(m_scatterChart, this))
    , m_points(new QScatterSeries)
    , m_fit(new QLineSeries)
    , m_barChart(new QChart)
    , m_barView(new QChartView(m_barChart, this))
    , m_table(new QTableView(this))
{
    setObjectName(QStringLiteral("correlationPane"));
    m_level->setObjectName(QStringLiteral("correlationLevel"));
    m_split->setObjectName(QStringLiteral("correlationSplit"));
    m_constantGroups->setObjectName(QStringLiteral("correlationConstantGroups"));
    m_convention->setObjectName(QStringLiteral("correlationConvention"));
    m_convention->setTextFormat(Qt::PlainText);
    m_title->setObjectName(QStringLiteral("correlationTitle"));
    m_hover->setObjectName(QStringLiteral("correlationHover"));
    m_hover->setTextFormat(Qt::PlainText); // names the item under the pointer
    m_scatterView->setObjectName(QStringLiteral("correlationScatter"));
    m_barView->setObjectName(QStringLiteral("correlationCriteria"));
    m_table->setObjectName(QStringLiteral("correlationJudges"));

    m_level->addItem(tr("Dataset level"), int(stats::Level::Dataset));
    m_level->addItem(tr("Group level (per document, averaged)"), int(stats::Level::Group));
    m_level->addItem(tr("System level (per-system means)"), int(stats::Level::System));
    m_level->setToolTip(tr("Dataset: one correlation over all items. Group: per group (document / prompt), "
                           "averaged over groups. System: the systems' mean scores correlated."));
    m_constantGroups->addItem(tr("Constant groups: left out"), int(stats::ConstantGroups::Skip));
    m_constantGroups->addItem(tr("Constant groups: count as 1"), int(stats::ConstantGroups::One));
    m_constantGroups->setToolTip(tr("Group level: a group whose scores are all equal has no correlation. Left out: "
                                    "groups with constant human or judge scores are skipped (G-Eval, UniEval). Count "
                                    "as 1: a group with constant human scores counts as 1 and one with constant "
                                    "judge scores is skipped (PairS, HypoEval)."));
    m_convention->setWordWrap(true);
    m_split->addItem(tr("All items"), int(SplitFilter::All));
    m_split->addItem(tr("Train split"), int(SplitFilter::Train));
    m_split->addItem(tr("Test split"), int(SplitFilter::Test));
    m_split->setToolTip(tr("Correlations are reported on the held-out test split by default"));

    m_points->setName(tr("Items"));
    m_points->setMarkerSize(8);
    m_points->setColor(QColor(0x21, 0x91, 0x8c));
    m_points->setBorderColor(QColor(0x21, 0x91, 0x8c).darker(130));
    m_fit->setName(tr("Least-squares fit"));
    m_fit->setPen(QPen(QColor(0xb2, 0x18, 0x2b), 2));
    m_scatterChart->addSeries(m_points);
    m_scatterChart->addSeries(m_fit);
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    x->setTitleText(tr("Human score"));
    y->setTitleText(tr("Judge score"));
    m_scatterChart->addAxis(x, Qt::AlignBottom);
    m_scatterChart->addAxis(y, Qt::AlignLeft);
    for (auto *s : {static_cast<QAbstractSeries *>(m_points), static_cast<QAbstractSeries *>(m_fit)}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    m_scatterChart->legend()->setAlignment(Qt::AlignBottom);
    m_dots = new CorrelationDots(m_scatterChart, m_points);
    connect(m_scatterChart, &QChart::plotAreaChanged, this, [this] { m_dots->plotAreaChanged(); });
    m_scatterView->setRenderHint(QPainter::Antialiasing);
    m_scatterView->setMouseTracking(true);
    m_scatterView->viewport()->setMouseTracking(true);
    m_scatterView->viewport()->installEventFilter(this);
    m_scatterView->setMinimumSize(360, 300);

    m_barChart->setTitle(tr("Pearson per criterion (95% bootstrap interval)"));
    m_barChart->legend()->hide();
    m_barView->setRenderHint(QPainter::Antialiasing);
    m_barView->setMinimumSize(360, 300);

    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setToolTip(tr("Every judge that scores this aspect, at the chosen level and split"));
    m_hover->setText(tr("Point at an item to identify it."));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    bar->addWidget(m_level);
    bar->addWidget(m_constantGroups);
    bar->addWidget(m_split);
    auto *charts = new QSplitter(this);
    m_charts = charts;
    charts->setObjectName(QStringLiteral("correlationChartsSplitter"));
    charts->addWidget(m_scatterView);
    charts->addWidget(m_barView);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_convention);
    layout->addWidget(charts, 3);
    layout->addWidget(m_hover);
    layout->addWidget(m_table, 1);

    connect(m_level, &QComboBox::currentIndexChanged, this, &CorrelationPane::refresh);
    connect(m_split, &QComboBox::currentIndexChanged, this, &CorrelationPane::refresh);
    connect(m_constantGroups, &QComboBox::currentIndexChanged, this, &CorrelationPane::refresh);
    connect(m_model, &QAbstractItemModel::modelReset, this, &CorrelationPane::showConvention);
    connect(&m_watcher, &QFutureWatcherBase::resultReadyAt, this, &CorrelationPane::onChartResult);
    const auto updateBusy = [this] {
        if (busy() != m_busy) {
            m_busy = busy();
            emit busyChanged(m_busy);
        }
    };
    connect(&m_watcher, &QFutureWatcherBase::started, this, updateBusy);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, updateBusy);
    connect(m_model, &CorrelationModel::computingChanged, this, updateBusy);
    connect(m_model, &CorrelationModel::coefficientsReady, this, [this] {
        showConvention();
        updateScatterTitle();
    });
}

CorrelationPane::~CorrelationPane()
{
    // As CorrelationModel: stop a running bootstrap and drop its result, without waiting for it
    // (CorrelationModel::bootstrapPool() is drained when the application ends).
    m_stop.request_stop();
    m_model->stopBootstrap();
    m_watcher.disconnect(this);
}

void CorrelationPane::setProject(Project *project)
{
    if (m_scores)
        disconnect(m_scores, nullptr, this, nullptr);
    m_project = project;
    m_scores = ScoreModel::of(project);
    m_model->setProject(project);
    if (m_scores) {
        connect(m_scores, &ScoreModel::refreshed, this, &CorrelationPane::refresh);
        connect(m_scores, &ScoreModel::judgeChanged, this, &CorrelationPane::refresh);
        connect(m_scores, &ScoreModel::aspectChanged, this, &CorrelationPane::refresh);
    }
    {
        const QSignalBlocker block(m_split);
        // The model keeps the error when the split cannot be read (shown by showConvention).
        const auto def = m_project ? stats::defaultSplitFilter(*m_project) : Result<SplitFilter>(SplitFilter::All);
        m_split->setCurrentIndex(m_split->findData(int(def ? *def : SplitFilter::All)));
    }
    refresh();
}

stats::Level CorrelationPane::level() const
{
    return stats::Level(m_level->currentData().toInt());
}

SplitFilter CorrelationPane::split() const
{
    return SplitFilter(m_split->currentData().toInt());
}

stats::ConstantGroups CorrelationPane::constantGroups() const
{
    return stats::ConstantGroups(m_constantGroups->currentData().toInt());
}

void CorrelationPane::showConvention()
{
    m_constantGroups->setEnabled(level() == stats::Level::Group);
    const int row = m_scores ? m_model->rowOfJudge(m_scores->judge()) : -1;
    if (!m_model->error().isEmpty()) {
        m_convention->setText(tr("Cannot read the project: %1").arg(m_model->error()));
        return;
    }
    if (m_model->coefficientsPending()) {
        m_convention->setText(tr("Computing the correlations…"));
        return;
    }
    if (row >= 0 && !m_model->rowError(row).isEmpty()) {
        m_convention->setText(tr("Cannot read the scores: %1").arg(m_model->rowError(row)));
        return;
    }
    if (level() != stats::Level::Group || row < 0) {
        m_convention->clear();
        return;
    }
    const stats::LevelCorrelation c = m_model->correlation(row);
    m_convention->setText(
            c.constantGroups == stats::ConstantGroups::One
                    ? tr("Group level, PairS/HypoEval convention: a group with constant human scores counts as 1 "
                         "(%1 groups); left out: %2 with constant judge scores, %3 with fewer than 2 items; %4 "
                         "groups averaged.")
                              .arg(c.groupsHumanConstant)
                              .arg(c.groupsJudgeConstant)
                              .arg(c.groupsTooSmall)
                              .arg(c.groupsUsed)
                    : tr("Group level, G-Eval/UniEval convention: groups with constant scores are left out: %1 with "
                         "constant human scores, %2 with constant judge scores, %3 with fewer than 2 items; %4 groups "
                         "averaged.")
                              .arg(c.groupsHumanConstant)
                              .arg(c.groupsJudgeConstant)
                              .arg(c.groupsTooSmall)
                              .arg(c.groupsUsed));
}

QWidget *CorrelationPane::chartWidget() const
{
    return m_scores && !m_scores->judge().isEmpty() ? m_charts : nullptr;
}

QString CorrelationPane::chartTitle() const
{
    if (!m_scores || m_scores->judge().isEmpty())
        return {};
    return tr("%1 vs human on %2 · %3 · %4")
            .arg(m_scores->judge(), m_scores->aspect(), m_level->currentText(), m_split->currentText());
}

QString CorrelationPane::chartFileStem() const
{
    return m_scores ? QStringLiteral("correlation-%1-%2").arg(m_scores->judge(), m_scores->aspect())
                    : QStringLiteral("correlation");
}

bool CorrelationPane::busy() const
{
    return m_watcher.isRunning() || m_model->computing();
}

void CorrelationPane::refresh()
{
    m_model->setConstantGroups(constantGroups());
    m_model->setSelection(m_scores ? m_scores->aspect() : QString(), level(), split());
    showConvention();
    m_title->setText(m_scores && !m_scores->judge().isEmpty()
                             ? tr("<b>%1</b> vs human · %2")
                                       .arg(m_scores->judge().toHtmlEscaped(), m_scores->aspect().toHtmlEscaped())
                             : tr("No judge scores this aspect yet."));
    refreshCharts();
}

namespace {

/// Reads and computes what the charts show, on a worker with a connection of its own: the
/// split's items with a human and a judge score (every one in the fit, at most kMaxDrawn drawn),
/// the axes' scales as the heatmap colours them, and each criterion's Pearson with people over
/// columns (correlateAtLevel and bootstrapCorrelation, as `rubric correlate`).
struct ChartJob
{
    QString path, aspect, judge;
    int columnSet = 0;
    stats::Level level = stats::Level::Dataset;
    SplitFilter split = SplitFilter::All;
    stats::ConstantGroups rule = stats::ConstantGroups::Skip;
    int resamples = 0;
    std::stop_token stop;
};

} // namespace

void CorrelationPane::refreshCharts()
{
    ++m_generation;
    m_stop.request_stop(); // a superseded setting's result would be dropped anyway
    m_stop = std::stop_source();
    m_shown.clear();
    m_bars.clear();
    m_dots->setPoints({});
    m_fit->clear();
    showBars();
    if (!m_scores || !m_project || m_scores->judge().isEmpty()) {
        m_scatterChart->setTitle(tr("Judge vs human"));
        m_points->setName(tr("Items"));
        m_fit->setName(tr("Least-squares fit"));
        return;
    }
    m_scatterChart->setTitle(tr("Judge vs human · computing…"));
    m_barChart->setTitle(tr("Pearson per criterion (95% bootstrap interval) · computing…"));
    ChartJob job;
    job.path = m_project->path();
    job.aspect = m_scores->aspect();
    job.judge = m_scores->judge();
    job.columnSet = m_scores->columnSet();
    job.level = level();
    job.split = split();
    job.rule = constantGroups();
    job.resamples = m_resamples;
    job.stop = m_stop.get_token();
    m_watcher.setProperty("generation", m_generation);
    m_watcher.setFuture(QtConcurrent::run(CorrelationModel::bootstrapPool(), [job](QPromise<Chart> &promise) {
        Chart chart;
        const auto opened = openForWorker(job.path);
        if (!opened) {
            chart.error = opened.errorString();
            promise.addResult(std::move(chart));
            return;
        }
        Project &project = **opened;
        const auto fail = [&](const QString &error) {
            chart.error = error;
            promise.addResult(std::move(chart));
        };
        // The columns `rubric correlate` reads: the split's items with a human score, in import
        // order, with the judge's score (NaN where it has none) and each item's row id.
        auto read = stats::gatherColumns(project, job.aspect, {job.judge}, job.split);
        if (!read)
            return fail(read.errorString());
        StatsColumns columns = std::move(read).value();
        if (job.stop.stop_requested())
            return;
        const std::vector<double> &human = columns.human;
        const std::vector<double> judge = std::move(columns.judges[0]);
        columns.judges.clear();
        const size_t rows = columns.size();

        // Axes: the aspect's scale; a judge off that scale (ROUGE, length) on its observed range.
        const auto aspect = project.readAspect(job.aspect);
        if (!aspect)
            return fail(aspect.errorString());
        if (*aspect) {
            chart.minX = chart.minY = (*aspect)->min;
            chart.maxX = chart.maxY = (*aspect)->max;
        }
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const double v : judge)
            if (!std::isnan(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        if (std::isfinite(lo) && (lo < chart.minY || hi > chart.maxY) && hi > lo) {
            chart.minY = lo;
            chart.maxY = hi;
        }

        // The points: every one in the fit, at most kMaxDrawn drawn, every k-th in import order
        // (the same ones each time), by CorrelationDots; only the drawn ones' ids are read.
        std::vector<size_t> both;
        for (size_t r = 0; r < rows; ++r)
            if (!std::isnan(judge[r]))
                both.push_back(r);
        chart.points = qsizetype(both.size());
        constexpr qsizetype kMaxDrawn = 5000;
        const qsizetype stride = std::max<qsizetype>(1, (chart.points + kMaxDrawn - 1) / kMaxDrawn);
        QVector<qint64> drawnKeys;
        for (qsizetype k = 0; k < chart.points; k += stride) {
            const size_t r = both[size_t(k)];
            chart.drawn.append(QPointF(human[r], judge[r]));
            drawnKeys.append(columns.rows[r]);
        }
        const auto drawnRows = ItemPageStore(&project).rows(drawnKeys, {}, 0);
        if (!drawnRows)
            return fail(drawnRows.errorString());
        for (const ItemPageRow &row : *drawnRows) // in the order of the keys
            chart.drawnIds.append(row.id);
        if (chart.drawnIds.size() != chart.drawn.size())
            return fail(QStringLiteral("items changed while they were read"));
        // Least-squares line of judge on human over every point.
        if (chart.points >= 2) {
            double mx = 0, my = 0;
            for (const size_t r : both) {
                mx += human[r];
                my += judge[r];
            }
            mx /= double(chart.points);
            my /= double(chart.points);
            double sxy = 0, sxx = 0;
            for (const size_t r : both) {
                sxy += (human[r] - mx) * (judge[r] - my);
                sxx += (human[r] - mx) * (human[r] - mx);
            }
            if (sxx > 0) {
                chart.fitted = true;
                chart.slope = sxy / sxx;
                chart.intercept = my - chart.slope * mx;
            }
        }
        std::vector<size_t>().swap(both);
        if (job.stop.stop_requested())
            return;

        // The criteria as columns beside the judge's (the same rows), each item's means looked
        // up by its id: the ids are read only for a judge with criteria.
        const auto criteria = ScoreModel::readCriterionColumns(&project, job.judge, job.columnSet);
        if (!criteria)
            return fail(criteria.errorString());
        QVector<int> barColumn; // bar → column of `columns`
        if (!criteria->keys.isEmpty()) {
            const qsizetype keys = criteria->keys.size();
            columns.judges.assign(size_t(keys), std::vector<double>(rows, std::numeric_limits<double>::quiet_NaN()));
            constexpr size_t kChunk = 10000;
            for (size_t from = 0; from < rows; from += kChunk) {
                if (job.stop.stop_requested())
                    return;
                const size_t to = std::min(rows, from + kChunk);
                const QVector<qint64> chunk(columns.rows.begin() + qsizetype(from),
                                            columns.rows.begin() + qsizetype(to));
                const auto ids = ItemPageStore(&project).rows(chunk, {}, 0);
                if (!ids)
                    return fail(ids.errorString());
                if (size_t(ids->size()) != to - from)
                    return fail(QStringLiteral("items changed while they were read"));
                for (size_t r = from; r < to; ++r) {
                    const auto perItem = criteria->scores.constFind(ids->at(qsizetype(r - from)).id);
                    if (perItem == criteria->scores.constEnd())
                        continue;
                    for (qsizetype k = 0; k < keys; ++k)
                        columns.judges[size_t(k)][r]
                                = perItem->value(criteria->keys[k], std::numeric_limits<double>::quiet_NaN());
                }
            }
            for (qsizetype k = 0; k < keys; ++k) {
                if (job.stop.stop_requested())
                    return;
                const std::vector<double> &c = columns.judges[size_t(k)];
                const auto scored = std::count_if(c.begin(), c.end(), [](double v) { return !std::isnan(v); });
                // A criterion scored only outside the split (e.g. a hypothesis HypoEval tried on
                // the train items and did not select) has no bar here.
                if (scored < 3)
                    continue;
                chart.bars.append(
                        {criteria->keys[k], stats::correlateAtLevel(columns, int(k), job.level, job.rule).pearson, {}});
                barColumn.append(int(k));
            }
        }
        promise.addResult(chart);
        if (job.resamples <= 0 || chart.bars.isEmpty())
            return;
        Chart intervals;
        intervals.intervals = true;
        intervals.bars = chart.bars;
        stats::BootstrapOptions options{job.resamples, 0,        0.95,
                                        job.stop,      job.rule, stats::coefficientBit(stats::Coefficient::Pearson)};
        for (qsizetype b = 0; b < barColumn.size(); ++b) {
            if (job.stop.stop_requested())
                return;
            intervals.bars[b].ci = stats::bootstrapCorrelation(columns, barColumn[b], job.level,
                                                               options)[stats::Coefficient::Pearson];
        }
        if (!job.stop.stop_requested())
            promise.addResult(std::move(intervals));
    }));
}

void CorrelationPane::onChartResult(int index)
{
    if (m_watcher.property("generation").toULongLong() != m_generation)
        return; // superseded
    const Chart chart = m_watcher.resultAt(index);
    m_barChart->setTitle(tr("Pearson per criterion (95% bootstrap interval)"));
    if (chart.intervals) {
        for (int i = 0; i < m_bars.size() && i < chart.bars.size(); ++i)
            m_bars[i].ci = chart.bars[i].ci;
        showBars();
        emit criterionIntervalsReady();
        return;
    }
    if (!chart.error.isEmpty()) {
        m_scatterChart->setTitle(tr("Judge vs human"));
        m_convention->setText(tr("Cannot read the scores: %1").arg(chart.error));
        return;
    }
    showScatter(chart);
    m_bars = chart.bars;
    showBars();
    emit chartReady();
}

void CorrelationPane::showScatter(const Chart &chart)
{
    m_shown.clear();
    m_shown.reserve(chart.drawn.size());
    for (qsizetype k = 0; k < chart.drawn.size(); ++k)
        m_shown.append({chart.drawnIds[k], chart.drawn[k].x(), chart.drawn[k].y()});
    m_dots->setPoints(chart.drawn);
    m_points->setName(chart.drawn.size() < chart.points
                              ? tr("Items (%1 of %2 drawn)")
                                        .arg(QLocale().toString(chart.drawn.size()), QLocale().toString(chart.points))
                              : tr("Items"));
    QList<QPointF> line;
    if (chart.fitted) {
        line = {QPointF(chart.minX, chart.intercept + chart.slope * chart.minX),
                QPointF(chart.maxX, chart.intercept + chart.slope * chart.maxX)};
        m_fit->setName(tr("Least-squares fit: judge = %1 + %2 × human")
                               .arg(QString::number(chart.intercept, 'f', 2), QString::number(chart.slope, 'f', 2)));
    } else {
        m_fit->setName(tr("Least-squares fit"));
    }
    m_fit->replace(line);
    const auto axes = m_scatterChart->axes();
    for (QAbstractAxis *a : axes) {
        auto *v = static_cast<QValueAxis *>(a);
        if (a->alignment() == Qt::AlignBottom)
            v->setRange(chart.minX - 0.05 * (chart.maxX - chart.minX), chart.maxX + 0.05 * (chart.maxX - chart.minX));
        else
            v->setRange(chart.minY - 0.05 * (chart.maxY - chart.minY), chart.maxY + 0.05 * (chart.maxY - chart.minY));
    }
    updateScatterTitle();
}

void CorrelationPane::updateScatterTitle()
{
    if (m_watcher.isRunning() && m_shown.isEmpty())
        return; // still "computing…"
    const int row = m_scores ? m_model->rowOfJudge(m_scores->judge()) : -1;
    m_scatterChart->setTitle(
            row < 0 || m_model->coefficientsPending()
                    ? tr("Judge vs human")
                    : tr("Judge vs human · Pearson %1 at this level (n = %2)")
                              .arg(m_model->index(row, CorrelationModel::PearsonColumn).data().toString(),
                                   m_model->index(row, CorrelationModel::NColumn).data().toString()));
}

void CorrelationPane::setBootstrap(int resamples)
{
    m_resamples = resamples;
    m_model->setBootstrap(resamples);
    refreshCharts();
}

void CorrelationPane::showBars()
{
    clearChart(m_barChart);
    if (m_bars.isEmpty())
        return;
    auto *set = new QBarSet(tr("Pearson"));
    set->setColor(QColor(0x3b, 0x52, 0x8b));
    QStringList categories;
    for (const CriterionBar &b : std::as_const(m_bars)) {
        *set << (std::isnan(b.pearson) ? 0.0 : b.pearson);
        categories << b.key;
    }
    auto *series = new QBarSeries;
    series->append(set);
    series->setBarWidth(0.6);
    m_barChart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    auto *y = new QValueAxis;
    y->setRange(-1, 1);
    y->setTitleText(tr("Pearson r with human"));
    m_barChart->addAxis(x, Qt::AlignBottom);
    m_barChart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    // Whiskers: one short vertical line per interval, drawn over its bar.
    for (int i = 0; i < m_bars.size(); ++i) {
        const stats::Interval &ci = m_bars[i].ci;
        if (std::isnan(ci.lo) || std::isnan(ci.hi))
            continue;
        auto *w = new QLineSeries;
        w->setPen(QPen(Qt::black, 2));
        w->append({QPointF(i - 0.1, ci.lo), QPointF(i + 0.1, ci.lo), QPointF(i, ci.lo), QPointF(i, ci.hi),
                   QPointF(i - 0.1, ci.hi), QPointF(i + 0.1, ci.hi)});
        m_barChart->addSeries(w);
        w->attachAxis(x);
        w->attachAxis(y);
    }
}

QPoint CorrelationPane::scatterPosition(const QString &itemId) const
{
    for (const Point &p : m_shown) {
        if (p.id == itemId) {
            const QPointF scene = m_scatterChart->mapToPosition(QPointF(p.human, p.judge), m_points);
            return m_scatterView->mapFromScene(m_scatterChart->mapToScene(scene));
        }
    }
    return {-1, -1};
}

bool CorrelationPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_scatterView->viewport() && event->type() == QEvent::MouseMove)
        onHover(static_cast<QMouseEvent *>(event)->position().toPoint());
    return QWidget::eventFilter(watched, event);
}

void CorrelationPane::onHover(const QPoint &viewportPos)
{
    // The nearest point within a few pixels names its item (several items may share a point).
    constexpr double radius = 8;
    QStringList ids;
    double best = radius * radius;
    const Point *nearest = nullptr;
    for (const Point &p : std::as_const(m_shown)) {
        const QPointF pos = m_scatterView->mapFromScene(
                m_scatterChart->mapToScene(m_scatterChart->mapToPosition(QPointF(p.human, p.judge), m_points)));
        const double d = QPointF::dotProduct(pos - viewportPos, pos - viewportPos);
        if (d <= radius * radius)
            ids << p.id;
        if (d <= best) {
            best = d;
            nearest = &p;
        }
    }
    if (!nearest) {
        QToolTip::hideText();
        return;
    }
    QString text = tr("%1 — human %2, judge %3")
                           .arg(nearest->id, QString::number(nearest->human, 'f', 2),
                                QString::number(nearest->judge, 'f', 2));
    if (ids.size() > 1)
        text += tr(" (and %1 more here)").arg(ids.size() - 1);
    m_hover->setText(text);
    QToolTip::showText(m_scatterView->viewport()->mapToGlobal(viewportPos), text, m_scatterView);
}

} // namespace rubric
