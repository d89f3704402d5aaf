#pragma once

#include "rubric/Criterion.h"

#include <QUndoCommand>
#include <QVector>

namespace rubric {

class RubricTreeModel;

/// Deletes a criterion with its subtree; undo puts them back at the same row.
class DeleteCriterionCommand : public QUndoCommand
{
public:
    DeleteCriterionCommand(RubricTreeModel *model, const QString &key, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    QString m_key;
    QVector<Criterion> m_subtree;
    int m_row = 0;
};

} // namespace rubric
