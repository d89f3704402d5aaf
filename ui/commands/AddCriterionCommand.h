#pragma once

#include "rubric/Criterion.h"

#include <QUndoCommand>

#include <utility>

namespace rubric {

class RubricTreeModel;

/// Adds a criterion (key, parentKey, kind and text set by the caller) at `row` among the
/// children of its parent.
class AddCriterionCommand : public QUndoCommand
{
public:
    AddCriterionCommand(RubricTreeModel *model, const Criterion &criterion, int row, QUndoCommand *parent = nullptr);

    /// A hand-written criterion placed for the selection `key` (empty: none) of `model`: after it,
    /// or under it when `asChild` or when it is an aspect; its kind the one the rubric's method puts
    /// there, its key fresh, its text a placeholder, its origin "added" by the user. Returns the
    /// criterion and its row among its parent's children.
    static std::pair<Criterion, int> handWritten(const RubricTreeModel *model, const QString &key, bool asChild);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    Criterion m_criterion;
    int m_row;
};

} // namespace rubric
