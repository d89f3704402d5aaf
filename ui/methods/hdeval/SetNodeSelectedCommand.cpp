#include "SetNodeSelectedCommand.h"

#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

SetNodeSelectedCommand::SetNodeSelectedCommand(RubricTreeModel *model, const QString &key, bool selected,
                                               QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_key(key)
    , m_selected(selected)
{
    if (const Criterion *c = model->criterion(key)) {
        m_had = c->stats.contains(QStringLiteral("selected"));
        m_old = c->stats.value(QStringLiteral("selected")).toBool();
        m_oldBy = c->stats.value(QStringLiteral("selected_by"));
    }
    setText(selected ? QCoreApplication::translate("RubricCommands", "Select %1 for expansion").arg(key)
                     : QCoreApplication::translate("RubricCommands", "Do not expand %1").arg(key));
}

void SetNodeSelectedCommand::undo()
{
    const Criterion *c = m_model->criterion(m_key);
    if (!c)
        return;
    QVariantMap stats = c->stats;
    if (m_had)
        stats.insert(QStringLiteral("selected"), m_old);
    else
        stats.remove(QStringLiteral("selected"));
    if (m_oldBy.isValid())
        stats.insert(QStringLiteral("selected_by"), m_oldBy);
    else
        stats.remove(QStringLiteral("selected_by"));
    m_model->setStats(m_key, stats);
}

void SetNodeSelectedCommand::redo()
{
    const Criterion *c = m_model->criterion(m_key);
    if (!c)
        return;
    QVariantMap stats = c->stats;
    stats.insert(QStringLiteral("selected"), m_selected);
    // Told apart from pruning's marks: the next run keeps a hand-set mark whatever the split.
    stats.insert(QStringLiteral("selected_by"), QStringLiteral("hand"));
    m_model->setStats(m_key, stats);
}

} // namespace rubric
