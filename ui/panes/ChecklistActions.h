#pragma once

#include <QObject>

class QAction;
class QTreeView;
class QUndoStack;
class QWidget;

namespace rubric {

class RubricTreeModel;
class StageCountTable;

/// The Rubric pane's CheckEval part: "Invert polarity" and "Restore" (a question the filter
/// removed) on the selected question, both undoable on the pane's stack, and the stage count
/// table under the tree. Shown only while a checklist is shown. The model, the stack and the tree
/// belong to the pane; the actions and the table are created as children of `pane`.
class ChecklistActions : public QObject
{
    Q_OBJECT
public:
    ChecklistActions(RubricTreeModel *model, QUndoStack *stack, QTreeView *tree, QWidget *pane);

    QAction *invertAction() const { return m_invert; }
    QAction *restoreAction() const { return m_restore; }
    StageCountTable *stageTable() const { return m_stages; }

    /// Shows the actions and the table for a checklist (and fills the table), hides them otherwise.
    void setChecklistShown(bool shown);
    /// Refills the stage counts after an edit (when shown).
    void refresh();
    /// Enables the actions for the selected criterion (`key`, empty for none) in an editable rubric.
    void updateActions(bool editable, const QString &key);

private:
    void invertCurrent();
    void restoreCurrent();
    QString currentKey() const;

    RubricTreeModel *m_model;
    QUndoStack *m_stack;
    QTreeView *m_tree;
    QWidget *m_pane;
    QAction *m_invert = nullptr;
    QAction *m_restore = nullptr;
    StageCountTable *m_stages = nullptr;
};

} // namespace rubric
