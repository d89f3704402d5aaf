#pragma once

#include "rubric/Criterion.h"

#include <QUndoCommand>

namespace rubric {

class RubricTreeModel;

/// Adds a criterion (key, parentKey, kind and text set by the caller) at `row` among the
/// children of its parent.
class AddCriterionCommand : public QUndoCommand
{
public:
    AddCriterionCommand(RubricTreeModel *model, const Criterion &criterion, int row, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    Criterion m_criterion;
    int m_row;
};

} // namespace rubric
