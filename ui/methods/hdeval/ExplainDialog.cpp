#include "ExplainDialog.h"

#include "methods/hdeval/HdEvalColumns.h"
#include "models/CriterionDetail.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rubric {

ExplainDialog::ExplainDialog(Project *project, const QString &judge, const QString &itemId, QWidget *parent)
    : QDialog(parent)
    , m_header(new QLabel(this))
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
{
    setObjectName(QStringLiteral("explainDialog"));
    m_header->setObjectName(QStringLiteral("explainHeader"));
    m_view->setObjectName(QStringLiteral("explainChart"));
    setWindowTitle(tr("Why %1 scores %2").arg(judge, itemId));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::PlainText);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(640, 360);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);

    auto explained = hdeval::explainItem(project, judge, itemId);
    if (!explained) {
        m_error = explained.errorString();
        m_header->setText(tr("No explanation for item %1: %2").arg(itemId, m_error));
        m_view->hide();
        return;
    }
    m_explanation = *explained;
    const hdeval::Explanation &e = m_explanation;
    QString text = tr("Item %1, aspect %2: the %3 aggregator (version %4) predicts %5 = base %6 + the "
                      "contributions below.")
                           .arg(e.item, e.aspect, e.aggregator)
                           .arg(e.version)
                           .arg(CriterionDetail::number(e.prediction), CriterionDetail::number(e.base));
    if (std::isfinite(e.stored))
        text += QLatin1Char(' ') + tr("Stored judge score: %1.").arg(CriterionDetail::number(e.stored));
    m_header->setText(text);
    fillChart();
}

void ExplainDialog::fillChart()
{
    const hdeval::Explanation &e = m_explanation;
    // One set per layer (its colour) on a stacked series: each category has its value in one set.
    int deepest = 1;
    for (const hdeval::NodeContribution &n : e.nodes)
        deepest = std::max(deepest, n.layer);
    QVector<QBarSet *> sets;
    for (int layer = 1; layer <= deepest; ++layer) {
        auto *set = new QBarSet(tr("Layer %1").arg(layer));
        QColor colour = HdEvalColumns::layerColour(layer).darker(layer == 1 ? 160 : 130);
        set->setColor(colour);
        set->setBorderColor(colour.darker(130));
        sets.append(set);
    }
    QStringList categories;
    double extent = 0;
    // the chart draws the first category at the bottom: largest |contribution| last so it is on top
    for (auto it = e.nodes.crbegin(); it != e.nodes.crend(); ++it) {
        const QString score = std::isfinite(it->score) ? CriterionDetail::number(it->score) : tr("none");
        categories << tr("%1 (score %2)").arg(it->key, score);
        for (int layer = 1; layer <= deepest; ++layer)
            *sets[layer - 1] << (it->layer == layer ? it->contribution : 0.0);
        extent = std::max(extent, std::abs(it->contribution));
    }
    auto *series = new QHorizontalStackedBarSeries;
    for (QBarSet *set : sets)
        series->append(set);
    m_chart->addSeries(series);
    auto *axisY = new QBarCategoryAxis;
    axisY->append(categories);
    m_chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    auto *axisX = new QValueAxis;
    const double bound = extent > 0 ? extent * 1.1 : 1.0;
    axisX->setRange(-bound, bound);
    axisX->setLabelFormat(QStringLiteral("%.2f"));
    axisX->setTitleText(tr("Contribution to the score"));
    m_chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    m_chart->setTitle(tr("Contributions node by node (prediction %1)").arg(CriterionDetail::number(e.prediction)));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_view->setMinimumHeight(std::max(360, 60 + 26 * int(categories.size())));
}

} // namespace rubric
