#pragma once

#include "report/ReportBuilder.h"
#include "util/Result.h"

#include <QMainWindow>
#include <QStringList>
#include <QVector>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QStackedWidget;

namespace rubric {

class AnnotatePane;
class DatasetPane;
class IssuesPane;
class RubricPane;
class RunPane;
class MessageBar;
class Project;
class ReportJob;

/// The studio's main window: owns the open Project and hands it to every pane.
///
/// Panes sit in a stack with a navigation list on the left; each is reachable with Ctrl+1…9
/// (the View menu lists them). A pane is any QWidget with `void setProject(rubric::Project *)`;
/// addPane() wires one in. Routine errors go to the inline message bar; modal boxes only ask
/// for decisions. Geometry, layout and the current pane are remembered through Settings.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Adds a pane under `title`; `key` (e.g. "heatmap") names it for --pane and the settings,
    /// by default the class name without "Pane", lower-cased. The pane is bound to the current
    /// project at once; to a project opened later when it is first shown (opening a large project
    /// reads what the shown pane needs, nothing more). Returns the pane.
    template <typename P> P *addPane(P *pane, const QString &title, const QString &key = {})
    {
        registerPane(pane, title, key, [pane](Project *project) { pane->setProject(project); });
        return pane;
    }

    /// Opens a project file (OpenExisting); shows the error inline and returns false on failure.
    bool openProject(const QString &path);
    /// Opens the user's copy of the example project (`copy`), making it from `templ` first when
    /// it does not exist yet; an existing copy is never replaced. Errors show inline.
    bool openExample(const QString &templ, const QString &copy);
    /// Creates a new, empty project file (an existing file is refused) and opens it.
    bool newProject(const QString &path);
    Project *project() const { return m_project.get(); }

    /// Shows the pane with `key`; false when there is none.
    bool showPane(const QString &key);
    /// Makes `judge` the one the score panes (heatmap, correlation) show; false when unknown.
    bool showJudge(const QString &judge);
    QString currentPaneKey() const;
    /// Writes version `version` (0 = latest) of `judge`'s rubric to `path`: Markdown for .md,
    /// JSON (as `rubric show-rubric --json`) for .json. Atomic; an error names the file.
    Result<void> exportRubric(const QString &judge, int version, const QString &path);
    /// File → Export Chart without the dialog: the current pane's chart into `path` (.png/.svg).
    Result<void> exportChart(const QString &path);
    QStringList paneKeys() const;
    /// File → Report… without the dialog: writes the open project's report to `path` (.html, .pdf
    /// or a folder) on a worker thread; reportFinished() says when. False when no project is open.
    bool writeReport(const QString &path, const report::ReportOptions &options = {});

    DatasetPane *datasetPane() const { return m_dataset; }
    AnnotatePane *annotatePane() const { return m_annotate; }
    IssuesPane *issuesPane() const { return m_issues; }
    MessageBar *messageBar() const { return m_messages; }

    /// Selects `itemId` in the dataset pane and shows it.
    void goToItem(const QString &itemId);

signals:
    /// A report started by writeReport() or File → Report… is written (`error` empty) or failed.
    void reportFinished(const QString &path, const QString &error);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    struct Pane
    {
        QWidget *widget;
        QString key;
        std::function<void(Project *)> bind;
        /// Whether the pane shows the open project: a pane is bound when it is first shown, so
        /// opening a large project reads what the shown pane needs and nothing more.
        bool bound = false;
    };
    /// Binds the pane at `index` to the open project unless it is already.
    void bindPane(qsizetype index);

    void registerPane(QWidget *pane, const QString &title, const QString &key, std::function<void(Project *)> bind);
    void createMenus();
    void setProject(std::unique_ptr<Project> project);
    void updateRecentMenu();
    void updateStatus();
    void onNew();
    void onOpen();
    void onImport();
    void onExport();
    void onExportChart();
    void onReport();
    void onExportRubric(const QString &judge, int version);
    void onDiffRubric(const QString &judge, int fromVersion, int toVersion);
    void updateChartAction();
    void onSettings();

    std::unique_ptr<Project> m_project;
    QVector<Pane> m_panes;
    QListWidget *m_nav;
    QStackedWidget *m_stack;
    MessageBar *m_messages;
    QLabel *m_statusProject;
    QLabel *m_statusAnnotator;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_exportChartAction = nullptr;
    QAction *m_reportAction = nullptr;
    ReportJob *m_reportJob = nullptr;
    QProgressBar *m_reportProgress = nullptr;
    DatasetPane *m_dataset = nullptr;
    AnnotatePane *m_annotate = nullptr;
    IssuesPane *m_issues = nullptr;
    RunPane *m_run = nullptr;
    RubricPane *m_rubric = nullptr;
};

} // namespace rubric
