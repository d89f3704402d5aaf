// The item answer grid (question × judge on one checklist) and the heatmap of a checklist
// judge: the grid's cells, group rows and coverage for two judges, a clicked cell's raw
// answer, and the heatmap's switch between question and sub-aspect columns.

#include "ChecklistFixture.h"
#include "ProjectTestAccess.h"
#include "UiTestProject.h"
#include "methods/checkeval/AnswerGridModel.h"
#include "methods/checkeval/CheckEvalViews.h"
#include "models/ScoreModel.h"
#include "panes/HeatmapPane.h"
#include "widgets/HeatmapView.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSqlError>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QtTest>

#include <cmath>

using namespace rubric;

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

class TestAnswerGrid : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void sharingJudges();
    void unreadableProjectIsAnErrorNotAnEmptyGrid_data();
    void unreadableProjectIsAnErrorNotAnEmptyGrid();
    void cellsGroupsAndCoverage();
    void modelTester();
    void clickShowsEachJudgesRawAnswer();
    void heatmapSwitchesToSubAspects();
    void invertedQuestionIsInvertedOnce();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
};

void TestAnswerGrid::init()
{
    testing::isolateSettings();
    m_dir = std::make_unique<QTemporaryDir>();
    m_project = testing::makeProject(m_dir->filePath(QStringLiteral("g.rubric")), 4);
    using A = fixture::Answer;
    // judge A on i0: q1 yes, q2 yes, q4 no, q5 unanswered; on i1: q1 no, q2 yes, q4 yes, q5 yes
    fixture::writeChecklistJudge(*m_project, QStringLiteral("judgeA"), fixture::checklistRubric(),
                                 {A{"i0", "q1", 1}, A{"i0", "q2", 1}, A{"i0", "q4", 0}, A{"i0", "q5", NaN},
                                  A{"i1", "q1", 0}, A{"i1", "q2", 1}, A{"i1", "q4", 1}, A{"i1", "q5", 1}});
    // judge B on the same checklist: disagrees on q1 and refused the s2 call on i0
    fixture::writeChecklistJudge(*m_project, QStringLiteral("judgeB"), fixture::checklistRubric(),
                                 {A{"i0", "q1", 0}, A{"i0", "q2", 1}, A{"i0", "q4", NaN, QStringLiteral("failed")},
                                  A{"i0", "q5", NaN, QStringLiteral("failed")}, A{"i1", "q1", 0}, A{"i1", "q2", 1},
                                  A{"i1", "q4", 0}, A{"i1", "q5", 1}});
    // a checklist with other questions on the same aspect is not compared
    Rubric other = fixture::checklistRubric();
    other.find(QStringLiteral("q5"))->key = QStringLiteral("q9");
    fixture::writeChecklistJudge(*m_project, QStringLiteral("judgeOther"), other, {A{"i0", "q1", 1}});
}

void TestAnswerGrid::cleanup()
{
    m_project.reset();
    m_dir.reset();
}

void TestAnswerGrid::sharingJudges()
{
    QCOMPARE(AnswerGridModel::sharingJudges(m_project.get(), QStringLiteral("judgeB")).value(),
             fixture::keys({"judgeB", "judgeA"}));
    QCOMPARE(AnswerGridModel::sharingJudges(m_project.get(), QStringLiteral("judgeOther")).value(),
             fixture::keys({"judgeOther"}));
    QVERIFY(AnswerGridModel::sharingJudges(m_project.get(), QStringLiteral("nobody")).value().isEmpty());
}

void TestAnswerGrid::unreadableProjectIsAnErrorNotAnEmptyGrid_data()
{
    QTest::addColumn<QString>("table");
    QTest::newRow("rubric versions") << QStringLiteral("rubric_versions");
    QTest::newRow("criteria") << QStringLiteral("criteria");
    QTest::newRow("answers") << QStringLiteral("criterion_scores");
}

void TestAnswerGrid::unreadableProjectIsAnErrorNotAnEmptyGrid()
{
    // Issue 18.8: a damaged project is not shown as a judge without a checklist or answers.
    QFETCH(QString, table);
    AnswerGridModel model;
    model.setProject(m_project.get());
    model.setItem(QStringLiteral("judgeA"), QStringLiteral("i0"));
    QVERIFY(model.error().isEmpty());
    QCOMPARE(model.columnCount(), 3);
    QSqlQuery q(ProjectTestAccess::database(*m_project));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
    QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table), qPrintable(q.lastError().text()));
    model.reload();
    QVERIFY2(model.error().contains(table), qPrintable(model.error()));
    QCOMPARE(model.rowCount(), 0); // nothing half-read
    QCOMPARE(model.columnCount(), 1);
    QVERIFY(!AnswerGridModel::sharingJudges(m_project.get(), QStringLiteral("judgeA")).ok()
            || table == QLatin1String("criterion_scores"));
}

void TestAnswerGrid::cellsGroupsAndCoverage()
{
    AnswerGridModel model;
    model.setProject(m_project.get());
    model.setItem(QStringLiteral("judgeA"), QStringLiteral("i0"));
    QCOMPARE(model.judges(), fixture::keys({"judgeA", "judgeB"}));
    QCOMPARE(model.columnCount(), 3);
    // s1, q1, q2 (q3 was removed by the filter), s2, q4, q5
    QStringList keys;
    for (int r = 0; r < model.rowCount(); ++r)
        keys << model.index(r, 0).data(AnswerGridModel::CriterionKeyRole).toString();
    QCOMPARE(keys, fixture::keys({"s1", "q1", "q2", "s2", "q4", "q5"}));
    QVERIFY(model.index(0, 0).data(AnswerGridModel::GroupRowRole).toBool());
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("Logical flow"));
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("q1  Do the sentences follow from one another?"));
    const auto text = [&model](const QString &key, int column) {
        return model.index(model.rowOfKey(key), column).data().toString();
    };
    QCOMPARE(text(QStringLiteral("q1"), 1), QStringLiteral("yes · met"));
    QCOMPARE(text(QStringLiteral("q1"), 2), QStringLiteral("no · not met"));
    QCOMPARE(text(QStringLiteral("q4"), 1), QStringLiteral("no · not met"));
    QCOMPARE(text(QStringLiteral("q5"), 1), QStringLiteral("—")); // unanswered
    QCOMPARE(text(QStringLiteral("q4"), 2), QStringLiteral("—")); // refused
    QCOMPARE(model.index(model.rowOfKey(QStringLiteral("q4")), 2).data(AnswerGridModel::StatusRole).toString(),
             QStringLiteral("failed"));
    QVERIFY(model.index(model.rowOfKey(QStringLiteral("q4")), 2)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("refused")));
    // the colours: met green, not met red, no answer grey
    const auto colour = [&model](const QString &key, int column) {
        return model.index(model.rowOfKey(key), column).data(Qt::BackgroundRole).value<QBrush>().color();
    };
    QVERIFY(colour(QStringLiteral("q1"), 1).green() > colour(QStringLiteral("q1"), 1).red());
    QVERIFY(colour(QStringLiteral("q1"), 2).red() > colour(QStringLiteral("q1"), 2).green());
    QCOMPARE(colour(QStringLiteral("q5"), 1).red(), colour(QStringLiteral("q5"), 1).green());
    // group rows: met / answered per sub-aspect
    QCOMPARE(text(QStringLiteral("s1"), 1), QStringLiteral("2/2"));
    QCOMPARE(text(QStringLiteral("s1"), 2), QStringLiteral("1/2"));
    QCOMPARE(text(QStringLiteral("s2"), 1), QStringLiteral("0/1"));
    QCOMPARE(text(QStringLiteral("s2"), 2), QStringLiteral("—"));
    // coverage = answered / enabled questions (4 enabled)
    QCOMPARE(model.coverage(0), 0.75);
    QCOMPARE(model.coverage(1), 0.5);
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("judgeA\ncoverage 75%"));
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("judgeB\ncoverage 50%"));

    // Inverted in the studio after the answers were stored: the answer is counted as the item
    // score counted it (not met) until the judge is scored again, and the tooltip says so.
    RubricStore store(m_project.get());
    auto rubric = store.load(QStringLiteral("judgeA"));
    rubric->find(QStringLiteral("q4"))->origin.insert(QStringLiteral("inverted"), true);
    QVERIFY(store.saveVersion(QStringLiteral("judgeA"), *rubric));
    QCOMPARE(text(QStringLiteral("s2"), 1), QStringLiteral("0/1")); // reloaded on judgesChanged
    QVERIFY(colour(QStringLiteral("q4"), 1).red() > colour(QStringLiteral("q4"), 1).green());
    QCOMPARE(text(QStringLiteral("q4"), 1), QStringLiteral("no · not met"));
    QVERIFY(model.index(model.rowOfKey(QStringLiteral("q4")), 1)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("scored again")));
}

void TestAnswerGrid::invertedQuestionIsInvertedOnce()
{
    // Issue 30.1: an inverted question answered "yes" does not meet its criterion — in the
    // stored row (as CheckEvalMethod writes it: score = meets, answer = the literal "yes"), in
    // the grid (shows "yes", red, not met), in the sub-aspect share and in the item score alike.
    Rubric inverted = fixture::checklistRubric();
    inverted.find(QStringLiteral("q4"))->origin.insert(QStringLiteral("inverted"), true);
    using A = fixture::Answer;
    fixture::writeChecklistJudge(*m_project, QStringLiteral("judgeInv"), inverted,
                                 {A{"i0", "q1", 1}, A{"i0", "q2", 1}, A{"i0", "q4", 1}, A{"i0", "q5", 0}});
    const auto rows = RubricStore(m_project.get()).readSampleScores(QStringLiteral("judgeInv"));
    QVERIFY(rows.ok());
    for (const CriterionScore &r : *rows)
        if (r.criterionKey == QLatin1String("q4")) {
            QCOMPARE(r.answer, 1.0); // said yes
            QCOMPARE(r.score, 0.0);  // does not meet
        }
    AnswerGridModel model;
    model.setProject(m_project.get());
    model.setItem(QStringLiteral("judgeInv"), QStringLiteral("i0"));
    const QModelIndex q4 = model.index(model.rowOfKey(QStringLiteral("q4")), 1);
    QCOMPARE(q4.data(AnswerGridModel::AnswerRole).toString(), QStringLiteral("yes"));
    QCOMPARE(q4.data(AnswerGridModel::MeetsRole).toBool(), false);
    QCOMPARE(q4.data().toString(), QStringLiteral("yes · not met"));
    const QColor c = q4.data(Qt::BackgroundRole).value<QBrush>().color();
    QVERIFY(c.red() > c.green());
    // s2: q4 not met, q5 ("no") not met
    QCOMPARE(model.index(model.rowOfKey(QStringLiteral("s2")), 1).data().toString(), QStringLiteral("0/2"));
    // the heatmap's sub-aspect share agrees with the grid, and with the item score (2 of 4 met)
    HeatmapPane pane;
    pane.setProject(m_project.get());
    auto *judge = pane.findChild<QComboBox *>(QStringLiteral("heatmapJudge"));
    judge->setCurrentIndex(judge->findData(QStringLiteral("judgeInv")));
    ScoreModel *scores = ScoreModel::of(m_project.get());
    auto *columns = pane.findChild<QComboBox *>(QStringLiteral("heatmapColumnSets"));
    columns->setCurrentIndex(columns->findData(int(ChecklistColumns::SubAspects)));
    const int i0 = scores->rowOfItem(QStringLiteral("i0"));
    QCOMPARE(scores->score(i0, ScoreModel::FirstCriterionColumn + 1), 0.0);
    QCOMPARE(scores->score(i0, ScoreModel::JudgeColumn), 0.5);
    columns->setCurrentIndex(0);
}

void TestAnswerGrid::modelTester()
{
    AnswerGridModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProject(m_project.get());
    model.setItem(QStringLiteral("judgeA"), QStringLiteral("i0"));
    QCOMPARE(model.rowCount(), 6);
    model.setItem(QStringLiteral("judgeB"), QStringLiteral("i1"));
    QCOMPARE(model.judges().first(), QStringLiteral("judgeB"));
    model.setItem(QStringLiteral("nobody"), QStringLiteral("i1"));
    QCOMPARE(model.rowCount(), 0);
}

void TestAnswerGrid::clickShowsEachJudgesRawAnswer()
{
    HeatmapPane pane;
    pane.resize(1400, 800);
    pane.setProject(m_project.get());
    auto *judge = pane.findChild<QComboBox *>(QStringLiteral("heatmapJudge"));
    judge->setCurrentIndex(judge->findData(QStringLiteral("judgeA")));
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    ScoreModel *scores = ScoreModel::of(m_project.get());
    QCOMPARE(scores->judge(), QStringLiteral("judgeA"));
    QVERIFY(scores->isChecklist());
    // click item i0's q4 cell in the heatmap
    HeatmapView *view = pane.view();
    const int column = ScoreModel::FirstCriterionColumn + int(scores->criterionKeys().indexOf(QStringLiteral("q4")));
    QVERIFY(column >= ScoreModel::FirstCriterionColumn);
    const QModelIndex cell = view->model()->index(0, column);
    QCOMPARE(cell.data(ScoreModel::ItemIdRole).toString(), QStringLiteral("i0"));
    view->scrollTo(cell);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    auto *tabs = pane.findChild<QTabWidget *>(QStringLiteral("heatmapDetailTabs"));
    auto *gridView = pane.findChild<QTableView *>(QStringLiteral("heatmapAnswerGrid"));
    auto *gridModel = pane.findChild<AnswerGridModel *>();
    QVERIFY(gridView && gridModel);
    QCOMPARE(tabs->currentWidget(), gridView);
    QCOMPARE(gridModel->itemId(), QStringLiteral("i0"));
    QCOMPARE(gridModel->judges(), fixture::keys({"judgeA", "judgeB"}));
    auto *raw = pane.findChild<QPlainTextEdit *>(QStringLiteral("heatmapRaw"));
    auto *reasoning = pane.findChild<QTextBrowser *>(QStringLiteral("heatmapReasoning"));
    QCOMPARE(raw->toPlainText(), QStringLiteral("judgeA on i0: q4: no")); // the clicked question, this judge
    // click the grid cell q1 × judgeB, then q1 × judgeA
    QTableView *grid = gridView;
    const auto clickGrid = [grid](int row, int col) {
        const QModelIndex at = grid->model()->index(row, col);
        grid->scrollTo(at);
        QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, grid->visualRect(at).center());
    };
    const int q1 = gridModel->rowOfKey(QStringLiteral("q1"));
    clickGrid(q1, 2);
    QCOMPARE(raw->toPlainText(), QStringLiteral("judgeB on i0: q1: no"));
    QCOMPARE(reasoning->toPlainText(), QStringLiteral("judgeB reasoned about q1"));
    QVERIFY(pane.findChild<QLabel *>(QStringLiteral("heatmapDetailTitle"))->text().contains(QLatin1String("judgeB")));
    clickGrid(q1, 1);
    QCOMPARE(raw->toPlainText(), QStringLiteral("judgeA on i0: q1: yes"));
    // a refused call shows its status, not an answer
    clickGrid(gridModel->rowOfKey(QStringLiteral("q5")), 2);
    QCOMPARE(raw->toPlainText(), QStringLiteral("judgeB on i0: q5: ?"));
}

void TestAnswerGrid::heatmapSwitchesToSubAspects()
{
    HeatmapPane pane;
    pane.setProject(m_project.get());
    auto *judge = pane.findChild<QComboBox *>(QStringLiteral("heatmapJudge"));
    judge->setCurrentIndex(judge->findData(QStringLiteral("judgeA")));
    ScoreModel *scores = ScoreModel::of(m_project.get());
    auto *columns = pane.findChild<QComboBox *>(QStringLiteral("heatmapColumnSets"));
    QVERIFY(columns->isVisibleTo(&pane));
    QCOMPARE(scores->criterionKeys(), fixture::keys({"q1", "q2", "q4", "q5"}));
    // questions: 1 = met, 0 = not met, on a 0–1 colour scale
    QCOMPARE(scores->score(scores->rowOfItem(QStringLiteral("i0")), ScoreModel::FirstCriterionColumn), 1.0);
    QCOMPARE(scores->headerData(ScoreModel::FirstCriterionColumn, Qt::Horizontal, ScoreModel::ScaleMaxRole).toDouble(),
             1.0);
    QCOMPARE(scores->headerData(ScoreModel::FirstCriterionColumn, Qt::Horizontal, ScoreModel::ScaleMinRole).toDouble(),
             0.0);

    columns->setCurrentIndex(columns->findData(int(ChecklistColumns::SubAspects)));
    QCOMPARE(scores->criterionKeys(), fixture::keys({"s1", "s2"}));
    QCOMPARE(pane.view()->model()->columnCount(), ScoreModel::FirstCriterionColumn + 2);
    QVERIFY(scores->headerData(ScoreModel::FirstCriterionColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("Logical flow")));
    const int i0 = scores->rowOfItem(QStringLiteral("i0")), i1 = scores->rowOfItem(QStringLiteral("i1"));
    const int s1 = ScoreModel::FirstCriterionColumn, s2 = s1 + 1;
    QCOMPARE(scores->score(i0, s1), 1.0); // q1 yes, q2 yes
    QCOMPARE(scores->score(i0, s2), 0.0); // q4 no, q5 unanswered: 0 of 1 answered
    QCOMPARE(scores->score(i1, s1), 0.5); // q1 no, q2 yes
    QCOMPARE(scores->score(i1, s2), 1.0); // q4 yes, q5 yes
    QVERIFY(std::isnan(scores->score(scores->rowOfItem(QStringLiteral("i2")), s1))); // not judged
    // the judge column is the judge's score (yes / answered), unchanged by the switch
    QCOMPARE(scores->score(i0, ScoreModel::JudgeColumn), 2.0 / 3.0);

    // a non-checklist judge hides the switch
    QVERIFY(m_project->ensureJudge(QStringLiteral("plain"), QStringLiteral("geval")));
    QVERIFY(m_project->setJudgeScores(QStringLiteral("plain"), QStringLiteral("coherence"),
                                      {{QStringLiteral("i0"), 3.0}}));
    judge->setCurrentIndex(judge->findData(QStringLiteral("plain")));
    QVERIFY(!scores->isChecklist());
    QVERIFY(!columns->isVisibleTo(&pane));
    columns->setCurrentIndex(0);
}

QTEST_MAIN(TestAnswerGrid)
#include "TestAnswerGrid.moc"
