#pragma once

#include "ChartExport.h"
#include "stats/Comparison.h"
#include "store/Project.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QWidget>

#include <stop_token>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace rubric {

/// Every judge × every aspect against people, side by side (issue #15): the three coefficients
/// with the chosen one's bootstrap interval, n, calls and cost per item, sortable; the human
/// ceiling; two judges picked for a significance test said in words; the table exported as CSV,
/// LaTeX or Markdown; and a chart of alignment against cost (or calls) per item with the Pareto
/// front. Computes with stats::compareJudges (what `rubric compare` prints) off the GUI thread.
class ComparePane : public QWidget, public ChartSource
{
    Q_OBJECT
    /// computing(), for the studio's bench (which waits for the figures).
    Q_PROPERTY(bool busy READ computing)
public:
    explicit ComparePane(QWidget *parent = nullptr);
    ~ComparePane() override;

    /// Binds the pane to `project` (not owned; null unbinds).
    void setProject(Project *project);
    /// Bootstrap resamples and permutations (default 1000 each).
    void setResamples(int resamples);

    /// The comparisons shown, one per aspect (project order); empty while computing.
    const QVector<stats::Comparison> &comparisons() const { return m_results; }
    /// The pair shown under the table (valid after pairReady()).
    const stats::PairComparison &pair() const { return m_pair; }
    bool computing() const { return m_watcher.isRunning() || m_pairWatcher.isRunning(); }
    /// Writes the comparison of the chosen aspect: CSV (.csv), LaTeX (.tex) or Markdown (.md, other).
    Result<void> exportTo(const QString &path) const;
    /// The judges on the Pareto front of the chart (cheapest first).
    QStringList paretoFront() const { return m_front; }
    QTableView *table() const { return m_table; }

    // ChartSource (File → Export Chart): alignment against cost or calls per item.
    QWidget *chartWidget() const override;
    QString chartTitle() const override;
    QString chartFileStem() const override;

signals:
    void comparisonsReady();
    void pairReady();

private:
    void refresh();
    void showResults();
    void showChart();
    void comparePair();
    void onExport(const QString &suffix);
    stats::CompareOptions baseOptions() const;
    const stats::Comparison *current() const;

    QPointer<Project> m_project;
    QComboBox *m_aspect = nullptr;
    QComboBox *m_level = nullptr;
    QComboBox *m_split = nullptr;
    QComboBox *m_coefficient = nullptr;
    QComboBox *m_axis = nullptr;
    QComboBox *m_judgeA = nullptr;
    QComboBox *m_judgeB = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_ceiling = nullptr;
    QLabel *m_words = nullptr;
    QLabel *m_chartNote = nullptr;
    QStandardItemModel *m_model = nullptr;
    QSortFilterProxyModel *m_sorted = nullptr;
    QTableView *m_table = nullptr;
    QChart *m_chart = nullptr;
    QChartView *m_chartView = nullptr;
    QVector<stats::Comparison> m_results;
    QString m_error;
    stats::PairComparison m_pair;
    QStringList m_front;
    int m_resamples = 1000;
    quint64 m_generation = 0;
    quint64 m_pairGeneration = 0;
    std::stop_source m_stop;
    QFutureWatcher<Result<QVector<stats::Comparison>>> m_watcher;
    QFutureWatcher<Result<stats::PairComparison>> m_pairWatcher;
};

} // namespace rubric
