#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace rubric {

/// Settings…: annotator name, blind mode, language. Writes through Settings on OK only.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget *parent = nullptr);

public slots:
    void accept() override;

private:
    QLineEdit *m_annotator;
    QCheckBox *m_blind;
    QComboBox *m_language;
};

} // namespace rubric
