#pragma once

#include <QString>
#include <QUndoCommand>
#include <QVariantMap>

namespace rubric {

class RubricTreeModel;

/// Brings back a question the checklist filter removed: enables it and moves the filter's
/// reason from origin["filtered"] to origin["restored_from_filter"] (so the tree still says why
/// it had been removed, and the stage counts no longer count it as removed). The model is not
/// owned.
class RestoreQuestionCommand : public QUndoCommand
{
public:
    RestoreQuestionCommand(RubricTreeModel *model, const QString &key, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    QString m_key;
    bool m_oldEnabled = false;
    QVariantMap m_oldOrigin;
    QVariantMap m_newOrigin;
};

} // namespace rubric
