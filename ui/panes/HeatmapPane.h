#pragma once

#include "ChartExport.h"
#include "models/ScoreModel.h"
#include "store/Project.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTableView;
class QTabWidget;
class QTextBrowser;

namespace rubric {

class AnswerGridModel;
class CriterionScoreModel;
class ExplainDialog;
class HeatmapView;
class ScoreFilterModel;

/// Items × criteria of one judge, with the human and aggregated judge scores as columns;
/// colour by score or residual, sort by any column (click its header), split filter, and a
/// side panel with the judge's reasoning and raw answer behind the clicked cell.
/// Reads the project's shared ScoreModel (the correlation pane reads the same one).
/// For a CheckEval checklist judge the criterion columns are its questions or its sub-aspects
/// (a switch), and a clicked item's answers show as a grid (AnswerGridModel): question × every
/// judge on the same checklist, the clicked grid cell's raw answer below.
class HeatmapPane : public QWidget, public ChartSource
{
    Q_OBJECT
public:
    explicit HeatmapPane(QWidget *parent = nullptr);
    ~HeatmapPane() override;

    /// Binds the pane to `project` (not owned; null unbinds).
    void setProject(Project *project);

    HeatmapView *view() const { return m_view; }
    ScoreFilterModel *filterModel() const { return m_filter; }
    AnswerGridModel *answerGrid() const { return m_grid; }
    QTableView *answerGridView() const { return m_gridView; }
    /// Opens the node-by-node explanation of `itemId`'s score under the shown judge (an HD-Eval
    /// judge; others: null). The dialog is not modal and deletes itself when closed.
    ExplainDialog *explainItem(const QString &itemId);

    // ChartSource: the heatmap as shown (visible rows, headers and legend).
    QWidget *chartWidget() const override;
    QString chartTitle() const override;
    QString chartFileStem() const override;

private:
    void refillJudges();
    void refillAspects();
    void onHeaderClicked(int column);
    void onCellActivated(const QModelIndex &index);
    void onRowRequested(int row, const QPoint &globalPos);
    void onAnswerSelected();
    void onGridCellClicked(const QModelIndex &index);
    void updateChecklistSwitch();
    void updateSummary();

    QPointer<Project> m_project;
    QPointer<ScoreModel> m_scores;
    ScoreFilterModel *m_filter = nullptr;
    CriterionScoreModel *m_answers = nullptr;
    AnswerGridModel *m_grid = nullptr;
    QTableView *m_gridView = nullptr;
    QTabWidget *m_detailTabs = nullptr;
    QComboBox *m_checklistColumns = nullptr;
    HeatmapView *m_view = nullptr;
    QComboBox *m_judge = nullptr;
    QComboBox *m_aspect = nullptr;
    QComboBox *m_colour = nullptr;
    QComboBox *m_split = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_detailTitle = nullptr;
    QTableView *m_answerTable = nullptr;
    QTextBrowser *m_reasoning = nullptr;
    QPlainTextEdit *m_raw = nullptr;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace rubric
