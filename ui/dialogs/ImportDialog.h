#pragma once

#include "io/Importer.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace rubric {

class Project;

/// Import… : a file, its format, a preset, which field fills what (combos filled from
/// Importer::preview()), the human-score fields with their scales (set, or inferred from the data:
/// the dialog shows which, from a dry run of the whole file), and a live preview of the first rows. A refused import is
/// shown in the dialog with its file and line; the project is left as it was (the importer is all-or-nothing) and the
/// dialog stays open to fix the mapping.
class ImportDialog : public QDialog
{
    Q_OBJECT
public:
    /// `project` is not owned and must outlive the dialog.
    explicit ImportDialog(Project *project, QWidget *parent = nullptr);
    ~ImportDialog() override;

    /// Sets the file and reloads the preview.
    void setFile(const QString &path);
    /// The spec the dialog would import now.
    ImportSpec spec() const;
    /// What the accepted import added.
    ImportSummary summary() const { return m_summary; }
    /// The message shown for the last refused preview or import, or empty.
    QString errorText() const;

public slots:
    void accept() override;

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void browse();
    void loadPreview();
    void applyPreset();
    void fillFieldCombos();
    /// A human-score row; without `scale` the scale is inferred from the data ("from the data" checked).
    void addHumanRow(const QString &aspect, const QString &field, std::optional<QPair<double, double>> scale);
    /// Dry-runs the import (Importer::check) and shows each aspect's scale and where it comes from.
    void updateScales();
    void showError(const QString &message);
    void updateButtons();

    Project *m_project;
    ImportPreview m_preview;
    FieldMapping m_presetExtras; ///< what a preset maps that the dialog has no widget for (context, definitions)
    ImportSummary m_summary;

    QLineEdit *m_file;
    QPushButton *m_browse;
    QComboBox *m_format;
    QComboBox *m_preset;
    QComboBox *m_id, *m_group, *m_system, *m_source, *m_output, *m_reference;
    QTableWidget *m_human;
    QTableWidget *m_previewTable;
    QLabel *m_error;
    QLabel *m_extras;
    QLabel *m_scales;
    bool m_updatingScales = false;
    QDialogButtonBox *m_buttons;
};

} // namespace rubric
