#pragma once

#include "methods/MethodViews.h"

#include <QPointer>

class QAction;
class QTreeView;
class QUndoStack;
class QWidget;

namespace rubric {

class Project;
class RubricTreeModel;
class StageCountTable;

/// The Rubric pane's CheckEval part: "Invert polarity" and "Restore" (a question the filter
/// removed) on the selected question, both undoable on the pane's stack, the stage count table
/// under the tree (shown only while a checklist is shown) and "New checklist…" beside the judge
/// list (NewChecklistDialog), "Judge agreement…" there (JudgeAgreementDialog) and "Import
/// answers…" (ImportAnswersDialog). The model, the stack and the tree
/// belong to the pane; the actions and the table are created as children of the pane.
class ChecklistActions : public RubricPanePart
{
    Q_OBJECT
public:
    explicit ChecklistActions(const RubricPaneContext &context);

    QAction *invertAction() const { return m_invert; }
    QAction *restoreAction() const { return m_restore; }
    QAction *newChecklistAction() const { return m_newChecklist; }
    QAction *agreementAction() const { return m_agreement; }
    QAction *pruneAction() const { return m_prune; }
    QAction *importAnswersAction() const { return m_importAnswers; }
    StageCountTable *stageTable() const { return m_stages; }

    QList<QAction *> editActions() const override { return {m_invert, m_restore, m_prune}; }
    QList<QAction *> judgeActions() const override { return {m_newChecklist, m_agreement, m_importAnswers}; }
    QList<QWidget *> panels() const override;
    void setProject(Project *project) override { m_project = project; }
    /// Shows the actions and the table for a checklist (and fills the table), hides them otherwise.
    void rubricShown(bool own) override;
    /// Refills the stage counts after an edit (when shown).
    void rubricEdited() override;
    /// Enables the actions for the selected criterion in an editable rubric.
    void updateActions(const RubricPaneState &state) override;

private:
    void invertCurrent();
    void restoreCurrent();
    void newChecklist();
    void showAgreement();
    void prune();
    void importAnswers();
    QString currentKey() const;

    RubricPaneContext m_context;
    QPointer<Project> m_project;
    QAction *m_invert = nullptr;
    QAction *m_restore = nullptr;
    QAction *m_newChecklist = nullptr;
    QAction *m_agreement = nullptr;
    QAction *m_prune = nullptr;
    QAction *m_importAnswers = nullptr;
    QString m_judge; ///< the judge the pane shows
    StageCountTable *m_stages = nullptr;
};

} // namespace rubric
