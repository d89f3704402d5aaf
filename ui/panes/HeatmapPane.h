#pragma once

#include "ChartExport.h"
#include "models/ScoreModel.h"
#include "store/Project.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QComboBox;
class QDialog;
class QLabel;
class QPlainTextEdit;
class QTableView;
class QTabWidget;
class QTextBrowser;

namespace rubric {

class CriterionScoreModel;
class HeatmapPanePart;
class HeatmapView;
class ScoreFilterModel;

/// Items × criteria of one judge, with the human and aggregated judge scores as columns;
/// colour by score or residual, sort by any column (click its header), split filter, and a
/// side panel with the judge's reasoning and raw answer behind the clicked cell.
/// Reads the project's shared ScoreModel (the correlation pane reads the same one).
/// A method may offer other sets of criterion columns (a switch: CheckEval's questions or
/// sub-aspects), show a clicked cell its own way (CheckEval's answer grid: question × every judge
/// on the same checklist) and act on an item (HD-Eval's node-by-node explanation): its views'
/// HeatmapPanePart (MethodViews).
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
    /// Opens the shown judge's method's look at `itemId` (HD-Eval: the node-by-node explanation of
    /// its score; other methods: none, null). The dialog is not modal and deletes itself when closed.
    QDialog *openItem(const QString &itemId);

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
    void updateColumnSets();
    /// The part of the shown judge's method (null: none).
    HeatmapPanePart *partOfShownJudge() const;
    void updateSummary();

    QPointer<Project> m_project;
    QPointer<ScoreModel> m_scores;
    ScoreFilterModel *m_filter = nullptr;
    CriterionScoreModel *m_answers = nullptr;
    QTabWidget *m_detailTabs = nullptr;
    QComboBox *m_columnSets = nullptr;
    /// The methods' parts of the pane by method name (MethodViews::createHeatmapPart).
    QHash<QString, HeatmapPanePart *> m_parts;
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
