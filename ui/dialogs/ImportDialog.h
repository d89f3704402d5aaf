#pragma once

#include "io/Importer.h"

#include <QDialog>
#include <QFutureWatcher>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace rubric {

class Project;

/// Import… : a file, its format, a preset, which field fills what (combos filled from
/// Importer::preview()), the human-score fields with their scales (set, or inferred from the data:
/// the dialog shows which, from a dry run of the whole file), and a live preview of the first rows. A refused import is
/// shown in the dialog with its file and line; the project is left as it was (the importer is all-or-nothing) and the
/// dialog stays open to fix the mapping.
///
/// The import runs on a worker thread (its own connection to the project) while the dialog shows its progress
/// (items, rate, time left) from queued reports; Cancel stops it between records and nothing is written. The dialog
/// accepts when the import has finished; closing it during one cancels it and closes once the worker is done.
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
    /// Whether an import is running now.
    bool isImporting() const { return m_running; }

signals:
    /// The running import's progress, on the GUI thread (about four times a second).
    void importProgressed(int items, const QString &text);
    /// The import finished: `ok` when it was written, otherwise `message` says why nothing was
    /// (a refusal, or the cancel).
    void importFinished(bool ok, const QString &message);

public slots:
    void accept() override;
    /// The Cancel button: cancels a running import (nothing is written) and keeps the dialog
    /// open; closes the dialog otherwise.
    void cancelImport();
    /// Escape, the close button: cancels a running import and closes once it has stopped.
    void reject() override;

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
    void onImportDone();
    void setImporting(bool running);

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
    QProgressBar *m_progress;
    QLabel *m_progressText;
    QFutureWatcher<void> m_worker;
    /// Set by Cancel, read by the worker's progress callback.
    std::shared_ptr<std::atomic_bool> m_cancel;
    std::shared_ptr<std::optional<Result<ImportSummary>>> m_outcome;
    bool m_running = false;
    bool m_closeWhenDone = false;
    QString m_importFile;
};

} // namespace rubric
