#include "MainWindow.h"
#include "PostgresServer.h"
#include "ProjectTestAccess.h"
#include "ScoreExport.h"
#include "Settings.h"
#include "UiTestProject.h"
#include "dialogs/RubricDiffDialog.h"
#include "models/RubricTreeModel.h"
#include "panes/DatasetPane.h"
#include "panes/IssuesPane.h"
#include "panes/RubricPane.h"
#include "store/ExampleProject.h"
#include "store/ProjectCopy.h"
#include "store/RubricStore.h"
#include "widgets/MessageBar.h"

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTimer>
#include <QTranslator>
#include <QtTest>

using namespace rubric;

namespace {

/// Stands in for the analysis panes: anything with setProject().
class ProbePane : public QWidget
{
public:
    void setProject(Project *project)
    {
        bound = project;
        ++binds;
    }
    Project *bound = nullptr;
    int binds = 0;
};

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void opensAProject();
    void openFailureIsShownInline();
    void opensATeamDatabaseAndKeepsNoPassword();
    void opensTheExampleCopyAndKeepsIt();
    void ctrlNumberSwitchesPanes();
    void addPaneBindsAndKeepsIssuesLast();
    void goToItemFromIssues();
    void remembersLayoutAndRecentFiles();
    void newProjectRefusesExistingFile();
    void germanTranslationIsEmbedded();
    void englishPluralsAreEmbedded();
    void exportsScores_data();
    void exportsScores();
    void exportRefusesAnUnreadableProject_data();
    void exportRefusesAnUnreadableProject();
    void rubricExportAndDiff();
    void unsavedRubricEditsAreNotLost();

private:
    QTranslator m_english; ///< as the studio installs it for English (plural forms only)
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestMainWindow::initTestCase()
{
    testing::isolateSettings();
    QVERIFY(m_english.load(QStringLiteral(":/i18n/rubric_en.qm")));
    QVERIFY(QCoreApplication::installTranslator(&m_english));
}

void TestMainWindow::init()
{
    QSettings().clear();
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("m.rubric"));
    auto project = testing::makeProject(m_path, 12);
    QVERIFY(project->setAnnotation({QStringLiteral("i1"), QStringLiteral("coherence"), QStringLiteral("ann"), 4}));
    QVERIFY(project->ensureJudge(QStringLiteral("g-eval"), QStringLiteral("geval")));
    QVERIFY(project->setJudgeScores(QStringLiteral("g-eval"), QStringLiteral("coherence"),
                                    {{QStringLiteral("i1"), 3.5}}));
    QVERIFY(project->addIssue(QStringLiteral("call"), QStringLiteral("HTTP 500 from the judge"),
                              QStringLiteral("g-eval"), QStringLiteral("i5")));
}

void TestMainWindow::cleanup()
{
    m_dir.reset();
}

void TestMainWindow::opensAProject()
{
    MainWindow w;
    QVERIFY(w.openProject(m_path));
    QVERIFY(w.project());
    QCOMPARE(w.paneKeys(),
             (QStringList{QStringLiteral("dataset"), QStringLiteral("annotate"), QStringLiteral("run"),
                          QStringLiteral("rubric"), QStringLiteral("heatmap"), QStringLiteral("correlation"),
                          QStringLiteral("compare"), QStringLiteral("hpss"), QStringLiteral("issues")}));
    QVERIFY(w.windowTitle().contains(QLatin1String("m.rubric")));
    // The pane list shows titles without menu mnemonics; the View menu keeps the ampersand.
    auto *nav = w.findChild<QListWidget *>(QStringLiteral("paneList"));
    QVERIFY(nav);
    QCOMPARE(nav->item(2)->text(), QStringLiteral("Judge & Run"));
    QCOMPARE(w.findChild<QAction *>(QStringLiteral("showPane_run"))->text(), QStringLiteral("Judge && Run"));
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("statusProject"))->text().contains(QLatin1String("12 items")));
    QCOMPARE(w.datasetPane()->findChild<QTableView *>(QStringLiteral("itemsView"))->model()->rowCount(), 12);
}

void TestMainWindow::opensATeamDatabaseAndKeepsNoPassword()
{
    if (const QString why = test::PostgresServer::missing(); !why.isEmpty())
        QSKIP(qPrintable(why));
    auto server = test::PostgresServer::shared();
    QVERIFY2(server.ok(), qPrintable(server.errorString()));
    const auto url = (*server)->createDatabase();
    QVERIFY2(url.ok(), qPrintable(url.errorString()));
    {
        auto from = Project::open(m_path);
        auto to = Project::open(*url);
        QVERIFY(from.ok() && to.ok());
        QVERIFY(copyProject(**from, **to).ok());
    }
    MainWindow w;
    QVERIFY(w.openProject(*url));
    QVERIFY(w.project()->isTeamDatabase());
    QVERIFY(w.findChild<QLabel *>(QStringLiteral("statusProject"))->text().contains(QLatin1String("12 items")));
    QCOMPARE(w.datasetPane()->findChild<QTableView *>(QStringLiteral("itemsView"))->model()->rowCount(), 12);
    QVERIFY(w.findChild<QAction *>(QStringLiteral("openTeamAction")));
    // The window title and the stored recent list name the database without its password…
    const QString recent = Settings::recentProjects().value(0);
    QCOMPARE(recent, (*server)->url(url->section(QLatin1Char('/'), -1), false));
    for (const QString &shown : {recent, w.windowTitle()})
        QVERIFY2(!shown.contains(test::PostgresServer::password()), qPrintable(shown));
    // …and the recent entry opens it again in this session.
    MainWindow again;
    QVERIFY(again.openProject(recent));
    QCOMPARE(again.project()->readItemCount().value(), 12);
}

void TestMainWindow::openFailureIsShownInline()
{
    MainWindow w;
    w.show();
    QVERIFY(!w.openProject(m_dir->filePath(QStringLiteral("missing.rubric"))));
    QVERIFY(w.messageBar()->isVisible());
    QCOMPARE(w.messageBar()->kind(), MessageBar::Kind::Error);
    QVERIFY(w.messageBar()->text().contains(QLatin1String("missing.rubric")));
    QVERIFY(!w.project());
}

void TestMainWindow::opensTheExampleCopyAndKeepsIt()
{
    // m_path stands in for the built template; the copy lives in the (test-mode) data location.
    const QString copy = ExampleProject::copyPath();
    QVERIFY(copy.endsWith(QLatin1String("/examples/summeval.rubric")));
    QFile::remove(copy);
    {
        MainWindow w;
        QVERIFY(w.openExample(m_path, copy));
        QCOMPARE(w.project()->path(), copy);
        QCOMPARE(Settings::recentProjects().value(0), QFileInfo(copy).absoluteFilePath());
        QVERIFY(w.project()->setAnnotation(
                {QStringLiteral("i2"), QStringLiteral("coherence"), QStringLiteral("me"), 2}));
    }
    // The template is rebuilt (here: replaced by a 3-item project); the copy keeps its 12 items and our score.
    QVERIFY(QFile::remove(m_path));
    testing::makeProject(m_path, 3);
    {
        MainWindow w;
        QVERIFY(w.openExample(m_path, copy));
        QCOMPARE(w.project()->itemCount(), 12);
        QCOMPARE(w.project()->humanScores(QStringLiteral("coherence")).value(QStringLiteral("i2")), 2.0);
    }
    // Without a built template and without a copy: said inline, nothing opened.
    QVERIFY(QFile::remove(copy));
    MainWindow w;
    w.show();
    QVERIFY(!w.openExample(m_dir->filePath(QStringLiteral("none.rubric")), copy));
    QVERIFY(!w.project());
    QVERIFY(w.messageBar()->text().contains(QLatin1String("example_project")));
    QVERIFY(!QFileInfo::exists(copy));
}

void TestMainWindow::ctrlNumberSwitchesPanes()
{
    MainWindow w;
    QVERIFY(w.openProject(m_path));
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QCOMPARE(w.currentPaneKey(), QStringLiteral("dataset"));
    QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("annotate"));
    QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("run"));
    QTest::keyClick(&w, Qt::Key_4, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("rubric"));
    QTest::keyClick(&w, Qt::Key_5, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("heatmap"));
    QTest::keyClick(&w, Qt::Key_6, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("correlation"));
    QTest::keyClick(&w, Qt::Key_7, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("compare"));
    QTest::keyClick(&w, Qt::Key_8, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("hpss"));
    QTest::keyClick(&w, Qt::Key_9, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("issues"));
    QTest::keyClick(&w, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("dataset"));
}

void TestMainWindow::addPaneBindsAndKeepsIssuesLast()
{
    MainWindow w;
    QVERIFY(w.openProject(m_path));
    auto *probe = w.addPane(new ProbePane, QStringLiteral("Probe"), QStringLiteral("probe"));
    QCOMPARE(probe->bound, w.project());
    QCOMPARE(w.paneKeys(), (QStringList{QStringLiteral("dataset"), QStringLiteral("annotate"), QStringLiteral("run"),
                                        QStringLiteral("rubric"), QStringLiteral("heatmap"),
                                        QStringLiteral("correlation"), QStringLiteral("compare"),
                                        QStringLiteral("hpss"), QStringLiteral("probe"), QStringLiteral("issues")}));
    QVERIFY(w.showPane(QStringLiteral("probe")));
    QCOMPARE(w.currentPaneKey(), QStringLiteral("probe"));
    // Opening another project rebinds it.
    const QString other = m_dir->filePath(QStringLiteral("other.rubric"));
    testing::makeProject(other, 2).reset();
    QVERIFY(w.openProject(other));
    QCOMPARE(probe->bound, w.project());
    QCOMPARE(w.project()->itemCount(), 2);
}

void TestMainWindow::goToItemFromIssues()
{
    MainWindow w;
    QVERIFY(w.openProject(m_path));
    w.show();
    QVERIFY(w.showPane(QStringLiteral("issues")));
    QVERIFY(w.project()->addIssue(QStringLiteral("parse"), QStringLiteral("no score in the answer"),
                                  QStringLiteral("g-eval"), QStringLiteral("i7")));
    auto *view = w.issuesPane()->findChild<QTableView *>(QStringLiteral("issuesView"));
    QCOMPARE(view->model()->rowCount(), 2);
    // Newest first, even within the same second.
    QCOMPARE(view->model()->index(0, 3).data().toString(), QStringLiteral("i7"));
    view->setCurrentIndex(view->model()->index(1, 0));
    QTest::mouseClick(w.issuesPane()->findChild<QPushButton *>(QStringLiteral("goToItemButton")), Qt::LeftButton);
    QCOMPARE(w.datasetPane()->currentItemId(), QStringLiteral("i5"));
    QVERIFY(w.showPane(QStringLiteral("issues")));
    view->setCurrentIndex(view->model()->index(0, 0));
    auto *goTo = w.issuesPane()->findChild<QPushButton *>(QStringLiteral("goToItemButton"));
    QVERIFY(goTo->isEnabled());
    QTest::mouseClick(goTo, Qt::LeftButton);
    QCOMPARE(w.currentPaneKey(), QStringLiteral("dataset"));
    QCOMPARE(w.datasetPane()->currentItemId(), QStringLiteral("i7"));
}

void TestMainWindow::remembersLayoutAndRecentFiles()
{
    {
        MainWindow w;
        QVERIFY(w.openProject(m_path));
        w.show();
        w.resize(1111, 777);
        // A pane's splitter moved by the user.
        QVERIFY(w.showPane(QStringLiteral("dataset")));
        auto *split = w.findChild<QSplitter *>(QStringLiteral("datasetSplitter"));
        QVERIFY(split);
        split->setSizes({100, 500});
        QVERIFY(w.showPane(QStringLiteral("annotate")));
        w.close();
    }
    QVERIFY(!Settings::value(Settings::Key::WindowGeometry).toByteArray().isEmpty());
    QCOMPARE(Settings::string(Settings::Key::CurrentPane), QStringLiteral("annotate"));
    QCOMPARE(Settings::recentProjects().value(0), QFileInfo(m_path).absoluteFilePath());
    MainWindow again;
    QCOMPARE(again.currentPaneKey(), QStringLiteral("annotate"));
    QCOMPARE(again.size(), QSize(1111, 777));
    QVERIFY(again.showPane(QStringLiteral("dataset")));
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    auto *split = again.findChild<QSplitter *>(QStringLiteral("datasetSplitter"));
    QVERIFY(split);
    const QList<int> sizes = split->sizes();
    QVERIFY2(sizes.size() == 2 && sizes[0] < sizes[1] / 2,
             qPrintable(QStringLiteral("%1 %2").arg(sizes.value(0)).arg(sizes.value(1))));
}

void TestMainWindow::newProjectRefusesExistingFile()
{
    MainWindow w;
    QVERIFY(!w.newProject(m_path));
    QCOMPARE(w.messageBar()->kind(), MessageBar::Kind::Error);
    const QString fresh = m_dir->filePath(QStringLiteral("fresh.rubric"));
    QVERIFY(w.newProject(fresh));
    QCOMPARE(w.project()->itemCount(), 0);
    QVERIFY(QFileInfo::exists(fresh));
}

void TestMainWindow::germanTranslationIsEmbedded()
{
    QTranslator translator;
    QVERIFY(translator.load(QLocale(QLocale::German, QLocale::Germany), QStringLiteral("rubric"), QStringLiteral("_"),
                            QStringLiteral(":/i18n")));
    QVERIFY(QCoreApplication::installTranslator(&translator));
    {
        MainWindow w;
        QVERIFY(w.openProject(m_path));
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&Datei"));
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("statusProject"))->text().contains(QLatin1String("12 Elemente")));
    }
    QCoreApplication::removeTranslator(&translator);
}

// The source texts say "%n judge(s)"; the English translation (plural forms only, installed by
// initTestCase as the studio installs it) makes it "1 judge", and "3 aspects", in the status bar.
void TestMainWindow::englishPluralsAreEmbedded()
{
    MainWindow w;
    QVERIFY(w.openProject(m_path));
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("statusProject"))->text(),
             QStringLiteral("m.rubric · 12 items · 3 aspects · 1 judge"));
    // Texts without a plural pass through unchanged: the file holds plural forms only.
    QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
    QCoreApplication::removeTranslator(&m_english);
    w.openProject(m_path);
    QCOMPARE(w.findChild<QLabel *>(QStringLiteral("statusProject"))->text(),
             QStringLiteral("m.rubric · 12 item(s) · 3 aspect(s) · 1 judge(s)"));
    QVERIFY(QCoreApplication::installTranslator(&m_english));
}

void TestMainWindow::exportsScores_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("csv") << QStringLiteral("csv");
    QTest::newRow("jsonl") << QStringLiteral("jsonl");
    QTest::newRow("json") << QStringLiteral("json");
}

void TestMainWindow::exportsScores()
{
    QFETCH(QString, suffix);
    auto project = Project::open(m_path, Project::OpenMode::OpenExisting);
    QVERIFY(project);
    const QString out = m_dir->filePath(QStringLiteral("scores.") + suffix);
    auto written = ScoreExport::write(*project.value(), out);
    QVERIFY2(written, qPrintable(written.errorString()));
    QCOMPARE(written.value(), 12);
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    if (suffix == QLatin1String("csv")) {
        QList<QByteArray> lines = data.trimmed().split('\n');
        for (QByteArray &line : lines)
            line = line.trimmed(); // the exporter writes CRLF (RFC 4180)
        QCOMPARE(lines.size(), 13);
        QVERIFY2(lines[0].startsWith("id,group,system,source,output,reference,human.coherence"), lines[0].constData());
        QVERIFY(lines[0].endsWith("judge.g-eval.coherence"));
        QVERIFY(lines[2].startsWith("i1,doc1,sys1,"));
        QVERIFY2(lines[2].endsWith(",4,,,3.5"), lines[2].constData());
        return;
    }
    QJsonArray rows;
    if (suffix == QLatin1String("jsonl")) {
        for (const QByteArray &line : data.trimmed().split('\n'))
            rows.append(QJsonDocument::fromJson(line).object());
    } else {
        rows = QJsonDocument::fromJson(data).array();
    }
    QCOMPARE(rows.size(), 12);
    const QJsonObject i1 = rows[1].toObject();
    QCOMPARE(i1[QStringLiteral("id")].toString(), QStringLiteral("i1"));
    QCOMPARE(i1[QStringLiteral("human")].toObject()[QStringLiteral("coherence")].toDouble(), 4.0);
    QVERIFY(!i1[QStringLiteral("human")].toObject().contains(QStringLiteral("fluency")));
    QCOMPARE(i1[QStringLiteral("judges")]
                     .toObject()[QStringLiteral("g-eval")]
                     .toObject()[QStringLiteral("coherence")]
                     .toDouble(),
             3.5);
}

void TestMainWindow::rubricExportAndDiff()
{
    {
        auto project = Project::open(m_path);
        QVERIFY(project.ok());
        QVERIFY((*project)->ensureJudge(QStringLiteral("hypo"), QStringLiteral("hypoeval")).ok());
        RubricStore store(project->get());
        Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
        r.add({QStringLiteral("h1"), {}, CriterionKind::Hypothesis, QStringLiteral("Sentences follow one another.")});
        QCOMPARE(store.saveVersion(QStringLiteral("hypo"), r).value(), 1);
        r.criteria()[0].text = QStringLiteral("Sentences follow one another logically.");
        QCOMPARE(store.saveVersion(QStringLiteral("hypo"), r).value(), 2);
    }
    MainWindow w;
    QVERIFY(w.openProject(m_path));
    const QString md = m_dir->filePath(QStringLiteral("rubric.md"));
    QVERIFY(w.exportRubric(QStringLiteral("hypo"), 1, md).ok());
    QFile f(md);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY2(text.startsWith(QLatin1String("# hypoeval rubric for coherence (version 1)")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("Sentences follow one another.")), qPrintable(text));
    const QString js = m_dir->filePath(QStringLiteral("rubric.json"));
    QVERIFY(w.exportRubric(QStringLiteral("hypo"), 0, js).ok());
    QFile j(js);
    QVERIFY(j.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(j.readAll()).object().value(QStringLiteral("version")).toInt(), 2);
    const auto bad = w.exportRubric(QStringLiteral("hypo"), 0, m_dir->filePath(QStringLiteral("rubric.txt")));
    QVERIFY(!bad.ok());
    QVERIFY2(bad.errorString().contains(QLatin1String("rubric.txt")), qPrintable(bad.errorString()));
    QVERIFY(!w.exportRubric(QStringLiteral("nobody"), 0, md).ok());

    // The rubric pane's "compare" opens the diff of the two versions.
    auto *pane = w.findChild<RubricPane *>(QStringLiteral("rubricPane"));
    QVERIFY(pane);
    emit pane->diffRequested(QStringLiteral("hypo"), 1, 2);
    auto *dialog = w.findChild<RubricDiffDialog *>(QStringLiteral("rubricDiffDialog"));
    QVERIFY(dialog);
    QVERIFY2(dialog->text().contains(QStringLiteral("~ h1 reworded: “Sentences follow one another.” → "
                                                    "“Sentences follow one another logically.”")),
             qPrintable(dialog->text()));
    dialog->close();
}

namespace {

/// Presses `button` of the unsaved-edits box once it is up; counts the boxes answered.
void answerUnsavedBox(QObject *owner, QMessageBox::StandardButton button, int *answered)
{
    auto *poll = new QTimer(owner);
    poll->setInterval(10);
    QObject::connect(poll, &QTimer::timeout, owner, [poll, button, answered] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || box->objectName() != QLatin1String("unsavedRubricBox"))
            return;
        poll->stop();
        poll->deleteLater();
        ++*answered;
        box->button(button)->click();
    });
    poll->start();
}

} // namespace

void TestMainWindow::unsavedRubricEditsAreNotLost()
{
    // Issue 33.7: before, closing the window or opening another project cleared the undo stack
    // and the edits with it, without a word.
    {
        auto project = Project::open(m_path);
        QVERIFY(project.ok());
        QVERIFY((*project)->ensureJudge(QStringLiteral("hypo"), QStringLiteral("hypoeval")).ok());
        Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
        r.add({QStringLiteral("h1"), {}, CriterionKind::Hypothesis, QStringLiteral("Sentences follow one another.")});
        QCOMPARE(RubricStore(project->get()).saveVersion(QStringLiteral("hypo"), r).value(), 1);
    }
    const QString other = m_dir->filePath(QStringLiteral("other.rubric"));
    QVERIFY(testing::makeProject(other, 3));
    MainWindow w;
    QVERIFY(w.openProject(m_path));
    w.show();
    QVERIFY(w.showPane(QStringLiteral("rubric"))); // a pane reads the project when first shown
    auto *pane = w.findChild<RubricPane *>(QStringLiteral("rubricPane"));
    QVERIFY(pane && pane->setJudge(QStringLiteral("hypo")));
    const QModelIndex text = pane->model()->index(0, RubricTreeModel::TextColumn);
    QVERIFY(pane->model()->setData(text, QStringLiteral("Each sentence follows from the one before."), Qt::EditRole));
    QVERIFY(pane->isModified());

    // Cancel: the window stays open and another project is not opened; the edit is still there.
    int answered = 0;
    answerUnsavedBox(this, QMessageBox::Cancel, &answered);
    QVERIFY(!w.close());
    QCOMPARE(answered, 1);
    QVERIFY(w.isVisible());
    answerUnsavedBox(this, QMessageBox::Cancel, &answered);
    QVERIFY(!w.openProject(other));
    QCOMPARE(answered, 2);
    QVERIFY(w.project()->path().endsWith(QLatin1String("m.rubric")));
    QVERIFY(pane->isModified());

    // Save: kept as version 2, then the window closes.
    answerUnsavedBox(this, QMessageBox::Save, &answered);
    QVERIFY(w.close());
    QCOMPARE(answered, 3);
    const auto project = Project::open(m_path);
    QVERIFY(project.ok());
    const auto saved = RubricStore(project->get()).load(QStringLiteral("hypo"));
    QVERIFY(saved.ok());
    QCOMPARE(saved->version(), 2);
    QCOMPARE(saved->criteria().value(0).text, QStringLiteral("Each sentence follows from the one before."));
}

QTEST_MAIN(TestMainWindow)
void TestMainWindow::exportRefusesAnUnreadableProject_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QString>("table");
    for (const QString &suffix : {QStringLiteral("json"), QStringLiteral("csv")}) {
        QTest::addRow("%s, annotations gone", qPrintable(suffix)) << suffix << QStringLiteral("annotations");
        QTest::addRow("%s, judge scores gone", qPrintable(suffix)) << suffix << QStringLiteral("judge_scores");
    }
    QTest::addRow("json, split gone") << QStringLiteral("json") << QStringLiteral("splits"); // csv has no split
}

void TestMainWindow::exportRefusesAnUnreadableProject()
{
    // Issue 18.8: an export of a damaged project is an error, not a file with empty score columns.
    QFETCH(QString, suffix);
    QFETCH(QString, table);
    auto project = Project::open(m_path, Project::OpenMode::OpenExisting);
    QVERIFY(project);
    QSqlQuery q(ProjectTestAccess::database(*(*project)));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
    QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table), qPrintable(q.lastError().text()));
    const QString out = m_dir->filePath(QStringLiteral("damaged.") + suffix);
    const auto written = ScoreExport::write(*project.value(), out);
    QVERIFY2(!written.ok(), "an unreadable project was exported");
    QVERIFY2(written.errorString().contains(table), qPrintable(written.errorString()));
    QVERIFY(!QFile::exists(out));
}

#include "TestMainWindow.moc"
