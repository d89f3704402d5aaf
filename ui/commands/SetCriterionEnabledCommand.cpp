#include "SetCriterionEnabledCommand.h"

#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

SetCriterionEnabledCommand::SetCriterionEnabledCommand(RubricTreeModel *model, const QString &key, bool enabled,
                                                       QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_key(key)
    , m_enabled(enabled)
{
    setText(enabled ? QCoreApplication::translate("RubricCommands", "Enable %1").arg(key)
                    : QCoreApplication::translate("RubricCommands", "Disable %1").arg(key));
}

void SetCriterionEnabledCommand::undo()
{
    m_model->setEnabled(m_key, !m_enabled);
}

void SetCriterionEnabledCommand::redo()
{
    m_model->setEnabled(m_key, m_enabled);
}

} // namespace rubric
