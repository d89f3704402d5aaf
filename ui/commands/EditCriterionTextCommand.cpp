#include "EditCriterionTextCommand.h"

#include "models/RubricTreeModel.h"

#include <QCoreApplication>
#include <QDateTime>

namespace rubric {

EditCriterionTextCommand::EditCriterionTextCommand(RubricTreeModel *model, const QString &key, const QString &text,
                                                   QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
    , m_key(key)
    , m_newText(text)
{
    if (const Criterion *c = model->criterion(key)) {
        m_oldText = c->text;
        m_oldOrigin = c->origin;
    }
    m_newOrigin = m_oldOrigin;
    // A criterion added in the studio has no method text to keep: its provenance is "added_by".
    if (m_oldOrigin.value(QStringLiteral("source")).toString() != QLatin1String("added")) {
        if (!m_newOrigin.contains(QStringLiteral("edited_from")))
            m_newOrigin.insert(QStringLiteral("edited_from"), m_oldText);
        m_newOrigin.insert(QStringLiteral("edited_by"), editor());
        m_newOrigin.insert(QStringLiteral("edited_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    }
    setText(QCoreApplication::translate("RubricCommands", "Edit text of %1").arg(key));
}

QString EditCriterionTextCommand::editor()
{
    QString name = qEnvironmentVariable("USER");
    if (name.isEmpty())
        name = qEnvironmentVariable("USERNAME");
    return name.isEmpty() ? QStringLiteral("studio") : name;
}

void EditCriterionTextCommand::undo()
{
    m_model->setText(m_key, m_oldText, m_oldOrigin);
}

void EditCriterionTextCommand::redo()
{
    m_model->setText(m_key, m_newText, m_newOrigin);
}

bool EditCriterionTextCommand::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const EditCriterionTextCommand *>(other);
    if (o->m_key != m_key || o->m_model != m_model)
        return false;
    m_newText = o->m_newText;
    if (o->m_newOrigin.contains(QStringLiteral("edited_at")))
        m_newOrigin.insert(QStringLiteral("edited_at"), o->m_newOrigin.value(QStringLiteral("edited_at")));
    setObsolete(m_newText == m_oldText); // edited back to the original: nothing to undo
    return true;
}

} // namespace rubric
