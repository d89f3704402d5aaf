#pragma once

#include <QString>
#include <QUndoCommand>
#include <QVariantMap>

namespace rubric {

class RubricTreeModel;

/// Flips a checklist question's polarity (origin["inverted"]: "yes" means worse, so the scorer
/// counts "no" as meeting the criterion), or flips it back. The model is not owned.
class InvertPolarityCommand : public QUndoCommand
{
public:
    InvertPolarityCommand(RubricTreeModel *model, const QString &key, QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;

private:
    RubricTreeModel *m_model;
    QString m_key;
    bool m_enabled = true;
    QVariantMap m_oldOrigin;
    QVariantMap m_newOrigin;
};

} // namespace rubric
