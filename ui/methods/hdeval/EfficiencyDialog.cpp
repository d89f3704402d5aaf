#include "EfficiencyDialog.h"

#include "methods/hdeval/HdEvalCurves.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rubric {
namespace {

/// A curve with its ±1 sd band over seeds.
QChartView *curveView(const QVector<hdeval::CurvePoint> &points, const QString &title, const QString &xTitle,
                      const QString &name, QWidget *parent)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    auto *mean = new QLineSeries;
    mean->setName(QCoreApplication::translate("rubric::EfficiencyDialog", "mean test r"));
    auto *upper = new QLineSeries, *lower = new QLineSeries;
    double lo = 1, hi = -1;
    for (const hdeval::CurvePoint &p : points) {
        if (!std::isfinite(p.mean))
            continue;
        mean->append(p.x, p.mean);
        upper->append(p.x, p.mean + p.sd);
        lower->append(p.x, p.mean - p.sd);
        lo = std::min(lo, p.mean - p.sd);
        hi = std::max(hi, p.mean + p.sd);
    }
    auto *band = new QAreaSeries(upper, lower);
    band->setName(QCoreApplication::translate("rubric::EfficiencyDialog", "± 1 sd over seeds"));
    band->setColor(QColor(70, 130, 180, 60));
    band->setBorderColor(QColor(70, 130, 180, 0));
    mean->setPointsVisible(true);
    mean->setColor(QColor(30, 80, 150));
    chart->addSeries(band);
    chart->addSeries(mean);
    auto *x = new QValueAxis, *y = new QValueAxis;
    x->setTitleText(xTitle);
    x->setLabelFormat(QStringLiteral("%d"));
    if (!points.isEmpty())
        x->setRange(points.first().x, points.last().x);
    y->setTitleText(QCoreApplication::translate("rubric::EfficiencyDialog", "Pearson r on the test items"));
    y->setRange(std::max(-1.0, std::floor(lo * 10) / 10), std::min(1.0, std::ceil(hi * 10) / 10));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries *s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    auto *view = new QChartView(chart, parent);
    view->setObjectName(name);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

/// Mean |contribution| per node as bars, beside a beeswarm of the items' contributions per node,
/// coloured by the node's score (1 blue … 5 red; grey: imputed).
QWidget *shapView(const hdeval::ContributionSummary &s, QWidget *parent)
{
    const int shown = std::min(int(s.nodes.size()), 12);
    auto *box = new QWidget(parent);
    box->setObjectName(QStringLiteral("efficiencyShap"));
    auto *layout = new QHBoxLayout(box);

    auto *bars = new QChart;
    bars->setTitle(QCoreApplication::translate("rubric::EfficiencyDialog", "Mean |contribution| per node"));
    auto *set = new QBarSet(QCoreApplication::translate("rubric::EfficiencyDialog", "mean |contribution|"));
    QStringList names;
    for (int j = shown - 1; j >= 0; --j) { // largest at the top
        *set << s.meanAbs[j];
        names << s.nodes[j];
    }
    auto *series = new QHorizontalBarSeries;
    series->append(set);
    bars->addSeries(series);
    auto *cat = new QBarCategoryAxis;
    cat->append(names);
    auto *val = new QValueAxis;
    val->setTitleText(QCoreApplication::translate("rubric::EfficiencyDialog", "score points"));
    bars->addAxis(cat, Qt::AlignLeft);
    bars->addAxis(val, Qt::AlignBottom);
    series->attachAxis(cat);
    series->attachAxis(val);
    bars->legend()->hide();
    auto *barView = new QChartView(bars, box);
    barView->setRenderHint(QPainter::Antialiasing);

    auto *swarm = new QChart;
    swarm->setTitle(QCoreApplication::translate("rubric::EfficiencyDialog", "Each test item's contribution"));
    QScatterSeries *byScore[6];
    const QColor colours[6]{QColor(60, 60, 60),   QColor(40, 90, 200),  QColor(120, 170, 230),
                            QColor(230, 190, 60), QColor(240, 130, 60), QColor(200, 30, 30)};
    for (int v = 0; v < 6; ++v) {
        byScore[v] = new QScatterSeries;
        byScore[v]->setName(v == 0 ? QCoreApplication::translate("rubric::EfficiencyDialog", "imputed")
                                   : QCoreApplication::translate("rubric::EfficiencyDialog", "score %1").arg(v));
        byScore[v]->setColor(colours[v]);
        byScore[v]->setBorderColor(colours[v]);
        byScore[v]->setMarkerSize(7);
    }
    double lo = 0, hi = 0;
    for (int j = 0; j < shown; ++j) {
        const int row = shown - 1 - j; // the same order as the bars
        for (Eigen::Index i = 0; i < s.values.rows(); ++i) {
            const double c = s.values(i, j);
            const double score = s.scores(i, j);
            const int bucket = std::isfinite(score) ? std::clamp(int(std::lround(score)), 1, 5) : 0;
            // spread the items of a row vertically by their order (a deterministic jitter)
            const double jitter = (double((i * 37) % 11) - 5.0) / 14.0;
            byScore[bucket]->append(c, row + jitter);
            lo = std::min(lo, c);
            hi = std::max(hi, c);
        }
    }
    for (auto *sc : byScore)
        swarm->addSeries(sc);
    auto *sx = new QValueAxis, *sy = new QValueAxis;
    sx->setTitleText(QCoreApplication::translate("rubric::EfficiencyDialog", "contribution to the score"));
    const double pad = 0.05 * std::max(hi - lo, 0.1);
    sx->setRange(lo - pad, hi + pad);
    sy->setRange(-0.6, shown - 0.4);
    sy->setLabelsVisible(false);
    sy->setTickCount(shown + 1);
    swarm->addAxis(sx, Qt::AlignBottom);
    swarm->addAxis(sy, Qt::AlignLeft);
    for (QAbstractSeries *sc : swarm->series()) {
        sc->attachAxis(sx);
        sc->attachAxis(sy);
    }
    auto *swarmView = new QChartView(swarm, box);
    swarmView->setRenderHint(QPainter::Antialiasing);
    layout->addWidget(barView, 1);
    layout->addWidget(swarmView, 1);
    return box;
}

} // namespace

EfficiencyDialog::EfficiencyDialog(Project *project, const QString &judge, QWidget *parent)
    : QDialog(parent)
    , m_tabs(new QTabWidget(this))
    , m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("efficiencyDialog"));
    setWindowTitle(tr("Efficiency and contributions — %1").arg(judge));
    m_note->setWordWrap(true);
    auto summary = hdeval::contributionSummary(project, judge);
    hdeval::CurveOptions options;
    if (summary) {
        if (auto kind = learn::parseAggregatorKind(summary->aggregator))
            options.aggregator.kind = *kind;
    }
    auto curves = hdeval::efficiencyCurves(project, judge, options);
    QStringList notes;
    if (curves) {
        notes << tr("%1 aggregator, %2 train / %3 test items (those with a node score), %4 seeds per point; from the "
                    "stored node scores, 0 calls.")
                         .arg(curves->aggregator)
                         .arg(curves->nTrain)
                         .arg(curves->nTest)
                         .arg(curves->seeds);
        m_tabs->addTab(curveView(curves->data, tr("Data efficiency"), tr("training items"),
                                 QStringLiteral("efficiencyData"), this),
                       tr("Data efficiency"));
        m_tabs->addTab(curveView(curves->criteria,
                                 tr("Criteria efficiency (nodes ranked by importance on the train "
                                    "split)"),
                                 tr("nodes kept"), QStringLiteral("efficiencyCriteria"), this),
                       tr("Criteria efficiency"));
    } else {
        notes << curves.errorString();
    }
    if (auto report = hdeval::ablationReport(project, judge, options.aggregator, options.seeds)) {
        notes << tr("Full model's test r over %1 seeds: %2 ± %3 (range %4–%5).")
                         .arg(report->seedR.size())
                         .arg(report->mean, 0, 'f', 3)
                         .arg(report->sd, 0, 'f', 3)
                         .arg(report->min, 0, 'f', 3)
                         .arg(report->max, 0, 'f', 3);
        for (const hdeval::AblationTest &t : report->tests)
            notes << tr("%1: test r %2 against %3, difference %4 [%5, %6], permutation p %7")
                             .arg(t.tag)
                             .arg(t.ablationR, 0, 'f', 3)
                             .arg(t.fullR, 0, 'f', 3)
                             .arg(t.difference, 0, 'f', 3)
                             .arg(t.lo, 0, 'f', 3)
                             .arg(t.hi, 0, 'f', 3)
                             .arg(t.permutationP, 0, 'f', 3);
    }
    if (summary) {
        notes << tr("Contributions: %1, over %2 test items.").arg(summary->method).arg(summary->items.size());
        m_tabs->addTab(shapView(*summary, this), tr("Contributions"));
    } else {
        notes << summary.errorString();
    }
    m_note->setText(notes.join(QLatin1Char('\n')));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
    resize(960, 600);
}

} // namespace rubric
