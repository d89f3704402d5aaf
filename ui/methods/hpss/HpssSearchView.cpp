#include "methods/hpss/HpssSearchView.h"

#include "methods/hpss/HpssJudgeView.h"
#include "methods/hpss/HpssLeaderboardModel.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLocale>
#include <QScatterSeries>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rubric {

using namespace hpss;

HpssSearchView::HpssSearchView(QWidget *parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_chartView(new QChartView(m_chart, this))
    , m_best(new QLineSeries)
    , m_points(new QScatterSeries)
    // A QAreaSeries does not own its boundary series: the view does (deleted after the chart).
    , m_initUpper(new QLineSeries(this))
    , m_initLower(new QLineSeries(this))
    , m_init(new QAreaSeries(m_initUpper, m_initLower))
    , m_x(new QValueAxis)
    , m_y(new QValueAxis)
    , m_status(new QLabel(this))
    , m_population(new QListWidget(this))
    , m_log(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("hpssSearchView"));
    m_chartView->setObjectName(QStringLiteral("hpssSearchChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(340);
    m_chart->setTitle(tr("Best validation ρ so far"));
    m_init->setName(tr("Initialisation"));
    m_init->setColor(QColor(0xd0, 0xd8, 0xe8, 0x90));
    m_init->setBorderColor(QColor(0xd0, 0xd8, 0xe8));
    m_best->setName(tr("Best so far"));
    QPen pen(QColor(0x1f, 0x5f, 0xa8));
    pen.setWidth(3);
    m_best->setPen(pen);
    m_points->setName(tr("Evaluated strategy"));
    m_points->setMarkerSize(7);
    m_points->setColor(QColor(0xe0, 0x80, 0x30));
    m_points->setBorderColor(QColor(0xe0, 0x80, 0x30));
    m_chart->addSeries(m_init);
    m_chart->addSeries(m_points);
    m_chart->addSeries(m_best);
    m_x->setTitleText(tr("Strategies evaluated"));
    m_x->setLabelFormat(QStringLiteral("%d"));
    m_y->setTitleText(tr("Validation ρ"));
    m_y->setLabelFormat(QStringLiteral("%.1f"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (auto *s : {static_cast<QAbstractSeries *>(m_init), static_cast<QAbstractSeries *>(m_points),
                    static_cast<QAbstractSeries *>(m_best)}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_chart->legend()->setAlignment(Qt::AlignBottom);

    m_status->setObjectName(QStringLiteral("hpssSearchStatus"));
    m_status->setWordWrap(true);
    m_population->setObjectName(QStringLiteral("hpssPopulation"));
    m_log->setObjectName(QStringLiteral("hpssStepLog"));
    m_log->setRootIsDecorated(false);
    m_log->setAlternatingRowColors(true);
    m_log->setHeaderLabels(
            {tr("Step"), tr("Move"), tr("Changed factor"), tr("Validation ρ"), tr("Strategy"), tr("Parent")});
    m_log->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto *populationBox = new QWidget(this);
    auto *pl = new QVBoxLayout(populationBox);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(new QLabel(tr("Current population (best first)"), populationBox));
    pl->addWidget(m_population);
    auto *logBox = new QWidget(this);
    auto *ll = new QVBoxLayout(logBox);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(new QLabel(tr("Step log"), logBox));
    ll->addWidget(m_log);
    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(populationBox);
    bottom->addWidget(logBox);
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chartView);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    setView(nullptr);
}

QString HpssSearchView::statusText() const
{
    return m_status->text();
}

void HpssSearchView::setView(const JudgeView *view)
{
    m_best->clear();
    m_points->clear();
    m_initUpper->clear();
    m_initLower->clear();
    m_population->clear();
    m_log->clear();
    if (!view) {
        m_status->setText(tr("No HPSS search to show."));
        m_x->setRange(0, 1);
        m_y->setRange(0, 1);
        return;
    }
    const HpssSearch &search = view->search();
    const auto &records = search.evaluated();
    const QLocale locale;
    const int budget = search.params().budget;
    double lo = 0, hi = 0.1, best = -2;
    QList<QPointF> bestPoints, dots;
    QHash<QString, double> rho;
    for (const SearchRecord &r : records) {
        best = std::max(best, r.spearman);
        bestPoints.append(QPointF(r.proposal.step, best));
        dots.append(QPointF(r.proposal.step, r.spearman));
        lo = std::min(lo, r.spearman);
        hi = std::max(hi, r.spearman);
        rho.insert(r.proposal.strategy.format(), r.spearman);
    }
    m_best->replace(bestPoints);
    m_points->replace(dots);
    // Headroom above the best so that a line at ρ ≈ 1 stays visible.
    const double yLo = std::floor(lo * 10) / 10, yHi = std::min(1.05, std::ceil((hi + 0.05) * 10) / 10);
    m_x->setRange(0, std::max(budget, int(records.size())) + 1);
    m_x->setTickCount(std::min(budget + 2, 9));
    m_y->setRange(yLo, std::max(yHi, yLo + 0.1));
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(m_y->max() - m_y->min() > 1 ? 0.2 : 0.1);
    const int init = view->initCount();
    if (init > 0) {
        m_initUpper->append({QPointF(0.5, m_y->max()), QPointF(init + 0.5, m_y->max())});
        m_initLower->append({QPointF(0.5, m_y->min()), QPointF(init + 0.5, m_y->min())});
    }
    m_init->setVisible(init > 0);

    const QString level = HpssLeaderboardModel::levelText(search.params().level);
    const QVariantMap &pairwise = view->pairwise(); // the pairwise setting: accuracy on pairs
    const int pairs = pairwise.value(QStringLiteral("validation_pairs")).toInt();
    m_log->headerItem()->setText(3, view->isPairwise() ? tr("Validation accuracy") : tr("Validation ρ"));
    if (view->isPairwise()) {
        m_chart->setTitle(tr("Best validation accuracy so far (pairwise, n = %1 pairs)").arg(pairs));
        m_y->setTitleText(tr("Validation accuracy"));
    } else {
        m_chart->setTitle(tr("Best validation Spearman ρ (%1) so far").arg(level));
        m_y->setTitleText(tr("Validation Spearman ρ (%1)").arg(level));
    }
    const SearchRecord *top = search.best();
    QString status = tr("%1: %2 of %3 strategies evaluated (%4)")
                             .arg(view->judge())
                             .arg(records.size())
                             .arg(budget)
                             .arg(searchAlgorithmName(search.params().algorithm));
    if (top)
        status += QStringLiteral(" · ")
                  + (view->isPairwise() ? tr("best accuracy %1 at step %2: %3") : tr("best ρ %1 at step %2: %3"))
                            .arg(locale.toString(top->spearman, 'f', 3))
                            .arg(top->proposal.step)
                            .arg(top->proposal.strategy.format());
    if (search.finished())
        status += QStringLiteral(" · ") + tr("finished (%1)").arg(search.stopReason());
    if (view->isPairwise()) {
        status += QStringLiteral(" · ")
                  + tr("metric: accuracy of the verdicts on the validation pairs (n = %1; pairwise setting, paper "
                       "Eq. 10)")
                            .arg(pairs);
        if (pairwise.contains(QStringLiteral("test_accuracy")))
            status += QStringLiteral(" · ")
                      + tr("winner's test accuracy %1 (n = %2 pairs)")
                                .arg(pairwise.value(QStringLiteral("test_accuracy")).isNull()
                                             ? QStringLiteral("–")
                                             : locale.toString(
                                                     pairwise.value(QStringLiteral("test_accuracy")).toDouble(), 'f',
                                                     3))
                                .arg(pairwise.value(QStringLiteral("test_n")).toInt());
    } else {
        status += QStringLiteral(" · ")
                  + tr("metric: Spearman ρ, %1").arg(HpssLeaderboardModel::levelDescription(search.params().level));
    }
    m_status->setText(status);

    for (const PromptStrategy &s : search.population()) {
        const QString key = s.format();
        auto *item = new QListWidgetItem(QStringLiteral("%1   %2").arg(locale.toString(rho.value(key), 'f', 3), key),
                                         m_population);
        item->setData(Qt::UserRole, key);
    }
    QList<QTreeWidgetItem *> rows;
    for (const SearchRecord &r : records) {
        const SearchProposal &p = r.proposal;
        auto *row = new QTreeWidgetItem;
        row->setText(0, QString::number(p.step));
        row->setText(1, searchMoveName(p.move));
        if (p.changedFactor >= 0) {
            const Factor f = factorAt(p.changedFactor);
            row->setText(2, QStringLiteral("%1: %2 → %3")
                                    .arg(factorName(f), p.parent ? p.parent->valueName(f) : QStringLiteral("?"),
                                         p.strategy.valueName(f)));
        }
        row->setText(3, locale.toString(r.spearman, 'f', 3));
        row->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        row->setText(4, p.strategy.format());
        row->setText(5, p.parent ? p.parent->format() : QString());
        rows.append(row);
    }
    m_log->addTopLevelItems(rows);
    if (!rows.isEmpty())
        m_log->scrollToItem(rows.last());
}

} // namespace rubric
