#pragma once

#include <QString>
#include <QUndoCommand>
#include <QVariantMap>

namespace rubric {

class RubricTreeModel;

/// Changes a criterion's text. The key stays (scores refer to it; the new prompt makes the
/// judge cache re-ask only this criterion); the origin records the method's text
/// (`edited_from`, kept from the first edit), who edited it (`edited_by`) and when
/// (`edited_at`). Consecutive edits of one criterion merge into one step.
class EditCriterionTextCommand : public QUndoCommand
{
public:
    EditCriterionTextCommand(RubricTreeModel *model, const QString &key, const QString &text,
                             QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;
    int id() const override { return 0x52454454; }
    bool mergeWith(const QUndoCommand *other) override;

    /// Who edits (recorded as `edited_by`): the user's login name unless set.
    static QString editor();

private:
    RubricTreeModel *m_model;
    QString m_key;
    QString m_oldText, m_newText;
    QVariantMap m_oldOrigin, m_newOrigin;
};

} // namespace rubric
