#include "methods/hpss/HpssAdvantageView.h"

#include "methods/hpss/HpssJudgeView.h"
#include "widgets/ChartClear.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rubric {

using namespace hpss;

HpssAdvantageView::HpssAdvantageView(QWidget *parent)
    : QWidget(parent)
    , m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("hpssAdvantageView"));
    m_note->setWordWrap(true);
    m_note->setText(noteText(false));
    auto *grid = new QGridLayout;
    for (int i = 0; i < kFactorCount; ++i) {
        auto *chart = new QChart;
        chart->setTitle(factorName(factorAt(i)));
        chart->legend()->hide(); // one series: the axis title says what the bars are
        chart->setMargins(QMargins(2, 2, 2, 2));
        auto *view = new QChartView(chart, this);
        view->setObjectName(QStringLiteral("hpssAdvantageChart_%1").arg(factorName(factorAt(i))));
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(220, 200);
        grid->addWidget(view, i / 4, i % 4);
        m_charts.append(chart);
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_note);
    layout->addLayout(grid, 1);
    setView(nullptr);
}

QString HpssAdvantageView::noteText(bool pairwise)
{
    if (pairwise)
        return tr("Per factor, the advantage of each value at the end of the search (validation accuracy × 100 above "
                  "the factor's average, paper Eq. 4 and Table 5, in the pairwise setting), with its count n: how "
                  "many times the search explored the value. A value the search never explored has advantage 0 and "
                  "n = 0.");
    return tr("Per factor, the advantage of each value at the end of the search (Spearman × 100 above "
              "the factor's average, paper Eq. 4 and Table 5), with its count n: how many times the "
              "search explored the value. A value the search never explored has advantage 0 and n = 0.");
}

void HpssAdvantageView::setView(const JudgeView *view)
{
    m_note->setText(noteText(view && view->isPairwise()));
    for (int i = 0; i < kFactorCount; ++i) {
        QChart *chart = m_charts[i];
        clearChart(chart);
        if (!view)
            continue;
        const Factor f = factorAt(i);
        const HpssSearch &search = view->search();
        auto *a = new QBarSet(tr("advantage"));
        a->setColor(QColor(0x1f, 0x5f, 0xa8));
        QStringList categories, counts;
        double lo = 0, hi = 1;
        for (int j : search.params().space.enabledValues(f)) {
            const double av = search.advantage(f, j);
            const int nv = int(search.explorationCount(f, j));
            // A category axis neither wraps nor leaves room: the value under its bar, the counts in
            // the axis title in the bars' order.
            categories.append(factorValues(f).at(j));
            counts.append(QString::number(nv));
            a->append(av);
            lo = std::min(lo, av);
            hi = std::max(hi, av);
        }
        auto *series = new QBarSeries;
        series->append(a);
        series->setLabelsVisible(true);
        series->setLabelsFormat(QStringLiteral("@value"));
        series->setLabelsPrecision(3);
        chart->addSeries(series);
        auto *x = new QBarCategoryAxis;
        x->append(categories);
        x->setTitleText(tr("times explored: %1").arg(counts.join(QStringLiteral(" · "))));
        auto *y = new QValueAxis;
        y->setRange(std::floor(lo), std::ceil(hi));
        y->applyNiceNumbers();
        y->setLabelFormat(QStringLiteral("%.0f"));
        y->setTitleText(tr("advantage"));
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
    }
}

} // namespace rubric
