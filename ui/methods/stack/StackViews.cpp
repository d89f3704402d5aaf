// The stacked judge's views: its tree by source judge with the permutation importance of every
// stacked criterion (a bar), and a panel under it with the fit's figures.
#include "methods/MethodViews.h"
#include "methods/stack/StackPanel.h"
#include "models/RubricTreeModel.h"
#include "store/Project.h"
#include "widgets/ImportanceBarDelegate.h"

#include <QCoreApplication>
#include <QTreeView>

#include <cmath>

namespace rubric {
namespace {

std::optional<double> importanceOf(const Criterion &c, const QString &aspect)
{
    const QVariantMap m = c.stats.value(QStringLiteral("importance")).toMap();
    if (m.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double x = (aspect.isEmpty() ? m.first() : m.value(aspect, m.first())).toDouble(&ok);
    if (!ok || !std::isfinite(x))
        return std::nullopt;
    return x;
}

/// The importance as a share of the largest among the nodes of the same kind (judges compare with
/// judges, criteria with criteria).
double shareOf(const Rubric &rubric, const Criterion &c, const QString &aspect)
{
    const auto own = importanceOf(c, aspect);
    if (!own || *own <= 0)
        return 0;
    double largest = 0;
    for (const Criterion &o : rubric.criteria())
        if (o.kind == c.kind)
            if (const auto x = importanceOf(o, aspect))
                largest = std::max(largest, *x);
    return largest > 0 ? *own / largest : 0;
}

class StackRubricPart : public RubricPanePart
{
public:
    explicit StackRubricPart(const RubricPaneContext &context)
        : RubricPanePart(context.pane)
        , m_pane(context.pane)
        , m_tree(context.tree)
        , m_panel(new StackPanel(context.model, context.pane))
    {
        m_panel->hide();
    }

    QList<QWidget *> panels() const override { return {m_panel}; }
    void setProject(Project *project) override { m_panel->setProject(project); }
    void rubricShown(bool own) override
    {
        m_panel->setVisible(own);
        if (own) // the bars, while a stacked judge is shown (HD-Eval sets its own the same way)
            m_tree->setItemDelegateForColumn(RubricTreeModel::ImportanceColumn,
                                             new ImportanceBarDelegate(RubricTreeModel::ShareRole, m_tree));
    }
    void updateActions(const RubricPaneState &state) override
    {
        if (m_panel->isVisibleTo(m_pane))
            m_panel->refresh(state.judge);
    }

private:
    QWidget *m_pane;
    QTreeView *m_tree;
    StackPanel *m_panel;
};

class StackViews : public MethodViews
{
public:
    QList<int> treeColumns(const MethodInfo *) const override
    {
        using M = RubricTreeModel;
        return {M::TextColumn, M::ImportanceColumn, M::TrainPearsonColumn, M::EnabledColumn, M::OriginColumn};
    }
    QVariant treeData(const Rubric &rubric, const Criterion &c, int column, int role,
                      const QString &aspect) const override
    {
        if (column != RubricTreeModel::ImportanceColumn)
            return {};
        const auto x = importanceOf(c, aspect);
        if (role == Qt::DisplayRole)
            return x ? QVariant(QString::number(*x, 'f', 3)) : QVariant();
        if (role == RubricTreeModel::ShareRole)
            return x ? QVariant(shareOf(rubric, c, aspect)) : QVariant();
        if (role == RubricTreeModel::SortRole)
            return x ? QVariant(*x) : QVariant();
        if (role == Qt::ToolTipRole)
            return c.kind == CriterionKind::SubAspect
                           ? QCoreApplication::translate("StackViews",
                                                         "The sum of the importances of this judge's criteria")
                           : QCoreApplication::translate(
                                   "StackViews", "Permutation importance: how much the stacked fit on the train "
                                                 "split drops when this criterion's scores are shuffled");
        return {};
    }
    RubricPanePart *createRubricPart(const RubricPaneContext &context) const override
    {
        return new StackRubricPart(context);
    }
};

} // namespace

std::unique_ptr<MethodViews> stackViews()
{
    return std::make_unique<StackViews>();
}

} // namespace rubric
