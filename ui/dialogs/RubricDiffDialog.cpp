#include "RubricDiffDialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace rubric {

RubricDiffDialog::RubricDiffDialog(const QString &judge, const Rubric &before, const Rubric &after, QWidget *parent)
    : QDialog(parent)
    , m_text(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("rubricDiffDialog"));
    setWindowTitle(tr("Rubric of %1: version %2 → %3").arg(judge).arg(before.version()).arg(after.version()));
    const auto changes = RubricDiff::compare(before, after);
    auto *summary = new QLabel(changes.isEmpty()
                                       ? tr("The two versions have the same criteria.")
                                       : tr("%n change(s) from version %1 to version %2.", nullptr, int(changes.size()))
                                                 .arg(before.version())
                                                 .arg(after.version()),
                               this);
    m_text->setObjectName(QStringLiteral("rubricDiffText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlainText(RubricDiff::toText(changes));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(summary);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(760, 420);
}

QString RubricDiffDialog::text() const
{
    return m_text->toPlainText();
}

} // namespace rubric
