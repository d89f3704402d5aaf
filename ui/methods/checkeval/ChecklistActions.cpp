#include "ChecklistActions.h"

#include "methods/checkeval/Checklist.h"
#include "methods/checkeval/ImportAnswersDialog.h"
#include "methods/checkeval/InvertPolarityCommand.h"
#include "methods/checkeval/JudgeAgreementDialog.h"
#include "methods/checkeval/NewChecklistDialog.h"
#include "methods/checkeval/PruneQuestionsDialog.h"
#include "methods/checkeval/RestoreQuestionCommand.h"
#include "methods/checkeval/StageCountTable.h"
#include "models/RubricTreeModel.h"

#include <QAction>
#include <QCheckBox>
#include <QCoreApplication>
#include <QMessageBox>
#include <QTreeView>
#include <QUndoStack>

namespace rubric {

ChecklistActions::ChecklistActions(const RubricPaneContext &context)
    : RubricPanePart(context.pane)
    , m_context(context)
    , m_invert(new QAction(tr("Invert polarity"), context.pane))
    , m_restore(new QAction(tr("Restore"), context.pane))
    , m_newChecklist(new QAction(QCoreApplication::translate("rubric::RubricPane", "New checklist…"), context.pane))
    , m_agreement(new QAction(tr("Judge agreement…"), context.pane))
    , m_prune(new QAction(tr("Prune…"), context.pane))
    , m_importAnswers(new QAction(tr("Import answers…"), context.pane))
    , m_stages(new StageCountTable(context.pane))
{
    m_invert->setObjectName(QStringLiteral("rubricInvert"));
    const QString invertTip = tr("The question reads so that \"yes\" means worse: count \"no\" as meeting the "
                                 "criterion (again: flip it back); undoable");
    m_invert->setToolTip(invertTip);
    m_invert->setStatusTip(invertTip);
    m_restore->setObjectName(QStringLiteral("rubricRestore"));
    const QString restoreTip = tr("Bring back the question the filter removed (it is asked again); undoable");
    m_restore->setToolTip(restoreTip);
    m_restore->setStatusTip(restoreTip);
    for (QAction *a : {m_invert, m_restore}) {
        a->setShortcutContext(Qt::WidgetShortcut);
        m_context.tree->addAction(a);
    }
    m_newChecklist->setObjectName(QStringLiteral("rubricNewChecklist"));
    const QString newTip = QCoreApplication::translate(
            "rubric::RubricPane",
            "A CheckEval judge whose checklist comes from a published checklist, a file, or is typed here");
    m_newChecklist->setToolTip(newTip);
    m_newChecklist->setStatusTip(newTip);
    m_agreement->setObjectName(QStringLiteral("rubricJudgeAgreement"));
    const QString agreementTip = tr("Agreement between checklist judges (CheckEval's inter-evaluator agreement): "
                                    "Krippendorff's alpha and Fleiss' kappa per dimension and their average");
    m_agreement->setToolTip(agreementTip);
    m_agreement->setStatusTip(agreementTip);
    m_prune->setObjectName(QStringLiteral("rubricPrune"));
    const QString pruneTip = tr("Disable the k least discriminating questions as one edit (undoable), with the "
                                "alignment on the test split before and after");
    m_prune->setToolTip(pruneTip);
    m_prune->setStatusTip(pruneTip);
    m_importAnswers->setObjectName(QStringLiteral("rubricImportAnswers"));
    const QString importTip = tr("Per-question checklist answers made elsewhere (another tool's LLM answers, or "
                                 "people's) from a CSV, as a checklist judge; previewed, all rows or none");
    m_importAnswers->setToolTip(importTip);
    m_importAnswers->setStatusTip(importTip);
    m_stages->setObjectName(QStringLiteral("rubricStageCounts"));
    m_stages->hide();
    connect(m_invert, &QAction::triggered, this, &ChecklistActions::invertCurrent);
    connect(m_restore, &QAction::triggered, this, &ChecklistActions::restoreCurrent);
    connect(m_newChecklist, &QAction::triggered, this, &ChecklistActions::newChecklist);
    connect(m_agreement, &QAction::triggered, this, &ChecklistActions::showAgreement);
    connect(m_prune, &QAction::triggered, this, &ChecklistActions::prune);
    connect(m_importAnswers, &QAction::triggered, this, &ChecklistActions::importAnswers);
}

QList<QWidget *> ChecklistActions::panels() const
{
    return {m_stages};
}

void ChecklistActions::rubricShown(bool shown)
{
    m_stages->setVisible(shown);
    m_invert->setVisible(shown);
    m_restore->setVisible(shown);
    m_prune->setVisible(shown);
    if (shown)
        m_stages->setRubric(m_context.model->rubric());
}

void ChecklistActions::rubricEdited()
{
    if (m_stages->isVisibleTo(m_context.pane))
        m_stages->setRubric(m_context.model->rubric());
}

void ChecklistActions::updateActions(const RubricPaneState &state)
{
    m_judge = state.judge;
    const Criterion *c = state.currentKey.isEmpty() ? nullptr : m_context.model->criterion(state.currentKey);
    const bool question = c && c->kind == CriterionKind::Question;
    m_invert->setEnabled(state.editable && question);
    m_invert->setText(question && Checklist::isInverted(*c) ? tr("Restore polarity") : tr("Invert polarity"));
    m_prune->setEnabled(state.editable && !state.judge.isEmpty());
    m_restore->setEnabled(state.editable && question && !c->enabled && c->origin.contains(QStringLiteral("filtered")));
}

QString ChecklistActions::currentKey() const
{
    return m_context.model->keyOf(m_context.tree->currentIndex());
}

void ChecklistActions::invertCurrent()
{
    const QString key = currentKey();
    const Criterion *c = key.isEmpty() ? nullptr : m_context.model->criterion(key);
    if (!c || m_context.model->isReadOnly() || c->kind != CriterionKind::Question)
        return;
    m_context.stack->push(new InvertPolarityCommand(m_context.model, key));
}

void ChecklistActions::restoreCurrent()
{
    const QString key = currentKey();
    const Criterion *c = key.isEmpty() ? nullptr : m_context.model->criterion(key);
    if (!c || m_context.model->isReadOnly() || c->enabled || !c->origin.contains(QStringLiteral("filtered")))
        return;
    m_context.stack->push(new RestoreQuestionCommand(m_context.model, key));
}

void ChecklistActions::newChecklist()
{
    if (!m_project || (m_context.confirmDiscard && !m_context.confirmDiscard()))
        return;
    auto *dialog = new NewChecklistDialog(m_project, m_context.pane);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        emit judgeCreated(dialog->createdJudge(),
                          QCoreApplication::translate(
                                  "rubric::RubricPane",
                                  "Created the checklist judge %1 (version 1). Run it in the Judge & run pane.")
                                  .arg(dialog->createdJudge()));
    });
    dialog->open();
}

void ChecklistActions::showAgreement()
{
    if (!m_project)
        return;
    auto *dialog = new JudgeAgreementDialog(m_project, m_judge, m_context.pane);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void ChecklistActions::importAnswers()
{
    if (!m_project || (m_context.confirmDiscard && !m_context.confirmDiscard()))
        return;
    auto *dialog = new ImportAnswersDialog(m_project, m_judge, m_context.pane);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        emit judgeCreated(dialog->importedJudge(),
                          tr("Imported checklist answers as judge %1.").arg(dialog->importedJudge()));
    });
    dialog->open();
}

void ChecklistActions::prune()
{
    if (m_context.model->isReadOnly() || m_judge.isEmpty())
        return;
    auto *dialog = new PruneQuestionsDialog(m_project, m_judge, m_context.model, m_context.pane);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->chosen().isEmpty())
            return;
        const Rubric before = m_context.model->rubric();
        m_context.stack->push(new PruneQuestionsCommand(m_context.model, dialog->chosen()));
        if (!dialog->saveBox()->isChecked() || !m_context.saveVersion || !m_project)
            return;
        QStringList keys;
        for (const PruneCandidate &q : dialog->chosen())
            keys << q.key;
        const auto saved
                = m_context.saveVersion(tr("Pruned by discrimination: %1 disabled (the %2 least discriminating)")
                                                .arg(keys.join(QStringLiteral(", ")))
                                                .arg(keys.size()));
        if (!saved) {
            QMessageBox::warning(m_context.pane, tr("Prune not saved"), saved.errorString());
            return;
        }
        const auto recorded
                = QuestionPrune::recordAlignment(*m_project, m_judge, before, *saved, m_context.model->rubric());
        if (!recorded)
            QMessageBox::warning(m_context.pane, tr("Alignment not recorded"),
                                 tr("Version %1 was saved; its alignment was not recorded: %2")
                                         .arg(*saved)
                                         .arg(recorded.errorString()));
        if (m_context.refreshVersions)
            m_context.refreshVersions();
    });
    dialog->open();
}

} // namespace rubric
