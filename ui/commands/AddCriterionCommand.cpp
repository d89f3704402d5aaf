#include "AddCriterionCommand.h"

#include "EditCriterionTextCommand.h"
#include "methods/MethodRegistry.h"
#include "models/RubricTreeModel.h"

#include <QCoreApplication>

namespace rubric {

AddCriterionCommand::AddCriterionCommand(RubricTreeModel *model, const Criterion &criterion, int row,
                                         QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_criterion(criterion)
    , m_row(row)
{
    setText(QCoreApplication::translate("RubricCommands", "Add %1").arg(criterion.key));
}

std::pair<Criterion, int> AddCriterionCommand::handWritten(const RubricTreeModel *model, const QString &key,
                                                           bool asChild)
{
    const Criterion *current = key.isEmpty() ? nullptr : model->criterion(key);
    // The kind the method puts under a node of `parent`'s kind (a hypothesis, a step, a question).
    const MethodInfo *method = MethodRegistry::find(model->rubric().method());
    const auto handWrittenKind
            = [method](CriterionKind parent) { return method ? method->childKind(parent) : CriterionKind::Criterion; };
    Criterion c;
    int row = 0;
    if (current && (asChild || current->kind == CriterionKind::Aspect)) {
        c.parentKey = current->key;
        const QStringList kids = model->childKeys(current->key);
        row = asChild ? int(kids.size()) : 0;
        c.kind = !kids.isEmpty() ? model->criterion(kids.first())->kind : handWrittenKind(current->kind);
        if (!asChild)
            row = int(kids.size());
    } else if (current) {
        c.parentKey = current->parentKey;
        c.kind = current->kind;
        row = int(model->childKeys(current->parentKey).indexOf(current->key)) + 1;
    } else {
        const QStringList roots = model->childKeys(QString());
        if (roots.size() == 1 && model->criterion(roots.first())->kind == CriterionKind::Aspect) {
            c.parentKey = roots.first();
            row = int(model->childKeys(c.parentKey).size());
        } else {
            row = int(roots.size());
        }
        c.kind = handWrittenKind(roots.size() == 1 ? model->criterion(roots.first())->kind : CriterionKind::Aspect);
    }
    const QString prefix = criterionKindName(c.kind).left(1);
    c.key = model->freshKey(prefix);
    c.text = c.kind == CriterionKind::Question
                     ? QCoreApplication::translate("RubricPane", "New question: does the output …?")
             : c.kind == CriterionKind::SubAspect
                     ? QCoreApplication::translate("RubricPane", "New sub-aspect")
                     : QCoreApplication::translate("RubricPane", "New criterion: describe what the judge should check");
    c.enabled = true;
    c.origin = {{QStringLiteral("source"), QStringLiteral("added")},
                {QStringLiteral("method"), model->rubric().method()},
                {QStringLiteral("added_by"), EditCriterionTextCommand::editor()}};
    if (c.kind == CriterionKind::Question) // a person's own question is a seed (CheckEval)
        c.origin.insert(QStringLiteral("stage"), QStringLiteral("seed"));
    return {c, row};
}

void AddCriterionCommand::undo()
{
    m_model->takeSubtree(m_criterion.key, nullptr);
}

void AddCriterionCommand::redo()
{
    m_model->insertSubtree({m_criterion}, m_row);
}

} // namespace rubric
