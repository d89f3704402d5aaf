#include "AddCriterionCommand.h"

#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

AddCriterionCommand::AddCriterionCommand(RubricTreeModel *model, const Criterion &criterion, int row,
                                         QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_criterion(criterion)
    , m_row(row)
{
    setText(QCoreApplication::translate("RubricCommands", "Add %1").arg(criterion.key));
}

void AddCriterionCommand::undo()
{
    m_model->takeSubtree(m_criterion.key, nullptr);
}

void AddCriterionCommand::redo()
{
    m_model->insertSubtree({m_criterion}, m_row);
}

} // namespace rubric
