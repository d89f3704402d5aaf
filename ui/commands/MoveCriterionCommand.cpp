#include "MoveCriterionCommand.h"

#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

MoveCriterionCommand::MoveCriterionCommand(RubricTreeModel *model, const QString &key, int delta, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_key(key)
    , m_delta(delta)
{
    setText(delta < 0 ? QCoreApplication::translate("RubricCommands", "Move %1 up").arg(key)
                      : QCoreApplication::translate("RubricCommands", "Move %1 down").arg(key));
}

void MoveCriterionCommand::undo()
{
    m_model->move(m_key, -m_delta);
}

void MoveCriterionCommand::redo()
{
    m_model->move(m_key, m_delta);
}

} // namespace rubric
