#pragma once

#include "data/JudgeTypes.h"
#include "methods/RunTypes.h"
#include "util/Result.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace rubric {

class MethodParamsForm;
class ProfileEditor;
class Project;
class RunController;
class RunList;

/// The "Judge & Run" pane: provider profiles (a ProfileEditor: kept in the user's settings, with
/// "Test connection"), the method and its parameters (paper defaults, explained in tooltips), the
/// estimate, Start / Cancel / Resume with live progress, and the project's runs.
///
/// The run itself happens in RunController's worker thread; the pane only shows coalesced
/// progress. Errors (a failed call with its HTTP status and body, a refused spec) go to the
/// pane's message line; the core also records failed runs in the project's issues.
/// Bound through setProject() (not owned); GUI thread only.
class RunPane : public QWidget
{
    Q_OBJECT
public:
    explicit RunPane(QWidget *parent = nullptr);
    ~RunPane() override;

    void setProject(Project *project);
    /// Reads and writes provider profiles in `settingsFile` (INI) instead of the user's settings
    /// (tests; empty = the application's settings).
    void setProfileSettingsFile(const QString &settingsFile);

    RunController *controller() const { return m_controller; }
    /// The spec the form describes now (error: what to fix, naming the field).
    Result<RunSpec> specFromForm() const;
    /// The last estimate shown (valid after `estimateShown`).
    RunEstimate lastEstimate() const { return m_estimate; }
    /// The text of the message line (errors of runs and of the endpoint).
    QString messageText() const;

public slots:
    /// Selects `judge`, rebuilds its spec from the stored run configuration, shows the estimate
    /// and starts it (answers already in the cache are not asked again). Used by the rubric
    /// pane's "Re-score". Errors are shown in the message line.
    void rescore(const QString &judge);
    /// Fills the form with `spec`, shows its estimate and starts it (the HPSS pane's "Send to
    /// test split"). Errors are shown in the message line.
    void startRun(const rubric::RunSpec &spec);
    /// rescore() with `settings` laid over the stored method settings (HD-Eval's "Next layer":
    /// layers, "Re-fit": aggregator); the cache answers every node score already asked.
    void rescoreWith(const QString &judge, const QVariantMap &settings);
    /// Estimate of the form's spec.
    void estimate();
    /// Starts the form's spec (a judge name that exists resumes that run).
    void start();
    void cancel();
    /// Resumes the run selected in the run list from its stored configuration.
    void resumeSelected();
    /// Cancels a run in flight and waits for its thread (the run stays resumable).
    void shutdown();

signals:
    void estimateShown(const rubric::RunEstimate &estimate);
    void runFinished(const QString &judge, bool ok, const QString &error);

private:
    QWidget *buildMethod();
    QWidget *buildProgress();
    /// The evaluator, generator and refiner choices from the saved profiles.
    void refillProfiles();
    void refillAspects();
    void refillRuns();
    void fillForm(const RunSpec &spec);
    bool startSpec(const RunSpec &spec);
    void onEstimated(quint64 generation, const RunEstimate &estimate);
    void onEstimateFailed(quint64 generation, const QString &error);
    void onStarted(const QString &judge);
    void onProgress(const RunProgress &progress);
    void onFinished(const QString &judge, bool ok, const QString &error, const QVariantMap &summary);
    void updateButtons();
    void showError(const QString &text);
    void showInfo(const QString &text);
    /// " Adapted to the endpoint: …." from a run summary's "adapted" list ("" without one).
    static QString adaptedText(const QVariantMap &summary);
    QString selectedRun() const;

    QPointer<Project> m_project;
    RunController *m_controller;
    RunEstimate m_estimate;
    quint64 m_estimateGeneration = 0;
    quint64 m_runEstimateGeneration = 0; ///< of the estimate made when the current run started
    /// Calls the current run answers in all (cache hits included; the upper bound of a range),
    /// from its estimate; 0 until known. The run reports only the calls submitted so far.
    int m_runCalls = 0;
    bool m_runCallsBound = false; ///< m_runCalls is an upper bound (a cold HypoEval)
    QTimer m_runsRefresh;

    ProfileEditor *m_profileEditor = nullptr;

    // method
    QComboBox *m_method = nullptr;
    QComboBox *m_aspect = nullptr;
    QLineEdit *m_judgeName = nullptr;
    QComboBox *m_items = nullptr;
    QComboBox *m_evaluator = nullptr;
    QComboBox *m_generator = nullptr;
    QComboBox *m_refiner = nullptr;
    MethodParamsForm *m_params = nullptr;

    // run
    QPushButton *m_estimateButton = nullptr;
    QPushButton *m_startButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPushButton *m_resumeButton = nullptr;
    QCheckBox *m_retryFailed = nullptr;
    QCheckBox *m_batch = nullptr; ///< send through the provider's batch interface (RunSpec::batch)
    QLabel *m_estimateLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_progressLabel = nullptr;
    QLabel *m_message = nullptr;
    RunList *m_runs = nullptr;
};

} // namespace rubric
