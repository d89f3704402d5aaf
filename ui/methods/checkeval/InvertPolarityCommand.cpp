#include "InvertPolarityCommand.h"

#include "methods/checkeval/Checklist.h"
#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

InvertPolarityCommand::InvertPolarityCommand(RubricTreeModel *model, const QString &key, QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_key(key)
{
    if (const Criterion *c = model->criterion(key)) {
        m_enabled = c->enabled;
        m_oldOrigin = c->origin;
        Criterion flipped = *c;
        Checklist::invert(flipped);
        m_newOrigin = flipped.origin;
    }
    setText(m_newOrigin.value(QStringLiteral("inverted")).toBool()
                    ? QCoreApplication::translate("RubricCommands", "Invert polarity of %1").arg(key)
                    : QCoreApplication::translate("RubricCommands", "Restore polarity of %1").arg(key));
}

void InvertPolarityCommand::undo()
{
    m_model->setState(m_key, m_enabled, m_oldOrigin);
}

void InvertPolarityCommand::redo()
{
    m_model->setState(m_key, m_enabled, m_newOrigin);
}

} // namespace rubric
