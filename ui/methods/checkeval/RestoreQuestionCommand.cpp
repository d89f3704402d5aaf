#include "RestoreQuestionCommand.h"

#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

RestoreQuestionCommand::RestoreQuestionCommand(RubricTreeModel *model, const QString &key, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_key(key)
{
    if (const Criterion *c = model->criterion(key)) {
        m_oldEnabled = c->enabled;
        m_oldOrigin = c->origin;
    }
    m_newOrigin = m_oldOrigin;
    const QVariant reason = m_newOrigin.take(QStringLiteral("filtered"));
    if (reason.isValid())
        m_newOrigin.insert(QStringLiteral("restored_from_filter"), reason);
    setText(QCoreApplication::translate("RubricCommands", "Restore %1").arg(key));
}

void RestoreQuestionCommand::undo()
{
    m_model->setState(m_key, m_oldEnabled, m_oldOrigin);
}

void RestoreQuestionCommand::redo()
{
    m_model->setState(m_key, true, m_newOrigin);
}

} // namespace rubric
