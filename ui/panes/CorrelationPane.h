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

class CorrelationModel;

/// Judge vs human: a scatter of the selected judge's items with the least-squares line and the
/// item under the mouse named; per-criterion Pearson bars with bootstrap intervals; a table of
/// every judge at the chosen level and split. Reads the project's shared ScoreModel (the
/// heatmap reads the same one) and computes with the core statistics `rubric correlate` uses.
class CorrelationPane : public QWidget, public ChartSource
{
    Q_OBJECT
public:
    explicit CorrelationPane(QWidget *parent = nullptr);
    ~CorrelationPane() override;

    /// Binds the pane to `project` (not owned; null unbinds).
    void setProject(Project *project);

    CorrelationModel *correlationModel() const { return m_model; }
    /// Bootstrap resamples of the judges' and the criteria's intervals (default 1000; 0: none).
    void setBootstrap(int resamples);
    /// True while the per-criterion intervals are being computed.
    bool computingCriteria() const { return m_watcher.isRunning(); }
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
    /// Per-criterion intervals of the current setting have arrived.
    void criterionIntervalsReady();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Point
    {
        QString id;
        double human;
        double judge;
    };
    void refresh();
    void refreshScatter();
    void refreshCriteria();
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
    QScatterSeries *m_points = nullptr;
    QLineSeries *m_fit = nullptr;
    QChart *m_barChart = nullptr;
    QChartView *m_barView = nullptr;
    QTableView *m_table = nullptr;
    QWidget *m_charts = nullptr;
    QVector<Point> m_shown;
    QVector<CriterionBar> m_bars;
    QVector<QVector<stats::ScoredItem>> m_barInputs;
    quint64 m_generation = 0;
    int m_resamples = 1000;
    std::stop_source m_stop; ///< of the running bootstrap; a new setting or the destructor stops it
    QFutureWatcher<QVector<stats::Interval>> m_watcher;
};

} // namespace rubric
