#include "CorrelationPane.h"

#include "models/CorrelationModel.h"
#include "stats/ProjectData.h"
#include "widgets/ChartClear.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent>

#include <cmath>
#include <limits>

namespace rubric {

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
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_watcher.property("generation").toULongLong() != m_generation)
            return; // superseded
        const auto cis = m_watcher.result();
        for (int i = 0; i < m_bars.size() && i < cis.size(); ++i)
            m_bars[i].ci = cis[i];
        showBars();
        emit criterionIntervalsReady();
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

void CorrelationPane::refresh()
{
    m_model->setConstantGroups(constantGroups());
    m_model->setSelection(m_scores ? m_scores->aspect() : QString(), level(), split());
    showConvention();
    m_title->setText(m_scores && !m_scores->judge().isEmpty()
                             ? tr("<b>%1</b> vs human · %2")
                                       .arg(m_scores->judge().toHtmlEscaped(), m_scores->aspect().toHtmlEscaped())
                             : tr("No judge scores this aspect yet."));
    refreshScatter();
    refreshCriteria();
}

void CorrelationPane::refreshScatter()
{
    m_shown.clear();
    QList<QPointF> pts;
    QVector<int> rows;
    const SplitFilter filter = split();
    if (m_scores) {
        for (int r = 0; r < m_scores->rowCount(); ++r) {
            const SplitRole role = m_scores->splitRole(r);
            if ((filter == SplitFilter::Train && role != SplitRole::Train)
                || (filter == SplitFilter::Test && role != SplitRole::Test))
                continue;
            const double h = m_scores->score(r, ScoreModel::HumanColumn);
            const double j = m_scores->score(r, ScoreModel::JudgeColumn);
            if (std::isnan(h) || std::isnan(j))
                continue;
            rows.append(r);
            pts.append(QPointF(h, j));
        }
    }
    // A chart item per point: a million of them would take gigabytes and minutes. At most
    // kMaxDrawn points are drawn, every k-th in import order (the same ones each time); the fit
    // and the coefficients use them all.
    constexpr qsizetype kMaxDrawn = 20000;
    const qsizetype stride = (pts.size() + kMaxDrawn - 1) / kMaxDrawn;
    QList<QPointF> drawn;
    drawn.reserve(std::min(pts.size(), kMaxDrawn));
    for (qsizetype k = 0; k < pts.size(); k += std::max<qsizetype>(1, stride)) {
        drawn.append(pts[k]);
        m_shown.append({m_scores->itemId(rows[k]), pts[k].x(), pts[k].y()});
    }
    m_points->replace(drawn);
    m_points->setName(
            drawn.size() < pts.size()
                    ? tr("Items (%1 of %2 drawn)").arg(QLocale().toString(drawn.size()), QLocale().toString(pts.size()))
                    : tr("Items"));

    // Least-squares line of judge on human over the points shown.
    double minX = 1, maxX = 5, minY = 1, maxY = 5;
    if (m_scores && m_scores->columnCount() > 0) {
        minX = minY
                = m_scores->headerData(ScoreModel::HumanColumn, Qt::Horizontal, ScoreModel::ScaleMinRole).toDouble();
        maxX = maxY
                = m_scores->headerData(ScoreModel::HumanColumn, Qt::Horizontal, ScoreModel::ScaleMaxRole).toDouble();
        // The judge axis follows the judge column's scale: the aspect's for LLM judges, the
        // observed range for judges on another scale (ROUGE, length).
        if (m_scores->columnCount() > ScoreModel::JudgeColumn) {
            minY = m_scores->headerData(ScoreModel::JudgeColumn, Qt::Horizontal, ScoreModel::ScaleMinRole).toDouble();
            maxY = m_scores->headerData(ScoreModel::JudgeColumn, Qt::Horizontal, ScoreModel::ScaleMaxRole).toDouble();
        }
    }
    QList<QPointF> line;
    if (pts.size() >= 2) {
        double mx = 0, my = 0;
        for (const QPointF &p : pts) {
            mx += p.x();
            my += p.y();
        }
        mx /= pts.size();
        my /= pts.size();
        double sxy = 0, sxx = 0;
        for (const QPointF &p : pts) {
            sxy += (p.x() - mx) * (p.y() - my);
            sxx += (p.x() - mx) * (p.x() - mx);
        }
        if (sxx > 0) {
            const double slope = sxy / sxx;
            line = {QPointF(minX, my + slope * (minX - mx)), QPointF(maxX, my + slope * (maxX - mx))};
            m_fit->setName(tr("Least-squares fit: judge = %1 + %2 × human")
                                   .arg(QString::number(my - slope * mx, 'f', 2), QString::number(slope, 'f', 2)));
        }
    }
    m_fit->replace(line);
    const auto axes = m_scatterChart->axes();
    for (QAbstractAxis *a : axes) {
        auto *v = static_cast<QValueAxis *>(a);
        if (a->alignment() == Qt::AlignBottom)
            v->setRange(minX - 0.05 * (maxX - minX), maxX + 0.05 * (maxX - minX));
        else
            v->setRange(minY - 0.05 * (maxY - minY), maxY + 0.05 * (maxY - minY));
    }
    const int row = m_scores ? m_model->rowOfJudge(m_scores->judge()) : -1;
    m_scatterChart->setTitle(
            row < 0 ? tr("Judge vs human")
                    : tr("Judge vs human · Pearson %1 at this level (n = %2)")
                              .arg(m_model->index(row, CorrelationModel::PearsonColumn).data().toString(),
                                   m_model->index(row, CorrelationModel::NColumn).data().toString()));
}

void CorrelationPane::setBootstrap(int resamples)
{
    m_resamples = resamples;
    m_model->setBootstrap(resamples);
    refreshCriteria();
}

void CorrelationPane::refreshCriteria()
{
    ++m_generation;
    m_stop.request_stop(); // a superseded bootstrap's result would be dropped anyway
    m_stop = std::stop_source();
    m_bars.clear();
    m_barInputs.clear();
    const SplitFilter filter = split();
    const stats::Level lvl = level();
    if (m_scores) {
        const QStringList keys = m_scores->criterionKeys();
        for (int k = 0; k < keys.size(); ++k) {
            const int col = ScoreModel::FirstCriterionColumn + k;
            QVector<stats::ScoredItem> items;
            for (int r = 0; r < m_scores->rowCount(); ++r) {
                const SplitRole role = m_scores->splitRole(r);
                if ((filter == SplitFilter::Train && role != SplitRole::Train)
                    || (filter == SplitFilter::Test && role != SplitRole::Test))
                    continue;
                const double h = m_scores->score(r, ScoreModel::HumanColumn);
                const double c = m_scores->score(r, col);
                if (std::isnan(h) || std::isnan(c))
                    continue;
                items.append({m_scores->itemId(r), m_scores->group(r), m_scores->system(r), h, c});
            }
            // A criterion scored only outside the split (e.g. a hypothesis HypoEval tried on the
            // train items and did not select) has no bar here.
            if (items.size() < 3)
                continue;
            m_bars.append({keys[k], stats::correlateAtLevel(items, lvl, constantGroups()).pearson, {}});
            m_barInputs.append(items);
        }
    }
    showBars();
    if (m_barInputs.isEmpty() || m_resamples <= 0)
        return;
    m_watcher.setProperty("generation", m_generation);
    m_watcher.setFuture(CorrelationModel::startPearsonIntervals(
            m_barInputs, lvl, {m_resamples, 0, 0.95, m_stop.get_token(), constantGroups()}));
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
