#pragma once

#include "rubric/Rubric.h"
#include "store/Project.h"
#include "util/Result.h"

#include <QDialog>
#include <QPointer>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace rubric {

/// "New checklist…": a CheckEval judge from a shipped preset (ChecklistIo::presetNames()), a
/// file (CheckEval YAML, our JSON or Markdown export) or an empty checklist the user types (the
/// aspect and one sub-aspect; questions are added in the Rubric pane). On OK it creates the
/// judge (method "checkeval") and saves the checklist as its version 1; a file that cannot be
/// read (a YAML syntax error …) is reported in the dialog with its file and line, and nothing
/// is created. The project is not owned.
class NewChecklistDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Source { Preset, File, Empty };

    explicit NewChecklistDialog(Project *project, QWidget *parent = nullptr);

    /// The checklist the form describes, not saved; an error names the file, line and field.
    Result<Rubric> checklist() const;
    /// Creates the judge and saves the checklist as version 1; returns the judge's name.
    Result<QString> create();
    /// The judge create() made (empty before).
    QString createdJudge() const { return m_created; }

    void accept() override;

private:
    Source source() const;
    void onAspectChanged();
    void updateState();
    void browse();

    QPointer<Project> m_project;
    QString m_created;
    QComboBox *m_aspect = nullptr;
    QLineEdit *m_judge = nullptr;
    QRadioButton *m_fromPreset = nullptr;
    QRadioButton *m_fromFile = nullptr;
    QRadioButton *m_empty = nullptr;
    QComboBox *m_preset = nullptr;
    QLabel *m_presetNote = nullptr; ///< what the chosen preset is, beside the paper's final count
    QLineEdit *m_path = nullptr;
    QPushButton *m_browse = nullptr;
    QLineEdit *m_subAspect = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_ok = nullptr;
};

} // namespace rubric
