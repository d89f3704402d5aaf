#include "PlainText.h"
#include "ScoreFixture.h"
#include "models/CriterionScoreModel.h"
#include "models/ScoreFilterModel.h"
#include "models/ScoreModel.h"
#include "panes/HeatmapPane.h"
#include "widgets/HeatmapView.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolTip>
#include <QtTest>

using namespace rubric;

class TestHeatmapPane : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void scoreModelColumnsAndValues();
    void scoreModelTesterThroughChanges();
    void filterModelTesterSplitAndSort();
    void criterionScoreModelTester();
    void sharedModelIsOnePerProject();
    void headerClickSorts_data();
    void headerClickSorts();
    void splitFilterCombo_data();
    void splitFilterCombo();
    void clickCellShowsReasoningAndRaw();
    void keyboardMovesAndActivates();
    void residualColourMode();
    void rowHeadersShowIdGroupAndSystem();
    void screenshot();
    void benchPaint1600x50_data();
    void benchPaint1600x50();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Project> m_project;
};

void TestHeatmapPane::init()
{
    QVERIFY(m_dir.isValid());
    static int n = 0;
    m_project = fixture::openProject(m_dir.filePath(QStringLiteral("p%1.rubric").arg(++n)));
}

void TestHeatmapPane::cleanup()
{
    m_project.reset();
}

void TestHeatmapPane::scoreModelColumnsAndValues()
{
    fixture::fillSynthetic(*m_project, 40, 5);
    ScoreModel *model = ScoreModel::of(m_project.get());
    QCOMPARE(model->judge(), QStringLiteral("hypo"));
    QCOMPARE(model->aspect(), QStringLiteral("coherence"));
    QCOMPARE(model->rowCount(), 40);
    QCOMPARE(model->columnCount(), ScoreModel::FirstCriterionColumn + 5);
    QCOMPARE(model->criterionKeys().join(QLatin1Char(',')), QStringLiteral("h1,h2,h3,h4,h5"));
    QCOMPARE(model->headerData(ScoreModel::HumanColumn, Qt::Horizontal).toString(), QStringLiteral("Human"));
    const auto human = m_project->humanScores(QStringLiteral("coherence"));
    const auto judge = m_project->judgeScores(QStringLiteral("hypo"), QStringLiteral("coherence"));
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString id = model->itemId(r);
        const QVariant h = model->index(r, ScoreModel::HumanColumn).data(ScoreModel::ScoreRole);
        QCOMPARE(h.isValid(), human.contains(id));
        if (h.isValid())
            QCOMPARE(h.toDouble(), human.value(id));
        const QVariant j = model->index(r, ScoreModel::JudgeColumn).data(ScoreModel::ScoreRole);
        QCOMPARE(j.toDouble(), judge.value(id));
        const QVariant res = model->index(r, ScoreModel::JudgeColumn).data(ScoreModel::ResidualRole);
        QCOMPARE(res.isValid(), h.isValid());
        if (res.isValid())
            QCOMPARE(res.toDouble(), judge.value(id) - human.value(id));
    }
    // Item 6 × h1 was unparseable: missing, never a number.
    QVERIFY(!model->index(6, ScoreModel::FirstCriterionColumn).data(ScoreModel::ScoreRole).isValid());
    QVERIFY(std::isnan(model->score(6, ScoreModel::FirstCriterionColumn)));
    QCOMPARE(model->splitRole(0), SplitRole::Train);
    QCOMPARE(model->splitRole(35), SplitRole::Test);
}

void TestHeatmapPane::scoreModelTesterThroughChanges()
{
    QVERIFY(m_project->upsertAspect({QStringLiteral("coherence"), QStringLiteral("def"), 1, 5}).ok());
    ScoreModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProject(m_project.get()); // reset, empty
    QCOMPARE(model.rowCount(), 0);
    fixture::fillSynthetic(*m_project, 20, 3);
    QTRY_COMPARE(model.rowCount(), 20); // batched refresh

    // Appended items arrive as an insert, not a reset.
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    const QString e = QStringLiteral("");
    QVERIFY(m_project
                    ->addItems({Item{QStringLiteral("late-1"), e, e, e, e, e, {}, 0},
                                Item{QStringLiteral("late-2"), e, e, e, e, e, {}, 0}})
                    .ok());
    QTRY_COMPARE(model.rowCount(), 22);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(reset.count(), 0);

    // New judge scores: one dataChanged for the batch, whatever the number of changed rows.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QHash<QString, double> scores;
    for (int r = 0; r < 20; ++r)
        scores.insert(model.itemId(r), 3.0);
    QVERIFY(m_project->setJudgeScores(QStringLiteral("hypo"), QStringLiteral("coherence"), scores).ok());
    QVERIFY(m_project->setJudgeScores(QStringLiteral("hypo"), QStringLiteral("coherence"), scores).ok());
    QTRY_COMPARE(changed.count(), 1);
    QCOMPARE(model.score(0, ScoreModel::JudgeColumn), 3.0);

    // Another judge: a reset with its own columns.
    model.setJudge({});
    QCOMPARE(model.columnCount(), ScoreModel::FirstCriterionColumn);
    model.setJudge(QStringLiteral("hypo"));
    QCOMPARE(model.columnCount(), ScoreModel::FirstCriterionColumn + 3);
    QVERIFY(m_project->removeJudge(QStringLiteral("hypo")).ok());
    QTRY_COMPARE(model.columnCount(), ScoreModel::FirstCriterionColumn);
}

void TestHeatmapPane::filterModelTesterSplitAndSort()
{
    fixture::fillSynthetic(*m_project, 60, 4);
    ScoreFilterModel filter;
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(ScoreModel::of(m_project.get()));
    QCOMPARE(filter.rowCount(), 60);
    filter.setSplitFilter(SplitFilter::Train);
    QCOMPARE(filter.rowCount(), 30);
    filter.setSplitFilter(SplitFilter::Test);
    QCOMPARE(filter.rowCount(), 30);
    filter.sort(ScoreModel::HumanColumn, Qt::DescendingOrder);
    double last = 1e9;
    bool sawMissing = false;
    for (int r = 0; r < filter.rowCount(); ++r) {
        const QVariant v = filter.index(r, ScoreModel::HumanColumn).data(ScoreModel::ScoreRole);
        if (!v.isValid()) {
            sawMissing = true;
            continue;
        }
        QVERIFY2(!sawMissing, "a missing score sorted before a number");
        QVERIFY(v.toDouble() <= last);
        last = v.toDouble();
    }
    QVERIFY(sawMissing);
    filter.setSplitFilter(SplitFilter::All);
    QCOMPARE(filter.rowCount(), 60);
}

void TestHeatmapPane::criterionScoreModelTester()
{
    fixture::fillSynthetic(*m_project, 10, 3);
    CriterionScoreModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProject(m_project.get());
    QCOMPARE(model.rowCount(), 0);
    model.setCell(QStringLiteral("hypo"), QStringLiteral("item-0004"));
    QCOMPARE(model.rowCount(), 3);
    model.setCell(QStringLiteral("hypo"), QStringLiteral("item-0004"), QStringLiteral("h2"));
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex i = model.index(0, CriterionScoreModel::ScoreColumn);
    QCOMPARE(i.data(CriterionScoreModel::ReasoningRole).toString(), QStringLiteral("Reasoning of h2 on item-0004"));
    QVERIFY(i.data(CriterionScoreModel::RawRole).toString().startsWith(QStringLiteral("Step 1")));
}

void TestHeatmapPane::sharedModelIsOnePerProject()
{
    ScoreModel *a = ScoreModel::of(m_project.get());
    QVERIFY(a);
    QCOMPARE(ScoreModel::of(m_project.get()), a);
    QCOMPARE(a->parent(), m_project.get());
    QVERIFY(!ScoreModel::of(nullptr));
}

void TestHeatmapPane::headerClickSorts_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("clicks");
    QTest::addColumn<bool>("ascending");
    QTest::newRow("human once: ascending") << int(ScoreModel::HumanColumn) << 1 << true;
    QTest::newRow("judge twice: descending") << int(ScoreModel::JudgeColumn) << 2 << false;
    QTest::newRow("criterion h3 once") << int(ScoreModel::FirstCriterionColumn + 2) << 1 << true;
}

void TestHeatmapPane::headerClickSorts()
{
    QFETCH(int, column);
    QFETCH(int, clicks);
    QFETCH(bool, ascending);
    fixture::fillSynthetic(*m_project, 50, 4);
    HeatmapPane pane;
    pane.resize(1000, 700);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    QVERIFY(view);
    const QRect cell = view->visualRect(pane.filterModel()->index(0, column));
    const QPoint header(cell.center().x(), 20);
    QCOMPARE(view->headerColumnAt(header), column);
    for (int i = 0; i < clicks; ++i)
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, header);
    QAbstractItemModel *m = view->model();
    QList<double> values;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QVariant v = m->index(r, column).data(ScoreModel::ScoreRole);
        if (v.isValid())
            values << v.toDouble();
        else
            QVERIFY2(r >= m->rowCount() - 10, "missing scores belong at the bottom");
    }
    QVERIFY(values.size() > 30);
    for (int i = 1; i < values.size(); ++i)
        QVERIFY(ascending ? values[i - 1] <= values[i] : values[i - 1] >= values[i]);
}

void TestHeatmapPane::splitFilterCombo_data()
{
    QTest::addColumn<int>("comboIndex");
    QTest::addColumn<int>("rows");
    QTest::newRow("all") << 0 << 45;
    QTest::newRow("train") << 1 << 30;
    QTest::newRow("test") << 2 << 15;
}

void TestHeatmapPane::splitFilterCombo()
{
    QFETCH(int, comboIndex);
    QFETCH(int, rows);
    fixture::fillSynthetic(*m_project, 45, 3);
    HeatmapPane pane;
    pane.setProject(m_project.get());
    auto *split = pane.findChild<QComboBox *>(QStringLiteral("heatmapSplit"));
    QVERIFY(split);
    split->setCurrentIndex(comboIndex);
    QCOMPARE(pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"))->model()->rowCount(), rows);
    QVERIFY(pane.findChild<QLabel *>(QStringLiteral("heatmapSummary"))->text().contains(QString::number(rows)));
}

void TestHeatmapPane::clickCellShowsReasoningAndRaw()
{
    fixture::fillSynthetic(*m_project, 30, 4);
    HeatmapPane pane;
    pane.resize(1100, 700);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    const QModelIndex target = view->model()->index(3, ScoreModel::FirstCriterionColumn + 1); // item-0003 × h2
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(target).center());
    QCOMPARE(view->currentIndex(), target);
    auto *reasoning = pane.findChild<QTextBrowser *>(QStringLiteral("heatmapReasoning"));
    auto *raw = pane.findChild<QPlainTextEdit *>(QStringLiteral("heatmapRaw"));
    QCOMPARE(reasoning->toPlainText(), QStringLiteral("Reasoning of h2 on item-0003"));
    QVERIFY(raw->toPlainText().startsWith(QStringLiteral("Step 1: trait.")));
    QVERIFY(pane.findChild<QLabel *>(QStringLiteral("heatmapDetailTitle"))
                    ->text()
                    .contains(QStringLiteral("item-0003")));

    // The judge column lists every criterion's answer for the item.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(3, ScoreModel::JudgeColumn)).center());
    QCOMPARE(pane.findChild<QTableView *>(QStringLiteral("heatmapAnswers"))->model()->rowCount(), 4);

    // An unparseable answer shows its raw text, not a score.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(6, ScoreModel::FirstCriterionColumn)).center());
    QCOMPARE(raw->toPlainText(), QStringLiteral("I cannot rate this."));
}

void TestHeatmapPane::keyboardMovesAndActivates()
{
    fixture::fillSynthetic(*m_project, 30, 4);
    HeatmapPane pane;
    pane.resize(1000, 600);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Down); // the first key selects (0,0); the next ones move
    QTest::keyClick(view, Qt::Key_Down);
    QTest::keyClick(view, Qt::Key_Right);
    QTest::keyClick(view, Qt::Key_Right);
    QCOMPARE(view->currentIndex().row(), 2);
    QCOMPARE(view->currentIndex().column(), 2);
    QTest::keyClick(view, Qt::Key_Return);
    QCOMPARE(pane.findChild<QTextBrowser *>(QStringLiteral("heatmapReasoning"))->toPlainText(),
             QStringLiteral("Reasoning of h1 on item-0002"));
}

void TestHeatmapPane::residualColourMode()
{
    fixture::fillSynthetic(*m_project, 20, 3);
    HeatmapPane pane;
    pane.setProject(m_project.get());
    auto *colour = pane.findChild<QComboBox *>(QStringLiteral("heatmapColour"));
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    QCOMPARE(view->colourMode(), HeatmapView::ColourMode::Score);
    colour->setCurrentIndex(1);
    QCOMPARE(view->colourMode(), HeatmapView::ColourMode::Residual);
    // Diverging scale: zero is neutral, the two signs get different hues.
    const QColor zero = HeatmapView::residualColour(0, 2);
    QCOMPARE(zero.red(), zero.blue());
    QVERIFY(HeatmapView::residualColour(2, 2).red() > HeatmapView::residualColour(2, 2).blue());
    QVERIFY(HeatmapView::residualColour(-2, 2).blue() > HeatmapView::residualColour(-2, 2).red());
    QVERIFY(HeatmapView::scoreColour(5, 1, 5) != HeatmapView::scoreColour(1, 1, 5));
}

void TestHeatmapPane::rowHeadersShowIdGroupAndSystem()
{
    // Rows were labelled by id alone ("0, 1, 2 …" for SummEval): now id, group and system, the
    // long group elided and the tooltip in full.
    fixture::fillSynthetic(*m_project, 5, 3);
    const QString doc = QStringLiteral("dm-test-8764fb95bfad8ee849274873a92fb8d6b400eee2");
    QVERIFY(m_project
                    ->addItems({Item{QStringLiteral("7"),
                                     doc,
                                     QStringLiteral("M11"),
                                     QStringLiteral("s"),
                                     QStringLiteral("o"),
                                     QString(),
                                     {},
                                     0}})
                    .ok());
    HeatmapPane pane;
    pane.resize(1280, 600);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    QTRY_COMPARE(view->model()->rowCount(), 6);
    int row = -1;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, 0).data(ScoreModel::ItemIdRole).toString() == QLatin1String("7"))
            row = r;
    QVERIFY(row >= 0);
    const int first = row == 0 ? 1 : 0;
    const QString firstId = view->model()->index(first, 0).data(ScoreModel::ItemIdRole).toString();
    const QStringList plain = view->rowHeaderTexts(first);
    QCOMPARE(plain.size(), 3);
    QCOMPARE(plain.at(0), firstId);
    QCOMPARE(plain.at(1), view->model()->index(first, 0).data(ScoreModel::GroupRole).toString());
    QCOMPARE(plain.at(2), view->model()->index(first, 0).data(ScoreModel::SystemRole).toString());

    const QStringList texts = view->rowHeaderTexts(row);
    QCOMPARE(texts.size(), 3);
    QCOMPARE(texts.at(0), QStringLiteral("7"));
    QVERIFY2(texts.at(1).startsWith(QLatin1String("dm-test-")) && texts.at(1).endsWith(QChar(0x2026)),
             qPrintable(texts.at(1)));
    QCOMPARE(texts.at(2), QStringLiteral("M11"));
    const QFontMetrics fm(view->font());
    QVERIFY(view->rowHeaderWidth() < fm.horizontalAdvance(doc) + fm.horizontalAdvance(QStringLiteral("7 M11")));
    QVERIFY(view->rowHeaderWidth() > fm.horizontalAdvance(texts.join(QStringLiteral("  "))));

    const QString tip = QStringLiteral("Item 7\nGroup: %1\nSystem: M11").arg(doc);
    QCOMPARE(view->rowToolTip(row), tip);
    const QPoint pos(12, view->visualRect(view->model()->index(row, 0)).center().y());
    QHelpEvent help(QEvent::ToolTip, pos, view->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view->viewport(), &help);
    // Shown as plain text: escaped, isolated against right-to-left overrides (ui/PlainText.h).
    QTRY_COMPARE(QToolTip::text(), plain::toolTip(tip));
}

void TestHeatmapPane::screenshot()
{
    // A SummEval slice with HypoEval's published coherence hypotheses as criteria; the
    // criterion scores are the fixture's seeded synthetic answers.
    fixture::fillSynthetic(*m_project, 200, 5);
    HeatmapPane pane;
    pane.resize(1280, 760);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(2, ScoreModel::FirstCriterionColumn + 1)).center());
    const QImage shot = pane.grab().toImage();
    QVERIFY(!shot.isNull());
    const QString dir = qEnvironmentVariable("RUBRIC_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        QVERIFY(shot.save(dir + QStringLiteral("/heatmap.png")));
        pane.findChild<QComboBox *>(QStringLiteral("heatmapColour"))->setCurrentIndex(1);
        QVERIFY(pane.grab().toImage().save(dir + QStringLiteral("/heatmap-residual.png")));
    }
}

void TestHeatmapPane::benchPaint1600x50_data()
{
    QTest::addColumn<QSize>("cell");
    QTest::addColumn<QSize>("viewport");
    QTest::newRow("default cells, 1600x1000 window") << QSize(44, 20) << QSize(1600, 1000);
    // Zoomed out so that all 80 000 cells are on screen at once (4 × 1 px cells).
    QTest::newRow("overview, every cell visible") << QSize(4, 1) << QSize(50 * 4 + 130, 1600 + 120);
}

void TestHeatmapPane::benchPaint1600x50()
{
    QFETCH(QSize, cell);
    QFETCH(QSize, viewport);
    fixture::fillSynthetic(*m_project, 1600, 48); // 48 criteria + human + judge = 50 columns
    HeatmapPane pane;
    pane.setProject(m_project.get());
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    QCOMPARE(view->model()->rowCount(), 1600);
    QCOMPARE(view->model()->columnCount(), 50);
    view->setParent(nullptr);
    view->setCellSize(cell);
    view->resize(viewport);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view));
    QImage target(view->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    QBENCHMARK
    {
        view->viewport()->render(&target);
    }
    view->setParent(&pane);
}

QTEST_MAIN(TestHeatmapPane)
#include "TestHeatmapPane.moc"
