#pragma once

#include <QString>
#include <QUndoCommand>

namespace rubric {

class RubricTreeModel;

/// Moves a criterion (with its subtree) one row up (-1) or down (+1) among its siblings.
/// Push it only when RubricTreeModel::canMove() says the move is possible.
class MoveCriterionCommand : public QUndoCommand
{
public:
    MoveCriterionCommand(RubricTreeModel *model, const QString &key, int delta, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    QString m_key;
    int m_delta;
};

} // namespace rubric
