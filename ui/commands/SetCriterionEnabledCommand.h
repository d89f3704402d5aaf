#pragma once

#include <QString>
#include <QUndoCommand>

namespace rubric {

class RubricTreeModel;

/// Enables or disables a criterion (a disabled one is kept in the rubric but not scored).
class SetCriterionEnabledCommand : public QUndoCommand
{
public:
    SetCriterionEnabledCommand(RubricTreeModel *model, const QString &key, bool enabled,
                               QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    QString m_key;
    bool m_enabled;
};

} // namespace rubric
