#include "SettingsDialog.h"

#include "Settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace rubric {

SettingsDialog::SettingsDialog(QWidget *parent)
    : QDialog(parent)
    , m_annotator(new QLineEdit(this))
    , m_blind(new QCheckBox(tr("Hide judge scores while annotating"), this))
    , m_language(new QComboBox(this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    m_annotator->setObjectName(QStringLiteral("annotatorSetting"));
    m_annotator->setText(Settings::string(Settings::Key::AnnotatorName));
    m_blind->setObjectName(QStringLiteral("blindSetting"));
    m_blind->setChecked(Settings::flag(Settings::Key::BlindMode));
    m_language->setObjectName(QStringLiteral("languageSetting"));
    m_language->addItem(tr("System language"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("Deutsch"), QStringLiteral("de"));
    const int i = m_language->findData(Settings::string(Settings::Key::Language));
    m_language->setCurrentIndex(i < 0 ? 0 : i);

    auto *form = new QFormLayout;
    form->addRow(tr("Annotator name:"), m_annotator);
    form->addRow(QString(), m_blind);
    form->addRow(tr("Language:"), m_language);
    auto *note = new QLabel(tr("A new language takes effect the next time the studio starts."), this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(QString(), note);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void SettingsDialog::accept()
{
    Settings::setValue(Settings::Key::AnnotatorName, m_annotator->text().trimmed());
    Settings::setValue(Settings::Key::BlindMode, m_blind->isChecked());
    Settings::setValue(Settings::Key::Language, m_language->currentData());
    QDialog::accept();
}

} // namespace rubric
