#pragma once

#include "methods/checkeval/QuestionPrune.h"

#include <QDialog>
#include <QPointer>
#include <QUndoCommand>
#include <QVariantMap>
#include <QVector>

class QCheckBox;
class QLabel;
class QListWidget;
class QSpinBox;

namespace rubric {

class Project;
class RubricTreeModel;

/// Disables the chosen questions in one undoable edit, each marked origin.pruned with its figure
/// (undo restores each question's state and origin).
class PruneQuestionsCommand : public QUndoCommand
{
public:
    PruneQuestionsCommand(RubricTreeModel *model, const QVector<PruneCandidate> &questions,
                          QUndoCommand *parent = nullptr);
    void undo() override;
    void redo() override;

private:
    struct State
    {
        QString key;
        bool enabled = true;
        QVariantMap oldOrigin, newOrigin;
    };
    RubricTreeModel *m_model;
    QVector<State> m_states;
};

/// Prune by discrimination: choose k, see the k least discriminating asked questions of the shown
/// checklist (QuestionPrune) and the judge's alignment on the test split before and after (from
/// the stored answers, no calls); OK disables them as one undoable edit (PruneQuestionsCommand),
/// saved at once as a new version with both versions' alignment recorded (or, unticked, kept
/// for "Save as new version").
class PruneQuestionsDialog : public QDialog
{
    Q_OBJECT
public:
    PruneQuestionsDialog(Project *project, const QString &judge, RubricTreeModel *model, QWidget *parent = nullptr);

    QSpinBox *countBox() const { return m_count; }
    QListWidget *questionList() const { return m_questions; }
    QLabel *alignmentLabel() const { return m_alignment; }
    /// "Save as a new version now" (on by default): the prune is saved at once and both versions'
    /// alignment recorded (QuestionPrune::recordAlignment), shown side by side in the version list.
    QCheckBox *saveBox() const { return m_save; }
    /// The chosen questions (empty when refused; alignmentLabel says why).
    const QVector<PruneCandidate> &chosen() const { return m_chosen; }
    /// The alignment of the current choice (NaNs when refused).
    const PruneAlignment &alignment() const { return m_figures; }

private:
    void update();

    QPointer<Project> m_project;
    QString m_judge;
    RubricTreeModel *m_model;
    QSpinBox *m_count;
    QListWidget *m_questions;
    QLabel *m_alignment;
    QCheckBox *m_save;
    QWidget *m_ok = nullptr;
    QVector<PruneCandidate> m_chosen;
    PruneAlignment m_figures;
};

} // namespace rubric
