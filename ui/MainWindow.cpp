#include "MainWindow.h"

#include "ChartExport.h"
#include "ReportJob.h"
#include "ScoreExport.h"
#include "Settings.h"
#include "dialogs/ImportDialog.h"
#include "dialogs/RubricDiffDialog.h"
#include "dialogs/SettingsDialog.h"
#include "methods/MethodRegistry.h"
#include "methods/MethodViews.h"
#include "models/ScoreModel.h"
#include "panes/AnnotatePane.h"
#include "panes/ComparePane.h"
#include "panes/CorrelationPane.h"
#include "panes/DatasetPane.h"
#include "panes/HeatmapPane.h"
#include "panes/IssuesPane.h"
#include "panes/RubricPane.h"
#include "panes/RunPane.h"
#include "rubric/RubricExport.h"
#include "store/ExampleProject.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "store/ScoreGridStore.h"
#include "util/Json.h"
#include "widgets/MessageBar.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QSaveFile>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

#include <algorithm>

namespace rubric {

namespace {
/// Where a file written from the project is first suggested: beside the project file, or in the
/// home folder for a team database (its URL is no folder).
QString besideProject(const Project &project, const QString &fileName)
{
    if (project.isTeamDatabase())
        return QDir::home().filePath(fileName);
    return QFileInfo(project.path()).absoluteDir().filePath(fileName);
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_nav(new QListWidget(this))
    , m_stack(new QStackedWidget(this))
    , m_messages(new MessageBar(this))
    , m_statusProject(new QLabel(this))
    , m_statusAnnotator(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Rubric Studio"));

    m_nav->setObjectName(QStringLiteral("paneList"));
    m_nav->setFocusPolicy(Qt::NoFocus);
    m_nav->setFixedWidth(168);
    m_nav->setFrameShape(QFrame::NoFrame);
    m_nav->setStyleSheet(
            QStringLiteral("QListWidget#paneList { background: palette(window); padding-top: 8px; }"
                           "QListWidget#paneList::item { padding: 8px 12px; border-radius: 4px; margin: 1px 6px; }"
                           "QListWidget#paneList::item:selected { background: palette(highlight); "
                           "color: palette(highlighted-text); }"));
    m_stack->setObjectName(QStringLiteral("paneStack"));
    connect(m_nav, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= m_panes.size())
            return;
        bindPane(row); // before it shows: a pane not shown yet has not read the project
        m_stack->setCurrentWidget(m_panes[row].widget);
        m_panes[row].widget->setFocus();
        updateChartAction();
    });

    auto *central = new QWidget(this);
    auto *right = new QVBoxLayout;
    right->setContentsMargins(6, 6, 6, 0);
    right->addWidget(m_messages);
    right->addWidget(m_stack, 1);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_nav);
    layout->addLayout(right, 1);
    setCentralWidget(central);

    m_statusProject->setObjectName(QStringLiteral("statusProject"));
    m_statusAnnotator->setObjectName(QStringLiteral("statusAnnotator"));
    m_statusProject->setTextFormat(Qt::PlainText);   // a file name
    m_statusAnnotator->setTextFormat(Qt::PlainText); // a name someone typed
    statusBar()->addWidget(m_statusProject, 1);
    statusBar()->addPermanentWidget(m_statusAnnotator);
    m_reportProgress = new QProgressBar(this);
    m_reportProgress->setObjectName(QStringLiteral("reportProgress"));
    m_reportProgress->setMaximumWidth(220);
    m_reportProgress->setFormat(tr("Report %p%"));
    m_reportProgress->hide();
    statusBar()->addPermanentWidget(m_reportProgress);
    m_reportJob = new ReportJob(this);
    connect(m_reportJob, &ReportJob::progressed, this, [this](int done, int total) {
        m_reportProgress->setRange(0, total);
        m_reportProgress->setValue(done);
    });
    connect(m_reportJob, &ReportJob::finished, this, [this](const QString &path, const QString &error) {
        m_reportProgress->hide();
        if (error.isEmpty())
            m_messages->showMessage(tr("Wrote the report to %1.").arg(path));
        else
            m_messages->showError(tr("The report could not be written: %1").arg(error));
        emit reportFinished(path, error);
    });

    createMenus();

    m_dataset = addPane(new DatasetPane(this), tr("Dataset"), QStringLiteral("dataset"));
    m_annotate = addPane(new AnnotatePane(this), tr("Annotate"), QStringLiteral("annotate"));
    m_run = addPane(new RunPane(this), tr("Judge && Run"), QStringLiteral("run"));
    m_rubric = addPane(new RubricPane(this), tr("Rubric"), QStringLiteral("rubric"));
    addPane(new HeatmapPane(this), tr("Heatmap"), QStringLiteral("heatmap"));
    addPane(new CorrelationPane(this), tr("Correlation"), QStringLiteral("correlation"));
    addPane(new ComparePane(this), tr("Compare"), QStringLiteral("compare"));
    // The methods' own panes (HPSS's), in the order of the methods.
    const WindowContext context{m_run->controller(), [this](const RunSpec &spec) {
                                    showPane(QStringLiteral("run"));
                                    m_run->startRun(spec);
                                }};
    for (const MethodViews *views : MethodViews::all())
        for (const MethodPane &pane : views->createPanes(context, this))
            registerPane(pane.widget, pane.title, pane.key, pane.bind);
    m_issues = addPane(new IssuesPane(this), tr("Issues"), QStringLiteral("issues"));
    connect(m_dataset, &DatasetPane::importRequested, this, &MainWindow::onImport);
    connect(m_issues, &IssuesPane::goToItemRequested, this, &MainWindow::goToItem);
    connect(m_rubric, &RubricPane::runRequested, this, [this](const QString &judge, const QVariantMap &settings) {
        showPane(QStringLiteral("run"));
        m_run->rescoreWith(judge, settings);
    });
    connect(m_rubric, &RubricPane::rescoreRequested, this, [this](const QString &judge) {
        showPane(QStringLiteral("run"));
        m_run->rescore(judge);
    });
    connect(m_rubric, &RubricPane::exportRequested, this, &MainWindow::onExportRubric);
    connect(m_rubric, &RubricPane::diffRequested, this, &MainWindow::onDiffRubric);
    connect(m_annotate, &AnnotatePane::problem, m_messages, &MessageBar::showError);
    connect(m_dataset, &DatasetPane::problem, m_messages, &MessageBar::showError);
    connect(m_annotate, &AnnotatePane::annotatorChanged, this, &MainWindow::updateStatus);

    resize(1360, 860);
    restoreGeometry(Settings::value(Settings::Key::WindowGeometry).toByteArray());
    restoreState(Settings::value(Settings::Key::WindowState).toByteArray());
    // The panes' splitters (named ones) come back as they were left.
    const QVariantMap splitters = Settings::value(Settings::Key::SplitterStates).toMap();
    for (QSplitter *s : findChildren<QSplitter *>())
        if (!s->objectName().isEmpty() && splitters.contains(s->objectName()))
            s->restoreState(splitters.value(s->objectName()).toByteArray());
    showPane(Settings::string(Settings::Key::CurrentPane));
    updateStatus();
}

MainWindow::~MainWindow()
{
    // Panes hold raw pointers to the project: unbind them before it goes.
    for (const Pane &p : std::as_const(m_panes))
        p.bind(nullptr);
}

void MainWindow::registerPane(QWidget *pane, const QString &title, const QString &key,
                              std::function<void(Project *)> bind)
{
    QString k = key;
    if (k.isEmpty()) {
        k = QString::fromLatin1(pane->metaObject()->className()).section(QStringLiteral("::"), -1);
        if (k.endsWith(QLatin1String("Pane")))
            k.chop(4);
        k = k.toLower();
    }
    // Issues stays the last pane: panes added later go before it.
    qsizetype at = m_panes.size();
    if (m_issues && !m_panes.isEmpty() && m_panes.last().widget == m_issues)
        at = m_panes.size() - 1;
    m_panes.insert(at, Pane{pane, k, std::move(bind)});
    m_stack->insertWidget(int(at), pane);
    // The title may carry a menu mnemonic ("Judge && Run"): the list shows the plain text.
    QString plain;
    for (qsizetype i = 0; i < title.size(); ++i) {
        if (title[i] == QLatin1Char('&') && i + 1 < title.size())
            ++i;
        plain += title[i];
    }
    m_nav->insertItem(int(at), plain);
    bindPane(at); // a pane added to an open window shows its project at once

    // Rebuild the View menu so that Ctrl+N follows the order.
    m_viewMenu->clear();
    for (int i = 0; i < m_panes.size(); ++i) {
        QAction *a = m_viewMenu->addAction(m_nav->item(i)->text().replace(QLatin1Char('&'), QLatin1String("&&")));
        a->setObjectName(QStringLiteral("showPane_") + m_panes[i].key);
        if (i < 9)
            a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { m_nav->setCurrentRow(i); });
    }
    if (m_nav->currentRow() < 0)
        m_nav->setCurrentRow(0);
}

void MainWindow::bindPane(qsizetype index)
{
    Pane &p = m_panes[index];
    if (p.bound || !m_project)
        return;
    p.bound = true;
    p.bind(m_project.get());
}

bool MainWindow::showPane(const QString &key)
{
    for (int i = 0; i < m_panes.size(); ++i)
        if (m_panes[i].key == key) {
            m_nav->setCurrentRow(i);
            return true;
        }
    return false;
}

bool MainWindow::showJudge(const QString &judge)
{
    if (!m_project)
        return false;
    // The judges' list without their item counts: a pass over every score takes seconds at a
    // million items.
    const auto known = ScoreGridStore(m_project.get()).judges();
    if (!known) {
        m_messages->showError(known.errorString());
        return false;
    }
    if (std::none_of(known->cbegin(), known->cend(), [&judge](const JudgeInfo &j) { return j.name == judge; }))
        return false;
    ScoreModel::of(m_project.get())->setJudge(judge);
    return true;
}

QString MainWindow::currentPaneKey() const
{
    const int row = m_nav->currentRow();
    return row >= 0 && row < m_panes.size() ? m_panes[row].key : QString();
}

QStringList MainWindow::paneKeys() const
{
    QStringList out;
    for (const Pane &p : m_panes)
        out << p.key;
    return out;
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New Project…"), this, &MainWindow::onNew);
    newAction->setObjectName(QStringLiteral("newAction"));
    newAction->setShortcut(QKeySequence::New);
    QAction *open = file->addAction(tr("&Open Project…"), this, &MainWindow::onOpen);
    open->setObjectName(QStringLiteral("openAction"));
    open->setShortcut(QKeySequence::Open);
    QAction *openTeam = file->addAction(tr("Open &Team Database…"), this, [this] {
        bool ok = false;
        const QString url = QInputDialog::getText(
                this, tr("Open Team Database"),
                tr("PostgreSQL URL of the team's project (postgresql://user@host/database); the password comes from "
                   "PGPASSWORD or ~/.pgpass, or after the user name as user:password:"),
                QLineEdit::Normal, QStringLiteral("postgresql://"), &ok);
        if (ok && !url.trimmed().isEmpty())
            openProject(url.trimmed());
    });
    openTeam->setObjectName(QStringLiteral("openTeamAction"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    m_importAction = file->addAction(tr("&Import Dataset…"), this, &MainWindow::onImport);
    m_importAction->setObjectName(QStringLiteral("importAction"));
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_exportAction = file->addAction(tr("&Export Scores…"), this, &MainWindow::onExport);
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportChartAction = file->addAction(tr("Export &Chart…"), this, &MainWindow::onExportChart);
    m_exportChartAction->setObjectName(QStringLiteral("exportChartAction"));
    m_exportChartAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportChartAction->setStatusTip(tr("Save the chart of the current pane as a PNG image or an SVG drawing"));
    m_reportAction = file->addAction(tr("&Report…"), this, &MainWindow::onReport);
    m_reportAction->setObjectName(QStringLiteral("reportAction"));
    m_reportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_reportAction->setStatusTip(tr("Write a report of the judges (HTML or PDF) for people who do not use the studio"));
    file->addSeparator();
    QAction *settings = file->addAction(tr("&Settings…"), this, &MainWindow::onSettings);
    settings->setObjectName(QStringLiteral("settingsAction"));
    settings->setShortcut(QKeySequence::Preferences);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = Settings::recentProjects();
    for (const QString &path : recent) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName() + QStringLiteral("  —  ") + path);
        connect(a, &QAction::triggered, this, [this, path] { openProject(path); });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No recent projects"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear the list"), this, [this] {
            Settings::remove(Settings::Key::RecentProjects);
            updateRecentMenu();
        });
    }
}

void MainWindow::setProject(std::unique_ptr<Project> project)
{
    // Unbind everything from the old project before it is destroyed.
    for (Pane &p : m_panes) {
        p.bind(nullptr);
        p.bound = false;
    }
    m_project = std::move(project);
    // The shown pane reads the project now, the others when they are first shown.
    if (const int row = m_nav->currentRow(); row >= 0 && row < m_panes.size())
        bindPane(row);
    if (m_project) {
        connect(m_project.get(), &Project::itemsChanged, this, &MainWindow::updateStatus);
        connect(m_project.get(), &Project::aspectsChanged, this, &MainWindow::updateStatus);
        connect(m_project.get(), &Project::judgesChanged, this, &MainWindow::updateStatus);
        // The score table every pane shares: a project that cannot be read says so here.
        ScoreModel *scores = ScoreModel::of(m_project.get());
        connect(scores, &ScoreModel::loadFailed, m_messages, &MessageBar::showError);
        if (!scores->loadError().isEmpty())
            m_messages->showError(scores->loadError());
        Settings::addRecentProject(m_project->path());
        setWindowTitle(tr("%1 — Rubric Studio").arg(QFileInfo(m_project->path()).fileName()));
    } else {
        setWindowTitle(tr("Rubric Studio"));
    }
    updateRecentMenu();
    updateStatus();
}

bool MainWindow::openProject(const QString &path)
{
    if (!m_rubric->confirmDiscard()) // unsaved rubric edits would go with the project
        return false;
    auto p = Project::open(path, Project::OpenMode::OpenExisting);
    if (!p) {
        m_messages->showError(tr("Could not open the project: %1").arg(p.errorString()));
        return false;
    }
    setProject(std::move(p).value());
    return true;
}

bool MainWindow::openExample(const QString &templ, const QString &copy)
{
    auto made = ExampleProject::ensureCopy(templ, copy);
    if (!made) {
        m_messages->showError(tr("Could not open the example project: %1").arg(made.errorString()));
        return false;
    }
    return openProject(*made);
}

bool MainWindow::newProject(const QString &path)
{
    if (QFileInfo::exists(path)) {
        m_messages->showError(tr("%1 already exists; choose another name for the new project.").arg(path));
        return false;
    }
    if (!m_rubric->confirmDiscard())
        return false;
    auto p = Project::open(path, Project::OpenMode::OpenOrCreate);
    if (!p) {
        m_messages->showError(tr("Could not create the project: %1").arg(p.errorString()));
        return false;
    }
    setProject(std::move(p).value());
    m_messages->showMessage(tr("New project created. Import a dataset to begin (File → Import Dataset…)."));
    return true;
}

void MainWindow::goToItem(const QString &itemId)
{
    showPane(QStringLiteral("dataset"));
    if (!m_dataset->selectItem(itemId))
        m_messages->showError(tr("There is no item with id %1 in this project.").arg(itemId));
}

void MainWindow::updateStatus()
{
    m_importAction->setEnabled(m_project != nullptr);
    m_exportAction->setEnabled(m_project != nullptr);
    m_reportAction->setEnabled(m_project != nullptr);
    updateChartAction();
    if (!m_project) {
        m_statusProject->setText(tr("No project open: File → Open Project… or New Project…"));
    } else {
        const auto items = m_project->readItemCount();
        const auto aspects = m_project->readAspects();
        const auto judges = ScoreGridStore(m_project.get()).judges(); // counted: the judges, not their items
        if (!items || !aspects || !judges) {
            const QString error = !items     ? items.errorString()
                                  : !aspects ? aspects.errorString()
                                             : judges.errorString();
            m_statusProject->setText(tr("%1 · cannot be read").arg(QFileInfo(m_project->path()).fileName()));
            m_messages->showError(error);
        } else {
            // One %n per string: each count gets its own plural form (English's come from rubric_en.ts).
            m_statusProject->setText(QStringList{
                    QFileInfo(m_project->path()).fileName(), tr("%Ln item(s)", nullptr, int(*items)),
                    tr("%n aspect(s)", nullptr, int(aspects->size())), tr("%n judge(s)", nullptr, int(judges->size()))}
                                             .join(QStringLiteral(" · ")));
        }
    }
    const QString who = m_annotate ? m_annotate->annotator() : QString();
    m_statusAnnotator->setText(who.isEmpty() ? QString() : tr("Annotator: %1").arg(who));
}

void MainWindow::onNew()
{
    const QString path = QFileDialog::getSaveFileName(
            this, tr("New Project"), Settings::string(Settings::Key::LastDirectory), tr("Rubric projects (*.rubric)"),
            nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    Settings::setValue(Settings::Key::LastDirectory, QFileInfo(path).absolutePath());
    newProject(path.endsWith(QLatin1String(".rubric")) ? path : path + QStringLiteral(".rubric"));
}

void MainWindow::onOpen()
{
    const QString path
            = QFileDialog::getOpenFileName(this, tr("Open Project"), Settings::string(Settings::Key::LastDirectory),
                                           tr("Rubric projects (*.rubric);;All files (*)"));
    if (path.isEmpty())
        return;
    Settings::setValue(Settings::Key::LastDirectory, QFileInfo(path).absolutePath());
    openProject(path);
}

void MainWindow::onImport()
{
    if (!m_project)
        return;
    ImportDialog dialog(m_project.get(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ImportSummary s = dialog.summary();
    QStringList inferred;
    for (const AspectScale &a : std::as_const(s.scales))
        if (a.origin == ScaleOrigin::Inferred)
            inferred << a.aspect + QLatin1Char(' ') + Importer::scaleText(a.min, a.max);
    const QString imported = tr("Imported %Ln item(s) with %1.", nullptr, s.items)
                                     .arg(tr("%Ln human score(s)", nullptr, s.annotations));
    m_messages->showMessage(
            inferred.isEmpty()
                    ? imported
                    : imported + QLatin1Char(' ')
                              + tr("Scales inferred from the data: %1.").arg(inferred.join(QStringLiteral(", "))));
    showPane(QStringLiteral("dataset"));
}

void MainWindow::onExport()
{
    if (!m_project)
        return;
    const QString base = QFileInfo(m_project->path()).completeBaseName() + QStringLiteral("-scores.csv");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Scores"), besideProject(*m_project, base),
                                                      tr("CSV (*.csv);;JSON Lines (*.jsonl);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    auto r = ScoreExport::write(*m_project, path);
    if (!r)
        m_messages->showError(tr("Export failed: %1").arg(r.errorString()));
    else
        m_messages->showMessage(tr("Exported the scores of %Ln item(s) to %1.", nullptr, int(r.value())).arg(path));
}

bool MainWindow::writeReport(const QString &path, const report::ReportOptions &options)
{
    if (!m_project)
        return false;
    report::ReportOptions o = options;
    if (o.softwareVersion.isEmpty())
        o.softwareVersion = QCoreApplication::applicationVersion();
    m_reportProgress->setRange(0, 0); // busy until the first step is done
    m_reportProgress->show();
    m_messages->showMessage(tr("Writing the report to %1 …").arg(path));
    m_reportJob->start(m_project->path(), path, o);
    return true;
}

void MainWindow::onReport()
{
    if (!m_project)
        return;
    QString filter;
    const QString suggested = besideProject(*m_project, QFileInfo(m_project->path()).completeBaseName()
                                                                + QStringLiteral("-report.html"));
    QString path = QFileDialog::getSaveFileName(this, tr("Write Report"), suggested,
                                                tr("HTML report (*.html);;PDF report (*.pdf)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(QLatin1String("*.pdf")) ? QStringLiteral(".pdf") : QStringLiteral(".html");
    writeReport(path);
}

void MainWindow::updateChartAction()
{
    if (!m_exportChartAction)
        return;
    const auto *source = dynamic_cast<ChartSource *>(m_stack->currentWidget());
    m_exportChartAction->setEnabled(m_project != nullptr && source != nullptr);
}

Result<void> MainWindow::exportChart(const QString &path)
{
    const auto *source = dynamic_cast<ChartSource *>(m_stack->currentWidget());
    if (!source)
        return makeError(tr("The %1 pane has no chart to export.").arg(currentPaneKey()), path);
    QWidget *chart = source->chartWidget();
    if (!chart)
        return makeError(tr("There is no chart to export yet: no judge scores this aspect."), path);
    return ChartExport::write(chart, source->chartTitle(), path);
}

void MainWindow::onExportChart()
{
    const auto *source = dynamic_cast<ChartSource *>(m_stack->currentWidget());
    if (!m_project || !source)
        return;
    QString filter;
    const QString suggested = besideProject(*m_project, source->chartFileStem() + QStringLiteral(".png"));
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), suggested,
                                                ChartExport::fileFilters().join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(QLatin1String("*.svg")) ? QStringLiteral(".svg") : QStringLiteral(".png");
    if (auto r = exportChart(path); !r)
        m_messages->showError(tr("Chart export failed: %1").arg(r.errorString()));
    else
        m_messages->showMessage(tr("Saved the chart to %1.").arg(path));
}

Result<void> MainWindow::exportRubric(const QString &judge, int version, const QString &path)
{
    if (!m_project)
        return makeError(tr("No project is open."), path);
    const auto rubric = RubricStore(m_project.get()).load(judge, version);
    if (!rubric)
        return makeError(rubric.errorString(), path);
    const QString suffix = QFileInfo(path).suffix().toLower();
    QByteArray bytes;
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        bytes = RubricExport::toMarkdown(*rubric).toUtf8();
    else if (suffix == QLatin1String("json"))
        bytes = json::stringify(RubricExport::toJson(*rubric, MethodRegistry::exportedRootStats(rubric->method())))
                        .toUtf8()
                + '\n';
    else
        return makeError(tr("Unknown rubric format '%1': use .md or .json.").arg(suffix), path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return makeError(tr("Cannot write the file: %1").arg(file.errorString()), path);
    return {};
}

void MainWindow::onExportRubric(const QString &judge, int version)
{
    if (!m_project)
        return;
    const QString suggested = besideProject(*m_project, QStringLiteral("rubric-%1-v%2.md").arg(judge).arg(version));
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Rubric"), suggested,
                                                tr("Markdown (*.md);;JSON (*.json)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.contains(QLatin1String("*.json")) ? QStringLiteral(".json") : QStringLiteral(".md");
    if (auto r = exportRubric(judge, version, path); !r)
        m_messages->showError(tr("Rubric export failed: %1").arg(r.errorString()));
    else
        m_messages->showMessage(tr("Saved the rubric to %1.").arg(path));
}

void MainWindow::onDiffRubric(const QString &judge, int fromVersion, int toVersion)
{
    if (!m_project)
        return;
    const RubricStore store(m_project.get());
    const auto before = store.load(judge, fromVersion);
    const auto after = store.load(judge, toVersion);
    if (!before || !after) {
        m_messages->showError((before ? after : before).errorString());
        return;
    }
    auto *dialog = new RubricDiffDialog(judge, *before, *after, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::onSettings()
{
    SettingsDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_annotate->setBlind(Settings::flag(Settings::Key::BlindMode));
    m_annotate->setAnnotator(Settings::string(Settings::Key::AnnotatorName));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_rubric->confirmDiscard()) { // unsaved rubric edits: the window stays
        event->ignore();
        return;
    }
    Settings::setValue(Settings::Key::WindowGeometry, saveGeometry());
    Settings::setValue(Settings::Key::WindowState, saveState());
    QVariantMap splitters = Settings::value(Settings::Key::SplitterStates).toMap();
    for (const QSplitter *s : findChildren<QSplitter *>())
        if (!s->objectName().isEmpty())
            splitters.insert(s->objectName(), s->saveState());
    Settings::setValue(Settings::Key::SplitterStates, splitters);
    Settings::setValue(Settings::Key::CurrentPane, currentPaneKey());
    event->accept();
}

} // namespace rubric
