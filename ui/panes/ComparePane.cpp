#include "ComparePane.h"

#include "models/CorrelationModel.h"
#include "stats/ProjectData.h"
#include "store/ScoreGridStore.h"
#include "store/WorkerProject.h"
#include "widgets/ChartClear.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QPushButton>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr int kSortRole = Qt::UserRole + 1;

constexpr int kIntervalColumn = 6; ///< judge, method, aspect, three coefficients, then the interval

QStandardItem *textCell(const QString &text)
{
    auto *item = new QStandardItem(text);
    item->setData(text, kSortRole);
    item->setEditable(false);
    return item;
}

/// Shown with the digits every output uses; sorted by the value (undefined last when descending).
QStandardItem *numberCell(const QString &text, double value)
{
    auto *item = new QStandardItem(text);
    item->setData(std::isnan(value) ? -std::numeric_limits<double>::infinity() : value, kSortRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setEditable(false);
    return item;
}

QColor judgeColor(int i)
{
    static const QColor colors[]
            = {QColor(0x21, 0x66, 0xac), QColor(0xb2, 0x18, 0x2b), QColor(0x1b, 0x9e, 0x77), QColor(0x75, 0x70, 0xb3),
               QColor(0xd9, 0x5f, 0x02), QColor(0x66, 0xa6, 0x1e), QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0x66, 0x66)};
    return colors[i % int(std::size(colors))];
}

} // namespace

ComparePane::ComparePane(QWidget *parent)
    : QWidget(parent)
    , m_aspect(new QComboBox(this))
    , m_level(new QComboBox(this))
    , m_split(new QComboBox(this))
    , m_coefficient(new QComboBox(this))
    , m_axis(new QComboBox(this))
    , m_judgeA(new QComboBox(this))
    , m_judgeB(new QComboBox(this))
    , m_export(new QPushButton(tr("Export table"), this))
    , m_status(new QLabel(this))
    , m_ceiling(new QLabel(this))
    , m_words(new QLabel(this))
    , m_chartNote(new QLabel(this))
    , m_model(new QStandardItemModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_chart(new QChart)
    , m_chartView(new QChartView(m_chart, this))
{
    setObjectName(QStringLiteral("comparePane"));
    m_aspect->setObjectName(QStringLiteral("compareAspect"));
    m_level->setObjectName(QStringLiteral("compareLevel"));
    m_split->setObjectName(QStringLiteral("compareSplit"));
    m_coefficient->setObjectName(QStringLiteral("compareCoefficient"));
    m_axis->setObjectName(QStringLiteral("compareAxis"));
    m_judgeA->setObjectName(QStringLiteral("compareJudgeA"));
    m_judgeB->setObjectName(QStringLiteral("compareJudgeB"));
    m_export->setObjectName(QStringLiteral("compareExport"));
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_ceiling->setObjectName(QStringLiteral("compareCeiling"));
    m_words->setObjectName(QStringLiteral("compareWords"));
    m_chartNote->setObjectName(QStringLiteral("compareChartNote"));
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_chartView->setObjectName(QStringLiteral("compareChart"));

    m_level->addItem(tr("Dataset level"), int(stats::Level::Dataset));
    m_level->addItem(tr("Group level (per document, averaged)"), int(stats::Level::Group));
    m_level->addItem(tr("System level (per-system means)"), int(stats::Level::System));
    m_split->addItem(tr("All items"), int(SplitFilter::All));
    m_split->addItem(tr("Train split"), int(SplitFilter::Train));
    m_split->addItem(tr("Test split"), int(SplitFilter::Test));
    m_coefficient->addItem(tr("Pearson"), int(stats::Coefficient::Pearson));
    m_coefficient->addItem(tr("Spearman"), int(stats::Coefficient::Spearman));
    m_coefficient->addItem(tr("Kendall τ-b"), int(stats::Coefficient::Kendall));
    m_coefficient->setToolTip(tr("The coefficient whose bootstrap interval the table shows, that the chart plots and "
                                 "that the two judges are compared on"));
    m_axis->addItem(tr("Cost per item"));
    m_axis->addItem(tr("Calls per item"));
    m_judgeA->setToolTip(tr("First judge of the pair to test"));
    m_judgeB->setToolTip(tr("Second judge of the pair to test"));
    m_aspect->setToolTip(tr("The aspect whose judges the chart, the pair and the export use"));

    auto *menu = new QMenu(m_export);
    menu->addAction(tr("CSV…"), this, [this] { onExport(QStringLiteral("csv")); });
    menu->addAction(tr("LaTeX…"), this, [this] { onExport(QStringLiteral("tex")); });
    menu->addAction(tr("Markdown…"), this, [this] { onExport(QStringLiteral("md")); });
    m_export->setMenu(menu);

    m_model->setHorizontalHeaderLabels({tr("Judge"), tr("Method"), tr("Aspect"), tr("Pearson"), tr("Spearman"),
                                        tr("Kendall τ-b"), tr("95% interval"), tr("n"), tr("Calls / item"),
                                        tr("Cost / item ($)")});
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(kSortRole);
    m_table->setModel(m_sorted);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setToolTip(tr("Every judge × every aspect at the chosen level and split; click a header to sort"));

    for (QComboBox *c : {m_aspect, m_judgeA, m_judgeB})
        c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_words->setWordWrap(true);
    m_words->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ceiling->setWordWrap(true);
    m_chartNote->setWordWrap(true);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(420, 300);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Aspect:"), this));
    bar->addWidget(m_aspect);
    bar->addWidget(m_level);
    bar->addWidget(m_split);
    bar->addWidget(m_coefficient);
    bar->addStretch(1);
    bar->addWidget(m_export);
    auto *pairBar = new QHBoxLayout;
    pairBar->addWidget(new QLabel(tr("Is the difference real? Compare"), this));
    pairBar->addWidget(m_judgeA);
    pairBar->addWidget(new QLabel(tr("with"), this));
    pairBar->addWidget(m_judgeB);
    pairBar->addStretch(1);
    pairBar->addWidget(new QLabel(tr("Chart against:"), this));
    pairBar->addWidget(m_axis);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_table, 1);
    leftLayout->addWidget(m_ceiling);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_chartView, 1);
    rightLayout->addWidget(m_chartNote);
    auto *split = new QSplitter(this);
    split->setObjectName(QStringLiteral("compareSplitter"));
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({960, 400}); // the table's ten columns first

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    layout->addLayout(pairBar);
    layout->addWidget(m_words);

    for (QComboBox *c : {m_level, m_split, m_coefficient})
        connect(c, &QComboBox::currentIndexChanged, this, &ComparePane::refresh);
    connect(m_aspect, &QComboBox::currentIndexChanged, this, [this] {
        showChart();
        comparePair();
    });
    connect(m_axis, &QComboBox::currentIndexChanged, this, &ComparePane::showChart);
    connect(m_judgeA, &QComboBox::currentIndexChanged, this, &ComparePane::comparePair);
    connect(m_judgeB, &QComboBox::currentIndexChanged, this, &ComparePane::comparePair);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_watcher.property("generation").toULongLong() != m_generation)
            return; // superseded
        const auto result = m_watcher.result();
        m_results.clear();
        m_error = result ? QString() : result.errorString();
        if (result)
            m_results = *result;
        showResults();
        emit comparisonsReady();
    });
    connect(&m_pairWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_pairWatcher.property("generation").toULongLong() != m_pairGeneration)
            return;
        const auto result = m_pairWatcher.result();
        if (!result) {
            m_words->setText(tr("Cannot compare the two judges: %1").arg(result.errorString()));
            return;
        }
        m_pair = *result;
        m_words->setText(m_pair.plainWords);
        emit pairReady();
    });
}

ComparePane::~ComparePane()
{
    // Stop a running comparison and drop its result without waiting (the pool is drained at exit).
    m_stop.request_stop();
    m_watcher.disconnect(this);
    m_pairWatcher.disconnect(this);
}

void ComparePane::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project) {
        connect(m_project, &Project::judgesChanged, this, &ComparePane::refresh);
        connect(m_project, &Project::aspectsChanged, this, &ComparePane::refresh);
        connect(m_project, &Project::annotationsReset, this, &ComparePane::refresh);
        connect(m_project, &Project::splitChanged, this, &ComparePane::refresh);
        // An unreadable split keeps the choice as it is; refresh() then shows the store's error.
        if (const auto def = stats::defaultSplitFilter(*m_project)) {
            const QSignalBlocker block(m_split);
            m_split->setCurrentIndex(m_split->findData(int(*def)));
        }
    }
    refresh();
}

void ComparePane::setResamples(int resamples)
{
    m_resamples = std::max(0, resamples);
    refresh();
}

stats::CompareOptions ComparePane::baseOptions() const
{
    stats::CompareOptions o;
    o.level = stats::Level(m_level->currentData().toInt());
    o.split = SplitFilter(m_split->currentData().toInt());
    o.primary = stats::Coefficient(m_coefficient->currentData().toInt());
    o.bootstrap = m_resamples;
    o.permutations = m_resamples;
    return o;
}

void ComparePane::refresh()
{
    m_stop.request_stop();
    m_stop = std::stop_source();
    ++m_generation;
    m_results.clear();
    m_error.clear();
    showResults();
    if (!m_project)
        return;
    const auto aspects = m_project->readAspects();
    const auto judges = ScoreGridStore(m_project).judges();
    if (!aspects || !judges) {
        m_status->setText(
                tr("Cannot read the project: %1").arg(aspects ? judges.errorString() : aspects.errorString()));
        return;
    }
    // Aspects that some judge scored: the others have nothing to compare.
    QStringList scored;
    for (const Aspect &a : *aspects)
        if (std::any_of(judges->cbegin(), judges->cend(),
                        [&](const JudgeInfo &j) { return j.aspects.contains(a.name); }))
            scored.append(a.name);
    if (scored.isEmpty()) {
        m_status->setText(tr("No judge has scored this project yet: run a method or import scores first."));
        return;
    }
    m_status->setText(tr("Computing correlations, intervals and costs…"));
    const stats::CompareOptions base = [&] {
        stats::CompareOptions o = baseOptions();
        o.pairs = false;
        o.stop = m_stop.get_token();
        return o;
    }();
    // The worker opens the file itself: it never touches the Project object, which may be
    // replaced (or deleted) while it runs.
    const QString path = m_project->path();
    m_watcher.setProperty("generation", m_generation);
    m_watcher.setFuture(QtConcurrent::run(CorrelationModel::bootstrapPool(),
                                          [path, scored, base]() -> Result<QVector<stats::Comparison>> {
                                              auto project = openForWorker(path);
                                              if (!project)
                                                  return project.error();
                                              QVector<stats::Comparison> out;
                                              for (const QString &aspect : scored) {
                                                  stats::CompareOptions o = base;
                                                  o.aspect = aspect;
                                                  auto c = stats::compareJudges(**project, o);
                                                  if (!c)
                                                      return c.error();
                                                  out.append(*c);
                                              }
                                              return out;
                                          }));
}

const stats::Comparison *ComparePane::current() const
{
    for (const stats::Comparison &c : m_results)
        if (c.options.aspect == m_aspect->currentText())
            return &c;
    return nullptr;
}

void ComparePane::showResults()
{
    m_model->removeRows(0, m_model->rowCount());
    const QString pct = QStringLiteral("95%");
    m_model->setHeaderData(kIntervalColumn, Qt::Horizontal,
                           tr("%1 %2 interval").arg(m_coefficient->currentText(), pct));
    QStringList ceilings;
    for (const stats::Comparison &c : std::as_const(m_results)) {
        for (const stats::JudgeAlignment &j : c.judges) {
            const QString ci = std::isnan(j.lo)
                                       ? tr("n/a")
                                       : QStringLiteral("[%1, %2]")
                                                 .arg(stats::formatStatistic(j.lo), stats::formatStatistic(j.hi));
            m_model->appendRow(
                    {textCell(j.judge), textCell(j.method), textCell(c.options.aspect),
                     numberCell(stats::formatStatistic(j.pearson), j.pearson),
                     numberCell(stats::formatStatistic(j.spearman), j.spearman),
                     numberCell(stats::formatStatistic(j.kendall), j.kendall), numberCell(ci, j.lo),
                     numberCell(QString::number(j.n), j.n),
                     numberCell(std::isnan(j.callsPerItem) ? tr("unknown") : stats::formatCalls(j.callsPerItem),
                                j.callsPerItem),
                     numberCell(std::isnan(j.costPerItem) ? tr("unknown") : stats::formatCost(j.costPerItem),
                                j.costPerItem)});
        }
        ceilings.append(c.ceiling.available
                                ? tr("%1: α = %2 on %3 items (%4 annotators)")
                                          .arg(c.options.aspect, stats::formatStatistic(c.ceiling.alpha))
                                          .arg(c.ceiling.n)
                                          .arg(c.ceiling.annotators)
                                : tr("%1: not available (fewer than two annotators per item)").arg(c.options.aspect));
    }
    m_ceiling->setText(ceilings.isEmpty() ? QString()
                                          : tr("Human ceiling (agreement between annotators, Krippendorff's α): %1")
                                                    .arg(ceilings.join(QStringLiteral("; "))));
    if (!m_error.isEmpty())
        m_status->setText(tr("Cannot compare: %1").arg(m_error));
    else if (!m_results.isEmpty())
        m_status->setText(m_results.front().convention + QStringLiteral(" · ") + m_split->currentText());

    // The aspect and judge pickers follow the results (keeping what was chosen where possible).
    const QString aspect = m_aspect->currentText();
    const QString a = m_judgeA->currentText();
    const QString b = m_judgeB->currentText();
    {
        const QSignalBlocker blockAspect(m_aspect);
        const QSignalBlocker blockA(m_judgeA);
        const QSignalBlocker blockB(m_judgeB);
        if (!m_results.isEmpty()) {
            m_aspect->clear();
            for (const stats::Comparison &c : std::as_const(m_results))
                m_aspect->addItem(c.options.aspect);
            m_aspect->setCurrentIndex(std::max(0, m_aspect->findText(aspect)));
            QStringList judges;
            if (const stats::Comparison *c = current())
                for (const stats::JudgeAlignment &j : c->judges)
                    judges.append(j.judge);
            m_judgeA->clear();
            m_judgeB->clear();
            m_judgeA->addItems(judges);
            m_judgeB->addItems(judges);
            m_judgeA->setCurrentIndex(std::max(0, m_judgeA->findText(a)));
            const int bi = m_judgeB->findText(b);
            m_judgeB->setCurrentIndex(bi >= 0 ? bi : std::min(1, int(judges.size()) - 1));
        }
    }
    m_export->setEnabled(current() != nullptr);
    showChart();
    if (!m_results.isEmpty())
        comparePair();
}

void ComparePane::showChart()
{
    clearChart(m_chart);
    m_front.clear();
    m_chartNote->clear();
    const stats::Comparison *c = current();
    if (!c) {
        m_chart->setTitle(QString());
        return;
    }
    const bool byCalls = m_axis->currentIndex() == 1;
    const stats::Coefficient k = c->options.primary;
    m_chart->setTitle(tr("%1: agreement with people against %2")
                              .arg(c->options.aspect, byCalls ? tr("calls per item") : tr("cost per item")));
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    x->setTitleText(byCalls ? tr("Calls per item") : tr("Cost per item ($)"));
    y->setTitleText(tr("%1 with people").arg(m_coefficient->currentText()));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);

    struct Point
    {
        QString judge;
        double x, y;
    };
    QVector<Point> points;
    QStringList unplaced;
    for (qsizetype i = 0; i < c->judges.size(); ++i) {
        const stats::JudgeAlignment &j = c->judges[i];
        const double px = byCalls ? j.callsPerItem : j.costPerItem;
        const double py = j.value(k);
        if (std::isnan(px) || std::isnan(py)) {
            unplaced.append(j.judge);
            continue;
        }
        auto *s = new QScatterSeries;
        s->setName(j.judge);
        s->setMarkerSize(11);
        s->setColor(judgeColor(int(i)));
        s->setBorderColor(judgeColor(int(i)).darker(140));
        s->append(px, py);
        m_chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        points.append({j.judge, px, py});
    }
    // Pareto front: no other judge is both cheaper (or as cheap) and more aligned.
    std::sort(points.begin(), points.end(),
              [](const Point &a, const Point &b) { return a.x != b.x ? a.x < b.x : a.y > b.y; });
    auto *front = new QLineSeries;
    front->setName(tr("Pareto front"));
    QPen pen(QColor(0x33, 0x33, 0x33), 1.5, Qt::DashLine);
    front->setPen(pen);
    double best = -std::numeric_limits<double>::infinity();
    for (const Point &p : std::as_const(points))
        if (p.y > best) {
            best = p.y;
            front->append(p.x, p.y);
            m_front.append(p.judge);
        }
    m_chart->addSeries(front);
    front->attachAxis(x);
    front->attachAxis(y);

    double xmax = 0, ymin = 0, ymax = 0;
    for (const Point &p : std::as_const(points)) {
        xmax = std::max(xmax, p.x);
        ymin = std::min(ymin, p.y);
        ymax = std::max(ymax, p.y);
    }
    x->setRange(0, xmax > 0 ? xmax * 1.1 : 1.0);
    y->setRange(ymin < 0 ? ymin - 0.05 : 0.0, std::min(1.0, ymax + 0.05));
    x->applyNiceNumbers();
    y->applyNiceNumbers();
    x->setLabelFormat(byCalls ? QStringLiteral("%.1f") : QStringLiteral("%.4g"));
    y->setLabelFormat(QStringLiteral("%.1f"));
    QString note
            = tr("On the Pareto front (no judge agrees more for less): %1.").arg(m_front.join(QStringLiteral(", ")));
    if (!unplaced.isEmpty())
        note += QLatin1Char(' ')
                + tr("Not on the chart (cost unknown, e.g. imported scores): %1.")
                          .arg(unplaced.join(QStringLiteral(", ")));
    m_chartNote->setText(note);
}

void ComparePane::comparePair()
{
    ++m_pairGeneration;
    const stats::Comparison *c = current();
    const QString a = m_judgeA->currentText();
    const QString b = m_judgeB->currentText();
    if (!c || !m_project || a.isEmpty() || b.isEmpty()) {
        m_words->clear();
        return;
    }
    if (a == b) {
        m_words->setText(tr("Pick two different judges to see whether one agrees with people more than the other."));
        return;
    }
    m_words->setText(tr("Comparing %1 with %2…").arg(a, b));
    stats::CompareOptions o = baseOptions();
    o.aspect = c->options.aspect;
    const QString path = m_project->path();
    m_pairWatcher.setProperty("generation", m_pairGeneration);
    m_pairWatcher.setFuture(
            QtConcurrent::run(CorrelationModel::bootstrapPool(), [path, o, a, b]() -> Result<stats::PairComparison> {
                auto project = openForWorker(path);
                if (!project)
                    return project.error();
                return stats::compareJudgePair(**project, o, a, b);
            }));
}

QWidget *ComparePane::chartWidget() const
{
    return current() ? m_chartView : nullptr;
}

QString ComparePane::chartTitle() const
{
    const stats::Comparison *c = current();
    if (!c)
        return {};
    return tr("%1 · %2 · %3 · %4")
            .arg(m_chart->title(), m_level->currentText(), m_split->currentText(), m_coefficient->currentText());
}

QString ComparePane::chartFileStem() const
{
    return QStringLiteral("compare-%1").arg(m_aspect->currentText());
}

Result<void> ComparePane::exportTo(const QString &path) const
{
    const stats::Comparison *c = current();
    if (!c)
        return makeError(tr("nothing to export yet"), path);
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QString text = suffix == QLatin1String("csv")   ? stats::comparisonToCsv(*c)
                         : suffix == QLatin1String("tex") ? stats::comparisonToLatex(*c)
                                                          : stats::comparisonToMarkdown(*c);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit())
        return makeError(tr("cannot write the table: %1").arg(file.errorString()), path);
    return {};
}

void ComparePane::onExport(const QString &suffix)
{
    const QString filter = suffix == QLatin1String("csv")   ? tr("CSV (*.csv)")
                           : suffix == QLatin1String("tex") ? tr("LaTeX (*.tex)")
                                                            : tr("Markdown (*.md)");
    const QString path = QFileDialog::getSaveFileName(
            this, tr("Export comparison"), QStringLiteral("compare-%1.%2").arg(m_aspect->currentText(), suffix),
            filter);
    if (path.isEmpty())
        return;
    if (auto r = exportTo(path); !r)
        m_status->setText(r.errorString());
    else
        m_status->setText(tr("Written: %1").arg(path));
}

} // namespace rubric
