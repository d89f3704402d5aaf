#include "DeleteCriterionCommand.h"

#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

DeleteCriterionCommand::DeleteCriterionCommand(RubricTreeModel *model, const QString &key, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_key(key)
{
    setText(QCoreApplication::translate("RubricCommands", "Delete %1").arg(key));
}

void DeleteCriterionCommand::undo()
{
    m_model->insertSubtree(m_subtree, m_row);
}

void DeleteCriterionCommand::redo()
{
    m_subtree = m_model->takeSubtree(m_key, &m_row);
}

} // namespace rubric
