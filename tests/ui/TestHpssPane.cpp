// The HPSS pane with real widgets (offscreen) on a SummEval project whose HPSS judge runs against
// the loopback fake endpoint (the synthetic judge) through the studio's RunController: the search
// view follows the run while it goes, the leaderboard lists every evaluated strategy with its
// ledger calls and sorts, "Send to test split" runs a strategy on the test split with only the
// test items sent, the advantage bars are the search's tables, and the prompt inspector shows the
// judge's prompt with every factor's snippet highlighted, diffs two strategies and never reads
// dataset text as HTML.

#include "RunFixture.h"
#include "UiTestProject.h"
#include "methods/hpss/HpssAdvantageView.h"
#include "methods/hpss/HpssJudgeView.h"
#include "methods/hpss/HpssLeaderboard.h"
#include "methods/hpss/HpssLeaderboardModel.h"
#include "methods/hpss/HpssPane.h"
#include "methods/hpss/HpssPromptInspector.h"
#include "methods/hpss/HpssSearchView.h"
#include "models/RunController.h"
#include "models/ScoreModel.h"
#include "runs/RunConfig.h"
#include "store/CallStore.h"
#include "store/RubricStore.h"

#include <QAbstractItemModelTester>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QScatterSeries>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextEdit>
#include <QTreeWidget>
#include <QtTest>

using namespace rubric;
using namespace rubric::hpss;
using namespace rubric::test;

namespace {

constexpr int kBudget = 25;
constexpr int kTestItems = 10;
constexpr int kValidation = 30;

} // namespace

class TestHpssPane : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void searchViewFollowsTheRun();
    void leaderboardListsAndSorts();
    void advantageBarsAreTheSearchTables();
    void promptInspectorHighlightsAndDiffs();
    void datasetTextIsPlainText();
    void sendToTestSplitScoresTheStrategy();
    void judgesWithoutSearchAreListedAndDescribed();
    void cleanupTestCase();

private:
    RunSpec spec(const QString &judge) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    fixture::RunProject m_fx;
    std::unique_ptr<SyntheticJudge> m_judge;
    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<RunController> m_controller;
    std::unique_ptr<HpssPane> m_pane;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

RunSpec TestHpssPane::spec(const QString &judge) const
{
    RunSpec s;
    s.judge = judge;
    s.method = QStringLiteral("hpss");
    s.aspect = QStringLiteral("coherence");
    s.evaluator.name = QStringLiteral("fake");
    s.evaluator.baseUrl = m_server->baseUrl();
    s.evaluator.model = QStringLiteral("synthetic");
    s.evaluator.concurrency = 8;
    s.evaluator.maxRetries = 1;
    s.evaluator.pricePerMillionIn = 1.0;
    s.evaluator.pricePerMillionOut = 2.0;
    s.settings.insert(QStringLiteral("budget"), QString::number(kBudget));
    return s;
}

void TestHpssPane::initTestCase()
{
    testing::isolateSettings();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_fx = fixture::makeRunProject(m_dir->filePath(QStringLiteral("hpss.rubric")), kTestItems);
    m_judge = std::make_unique<SyntheticJudge>(m_fx.humanByOutput);
    m_server = std::make_unique<FakeLlmServer>();
    m_server->setJudge([this](const QJsonObject &body) { return m_judge->answer(body); });
    QVERIFY(m_server->listen());
    m_controller = std::make_unique<RunController>();
    m_controller->setProject(m_fx.project.get());
    m_pane = std::make_unique<HpssPane>();
    m_pane->setProject(m_fx.project.get());
    m_pane->setRunController(m_controller.get());
    m_pane->setRefreshInterval(20);
    m_pane->resize(1300, 850);
    m_pane->show();
    // The leaderboard model is checked while rows arrive during the run and on resets.
    m_tester = std::make_unique<QAbstractItemModelTester>(m_pane->leaderboard()->model(),
                                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TestHpssPane::cleanupTestCase()
{
    m_tester.reset();
    m_pane.reset();
    m_controller->shutdown();
    m_controller.reset();
}

void TestHpssPane::searchViewFollowsTheRun()
{
    QVERIFY(m_pane->currentJudge().isEmpty());
    QVERIFY(m_pane->messageText().contains(QLatin1String("no HPSS judge")));
    HpssSearchView *view = m_pane->searchView();
    // The initialisation band's boundary lines belong to the view (a QAreaSeries does not own them; LSan found them
    // leaked).
    for (QAbstractSeries *s : view->chart()->series())
        if (auto *area = qobject_cast<QAreaSeries *>(s)) {
            QCOMPARE(area->upperSeries()->parent(), view);
            QCOMPARE(area->lowerSeries()->parent(), view);
        }
    // What the chart showed while the run went: the number of dots at each of its redraws.
    QSet<int> seen;
    QTimer poll;
    connect(&poll, &QTimer::timeout, this, [&] { seen.insert(int(view->evaluatedSeries()->count())); });
    poll.start(5);
    QSignalSpy finished(m_controller.get(), &RunController::finished);
    QVERIFY(m_controller->start(spec(QStringLiteral("h"))));
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    poll.stop();
    seen.insert(int(view->evaluatedSeries()->count()));

    QCOMPARE(m_pane->currentJudge(), QStringLiteral("h"));
    int between = 0;
    for (int n : std::as_const(seen))
        between += n > 0 && n < kBudget ? 1 : 0;
    QVERIFY2(between >= 3, qPrintable(QStringLiteral("intermediate states seen: %1").arg(between)));

    auto jv = JudgeView::load(m_fx.project.get(), QStringLiteral("h"), &RunConfig::load);
    QVERIFY2(jv, qPrintable(jv ? QString() : jv.errorString()));
    const auto &records = jv->search().evaluated();
    QCOMPARE(records.size(), kBudget);
    QCOMPARE(view->evaluatedSeries()->count(), kBudget);
    QCOMPARE(view->bestSeries()->count(), kBudget);
    double best = -2;
    for (int i = 0; i < kBudget; ++i) {
        best = std::max(best, records[i].spearman);
        QCOMPARE(view->evaluatedSeries()->at(i), QPointF(i + 1, records[i].spearman));
        QCOMPARE(view->bestSeries()->at(i), QPointF(i + 1, best));
    }
    QCOMPARE(best, jv->search().best()->spearman);
    // The 21 initialisation steps shaded: origin + its 20 neighbours.
    QCOMPARE(jv->initCount(), 21);
    QVERIFY(view->initArea()->isVisible());
    QCOMPARE(view->initArea()->upperSeries()->at(1).x(), 21.5);
    // The population, best first, and the step log with parent, changed factor and move.
    QCOMPARE(view->populationList()->count(), jv->search().population().size());
    QCOMPARE(view->populationList()->item(0)->data(Qt::UserRole).toString(),
             jv->search().population().first().format());
    QTreeWidget *log = view->stepLog();
    QCOMPARE(log->topLevelItemCount(), kBudget);
    QCOMPARE(log->topLevelItem(0)->text(1), QStringLiteral("init"));
    QVERIFY(log->topLevelItem(0)->text(5).isEmpty()); // the origin has no parent
    QSet<QString> moves;
    for (int i = 0; i < kBudget; ++i) {
        const SearchProposal &p = records[i].proposal;
        QTreeWidgetItem *row = log->topLevelItem(i);
        moves.insert(row->text(1));
        QCOMPARE(row->text(4), p.strategy.format());
        if (p.changedFactor >= 0) {
            const Factor f = factorAt(p.changedFactor);
            QCOMPARE(row->text(2),
                     QStringLiteral("%1: %2 → %3").arg(factorName(f), p.parent->valueName(f), p.strategy.valueName(f)));
            QCOMPARE(row->text(5), p.parent->format());
        }
    }
    QVERIFY(moves.contains(QStringLiteral("init")));
    QVERIFY(moves.contains(QStringLiteral("explore")) || moves.contains(QStringLiteral("exploit")));
    QVERIFY(view->statusText().contains(QStringLiteral("25 of 25")));
    // Issue 32: the metric and its level are named (SummEval: summary-level, paper Eq. 8).
    QVERIFY2(view->statusText().contains(QStringLiteral("metric: Spearman ρ, summary-level")),
             qPrintable(view->statusText()));
}

void TestHpssPane::leaderboardListsAndSorts()
{
    HpssLeaderboard *board = m_pane->leaderboard();
    HpssLeaderboardModel *model = board->model();
    QSortFilterProxyModel *proxy = board->proxy();
    QCOMPARE(model->rowCount(), kBudget);
    QCOMPARE(model->columnCount(), 6 + kFactorCount);
    QCOMPARE(model->headerData(HpssLeaderboardModel::SpearmanColumn, Qt::Horizontal).toString(),
             QStringLiteral("Validation Spearman ρ (summary-level)"));
    auto jv = JudgeView::load(m_fx.project.get(), QStringLiteral("h"), &RunConfig::load);
    QVERIFY(jv);
    // Sorted by validation ρ, best first.
    QCOMPARE(proxy->index(0, HpssLeaderboardModel::SpearmanColumn).data(HpssLeaderboardModel::SortRole).toDouble(),
             jv->search().best()->spearman);
    for (int r = 1; r < kBudget; ++r)
        QVERIFY(proxy->index(r - 1, HpssLeaderboardModel::SpearmanColumn)
                        .data(HpssLeaderboardModel::SortRole)
                        .toDouble()
                >= proxy->index(r, HpssLeaderboardModel::SpearmanColumn)
                           .data(HpssLeaderboardModel::SortRole)
                           .toDouble());
    // The eight factor columns, Δ to the origin, every strategy's 30 validation calls from the ledger.
    const double origin = jv->originSpearman();
    int calls = 0;
    double cost = 0;
    for (int r = 0; r < kBudget; ++r) {
        const SearchRecord &rec = jv->search().evaluated()[r];
        for (int i = 0; i < kFactorCount; ++i)
            QCOMPARE(model->index(r, HpssLeaderboardModel::FirstFactorColumn + i).data().toString(),
                     rec.proposal.strategy.valueName(factorAt(i)));
        QCOMPARE(model->index(r, HpssLeaderboardModel::DeltaColumn).data(HpssLeaderboardModel::SortRole).toDouble(),
                 rec.spearman - origin);
        QCOMPARE(model->index(r, HpssLeaderboardModel::CallsColumn).data().toInt(), kValidation);
        const double c
                = model->index(r, HpssLeaderboardModel::CostColumn).data(HpssLeaderboardModel::SortRole).toDouble();
        QVERIFY(c > 0);
        calls += kValidation;
        cost += c;
    }
    QCOMPARE(model->index(0, HpssLeaderboardModel::DeltaColumn).data(HpssLeaderboardModel::SortRole).toDouble(), 0.0);
    // The ledger holds those calls and more (auxiliaries, the winner on the test split).
    auto totals = CallStore(m_fx.project.get()).totals(QStringLiteral("h"));
    QVERIFY(totals);
    QCOMPARE(calls, kBudget * kValidation);
    QVERIFY(totals->calls > calls);
    QVERIFY(cost < totals->cost);
    // Sorting by another column: the step, descending.
    board->table()->sortByColumn(HpssLeaderboardModel::StepColumn, Qt::DescendingOrder);
    QCOMPARE(proxy->index(0, HpssLeaderboardModel::StepColumn).data().toInt(), kBudget);
    QCOMPARE(proxy->index(kBudget - 1, HpssLeaderboardModel::StepColumn).data().toInt(), 1);
    board->table()->sortByColumn(HpssLeaderboardModel::SpearmanColumn, Qt::DescendingOrder);
    // "Show prompt" opens the selected strategy in the inspector.
    auto *send = board->findChild<QPushButton *>(QStringLiteral("hpssSendToTest"));
    QVERIFY(!send->isEnabled());
    QVERIFY(board->selectStrategy(jv->search().evaluated()[3].proposal.strategy));
    QVERIFY(send->isEnabled());
    board->findChild<QPushButton *>(QStringLiteral("hpssShowPrompt"))->click();
    QCOMPARE(m_pane->tabs()->currentWidget(), m_pane->promptInspector());
    QCOMPARE(*m_pane->promptInspector()->strategy(), jv->search().evaluated()[3].proposal.strategy);
}

void TestHpssPane::advantageBarsAreTheSearchTables()
{
    auto jv = JudgeView::load(m_fx.project.get(), QStringLiteral("h"), &RunConfig::load);
    QVERIFY(jv);
    const HpssSearch &search = jv->search();
    bool someAdvantage = false;
    for (int i = 0; i < kFactorCount; ++i) {
        const Factor f = factorAt(i);
        QChart *chart = m_pane->advantageView()->chart(i);
        QCOMPARE(chart->title(), factorName(f));
        QCOMPARE(chart->series().size(), 1);
        auto *bars = qobject_cast<QBarSeries *>(chart->series().first());
        QVERIFY(bars);
        // Issue 32: the paper's figure, the advantage per value with its count n on the value's label.
        QCOMPARE(bars->count(), 1);
        const QVector<int> values = search.params().space.enabledValues(f);
        QCOMPARE(bars->barSets()[0]->count(), values.size());
        auto *axis = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Horizontal).first());
        QVERIFY(axis);
        for (int k = 0; k < values.size(); ++k) {
            QCOMPARE(bars->barSets()[0]->at(k), search.advantage(f, values[k]));
            QCOMPARE(axis->categories().at(k), factorValues(f).at(values[k]));
            QCOMPARE(axis->titleText().section(QLatin1String(": "), 1).split(QStringLiteral(" · ")).at(k),
                     QString::number(int(search.explorationCount(f, values[k]))));
            someAdvantage = someAdvantage || search.advantage(f, values[k]) != 0;
        }
    }
    QVERIFY(someAdvantage);
}

void TestHpssPane::promptInspectorHighlightsAndDiffs()
{
    HpssPromptInspector *inspector = m_pane->promptInspector();
    auto jv = JudgeView::load(m_fx.project.get(), QStringLiteral("h"), &RunConfig::load);
    QVERIFY(jv);
    const Item item = jv->builder().validation().at(4);
    const PromptStrategy origin = PromptStrategy::mtBenchOrigin();
    inspector->setStrategy(origin);
    QVERIFY(inspector->setItem(item.id));
    QVERIFY(!inspector->setItem(QStringLiteral("no-such-item")));
    auto expected = jv->render(origin, item.id);
    QVERIFY(expected);
    QCOMPARE(inspector->promptText(), expected->text);
    QVERIFY(inspector->promptText().contains(item.output));
    QVERIFY(!inspector->spans().isEmpty());
    QSet<Factor> highlighted;
    for (const PromptSpan &span : inspector->spans()) {
        const int mid = span.start + span.length / 2;
        QCOMPARE(inspector->toolTipAt(mid),
                 QStringLiteral("%1:%2").arg(factorName(span.factor), origin.valueName(span.factor)));
        QCOMPARE(inspector->backgroundAt(mid), HpssPromptInspector::factorColor(span.factor));
        highlighted.insert(span.factor);
    }
    QVERIFY(highlighted.contains(Factor::Scale));
    QVERIFY(highlighted.contains(Factor::Cot));
    QVERIFY(highlighted.contains(Factor::Criteria));
    // Outside the snippets: the item's own text, no highlight.
    const int at = inspector->promptText().indexOf(item.output);
    QVERIFY(!inspector->backgroundAt(at + 1).isValid());
    QVERIFY(inspector->toolTipAt(at + 1).isEmpty());
    // Changing a factor in its combo renders that strategy.
    auto *cot = inspector->findChild<QComboBox *>(QStringLiteral("hpssInspectorFactor_cot"));
    cot->setCurrentIndex(int(factorValues(Factor::Cot).indexOf(QStringLiteral("suffix"))));
    const PromptStrategy suffix = *origin.with(Factor::Cot, QStringLiteral("suffix"));
    QCOMPARE(*inspector->strategy(), suffix);
    QCOMPARE(inspector->promptText(), jv->render(suffix, item.id)->text);
    // The diff against the origin: the CoT sentence changes, the rest is shared.
    inspector->setCompareStrategy(origin);
    const QStringList diff = inspector->diffText().split(QLatin1Char('\n'));
    QStringList removed, added;
    for (const QString &line : diff) {
        if (line.startsWith(QLatin1String("- ")))
            removed.append(line);
        else if (line.startsWith(QLatin1String("+ ")))
            added.append(line);
        else
            QVERIFY2(line.startsWith(QLatin1String("  ")), qPrintable(line));
    }
    QCOMPARE(removed.size(), 1);
    QCOMPARE(added.size(), 1);
    QVERIFY(removed.first().contains(QLatin1String("You must rate the summary")));
    QVERIFY(added.first().contains(QLatin1String("Begin your evaluation")));
    QVERIFY(inspector->errorText().isEmpty());
    // A text the judge never made: the reason, naming what is missing. (The judge made every text
    // the validation items can need before its search; an item added since has none.)
    Item unseen;
    unseen.id = QStringLiteral("unseen");
    unseen.source = QStringLiteral("An article no run of the judge has seen.");
    unseen.output = QStringLiteral("A summary of it.");
    unseen.position = 1001;
    QVERIFY(m_fx.project->addItems({unseen}));
    m_pane->reload();
    inspector = m_pane->promptInspector();
    const PromptStrategy lacking = *origin.with(Factor::Reference, QStringLiteral("self"));
    QVERIFY(!missingAux(lacking, {unseen}, jv->aux()).empty());
    QVERIFY(inspector->setItem(unseen.id));
    inspector->setStrategy(lacking);
    QVERIFY(inspector->promptText().isEmpty());
    QVERIFY2(inspector->errorText().contains(lacking.format()), qPrintable(inspector->errorText()));
}

void TestHpssPane::datasetTextIsPlainText()
{
    Item evil;
    evil.id = QStringLiteral("evil");
    evil.source = QStringLiteral("<h1>Headline</h1><img src=x onerror=alert(1)>");
    evil.output = QStringLiteral("<b>bold</b> & <script>alert('x')</script>");
    evil.position = 1000;
    QVERIFY(m_fx.project->addItems({evil}));
    m_pane->reload();
    HpssPromptInspector *inspector = m_pane->promptInspector();
    inspector->setStrategy(PromptStrategy::mtBenchOrigin());
    QVERIFY(inspector->setItem(QStringLiteral("evil")));
    QVERIFY(inspector->promptText().contains(evil.source));
    QVERIFY(inspector->promptText().contains(evil.output));
    auto *edit = inspector->findChild<QTextEdit *>(QStringLiteral("hpssInspectorPrompt"));
    const QString html = edit->toHtml();
    QVERIFY(html.contains(QLatin1String("&lt;b&gt;bold&lt;/b&gt;")));
    QVERIFY(!html.contains(QLatin1String("<b>bold")));
    QVERIFY(!html.contains(QLatin1String("<img")));
}

void TestHpssPane::sendToTestSplitScoresTheStrategy()
{
    HpssLeaderboard *board = m_pane->leaderboard();
    auto jv = JudgeView::load(m_fx.project.get(), QStringLiteral("h"), &RunConfig::load);
    QVERIFY(jv);
    // The second best strategy: never scored on the test split so far.
    const QModelIndex second = board->proxy()->index(1, 0);
    const PromptStrategy strategy = board->model()->strategy(board->proxy()->mapToSource(second).row());
    QVERIFY(strategy != jv->search().best()->proposal.strategy);
    double rho = 0;
    for (const SearchRecord &r : jv->search().evaluated())
        if (r.proposal.strategy == strategy)
            rho = r.spearman;
    QVERIFY(board->selectStrategy(strategy));
    QSignalSpy requested(m_pane.get(), &HpssPane::testRunRequested);
    board->findChild<QPushButton *>(QStringLiteral("hpssSendToTest"))->click();
    QCOMPARE(requested.size(), 1);
    const RunSpec s = requested.first().first().value<RunSpec>();
    QCOMPARE(s.judge, QStringLiteral("h-test-1"));
    QCOMPARE(s.method, QStringLiteral("hpss"));
    QCOMPARE(s.items, SplitFilter::Test);
    QCOMPARE(s.settings.value(QStringLiteral("origin")).toString(), strategy.format());
    QCOMPARE(s.evaluator.baseUrl, m_server->baseUrl());

    const int before = m_server->requestCount();
    QSignalSpy finished(m_controller.get(), &RunController::finished);
    QVERIFY(m_controller->start(s));
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    // Its validation prompts and auxiliaries are the judge's (from the cache): only the test items go
    // out, and at most the strategy's reference / questions for the test sources no validation item shares.
    QSet<QString> trainSources, testOnly;
    for (const QString &id : m_fx.project->itemIds(SplitFilter::Train))
        trainSources.insert(m_fx.project->item(id)->source);
    for (const QString &id : m_fx.project->itemIds(SplitFilter::Test))
        if (const QString src = m_fx.project->item(id)->source; !trainSources.contains(src))
            testOnly.insert(src);
    const int perSource = (strategy.valueName(Factor::Reference) == QLatin1String("self") ? 1 : 0)
                          + (strategy.valueName(Factor::Metrics) == QLatin1String("on") ? 1 : 0);
    // (Those the search's own winner made for the same sources come from the cache as well.)
    const int sent = m_server->requestCount() - before;
    QVERIFY2(sent >= kTestItems && sent <= kTestItems + perSource * int(testOnly.size()),
             qPrintable(QStringLiteral("%1 sent").arg(sent)));
    auto rubric = RubricStore(m_fx.project.get()).load(QStringLiteral("h-test-1"));
    QVERIFY(rubric);
    const Criterion *root = rubric->find(QStringLiteral("aspect"));
    QVERIFY(root);
    QCOMPARE(*PromptStrategy::fromVariant(root->stats.value(QStringLiteral("strategy"))), strategy);
    QCOMPARE(root->stats.value(QStringLiteral("validation_spearman")).toDouble(), rho);
    QCOMPARE(root->stats.value(QStringLiteral("test_n")).toInt(), kTestItems);
    // The new judge is listed; the next send picks the next free name.
    QVERIFY(m_pane->showJudge(QStringLiteral("h-test-1")));
    QCOMPARE(m_pane->leaderboard()->model()->rowCount(), 1);
    auto again = testSplitSpec(m_fx.project.get(), QStringLiteral("h"), strategy, &RunConfig::load);
    QVERIFY(again);
    QCOMPARE(again->judge, QStringLiteral("h-test-2"));
    QVERIFY(!m_pane->showJudge(QStringLiteral("no-such-judge")));
}

// Issue 32: a fixed-prompt judge (CloserLook) and an APE-style judge (prompt texts) are HPSS judges
// without a strategy search: the pane lists them, follows the studio's selected judge to them (as
// `--judge J` selects it) and says what each is with its figures, its strategy views empty.
void TestHpssPane::judgesWithoutSearchAreListedAndDescribed()
{
    for (const auto &[judge, key, value] :
         {std::tuple{QStringLiteral("cl"), QStringLiteral("prompt"), QStringLiteral("closerlook")},
          std::tuple{QStringLiteral("ape"), QStringLiteral("search"), QStringLiteral("ape")}}) {
        RunSpec s = spec(judge);
        s.settings.insert(key, value);
        if (key == QLatin1String("search")) // APE-style: the base prompt and 3 variations
            s.settings.insert(QStringLiteral("budget"), QStringLiteral("4"));
        QSignalSpy finished(m_controller.get(), &RunController::finished);
        QVERIFY(m_controller->start(s));
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    }
    auto *combo = m_pane->findChild<QComboBox *>(QStringLiteral("hpssJudge"));
    QVERIFY(combo->findText(QStringLiteral("cl")) >= 0);
    QVERIFY(combo->findText(QStringLiteral("ape")) >= 0);
    auto rubric = RubricStore(m_fx.project.get()).load(QStringLiteral("cl"));
    QVERIFY(rubric);
    const double test = rubric->find(QStringLiteral("aspect"))->stats.value(QStringLiteral("test_spearman")).toDouble();

    ScoreModel::of(m_fx.project.get())->setJudge(QStringLiteral("cl"));
    QCOMPARE(m_pane->currentJudge(), QStringLiteral("cl"));
    QVERIFY2(
            m_pane->messageText().contains(QLatin1String("fixed prompt, closerlook (hpss_closerlook/summeval_coh.txt)"))
                    && m_pane->messageText().contains(QString::number(test, 'f', 3)),
            qPrintable(m_pane->messageText()));
    QCOMPARE(m_pane->leaderboard()->model()->rowCount(), 0);

    ScoreModel::of(m_fx.project.get())->setJudge(QStringLiteral("ape"));
    QCOMPARE(m_pane->currentJudge(), QStringLiteral("ape"));
    QVERIFY2(m_pane->messageText().contains(QLatin1String("APE-style search over free-text prompts (4 evaluated, 3 of "
                                                          "its budget spent)")),
             qPrintable(m_pane->messageText()));
    QCOMPARE(m_pane->leaderboard()->model()->rowCount(), 0);

    // Back to the search judge: its views again, no message.
    ScoreModel::of(m_fx.project.get())->setJudge(QStringLiteral("h"));
    QCOMPARE(m_pane->currentJudge(), QStringLiteral("h"));
    QVERIFY(m_pane->messageText().isEmpty());
    QVERIFY(m_pane->leaderboard()->model()->rowCount() > 0);
}

QTEST_MAIN(TestHpssPane)
#include "TestHpssPane.moc"
