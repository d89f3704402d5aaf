#include "ChecklistActions.h"

#include "commands/InvertPolarityCommand.h"
#include "commands/RestoreQuestionCommand.h"
#include "methods/checkeval/Checklist.h"
#include "models/RubricTreeModel.h"
#include "widgets/StageCountTable.h"

#include <QAction>
#include <QTreeView>
#include <QUndoStack>

namespace rubric {

ChecklistActions::ChecklistActions(RubricTreeModel *model, QUndoStack *stack, QTreeView *tree, QWidget *pane)
    : QObject(pane)
    , m_model(model)
    , m_stack(stack)
    , m_tree(tree)
    , m_pane(pane)
    , m_invert(new QAction(tr("Invert polarity"), pane))
    , m_restore(new QAction(tr("Restore"), pane))
    , m_stages(new StageCountTable(pane))
{
    m_invert->setObjectName(QStringLiteral("rubricInvert"));
    const QString invertTip = tr("The question reads so that \"yes\" means worse: count \"no\" as meeting the "
                                 "criterion (again: flip it back); undoable");
    m_invert->setToolTip(invertTip);
    m_invert->setStatusTip(invertTip);
    m_restore->setObjectName(QStringLiteral("rubricRestore"));
    const QString restoreTip = tr("Bring back the question the filter removed (it is asked again); undoable");
    m_restore->setToolTip(restoreTip);
    m_restore->setStatusTip(restoreTip);
    for (QAction *a : {m_invert, m_restore}) {
        a->setShortcutContext(Qt::WidgetShortcut);
        m_tree->addAction(a);
    }
    m_stages->setObjectName(QStringLiteral("rubricStageCounts"));
    m_stages->hide();
    connect(m_invert, &QAction::triggered, this, &ChecklistActions::invertCurrent);
    connect(m_restore, &QAction::triggered, this, &ChecklistActions::restoreCurrent);
}

void ChecklistActions::setChecklistShown(bool shown)
{
    m_stages->setVisible(shown);
    m_invert->setVisible(shown);
    m_restore->setVisible(shown);
    if (shown)
        m_stages->setRubric(m_model->rubric());
}

void ChecklistActions::refresh()
{
    if (m_stages->isVisibleTo(m_pane))
        m_stages->setRubric(m_model->rubric());
}

void ChecklistActions::updateActions(bool editable, const QString &key)
{
    const Criterion *c = key.isEmpty() ? nullptr : m_model->criterion(key);
    const bool question = c && c->kind == CriterionKind::Question;
    m_invert->setEnabled(editable && question);
    m_invert->setText(question && Checklist::isInverted(*c) ? tr("Restore polarity") : tr("Invert polarity"));
    m_restore->setEnabled(editable && question && !c->enabled && c->origin.contains(QStringLiteral("filtered")));
}

QString ChecklistActions::currentKey() const
{
    return m_model->keyOf(m_tree->currentIndex());
}

void ChecklistActions::invertCurrent()
{
    const QString key = currentKey();
    const Criterion *c = key.isEmpty() ? nullptr : m_model->criterion(key);
    if (!c || m_model->isReadOnly() || c->kind != CriterionKind::Question)
        return;
    m_stack->push(new InvertPolarityCommand(m_model, key));
}

void ChecklistActions::restoreCurrent()
{
    const QString key = currentKey();
    const Criterion *c = key.isEmpty() ? nullptr : m_model->criterion(key);
    if (!c || m_model->isReadOnly() || c->enabled || !c->origin.contains(QStringLiteral("filtered")))
        return;
    m_stack->push(new RestoreQuestionCommand(m_model, key));
}

} // namespace rubric
