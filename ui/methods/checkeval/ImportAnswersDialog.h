#pragma once

#include "methods/checkeval/AnswerImport.h"

#include <QDialog>
#include <QPointer>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace rubric {

class Project;

/// The Rubric pane's "Import answers…": per-question checklist answers made elsewhere (another
/// tool's LLM answers, or people's) from a CSV (item, question, answer) stored as a checklist judge
/// through the same importer as `rubric import-answers` (AnswerImport). The file is checked as
/// the fields change and previewed (every row: line, item, question, answer, meets the criterion);
/// a bad row is named with the file, its line and the field, and nothing can be imported then.
/// Import writes all rows or none. Who answered (an LLM and its model, or people) is stored as the
/// judge's evaluator profile, which the Judge agreement dialog groups by.
class ImportAnswersDialog : public QDialog
{
    Q_OBJECT
public:
    enum PreviewColumn { LineCol, ItemCol, QuestionCol, AnswerCol, MeetsCol, PreviewColCount };

    ImportAnswersDialog(Project *project, const QString &judge, QWidget *parent = nullptr);

    QLineEdit *fileEdit() const { return m_file; }
    QLineEdit *judgeEdit() const { return m_judge; }
    /// The checklist: an existing checklist judge's latest version, or a published preset.
    QComboBox *checklistChoice() const { return m_checklist; }
    QComboBox *answeredByChoice() const { return m_by; }
    QLineEdit *modelEdit() const { return m_model; }
    QTableWidget *previewTable() const { return m_preview; }
    QLabel *summaryLabel() const { return m_summary; }
    QPushButton *importButton() const { return m_import; }
    /// The judge written by the last accepted import (empty before).
    QString importedJudge() const { return m_imported; }

    /// Checks the file again and fills the preview (done as the fields change).
    void refresh();
    void accept() override;

private:
    void browse();
    std::optional<Rubric> chosenChecklist(QString *error) const;

    QPointer<Project> m_project;
    QLineEdit *m_file;
    QLineEdit *m_judge;
    QComboBox *m_checklist;
    QComboBox *m_by;
    QLineEdit *m_model;
    QTableWidget *m_preview;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    QPushButton *m_import;
    std::optional<AnswerImportPlan> m_plan;
    std::optional<Rubric> m_planChecklist;
    QString m_imported;
};

} // namespace rubric
