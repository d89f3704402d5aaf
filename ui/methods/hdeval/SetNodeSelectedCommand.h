#pragma once

#include <QString>
#include <QUndoCommand>
#include <QVariant>

namespace rubric {

class RubricTreeModel;

/// Marks an HD-Eval node for expansion, or unmarks it (stats "selected"; the next layer decomposes
/// the marked nodes and keeps a hand-made choice as it is). The model is not owned.
class SetNodeSelectedCommand : public QUndoCommand
{
public:
    SetNodeSelectedCommand(RubricTreeModel *model, const QString &key, bool selected, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    QString m_key;
    bool m_selected;
    bool m_had = false; ///< whether the stats held "selected" before (undo removes it again)
    bool m_old = false;
    QVariant m_oldBy; ///< "selected_by" before (invalid: none)
};

} // namespace rubric
