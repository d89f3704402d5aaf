#pragma once

#include <QWidget>

class QAreaSeries;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QListWidget;
class QScatterSeries;
class QTreeWidget;
class QValueAxis;

namespace rubric {

namespace hpss {
class JudgeView;
}

/// The live view of an HPSS search: the best-so-far validation Spearman against the strategies
/// evaluated (a QtCharts line, every evaluation as a dot, the initialisation steps shaded), the
/// current population (best first) and the step log (step, move, changed factor, parent, strategy,
/// Spearman). setView() redraws from a freshly loaded state; the pane calls it on the run's
/// progress, so the view follows a running search. GUI thread only.
class HpssSearchView : public QWidget
{
    Q_OBJECT
public:
    explicit HpssSearchView(QWidget *parent = nullptr);

    /// Shows `view` (nullptr: empty). The view is read during the call only.
    void setView(const hpss::JudgeView *view);

    QChart *chart() const { return m_chart; }
    QLineSeries *bestSeries() const { return m_best; }
    QScatterSeries *evaluatedSeries() const { return m_points; }
    QAreaSeries *initArea() const { return m_init; }
    QListWidget *populationList() const { return m_population; }
    QTreeWidget *stepLog() const { return m_log; }
    QString statusText() const;

private:
    QChart *m_chart;
    QChartView *m_chartView;
    QLineSeries *m_best;
    QScatterSeries *m_points;
    QLineSeries *m_initUpper;
    QLineSeries *m_initLower;
    QAreaSeries *m_init;
    QValueAxis *m_x;
    QValueAxis *m_y;
    QLabel *m_status;
    QListWidget *m_population;
    QTreeWidget *m_log;
};

} // namespace rubric
