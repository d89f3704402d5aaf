// The Rubric pane on a CheckEval checklist: the figure columns per method, the flags, sorting
// by discrimination, the stage counts, Restore and Invert polarity (undoable, saved as a new
// version) and the New checklist dialog (a preset, a bad YAML file refused, a typed one).

#include "ChecklistFixture.h"
#include "RubricFixture.h"
#include "UiTestProject.h"
#include "methods/checkeval/ChecklistIo.h"
#include "methods/checkeval/NewChecklistDialog.h"
#include "methods/checkeval/StageCountTable.h"
#include "models/RubricTreeModel.h"
#include "panes/RubricPane.h"

#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTextBrowser>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>

using namespace rubric;

class TestChecklistPane : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void columnsPerMethod();
    void flagsAndFigures();
    void sortsByDiscrimination();
    void stageCounts();
    void restoreFilteredQuestionIsUndoable();
    void invertPolarityIsUndoableAndSaved();
    void newChecklistFromPreset();
    void newChecklistRefusesBadYaml();
    void typedChecklistGetsSubAspectsAndQuestions();

private:
    template <typename T> T *child(QObject *in, const char *name) const
    {
        auto *w = in->findChild<T *>(QString::fromLatin1(name));
        if (!w)
            qFatal("no child %s", name);
        return w;
    }
    QModelIndex indexOf(const QString &key, int column = 0) const { return m_pane->model()->indexOfKey(key, column); }
    QString cell(const QString &key, int column) const { return indexOf(key, column).data().toString(); }
    NewChecklistDialog *openDialog();
    QStringList judgeNames() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
    std::unique_ptr<RubricPane> m_pane;
};

void TestChecklistPane::init()
{
    testing::isolateSettings();
    m_dir = std::make_unique<QTemporaryDir>();
    m_project = testing::makeProject(m_dir->filePath(QStringLiteral("c.rubric")), 6);
    fixture::saveJudge(*m_project, QStringLiteral("hypo"), fixture::hypoEvalRubric(), QStringLiteral("bank"), 0.6);
    fixture::writeChecklistJudge(*m_project, QStringLiteral("ce"), fixture::checklistRubric(), {});
    m_pane = std::make_unique<RubricPane>();
    m_pane->resize(1300, 800);
    m_pane->setProject(m_project.get());
    QVERIFY(m_pane->setJudge(QStringLiteral("ce")));
}

void TestChecklistPane::cleanup()
{
    m_pane.reset();
    m_project.reset();
    m_dir.reset();
}

QStringList TestChecklistPane::judgeNames() const
{
    QStringList out;
    for (const JudgeInfo &j : m_project->judges())
        out << j.name;
    return out;
}

void TestChecklistPane::columnsPerMethod()
{
    auto *tree = child<QTreeView>(m_pane.get(), "rubricTree");
    for (int c : {RubricTreeModel::YesRateColumn, RubricTreeModel::DiscriminationColumn,
                  RubricTreeModel::AnsweredColumn, RubricTreeModel::FlagsColumn, RubricTreeModel::OriginColumn})
        QVERIFY2(!tree->isColumnHidden(c), qPrintable(QString::number(c)));
    for (int c : {RubricTreeModel::RewardColumn, RubricTreeModel::TrainPearsonColumn, RubricTreeModel::RankColumn})
        QVERIFY2(tree->isColumnHidden(c), qPrintable(QString::number(c)));
    QVERIFY(child<StageCountTable>(m_pane.get(), "rubricStageCounts")->isVisibleTo(m_pane.get()));
    QVERIFY(child<QAction>(m_pane.get(), "rubricInvert")->isVisible());

    // HypoEval shows its own figures and none of the checklist's
    QVERIFY(m_pane->setJudge(QStringLiteral("hypo")));
    for (int c : {RubricTreeModel::RewardColumn, RubricTreeModel::TrainPearsonColumn, RubricTreeModel::RankColumn})
        QVERIFY(!tree->isColumnHidden(c));
    for (int c : {RubricTreeModel::YesRateColumn, RubricTreeModel::DiscriminationColumn,
                  RubricTreeModel::AnsweredColumn, RubricTreeModel::FlagsColumn})
        QVERIFY(tree->isColumnHidden(c));
    QVERIFY(!child<StageCountTable>(m_pane.get(), "rubricStageCounts")->isVisibleTo(m_pane.get()));
    QVERIFY(!child<QAction>(m_pane.get(), "rubricInvert")->isVisible());
}

void TestChecklistPane::flagsAndFigures()
{
    // grouped aspect → sub-aspect → question
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("aspect")), fixture::keys({"s1", "s2"}));
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("s1")), fixture::keys({"q1", "q2", "q3"}));
    QCOMPARE(cell(QStringLiteral("q1"), RubricTreeModel::YesRateColumn), QStringLiteral("0.50"));
    QCOMPARE(cell(QStringLiteral("q1"), RubricTreeModel::DiscriminationColumn), QStringLiteral("0.71"));
    QCOMPARE(cell(QStringLiteral("q5"), RubricTreeModel::AnsweredColumn), QStringLiteral("5"));
    QCOMPARE(cell(QStringLiteral("q1"), RubricTreeModel::OriginColumn), QStringLiteral("seed"));
    QCOMPARE(cell(QStringLiteral("q5"), RubricTreeModel::OriginColumn), QStringLiteral("elaboration"));
    QCOMPARE(cell(QStringLiteral("q1"), RubricTreeModel::FlagsColumn), QString());
    QCOMPARE(cell(QStringLiteral("q2"), RubricTreeModel::FlagsColumn), QStringLiteral("always yes"));
    QCOMPARE(cell(QStringLiteral("q5"), RubricTreeModel::FlagsColumn), QStringLiteral("≈ q1"));
    QVERIFY(indexOf(QStringLiteral("q5"), RubricTreeModel::FlagsColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("Near-duplicate of q1: Do the sentences follow from one another?")));
    QCOMPARE(cell(QStringLiteral("q4"), RubricTreeModel::FlagsColumn), QStringLiteral("“yes” = worse?"));
    QVERIFY(!indexOf(QStringLiteral("q4"), RubricTreeModel::FlagsColumn).data(Qt::DecorationRole).isNull());
    // the filtered question: disabled (grey), with the filter's reason
    QCOMPARE(cell(QStringLiteral("q3"), RubricTreeModel::FlagsColumn), QStringLiteral("removed by the filter"));
    QVERIFY(indexOf(QStringLiteral("q3"), RubricTreeModel::FlagsColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("Removed by the filter: duplicate of q1")));
    QCOMPARE(indexOf(QStringLiteral("q3"), RubricTreeModel::EnabledColumn).data(Qt::CheckStateRole).toInt(),
             int(Qt::Unchecked));
    QCOMPARE(indexOf(QStringLiteral("q3")).data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
    auto *restore = child<QAction>(m_pane.get(), "rubricRestore");
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("q1")));
    QVERIFY(!restore->isEnabled());
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("q3")));
    QVERIFY(restore->isEnabled());
    auto *detail = child<QTextBrowser>(m_pane.get(), "rubricDetail");
    QVERIFY2(detail->toPlainText().contains(QStringLiteral("Removed by the filter: duplicate of q1")),
             qPrintable(detail->toPlainText()));
    // the detail of a question: its figures, lineage and flags
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("q5")));
    const QString text = detail->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("yes-rate 0.600 · discrimination 0.350 · answered on 5 item(s)")),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("from seed q1")));
    QVERIFY(text.contains(QStringLiteral("Flags: ≈ q1")));
}

void TestChecklistPane::sortsByDiscrimination()
{
    m_pane->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_pane.get()));
    auto *tree = child<QTreeView>(m_pane.get(), "rubricTree");
    QHeaderView *header = tree->header();
    const auto clickHeader = [header](int column) {
        const int x = header->sectionViewportPosition(column) + header->sectionSize(column) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    };
    tree->setCurrentIndex(indexOf(QStringLiteral("q1")));
    clickHeader(RubricTreeModel::DiscriminationColumn);
    QCOMPARE(m_pane->model()->sortColumn(), int(RubricTreeModel::DiscriminationColumn));
    // highest first within each sub-aspect; q3 has no figure and goes last
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("s1")), fixture::keys({"q1", "q2", "q3"}));
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("s2")), fixture::keys({"q5", "q4"}));
    QCOMPARE(indexOf(QStringLiteral("q5")).row(), 0);
    QVERIFY(header->isSortIndicatorShown());
    QCOMPARE(m_pane->model()->keyOf(tree->currentIndex()), QStringLiteral("q1")); // selection follows
    QVERIFY(!child<QAction>(m_pane.get(), "rubricMoveDown")->isEnabled());        // no reordering while sorted
    clickHeader(RubricTreeModel::DiscriminationColumn);                           // ascending
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("s1")), fixture::keys({"q2", "q1", "q3"}));
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("s2")), fixture::keys({"q4", "q5"}));
    clickHeader(RubricTreeModel::YesRateColumn);
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("s2")), fixture::keys({"q5", "q4"}));
    clickHeader(RubricTreeModel::TextColumn); // the tree order again
    QCOMPARE(m_pane->model()->sortColumn(), -1);
    QCOMPARE(m_pane->model()->childKeys(QStringLiteral("s2")), fixture::keys({"q4", "q5"}));
    QVERIFY(!header->isSortIndicatorShown());
    QVERIFY(!m_pane->isModified()); // sorting is a view, not an edit
}

void TestChecklistPane::stageCounts()
{
    auto *table = child<StageCountTable>(m_pane.get(), "rubricStageCounts");
    QCOMPARE(table->rowCount(), 3); // s1, s2, total
    QCOMPARE(table->verticalHeaderItem(0)->text(), QStringLiteral("Logical flow"));
    const auto row = [table](int r) {
        QStringList out;
        for (int c = 0; c < StageCountTable::ColumnCount; ++c)
            out << table->item(r, c)->text();
        return out;
    };
    // seeds, after diversification, after elaboration, removed, final
    QCOMPARE(row(0), fixture::keys({"1", "2", "3", "1", "2"}));
    QCOMPARE(row(1), fixture::keys({"1", "1", "2", "0", "2"}));
    QCOMPARE(row(2), fixture::keys({"2", "3", "5", "1", "4"}));
}

void TestChecklistPane::restoreFilteredQuestionIsUndoable()
{
    auto *table = child<StageCountTable>(m_pane.get(), "rubricStageCounts");
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("q3")));
    child<QAction>(m_pane.get(), "rubricRestore")->trigger();
    const Criterion *q3 = m_pane->model()->criterion(QStringLiteral("q3"));
    QVERIFY(q3->enabled);
    QVERIFY(!q3->origin.contains(QStringLiteral("filtered")));
    QCOMPARE(q3->origin.value(QStringLiteral("restored_from_filter")).toString(), QStringLiteral("duplicate of q1"));
    QCOMPARE(cell(QStringLiteral("q3"), RubricTreeModel::FlagsColumn), QString());
    QCOMPARE(table->item(2, StageCountTable::Removed)->text(), QStringLiteral("0"));
    QCOMPARE(table->item(2, StageCountTable::Final)->text(), QStringLiteral("5"));
    QVERIFY(!child<QAction>(m_pane.get(), "rubricRestore")->isEnabled());
    QCOMPARE(m_pane->undoStack()->count(), 1);

    m_pane->undoStack()->undo();
    q3 = m_pane->model()->criterion(QStringLiteral("q3"));
    QVERIFY(!q3->enabled);
    QCOMPARE(q3->origin.value(QStringLiteral("filtered")).toString(), QStringLiteral("duplicate of q1"));
    QCOMPARE(table->item(2, StageCountTable::Removed)->text(), QStringLiteral("1"));
    QVERIFY(!m_pane->isModified());
    m_pane->undoStack()->redo();

    auto saved = m_pane->saveVersion(QStringLiteral("restored q3"));
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
    QCOMPARE(*saved, 2);
    const auto v2 = RubricStore(m_project.get()).load(QStringLiteral("ce"), 2);
    QVERIFY(v2->find(QStringLiteral("q3"))->enabled);
    QVERIFY(!RubricStore(m_project.get()).load(QStringLiteral("ce"), 1)->find(QStringLiteral("q3"))->enabled);
}

void TestChecklistPane::invertPolarityIsUndoableAndSaved()
{
    auto *invert = child<QAction>(m_pane.get(), "rubricInvert");
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("s2")));
    QVERIFY(!invert->isEnabled()); // questions only
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("q4")));
    QVERIFY(invert->isEnabled());
    QCOMPARE(invert->text(), QStringLiteral("Invert polarity"));
    invert->trigger();
    QVERIFY(m_pane->model()->criterion(QStringLiteral("q4"))->origin.value(QStringLiteral("inverted")).toBool());
    QCOMPARE(cell(QStringLiteral("q4"), RubricTreeModel::FlagsColumn), QStringLiteral("inverted"));
    QCOMPARE(invert->text(), QStringLiteral("Restore polarity"));
    m_pane->undoStack()->undo();
    QVERIFY(!m_pane->model()->criterion(QStringLiteral("q4"))->origin.contains(QStringLiteral("inverted")));
    QCOMPARE(cell(QStringLiteral("q4"), RubricTreeModel::FlagsColumn), QStringLiteral("“yes” = worse?"));
    m_pane->undoStack()->redo();
    auto saved = m_pane->saveVersion(QStringLiteral("q4 inverted"));
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
    const auto v2 = RubricStore(m_project.get()).load(QStringLiteral("ce"), *saved);
    QVERIFY(v2->find(QStringLiteral("q4"))->origin.value(QStringLiteral("inverted")).toBool());
    QCOMPARE(v2->find(QStringLiteral("q4"))->text, fixture::checklistRubric().find(QStringLiteral("q4"))->text);
}

NewChecklistDialog *TestChecklistPane::openDialog()
{
    child<QAction>(m_pane.get(), "rubricNewChecklist")->trigger();
    auto *dialog = m_pane->findChild<NewChecklistDialog *>(QStringLiteral("newChecklistDialog"));
    if (!dialog)
        qFatal("no dialog");
    [&] { QTRY_VERIFY(dialog->isVisible()); }();
    return dialog;
}

void TestChecklistPane::newChecklistFromPreset()
{
    NewChecklistDialog *dialog = openDialog();
    // the aspect's published checklist is proposed, with a judge name
    QCOMPARE(child<QComboBox>(dialog, "newChecklistAspect")->currentText(), QStringLiteral("coherence"));
    QCOMPARE(child<QComboBox>(dialog, "newChecklistPreset")->currentText(), QStringLiteral("summeval/coherence"));
    QVERIFY(child<QComboBox>(dialog, "newChecklistPreset")->count() >= 8);
    // Issue 30.8: the preset says what it is; where the paper's final list differs, it says so.
    auto *note = child<QLabel>(dialog, "newChecklistPresetNote");
    QVERIFY2(note->text().contains(QLatin1String("unfiltered union")), qPrintable(note->text()));
    QVERIFY2(note->text().contains(QLatin1String("also has 23")), qPrintable(note->text()));
    auto *presets = child<QComboBox>(dialog, "newChecklistPreset");
    presets->setCurrentIndex(presets->findData(QStringLiteral("summeval/fluency")));
    QVERIFY2(note->text().contains(QLatin1String("39 questions")) && note->text().contains(QLatin1String("has 35")),
             qPrintable(note->text()));
    presets->setCurrentIndex(presets->findData(QStringLiteral("summeval/coherence")));
    auto *name = child<QLineEdit>(dialog, "newChecklistJudge");
    name->clear();
    QTest::keyClicks(name, QStringLiteral("ce-summeval"));
    QTest::mouseClick(child<QPushButton>(dialog, "newChecklistOk"), Qt::LeftButton);
    QTRY_VERIFY(!dialog->isVisible());

    const auto judge = m_project->judge(QStringLiteral("ce-summeval"));
    QVERIFY(judge);
    QCOMPARE(judge->method, QStringLiteral("checkeval"));
    RubricStore store(m_project.get());
    QCOMPARE(store.latestVersion(QStringLiteral("ce-summeval")), 1);
    const auto saved = store.load(QStringLiteral("ce-summeval"));
    const auto preset = ChecklistIo::preset(QStringLiteral("summeval/coherence"));
    QVERIFY(preset);
    QCOMPARE(saved->method(), QStringLiteral("checkeval"));
    QCOMPARE(saved->aspect(), QStringLiteral("coherence"));
    QCOMPARE(saved->ofKind(CriterionKind::Question).size(), preset->ofKind(CriterionKind::Question).size());
    QCOMPARE(saved->ofKind(CriterionKind::SubAspect).size(), preset->ofKind(CriterionKind::SubAspect).size());
    QVERIFY(saved->ofKind(CriterionKind::Question).size() >= 16);
    // the pane shows it, with its stage counts
    QCOMPARE(m_pane->judge(), QStringLiteral("ce-summeval"));
    QCOMPARE(m_pane->shownVersion(), 1);
    auto *table = child<StageCountTable>(m_pane.get(), "rubricStageCounts");
    QCOMPARE(table->item(table->rowCount() - 1, StageCountTable::Final)->text(),
             QString::number(preset->enabled(CriterionKind::Question).size()));
}

void TestChecklistPane::newChecklistRefusesBadYaml()
{
    const QString path = m_dir->filePath(QStringLiteral("flow_seed.yaml"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("definition:\n  summeval: the order of ideas.\nsub_aspect:\n"
                "  Order: Is the order logical?\n"
                "  Links: Are the sentences: linked?\n");
    }
    const QStringList before = judgeNames();
    const int versions = RubricStore(m_project.get()).latestVersion(QStringLiteral("ce"));
    NewChecklistDialog *dialog = openDialog();
    auto *fromFile = child<QRadioButton>(dialog, "newChecklistFromFile");
    QTest::mouseClick(fromFile, Qt::LeftButton, {}, QPoint(8, fromFile->height() / 2)); // on the indicator
    QVERIFY(child<QRadioButton>(dialog, "newChecklistFromFile")->isChecked());
    QTest::keyClicks(child<QLineEdit>(dialog, "newChecklistPath"), path);
    QTest::mouseClick(child<QPushButton>(dialog, "newChecklistOk"), Qt::LeftButton);
    auto *error = child<QLabel>(dialog, "newChecklistError");
    QVERIFY(dialog->isVisible()); // stays open to fix the file
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(path + QStringLiteral(":5: ")), qPrintable(error->text()));
    QVERIFY(error->text().startsWith(QLatin1String("Nothing was created")));
    QCOMPARE(judgeNames(), before);
    QCOMPARE(RubricStore(m_project.get()).latestVersion(QStringLiteral("ce")), versions);
    QVERIFY(dialog->createdJudge().isEmpty());
    dialog->reject();
}

void TestChecklistPane::typedChecklistGetsSubAspectsAndQuestions()
{
    NewChecklistDialog *dialog = openDialog();
    child<QComboBox>(dialog, "newChecklistAspect")->setCurrentText(QStringLiteral("fluency"));
    QCOMPARE(child<QLineEdit>(dialog, "newChecklistJudge")->text(), QStringLiteral("checkeval-fluency"));
    auto *empty = child<QRadioButton>(dialog, "newChecklistEmpty");
    QTest::mouseClick(empty, Qt::LeftButton, {}, QPoint(8, empty->height() / 2));
    QVERIFY(empty->isChecked());
    auto *sub = child<QLineEdit>(dialog, "newChecklistSubAspect");
    sub->clear();
    QTest::keyClicks(sub, QStringLiteral("Grammar"));
    QTest::mouseClick(child<QPushButton>(dialog, "newChecklistOk"), Qt::LeftButton);
    QTRY_COMPARE(m_pane->judge(), QStringLiteral("checkeval-fluency"));
    RubricTreeModel *model = m_pane->model();
    QCOMPARE(model->rubric().method(), QStringLiteral("checkeval"));
    QCOMPARE(model->childKeys(QStringLiteral("aspect")), fixture::keys({"s1"}));
    QCOMPARE(model->criterion(QStringLiteral("s1"))->text, QStringLiteral("Grammar"));
    QCOMPARE(model->criterion(QStringLiteral("aspect"))->definition, QStringLiteral("Well written."));

    // Add child under the sub-aspect: a question; Add on the aspect: a sub-aspect
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("s1")));
    child<QAction>(m_pane.get(), "rubricAddChild")->trigger();
    const QString question = model->childKeys(QStringLiteral("s1")).value(0);
    QVERIFY(question.startsWith(QLatin1Char('q')));
    QCOMPARE(model->criterion(question)->kind, CriterionKind::Question);
    QCOMPARE(model->criterion(question)->origin.value(QStringLiteral("stage")).toString(), QStringLiteral("seed"));
    QVERIFY(model->setData(indexOf(question), QStringLiteral("Is every sentence grammatical?")));
    m_pane->view()->setCurrentIndex(indexOf(question));
    child<QAction>(m_pane.get(), "rubricAdd")->trigger(); // a sibling question
    QCOMPARE(model->childKeys(QStringLiteral("s1")).size(), 2);
    m_pane->view()->setCurrentIndex(indexOf(QStringLiteral("aspect")));
    child<QAction>(m_pane.get(), "rubricAdd")->trigger();
    QCOMPARE(model->childKeys(QStringLiteral("aspect")).size(), 2);
    const QString second = model->childKeys(QStringLiteral("aspect")).last();
    QCOMPARE(model->criterion(second)->kind, CriterionKind::SubAspect);
    QVERIFY(second.startsWith(QLatin1Char('s')));
    auto saved = m_pane->saveVersion(QStringLiteral("typed questions"));
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
    const auto v2 = RubricStore(m_project.get()).load(QStringLiteral("checkeval-fluency"), 2);
    QCOMPARE(v2->ofKind(CriterionKind::Question).size(), 2);
    QCOMPARE(v2->find(question)->text, QStringLiteral("Is every sentence grammatical?"));
}

QTEST_MAIN(TestChecklistPane)
#include "TestChecklistPane.moc"
