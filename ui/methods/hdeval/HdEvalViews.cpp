// HD-Eval's views: the criteria tree's layers, importances and expansion marks in the Rubric pane,
// its aggregator panel there, the score columns layer by layer, and the node-by-node explanation
// of an item's score from the heatmap.
#include "methods/MethodViews.h"
#include "methods/hdeval/ExplainDialog.h"
#include "methods/hdeval/HdEvalColumns.h"
#include "methods/hdeval/HdEvalPanel.h"
#include "methods/hdeval/SetNodeSelectedCommand.h"
#include "models/RubricTreeModel.h"
#include "store/Project.h"

#include <QAction>
#include <QCoreApplication>
#include <QPointer>

namespace rubric {
namespace {

/// The Rubric pane's HD-Eval part: the aggregator panel under the tree.
class HdEvalRubricPart : public RubricPanePart
{
public:
    explicit HdEvalRubricPart(const RubricPaneContext &context)
        : RubricPanePart(context.pane)
        , m_pane(context.pane)
        , m_panel(new HdEvalPanel(context.model, context.pane))
    {
        m_panel->hide();
        m_panel->attach(context.tree); // importance bars, the current node for Decompose
        connect(m_panel, &HdEvalPanel::runRequested, this, &RubricPanePart::runRequested);
    }

    QList<QWidget *> panels() const override { return {m_panel}; }
    void setProject(Project *project) override { m_panel->setProject(project); }
    void rubricShown(bool own) override { m_panel->setVisible(own); }
    void updateActions(const RubricPaneState &state) override
    {
        if (m_panel->isVisibleTo(m_pane))
            m_panel->refresh(state.judge, state.runnable);
    }

private:
    QWidget *m_pane;
    HdEvalPanel *m_panel;
};

/// The Heatmap pane's HD-Eval part: "Explain the score node by node" on an item.
class HdEvalHeatmapPart : public HeatmapPanePart
{
public:
    explicit HdEvalHeatmapPart(const HeatmapPaneContext &context)
        : HeatmapPanePart(context.pane)
        , m_pane(context.pane)
    {
    }

    void setProject(Project *project) override { m_project = project; }
    QList<QAction *> itemActions(const QString &judge, const QString &itemId, QObject *parent) override
    {
        auto *explain = new QAction(
                QCoreApplication::translate("rubric::HeatmapPane", "Explain the score of %1 node by node…").arg(itemId),
                parent);
        explain->setObjectName(QStringLiteral("heatmapExplain"));
        connect(explain, &QAction::triggered, this, [this, judge, itemId] { openItem(judge, itemId); });
        return {explain};
    }
    QDialog *openItem(const QString &judge, const QString &itemId) override
    {
        if (!m_project)
            return nullptr;
        auto *dialog = new ExplainDialog(m_project, judge, itemId, m_pane);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        return dialog;
    }

private:
    QWidget *m_pane;
    QPointer<Project> m_project;
};

class HdEvalViews : public MethodViews
{
public:
    QList<int> treeColumns(const MethodInfo *) const override
    {
        using M = RubricTreeModel;
        return {M::TextColumn,     M::LayerColumn,   M::ImportanceColumn,
                M::SelectedColumn, M::EnabledColumn, M::OriginColumn};
    }
    QVariant treeData(const Rubric &rubric, const Criterion &c, int column, int role,
                      const QString &aspect) const override
    {
        return HdEvalColumns::data(rubric, c, column, role, aspect);
    }
    bool isTreeCheckable(const Rubric &rubric, const Criterion &c, int column) const override
    {
        return column == RubricTreeModel::SelectedColumn && HdEvalColumns::isSelectable(rubric, c);
    }
    QUndoCommand *treeCheckCommand(RubricTreeModel *model, const Criterion &c, int column, bool on) const override
    {
        if (column != RubricTreeModel::SelectedColumn || on == HdEvalColumns::isSelected(c))
            return nullptr;
        return new SetNodeSelectedCommand(model, c.key, on);
    }
    int scoreLayer(const Rubric &rubric, const Criterion &c) const override { return HdEvalColumns::layer(rubric, c); }
    QVariant layerColour(int layer) const override { return HdEvalColumns::layerColour(layer); }
    RubricPanePart *createRubricPart(const RubricPaneContext &context) const override
    {
        return new HdEvalRubricPart(context);
    }
    HeatmapPanePart *createHeatmapPart(const HeatmapPaneContext &context) const override
    {
        return new HdEvalHeatmapPart(context);
    }
};

} // namespace

std::unique_ptr<MethodViews> hdevalViews()
{
    return std::make_unique<HdEvalViews>();
}

} // namespace rubric
