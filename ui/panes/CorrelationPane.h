#pragma once

#include "ChartExport.h"
#include "models/ScoreModel.h"
#include "stats/Bootstrap.h"
#include "store/Project.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QWidget>

#include <stop_token>

class QBarSeries;
class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QTableView;

namespace rubric {

class CorrelationDots;
class CorrelationModel;

/// Judge vs human: a scatter of the selected judge's items with the least-squares line and the
/// item under the mouse named; per-criterion Pearson bars with bootstrap intervals; a table of
/// every judge at the chosen level and split. Follows the judge and aspect of the project's shared
/// ScoreModel (the heatmap shows the same one) without reading its rows: the points, the fit and
/// the bars are read and computed on the thread pool from columns (QtConcurrent + QFutureWatcher,
/// a connection of the worker's own) with the core statistics `rubric correlate` uses, and the
/// pane says "computing…" until they arrive; a new setting stops the running work.
class CorrelationPane : public QWidget, public ChartSource
{
    Q_OBJECT
    /// True while the table's or the charts' figures are being computed (the bench waits on it).
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
public:
    explicit CorrelationPane(QWidget *parent = nullptr);
    ~CorrelationPane() override;

    /// Binds the pane to `project` (not owned; null unbinds).
    void setProject(Project *project);

    CorrelationModel *correlationModel() const { return m_model; }
    /// Bootstrap resamples of the judges' and the criteria's intervals (default 1000; 0: none).
    void setBootstrap(int resamples);
    /// True while the chart's points, bars or per-criterion intervals are being computed.
    bool computingCriteria() const { return m_watcher.isRunning(); }
    /// computingCriteria() or the table's model computing.
    bool busy() const;
    /// Per-criterion bars as shown: key → (Pearson, interval); for tests and export.
    struct CriterionBar
    {
        QString key;
        double pearson = 0;
        stats::Interval ci;
    };
    QVector<CriterionBar> criterionBars() const { return m_bars; }
    QChartView *scatterView() const { return m_scatterView; }

    // ChartSource: the scatter and the per-criterion bars, side by side as shown.
    QWidget *chartWidget() const override;
    QString chartTitle() const override;
    QString chartFileStem() const override;
    /// The viewport position of an item's point in the scatter (for tests), or (-1,-1).
    QPoint scatterPosition(const QString &itemId) const;

signals:
    /// The points, the fit and the per-criterion bars of the current setting have arrived.
    void chartReady();
    /// Per-criterion intervals of the current setting have arrived.
    void criterionIntervalsReady();
    void busyChanged(bool busy);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Point
    {
        QString id;
        double human;
        double judge;
    };
    /// What the worker hands back: first the chart (points drawn, fit, axes, bars), then the bars'
    /// intervals.
    struct Chart
    {
        bool intervals = false;
        QString error;
        QList<QPointF> drawn;
        QStringList drawnIds;
        qsizetype points = 0; ///< all points of the split with both scores (the fit's)
        double minX = 1, maxX = 5, minY = 1, maxY = 5;
        bool fitted = false;
        double intercept = 0, slope = 0;
        QVector<CriterionBar> bars;
    };
    void refresh();
    void refreshCharts();
    void onChartResult(int index);
    void showScatter(const Chart &chart);
    void updateScatterTitle();
    void showBars();
    void onHover(const QPoint &viewportPos);
    stats::Level level() const;
    SplitFilter split() const;
    stats::ConstantGroups constantGroups() const;
    void showConvention();

    QPointer<Project> m_project;
    QPointer<ScoreModel> m_scores;
    CorrelationModel *m_model = nullptr;
    QComboBox *m_level = nullptr;
    QComboBox *m_split = nullptr;
    QComboBox *m_constantGroups = nullptr;
    QLabel *m_convention = nullptr; ///< the group level's rule for constant groups, and what it did
    QLabel *m_title = nullptr;
    QLabel *m_hover = nullptr;
    QChart *m_scatterChart = nullptr;
    QChartView *m_scatterView = nullptr;
    QScatterSeries *m_points = nullptr; ///< empty: the legend entry and the axes of m_dots
    CorrelationDots *m_dots = nullptr;
    QLineSeries *m_fit = nullptr;
    QChart *m_barChart = nullptr;
    QChartView *m_barView = nullptr;
    QTableView *m_table = nullptr;
    QWidget *m_charts = nullptr;
    QVector<Point> m_shown;
    QVector<CriterionBar> m_bars;
    quint64 m_generation = 0;
    int m_resamples = 1000;
    bool m_busy = false;
    std::stop_source m_stop; ///< of the running work; a new setting or the destructor stops it
    QFutureWatcher<Chart> m_watcher;
};

} // namespace rubric
