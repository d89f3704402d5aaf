#include "RubricFixture.h"
#include "UiTestProject.h"
#include "models/RubricTreeModel.h"
#include "panes/RubricPane.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>

using namespace rubric;

class TestRubricPane : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void listsJudgesWithARubric();
    void editUndoRedoSave();
    void keyboardEditing();
    void olderVersionIsReadOnlyUntilTakenAsBase();
    void saveAsksForANote();
    void followsANewVersionFromARun();
    void showsGEvalSteps();
    void rescoreIsRequested();
    void exportAndCompareAreRequested();

private:
    template <typename T> T *child(const char *name) const
    {
        auto *w = m_pane->findChild<T *>(QString::fromLatin1(name));
        if (!w)
            qFatal("no child %s", name);
        return w;
    }
    QModelIndex indexOf(const QString &key, int column = 0) const { return m_pane->model()->indexOfKey(key, column); }
    void focusTreeOn(const QString &key);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
    std::unique_ptr<RubricPane> m_pane;
};

void TestRubricPane::init()
{
    testing::isolateSettings();
    m_dir = std::make_unique<QTemporaryDir>();
    m_project = testing::makeProject(m_dir->filePath(QStringLiteral("r.rubric")), 6);
    fixture::saveJudge(*m_project, QStringLiteral("hypo"), fixture::hypoEvalRubric(),
                       QStringLiteral("HypoEval bank of 5, 3 selected"), 0.61);
    fixture::saveJudge(*m_project, QStringLiteral("geval"), fixture::gevalRubric(),
                       QStringLiteral("auto-CoT evaluation steps"), 0.48);
    QVERIFY(m_project->ensureJudge(QStringLiteral("rouge"), QStringLiteral("rouge"))); // scores only, no rubric
    m_pane = std::make_unique<RubricPane>();
    m_pane->resize(1200, 800);
    m_pane->setProject(m_project.get());
}

void TestRubricPane::cleanup()
{
    m_pane.reset();
    m_project.reset();
    m_dir.reset();
}

void TestRubricPane::focusTreeOn(const QString &key)
{
    m_pane->show();
    m_pane->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_pane.get()));
    auto *tree = child<QTreeView>("rubricTree");
    tree->setFocus();
    tree->setCurrentIndex(indexOf(key));
    QTRY_VERIFY(tree->hasFocus());
}

void TestRubricPane::listsJudgesWithARubric()
{
    auto *judges = child<QComboBox>("rubricJudge");
    QCOMPARE(judges->count(), 2);
    QVERIFY(judges->findData(QStringLiteral("rouge")) < 0);
    QVERIFY(judges->findData(QStringLiteral("hypo")) >= 0);
    QCOMPARE(m_pane->judge(), judges->currentData().toString());
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    QCOMPARE(m_pane->shownVersion(), 1);
    auto *versions = child<QTreeWidget>("rubricVersions");
    QCOMPARE(versions->topLevelItemCount(), 1);
    QCOMPARE(versions->topLevelItem(0)->text(2), QStringLiteral("0.610"));
    QCOMPARE(versions->topLevelItem(0)->text(4), QStringLiteral("HypoEval bank of 5, 3 selected"));
    auto *tree = child<QTreeView>("rubricTree");
    QCOMPARE(tree->model(), m_pane->model());
    QCOMPARE(tree->model()->rowCount(), 1);
    QCOMPARE(tree->model()->rowCount(tree->model()->index(0, 0)), 5);
    QVERIFY(tree->isExpanded(tree->model()->index(0, 0)));
    // the detail panel describes the current criterion
    tree->setCurrentIndex(indexOf(QStringLiteral("h2")));
    const QString detail = child<QTextBrowser>("rubricDetail")->toPlainText();
    QVERIFY2(detail.contains(QLatin1String("wrong-bank refine 3")), qPrintable(detail));
    QVERIFY(detail.contains(QLatin1String("train Pearson 0.600")));
    QVERIFY(detail.contains(QLatin1String("Reward history")));
    // the root tells what the run did: calls per phase in the run's order, the literature it read
    tree->setCurrentIndex(indexOf(QStringLiteral("aspect")));
    const QString root = child<QTextBrowser>("rubricDetail")->toPlainText();
    QVERIFY2(root.contains(QStringLiteral("init 1 · selection 300 (75 sent, the rest from the cache)")),
             qPrintable(root));
    QVERIFY(root.contains(QLatin1String("Literature (1 paper(s))")));
    QVERIFY(root.contains(QLatin1String("summarised by the generator from coherence-models.txt")));
    QVERIFY(root.contains(QLatin1String("Entity grids predict coherence.")));
    QVERIFY(root.contains(QStringLiteral("h_max = 20 · k = 10")));
    QVERIFY(!m_pane->isModified());
}

void TestRubricPane::editUndoRedoSave()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    auto *tree = child<QTreeView>("rubricTree");
    const QString original = m_pane->model()->criterion(QStringLiteral("h1"))->text;
    const QString edited = QStringLiteral("The summary's sentences connect without gaps.");

    // edit through the view's model (as the item delegate commits an edit)
    QVERIFY(tree->model()->setData(indexOf(QStringLiteral("h1")), edited));
    QCOMPARE(indexOf(QStringLiteral("h1")).data().toString(), edited);
    QVERIFY(m_pane->isModified());
    QVERIFY(child<QLabel>("rubricStatus")->text().contains(QLatin1String("unsaved")));
    auto *undo = child<QAction>("rubricUndo");
    auto *redo = child<QAction>("rubricRedo");
    auto *save = child<QAction>("rubricSave");
    QVERIFY(save->isEnabled());
    QVERIFY(!child<QAction>("rubricRescore")->isEnabled()); // save first
    undo->trigger();
    QCOMPARE(indexOf(QStringLiteral("h1")).data().toString(), original);
    QVERIFY(!m_pane->isModified());
    redo->trigger();
    QCOMPARE(indexOf(QStringLiteral("h1")).data().toString(), edited);

    // disable h2 with its check box; delete h3, undo restores it at its row
    QVERIFY(tree->model()->setData(indexOf(QStringLiteral("h2"), RubricTreeModel::EnabledColumn), Qt::Unchecked,
                                   Qt::CheckStateRole));
    const int row = indexOf(QStringLiteral("h3")).row();
    tree->setCurrentIndex(indexOf(QStringLiteral("h3")));
    child<QAction>("rubricDelete")->trigger();
    QVERIFY(!indexOf(QStringLiteral("h3")).isValid());
    undo->trigger();
    QCOMPARE(indexOf(QStringLiteral("h3")).row(), row);
    QCOMPARE(m_pane->undoStack()->index(), 2);

    auto saved = m_pane->saveVersion(QStringLiteral("reworded h1, disabled h2"));
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
    QCOMPARE(*saved, 2);
    QVERIFY(!m_pane->isModified());
    QVERIFY(child<QAction>("rubricRescore")->isEnabled());
    QCOMPARE(m_pane->shownVersion(), 2);
    RubricStore store(m_project.get());
    const auto versions = store.versions(QStringLiteral("hypo"));
    QCOMPARE(versions.size(), 2);
    QCOMPARE(versions[1].note, QStringLiteral("reworded h1, disabled h2"));
    QVERIFY(!versions[1].alignment); // measured by the next re-score
    auto v2 = store.load(QStringLiteral("hypo"), 2);
    QVERIFY(v2.ok());
    QCOMPARE(v2->find(QStringLiteral("h1"))->text, edited);
    QCOMPARE(v2->find(QStringLiteral("h1"))->origin.value(QStringLiteral("edited_from")).toString(), original);
    QVERIFY(!v2->find(QStringLiteral("h2"))->enabled);
    QCOMPARE(v2->enabled(CriterionKind::Hypothesis).size(), 2);
    QCOMPARE(v2->ofKind(CriterionKind::Hypothesis).size(), 5);
    QCOMPARE(store.load(QStringLiteral("hypo"), 1)->find(QStringLiteral("h1"))->text, original); // version 1 untouched
    auto *list = child<QTreeWidget>("rubricVersions");
    QCOMPARE(list->topLevelItemCount(), 2);
    QCOMPARE(list->currentItem()->text(0), QStringLiteral("v2"));
    QCOMPARE(list->topLevelItem(1)->text(2), QStringLiteral("—"));
}

void TestRubricPane::keyboardEditing()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    focusTreeOn(QStringLiteral("h2"));
    auto *tree = child<QTreeView>("rubricTree");
    const QStringList original = m_pane->model()->childKeys(QStringLiteral("aspect"));

    QTest::keyClick(tree, Qt::Key_Space); // disable
    QVERIFY(!m_pane->model()->criterion(QStringLiteral("h2"))->enabled);
    QTest::keyClick(tree, Qt::Key_Up, Qt::AltModifier);
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("aspect")).first(), QStringLiteral("h2"));
    QCOMPARE(m_pane->model()->keyOf(tree->currentIndex()), QStringLiteral("h2"));
    QTest::keyClick(tree, Qt::Key_Delete);
    QVERIFY(!m_pane->model()->criterion(QStringLiteral("h2")));
    QTest::keyClick(tree, Qt::Key_Z, Qt::ControlModifier); // undo the delete
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("aspect")).first(), QStringLiteral("h2"));
    QTest::keyClick(tree, Qt::Key_Z, Qt::ControlModifier); // undo the move
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("aspect")), original);
    QTest::keyClick(tree, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); // redo the move
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("aspect")).first(), QStringLiteral("h2"));
    QTest::keyClick(tree, Qt::Key_Y, Qt::ControlModifier); // redo the delete
    QVERIFY(!m_pane->model()->criterion(QStringLiteral("h2")));
    QCOMPARE(m_pane->undoStack()->index(), 3);

    // Ins adds a criterion after the current one and puts the text editor in focus
    tree->setFocus();
    tree->setCurrentIndex(indexOf(QStringLiteral("h1")));
    QTest::keyClick(tree, Qt::Key_Insert);
    const QStringList keys = m_pane->model()->childKeys(QStringLiteral("aspect"));
    QCOMPARE(keys.size(), 5);
    const QString added = keys.at(1);
    QCOMPARE(m_pane->model()->criterion(added)->kind, CriterionKind::Hypothesis);
    auto *editor = child<QPlainTextEdit>("rubricTextEditor");
    QTRY_VERIFY(editor->hasFocus());
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("Typed hypothesis"));
    QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(m_pane->model()->criterion(added)->text, QStringLiteral("Typed hypothesis"));
    QCOMPARE(m_pane->model()->data(indexOf(added, RubricTreeModel::OriginColumn)).toString(), QStringLiteral("added"));
}

void TestRubricPane::olderVersionIsReadOnlyUntilTakenAsBase()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    QVERIFY(m_pane->model()->setData(indexOf(QStringLiteral("h1")), QStringLiteral("v2 text")));
    QVERIFY(m_pane->saveVersion(QStringLiteral("v2")).ok());
    auto *list = child<QTreeWidget>("rubricVersions");
    list->setCurrentItem(list->topLevelItem(0)); // version 1
    QCOMPARE(m_pane->shownVersion(), 1);
    QVERIFY(m_pane->isReadOnly());
    QVERIFY(indexOf(QStringLiteral("h1")).data().toString().startsWith(QLatin1String("Hypothesis 1")));
    QVERIFY(!m_pane->model()->setData(indexOf(QStringLiteral("h1")), QStringLiteral("nope")));
    QVERIFY(!child<QAction>("rubricDelete")->isEnabled());
    QVERIFY(!child<QPushButton>("rubricEditFromVersion")->isHidden());
    QTest::mouseClick(child<QPushButton>("rubricEditFromVersion"), Qt::LeftButton);
    QVERIFY(!m_pane->isReadOnly());
    QVERIFY(m_pane->model()->setData(indexOf(QStringLiteral("h4"), RubricTreeModel::EnabledColumn), Qt::Checked,
                                     Qt::CheckStateRole));
    QCOMPARE(*m_pane->saveVersion(QStringLiteral("from v1, with h4")), 3);
    auto v3 = RubricStore(m_project.get()).load(QStringLiteral("hypo"), 3);
    QVERIFY(v3->find(QStringLiteral("h4"))->enabled);
    QVERIFY(v3->find(QStringLiteral("h1"))->text.startsWith(QLatin1String("Hypothesis 1"))); // based on v1
    QCOMPARE(list->topLevelItemCount(), 3);
    QVERIFY(!m_pane->isReadOnly());
}

void TestRubricPane::saveAsksForANote()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    m_pane->show();
    QVERIFY(m_pane->model()->setData(indexOf(QStringLiteral("h5"), RubricTreeModel::EnabledColumn), Qt::Checked,
                                     Qt::CheckStateRole));
    bool answered = false;
    QTimer::singleShot(0, this, [&answered] {
        auto *dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        dialog->setTextValue(QStringLiteral("h5 back in"));
        dialog->accept();
        answered = true;
    });
    child<QAction>("rubricSave")->trigger();
    QVERIFY(answered);
    const auto versions = RubricStore(m_project.get()).versions(QStringLiteral("hypo"));
    QCOMPARE(versions.size(), 2);
    QCOMPARE(versions[1].note, QStringLiteral("h5 back in"));
}

void TestRubricPane::followsANewVersionFromARun()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    // a run (here: the store directly) saves version 2 and records its alignment
    Rubric r = fixture::hypoEvalRubric();
    r.find(QStringLiteral("h3"))->text = QStringLiteral("Changed by a run");
    RubricStore store(m_project.get());
    QCOMPARE(*store.saveVersion(QStringLiteral("hypo"), r, QStringLiteral("run")), 2);
    QCOMPARE(m_pane->shownVersion(), 2);
    QCOMPARE(indexOf(QStringLiteral("h3")).data().toString(), QStringLiteral("Changed by a run"));
    QVERIFY(store.setAlignment(QStringLiteral("hypo"), 2, 0.7, QStringLiteral("alignment: train split, n = 6")));
    QVERIFY(store.setTestAlignment(QStringLiteral("hypo"), 2, 0.9, QStringLiteral("alignment: test split, n = 4")));
    auto *list = child<QTreeWidget>("rubricVersions");
    // The versions compare on the train figure; the test figure is there only on request, labelled.
    QCOMPARE(list->headerItem()->text(2), QStringLiteral("Alignment (train)"));
    QCOMPARE(list->topLevelItem(1)->text(2), QStringLiteral("0.700"));
    QCOMPARE(list->topLevelItem(1)->text(4), QStringLiteral("run — alignment: train split, n = 6"));
    QVERIFY(list->isColumnHidden(3));
    auto *showTest = child<QCheckBox>("rubricShowTestAlignment");
    QVERIFY(!showTest->isChecked());
    showTest->setChecked(true);
    QVERIFY(!list->isColumnHidden(3));
    QCOMPARE(list->headerItem()->text(3), QStringLiteral("Alignment (test)"));
    QCOMPARE(list->topLevelItem(1)->text(3), QStringLiteral("0.900"));
    QCOMPARE(list->topLevelItem(1)->toolTip(3), QStringLiteral("alignment: test split, n = 4"));
    QCOMPARE(list->topLevelItem(0)->text(3), QStringLiteral("—"));
    showTest->setChecked(false);
    QVERIFY(list->isColumnHidden(3));
    // an edit in progress is not thrown away by a new version
    QVERIFY(m_pane->model()->setData(indexOf(QStringLiteral("h1")), QStringLiteral("mine")));
    QCOMPARE(*store.saveVersion(QStringLiteral("hypo"), r, QStringLiteral("another run")), 3);
    QCOMPARE(m_pane->shownVersion(), 2);
    QCOMPARE(indexOf(QStringLiteral("h1")).data().toString(), QStringLiteral("mine"));
    QCOMPARE(list->topLevelItemCount(), 3);
}

void TestRubricPane::showsGEvalSteps()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("geval")));
    auto *tree = child<QTreeView>("rubricTree");
    const QModelIndex root = tree->model()->index(0, 0);
    QCOMPARE(tree->model()->rowCount(root), 3);
    QCOMPARE(tree->model()->index(0, RubricTreeModel::KindColumn, root).data().toString(), QStringLiteral("step"));
    QCOMPARE(tree->model()->index(2, 0, root).data().toString(), QStringLiteral("Step 3: read the summary."));
    QCOMPARE(child<QTreeWidget>("rubricVersions")->topLevelItem(0)->text(4),
             QStringLiteral("auto-CoT evaluation steps"));
    // a step added to G-Eval's list is a step
    tree->setCurrentIndex(tree->model()->index(2, 0, root));
    child<QAction>("rubricAdd")->trigger();
    const QStringList keys = m_pane->model()->childKeys(QStringLiteral("aspect"));
    QCOMPARE(keys.size(), 4);
    QCOMPARE(m_pane->model()->criterion(keys.last())->kind, CriterionKind::Step);
}

void TestRubricPane::rescoreIsRequested()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    QSignalSpy spy(m_pane.get(), &RubricPane::rescoreRequested);
    child<QAction>("rubricRescore")->trigger();
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.first().first().toString(), QStringLiteral("hypo"));
}

void TestRubricPane::exportAndCompareAreRequested()
{
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    QVERIFY(m_pane->model()->setData(indexOf(QStringLiteral("h1")), QStringLiteral("v2 text")));
    QCOMPARE(*m_pane->saveVersion(QStringLiteral("v2")), 2);
    QSignalSpy exports(m_pane.get(), &RubricPane::exportRequested);
    QSignalSpy diffs(m_pane.get(), &RubricPane::diffRequested);
    auto *exportAction = child<QAction>("rubricExport");
    auto *compare = child<QAction>("rubricCompare");
    QVERIFY(exportAction->isEnabled());
    exportAction->trigger();
    QCOMPARE(exports.size(), 1);
    QCOMPARE(exports.first().at(0).toString(), QStringLiteral("hypo"));
    QCOMPARE(exports.first().at(1).toInt(), 2);

    // one version selected: nothing to compare
    auto *list = child<QTreeWidget>("rubricVersions");
    QCOMPARE(m_pane->selectedVersions(), QList<int>{2});
    QVERIFY(!compare->isEnabled());
    // Ctrl+click the other version: both selected, the clicked one shown
    m_pane->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_pane.get()));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      list->visualItemRect(list->topLevelItem(0)).center());
    QCOMPARE(m_pane->selectedVersions(), (QList<int>{1, 2}));
    QCOMPARE(m_pane->shownVersion(), 1);
    QVERIFY(compare->isEnabled());
    compare->trigger();
    QCOMPARE(diffs.size(), 1);
    QCOMPARE(diffs.first().at(0).toString(), QStringLiteral("hypo"));
    QCOMPARE(diffs.first().at(1).toInt(), 1);
    QCOMPARE(diffs.first().at(2).toInt(), 2);
    // the export follows the shown version
    exportAction->trigger();
    QCOMPARE(exports.last().at(1).toInt(), 1);
    // both reachable from the keyboard while the version list has the focus
    m_pane->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_pane.get()));
    list->setFocus();
    QTRY_VERIFY(list->hasFocus());
    QTest::keyClick(list, Qt::Key_D, Qt::ControlModifier);
    QCOMPARE(diffs.size(), 2);
    QTest::keyClick(list, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(exports.size(), 3);
}

QTEST_MAIN(TestRubricPane)
#include "TestRubricPane.moc"
