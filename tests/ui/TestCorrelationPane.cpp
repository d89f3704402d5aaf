#include "ChartLayout.h"
#include "ProjectTestAccess.h"
#include "ScoreFixture.h"
#include "models/CorrelationModel.h"
#include "models/ScoreModel.h"
#include "panes/CorrelationPane.h"
#include "stats/ProjectData.h"

#include <QAbstractItemModelTester>
#include <QChartView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestCorrelationPane : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void modelTester();
    void pearsonEqualsCore_data();
    void pearsonEqualsCore();
    void pearsonEqualsCli();
    void figuresEqualTheCli_data();
    void figuresEqualTheCli();
    void newSettingSupersedesTheRunningWork();
    void constantGroupsRuleIsChosenAndNamed_data();
    void constantGroupsRuleIsChosenAndNamed();
    void unreadableProjectIsShown();
    void unreadableSplitIsNotAllItems();
    void severalJudgesSideBySide();
    void criterionBarsEqualCore();
    void hoverNamesTheItem();
    void sharesTheHeatmapScoreModel();
    void screenshot();
    void stopBootstrapDropsTheResult();
    void destroyingStopsTheBootstrap_data();
    void destroyingStopsTheBootstrap();

private:
    void addSecondJudge();
    /// Waits for the table's coefficients (computed on a worker).
    static bool waitCoefficients(const CorrelationModel *model);
    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<Project> m_project;
};

void TestCorrelationPane::init()
{
    static int n = 0;
    m_path = m_dir.filePath(QStringLiteral("c%1.rubric").arg(++n));
    m_project = fixture::openProject(m_path);
    fixture::fillSynthetic(*m_project, 160, 5);
}

void TestCorrelationPane::cleanup()
{
    m_project.reset();
}

void TestCorrelationPane::addSecondJudge()
{
    // A weaker judge: the human score mirrored for every third item.
    QHash<QString, double> scores;
    const auto human = m_project->humanScores(QStringLiteral("coherence"));
    for (auto it = human.begin(); it != human.end(); ++it)
        scores.insert(it.key(), (it.key().right(1).toInt() % 3 == 0) ? 6 - it.value() : it.value());
    QVERIFY(m_project->ensureJudge(QStringLiteral("geval"), QStringLiteral("geval")).ok());
    QVERIFY(m_project->setJudgeScores(QStringLiteral("geval"), QStringLiteral("coherence"), scores).ok());
}

bool TestCorrelationPane::waitCoefficients(const CorrelationModel *model)
{
    return QTest::qWaitFor([model] { return !model->coefficientsPending(); }, 30000);
}

void TestCorrelationPane::modelTester()
{
    CorrelationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setBootstrap(50);
    model.setProject(m_project.get());
    model.setAspect(QStringLiteral("coherence"));
    QCOMPARE(model.rowCount(), 1);
    QSignalSpy ready(&model, &CorrelationModel::intervalsReady);
    QVERIFY(ready.wait(20000));
    QVERIFY(model.index(0, CorrelationModel::IntervalColumn).data(CorrelationModel::IntervalLowRole).isValid());
    addSecondJudge();
    QTRY_COMPARE(model.rowCount(), 2);
    model.setLevel(stats::Level::System);
    model.setSplit(SplitFilter::All);
    QCOMPARE(model.rowCount(), 2);
    model.setAspect(QStringLiteral("nothing"));
    QCOMPARE(model.rowCount(), 0);
}

void TestCorrelationPane::pearsonEqualsCore_data()
{
    QTest::addColumn<int>("levelIndex");
    QTest::addColumn<int>("splitIndex");
    QTest::newRow("dataset, test") << 0 << 2;
    QTest::newRow("group, test") << 1 << 2;
    QTest::newRow("system, all") << 2 << 0;
    QTest::newRow("dataset, train") << 0 << 1;
}

void TestCorrelationPane::pearsonEqualsCore()
{
    QFETCH(int, levelIndex);
    QFETCH(int, splitIndex);
    CorrelationPane pane;
    pane.setProject(m_project.get());
    auto *level = pane.findChild<QComboBox *>(QStringLiteral("correlationLevel"));
    auto *split = pane.findChild<QComboBox *>(QStringLiteral("correlationSplit"));
    QCOMPARE(split->currentIndex(), 2); // the project has a split: test by default, like the CLI
    level->setCurrentIndex(levelIndex);
    split->setCurrentIndex(splitIndex);
    auto *table = pane.findChild<QTableView *>(QStringLiteral("correlationJudges"));
    const QAbstractItemModel *m = table->model();
    QCOMPARE(m->rowCount(), 1);
    QVERIFY(waitCoefficients(pane.correlationModel()));
    const auto items = stats::gatherScores(*m_project, QStringLiteral("coherence"), QStringLiteral("hypo"),
                                           SplitFilter(split->currentData().toInt()));
    QVERIFY(items.ok());
    const auto c = stats::correlateAtLevel(*items, stats::Level(level->currentData().toInt()));
    QVERIFY(!std::isnan(c.pearson));
    QCOMPARE(m->index(0, CorrelationModel::PearsonColumn).data().toString(), QString::number(c.pearson, 'f', 4));
    QCOMPARE(m->index(0, CorrelationModel::SpearmanColumn).data().toString(), QString::number(c.spearman, 'f', 4));
    QCOMPARE(m->index(0, CorrelationModel::KendallColumn).data().toString(), QString::number(c.kendall, 'f', 4));
    QCOMPARE(m->index(0, CorrelationModel::NColumn).data().toInt(), c.n);
}

void TestCorrelationPane::constantGroupsRuleIsChosenAndNamed_data()
{
    QTest::addColumn<int>("rule");
    QTest::addColumn<QString>("named");
    QTest::newRow("skip (default)") << int(stats::ConstantGroups::Skip) << QStringLiteral("G-Eval/UniEval");
    QTest::newRow("count as 1") << int(stats::ConstantGroups::One) << QStringLiteral("PairS/HypoEval");
}

void TestCorrelationPane::constantGroupsRuleIsChosenAndNamed()
{
    QFETCH(int, rule);
    QFETCH(QString, named);
    // doc-5 (items 80–95, test split): every person's score the same.
    QVector<Annotation> same;
    for (int i = 80; i < 96; ++i)
        same.append({QStringLiteral("item-%1").arg(i, 4, 10, QLatin1Char('0')), QStringLiteral("coherence"),
                     QStringLiteral("alice"), 3.0, QStringLiteral(""), QDateTime::currentDateTimeUtc()});
    QVERIFY(m_project->addAnnotations(same));
    CorrelationPane pane;
    pane.setBootstrap(0);
    pane.setProject(m_project.get());
    auto *level = pane.findChild<QComboBox *>(QStringLiteral("correlationLevel"));
    auto *rules = pane.findChild<QComboBox *>(QStringLiteral("correlationConstantGroups"));
    auto *convention = pane.findChild<QLabel *>(QStringLiteral("correlationConvention"));
    QVERIFY(rules && convention);
    QCOMPARE(rules->currentData().toInt(), int(stats::ConstantGroups::Skip));
    QVERIFY(!rules->isEnabled()); // dataset level: no groups
    level->setCurrentIndex(level->findData(int(stats::Level::Group)));
    QVERIFY(rules->isEnabled());
    rules->setCurrentIndex(rules->findData(rule));
    const auto items
            = stats::gatherScores(*m_project, QStringLiteral("coherence"), QStringLiteral("hypo"), SplitFilter::Test);
    QVERIFY(items.ok());
    const auto c = stats::correlateAtLevel(*items, stats::Level::Group, stats::ConstantGroups(rule));
    QCOMPARE(c.groupsHumanConstant, 1);
    const auto other = stats::correlateAtLevel(*items, stats::Level::Group, stats::ConstantGroups(1 - rule));
    QVERIFY(std::abs(c.pearson - other.pearson) > 1e-6); // the rule matters here
    const QAbstractItemModel *m = pane.findChild<QTableView *>(QStringLiteral("correlationJudges"))->model();
    QVERIFY(waitCoefficients(pane.correlationModel()));
    QCOMPARE(m->index(0, CorrelationModel::PearsonColumn).data().toString(), QString::number(c.pearson, 'f', 4));
    QCOMPARE(m->index(0, CorrelationModel::NColumn).data().toInt(), c.n);
    QVERIFY2(convention->text().contains(named), qPrintable(convention->text()));
    QVERIFY2(convention->text().contains(QStringLiteral("%1 groups averaged").arg(c.groupsUsed)),
             qPrintable(convention->text()));
    if (const QString dir = qEnvironmentVariable("RUBRIC_SCREENSHOT_DIR"); !dir.isEmpty()) {
        pane.resize(1280, 820);
        QVERIFY(pane.grab().toImage().save(dir
                                           + QStringLiteral("/correlation-group-%1.png")
                                                     .arg(stats::constantGroupsName(stats::ConstantGroups(rule)))));
    }
    level->setCurrentIndex(level->findData(int(stats::Level::Dataset)));
    QVERIFY(waitCoefficients(pane.correlationModel()));
    QVERIFY(convention->text().isEmpty());
}

void TestCorrelationPane::unreadableProjectIsShown()
{
    // The judges' scores are gone from the file: the pane says it cannot read them rather than
    // showing the judge without items.
    QSqlQuery q(ProjectTestAccess::database(*m_project));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
    QVERIFY(q.exec(QStringLiteral("DROP TABLE judge_scores")));
    CorrelationPane pane;
    pane.setBootstrap(0);
    pane.setProject(m_project.get());
    auto *convention = pane.findChild<QLabel *>(QStringLiteral("correlationConvention"));
    QVERIFY2(convention->text().contains(QLatin1String("Cannot read")), qPrintable(convention->text()));
    QVERIFY2(convention->text().contains(QLatin1String("judge_scores")), qPrintable(convention->text()));
}

void TestCorrelationPane::unreadableSplitIsNotAllItems()
{
    // The split is gone from the file: the default split cannot be known, so the pane shows the
    // error instead of a correlation over all items (train and test mixed).
    QSqlQuery q(ProjectTestAccess::database(*m_project));
    QVERIFY(q.exec(QStringLiteral("DROP TABLE splits")));
    CorrelationPane pane;
    pane.setBootstrap(0);
    pane.setProject(m_project.get());
    auto *convention = pane.findChild<QLabel *>(QStringLiteral("correlationConvention"));
    QVERIFY2(convention->text().contains(QLatin1String("Cannot read")), qPrintable(convention->text()));
    QVERIFY2(convention->text().contains(QLatin1String("splits")), qPrintable(convention->text()));
    QCOMPARE(pane.correlationModel()->rowCount(), 0);
}

void TestCorrelationPane::pearsonEqualsCli()
{
    const QString cli = qEnvironmentVariable("RUBRIC_CLI");
    if (cli.isEmpty())
        QSKIP("RUBRIC_CLI is not set (run through ctest)");
    CorrelationPane pane;
    pane.setProject(m_project.get());
    pane.findChild<QComboBox *>(QStringLiteral("correlationLevel"))->setCurrentIndex(1); // group
    QSignalSpy ready(pane.correlationModel(), &CorrelationModel::intervalsReady);
    QVERIFY(ready.wait(30000));
    QProcess p;
    p.start(cli,
            {QStringLiteral("correlate"), QStringLiteral("--project"), m_path, QStringLiteral("--aspect"),
             QStringLiteral("coherence"), QStringLiteral("--judge"), QStringLiteral("hypo"), QStringLiteral("--level"),
             QStringLiteral("group"), QStringLiteral("--bootstrap"), QStringLiteral("1000"), QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QJsonObject out = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QCOMPARE(out.value(QStringLiteral("split")).toString(), QStringLiteral("test"));
    const QAbstractItemModel *m = pane.correlationModel();
    QCOMPARE(m->index(0, CorrelationModel::PearsonColumn).data().toString(),
             QString::number(out.value(QStringLiteral("pearson")).toDouble(), 'f', 4));
    const QJsonArray ci = out.value(QStringLiteral("ci")).toObject().value(QStringLiteral("pearson")).toArray();
    QCOMPARE(ci.size(), 2);
    QCOMPARE(m->index(0, CorrelationModel::IntervalColumn).data().toString(),
             QStringLiteral("[%1, %2]")
                     .arg(QString::number(ci[0].toDouble(), 'f', 4), QString::number(ci[1].toDouble(), 'f', 4)));
}

void TestCorrelationPane::figuresEqualTheCli_data()
{
    QTest::addColumn<QString>("level");
    QTest::addColumn<QString>("split");
    for (const char *level : {"dataset", "group", "system"})
        for (const char *split : {"test", "all"})
            QTest::addRow("%s, %s", level, split) << QString::fromLatin1(level) << QString::fromLatin1(split);
}

void TestCorrelationPane::figuresEqualTheCli()
{
    // The pane's table and `rubric correlate --json` on the same SQLite file, for two judges:
    // n, the three coefficients and Pearson's bootstrap interval equal to the last bit.
    QFETCH(QString, level);
    QFETCH(QString, split);
    const QString cli = qEnvironmentVariable("RUBRIC_CLI");
    if (cli.isEmpty())
        QSKIP("RUBRIC_CLI is not set (run through ctest)");
    addSecondJudge();
    CorrelationPane pane;
    pane.setBootstrap(200);
    pane.setProject(m_project.get());
    auto *levels = pane.findChild<QComboBox *>(QStringLiteral("correlationLevel"));
    auto *splits = pane.findChild<QComboBox *>(QStringLiteral("correlationSplit"));
    levels->setCurrentIndex(levels->findData(int(*stats::parseLevel(level))));
    splits->setCurrentIndex(splits->findData(int(*stats::parseSplitFilter(split))));
    const CorrelationModel *model = pane.correlationModel();
    QCOMPARE(model->rowCount(), 2);
    // Computed off the GUI thread: the setting returns before the figures are there.
    QVERIFY(model->coefficientsPending());
    QCOMPARE(model->index(0, CorrelationModel::PearsonColumn).data().toString(), QStringLiteral("computing…"));
    QSignalSpy intervals(model, &CorrelationModel::intervalsReady);
    QVERIFY(intervals.wait(60000));
    QVERIFY(!model->coefficientsPending());
    for (const QString &judge : {QStringLiteral("hypo"), QStringLiteral("geval")}) {
        QProcess p;
        p.start(cli, {QStringLiteral("correlate"), QStringLiteral("--project"), m_path, QStringLiteral("--aspect"),
                      QStringLiteral("coherence"), QStringLiteral("--judge"), judge, QStringLiteral("--level"), level,
                      QStringLiteral("--split"), split, QStringLiteral("--bootstrap"), QStringLiteral("200"),
                      QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject out = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const int row = model->rowOfJudge(judge);
        QVERIFY(row >= 0);
        const auto value = [&](int column, int role = CorrelationModel::ValueRole) {
            return model->index(row, column).data(role);
        };
        QCOMPARE(value(CorrelationModel::NColumn).toInt(), out.value(QStringLiteral("n")).toInt());
        QCOMPARE(model->correlation(row).groupsUsed, out.value(QStringLiteral("groups_used")).toInt());
        const auto same = [](const QVariant &shown, const QJsonValue &cli) {
            // Bit for bit: the JSON's shortest round-trip form reads back as the same double.
            return shown.isValid() && !cli.isNull() && shown.toDouble() == cli.toDouble();
        };
        for (const auto &[column, key] : {std::pair{CorrelationModel::PearsonColumn, "pearson"},
                                          std::pair{CorrelationModel::SpearmanColumn, "spearman"},
                                          std::pair{CorrelationModel::KendallColumn, "kendall"}})
            QVERIFY2(same(value(column), out.value(QLatin1String(key))),
                     qPrintable(QStringLiteral("%1 %2: pane %3, CLI %4")
                                        .arg(judge, QLatin1String(key))
                                        .arg(value(column).toDouble(), 0, 'g', 17)
                                        .arg(out.value(QLatin1String(key)).toDouble(), 0, 'g', 17)));
        const QJsonArray ci = out.value(QStringLiteral("ci")).toObject().value(QStringLiteral("pearson")).toArray();
        QCOMPARE(ci.size(), 2);
        QVERIFY2(same(value(CorrelationModel::IntervalColumn, CorrelationModel::IntervalLowRole), ci[0]),
                 qPrintable(judge));
        QVERIFY2(same(value(CorrelationModel::IntervalColumn, CorrelationModel::IntervalHighRole), ci[1]),
                 qPrintable(judge));
    }
}

void TestCorrelationPane::newSettingSupersedesTheRunningWork()
{
    // A long bootstrap runs; the level changes: the first setting's work stops and its figures
    // never show; the new setting's arrive.
    auto big = fixture::openProject(m_dir.filePath(QStringLiteral("supersede.rubric")));
    fixture::fillSynthetic(*big, 1600, 3);
    CorrelationPane pane;
    pane.setBootstrap(20000);
    pane.setProject(big.get());
    QVERIFY(pane.busy());
    QSignalSpy coefficients(pane.correlationModel(), &CorrelationModel::coefficientsReady);
    QSignalSpy intervals(pane.correlationModel(), &CorrelationModel::intervalsReady);
    QVERIFY(coefficients.wait(30000)); // the dataset level's coefficients; its bootstrap is running
    QVERIFY(pane.correlationModel()->computing());
    pane.setBootstrap(100);
    auto *levels = pane.findChild<QComboBox *>(QStringLiteral("correlationLevel"));
    levels->setCurrentIndex(levels->findData(int(stats::Level::System)));
    QVERIFY(pane.correlationModel()->coefficientsPending());
    QVERIFY(intervals.wait(60000));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.busy(), 60000);
    QCOMPARE(intervals.count(), 1); // the superseded dataset-level intervals never arrived
    const auto items
            = stats::gatherScores(*big, QStringLiteral("coherence"), QStringLiteral("hypo"), SplitFilter::Test);
    QVERIFY(items.ok());
    const auto c = stats::correlateAtLevel(*items, stats::Level::System);
    QCOMPARE(pane.correlationModel()->correlation(0).pearson, c.pearson);
    QCOMPARE(pane.correlationModel()->correlation(0).n, c.n);
}

void TestCorrelationPane::severalJudgesSideBySide()
{
    addSecondJudge();
    CorrelationPane pane;
    pane.setProject(m_project.get());
    const QAbstractItemModel *m = pane.findChild<QTableView *>(QStringLiteral("correlationJudges"))->model();
    QCOMPARE(m->rowCount(), 2);
    QVERIFY(waitCoefficients(pane.correlationModel()));
    for (const QString &judge : {QStringLiteral("hypo"), QStringLiteral("geval")}) {
        const int row = pane.correlationModel()->rowOfJudge(judge);
        QVERIFY(row >= 0);
        const auto items = stats::gatherScores(*m_project, QStringLiteral("coherence"), judge, SplitFilter::Test);
        QCOMPARE(m->index(row, CorrelationModel::PearsonColumn).data().toString(),
                 QString::number(stats::correlateAtLevel(*items, stats::Level::Dataset).pearson, 'f', 4));
    }
}

void TestCorrelationPane::criterionBarsEqualCore()
{
    CorrelationPane pane;
    QSignalSpy ready(&pane, &CorrelationPane::criterionIntervalsReady);
    pane.setProject(m_project.get());
    QVERIFY(ready.wait(30000) || ready.count() > 0);
    QTRY_VERIFY(!std::isnan(pane.criterionBars().value(0).ci.lo));
    const auto bars = pane.criterionBars();
    QCOMPARE(bars.size(), 5);
    ScoreModel *scores = ScoreModel::of(m_project.get());
    for (int k = 0; k < bars.size(); ++k) {
        QVector<stats::ScoredItem> items;
        for (int r = 0; r < scores->rowCount(); ++r) {
            const double h = scores->score(r, ScoreModel::HumanColumn);
            const double c = scores->score(r, ScoreModel::FirstCriterionColumn + k);
            if (scores->splitRole(r) == SplitRole::Test && !std::isnan(h) && !std::isnan(c))
                items.append({scores->itemId(r), scores->group(r), scores->system(r), h, c});
        }
        QCOMPARE(bars[k].key, scores->criterionKeys()[k]);
        QCOMPARE(bars[k].pearson, stats::correlateAtLevel(items, stats::Level::Dataset).pearson);
        QVERIFY(bars[k].ci.lo <= bars[k].ci.hi);
    }
}

void TestCorrelationPane::hoverNamesTheItem()
{
    CorrelationPane pane;
    pane.resize(1100, 800);
    QSignalSpy chart(&pane, &CorrelationPane::chartReady);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(chart.count() > 0 || chart.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.busy(), 30000); // the title with the table's Pearson is in
    auto *view = pane.findChild<QChartView *>(QStringLiteral("correlationScatter"));
    QVERIFY(view);
    QVERIFY(test::waitChartLaidOut(view)); // and the chart laid out again after it
    const QPoint pos = pane.scatterPosition(QStringLiteral("item-0040"));
    QVERIFY(pos.x() >= 0);
    QTest::mouseMove(view->viewport(), pos);
    QTRY_VERIFY(pane.findChild<QLabel *>(QStringLiteral("correlationHover"))->text().contains(QStringLiteral("item-")));
    // Points often coincide on a 1–5 scale; the label names the nearest and counts the rest.
    const QString text = pane.findChild<QLabel *>(QStringLiteral("correlationHover"))->text();
    const auto human = m_project->humanScores(QStringLiteral("coherence"));
    QVERIFY2(text.contains(QString::number(human.value(QStringLiteral("item-0040")), 'f', 2)), qPrintable(text));
}

void TestCorrelationPane::sharesTheHeatmapScoreModel()
{
    CorrelationPane pane;
    pane.setProject(m_project.get());
    addSecondJudge();
    ScoreModel::of(m_project.get())->setJudge(QStringLiteral("geval"));
    QVERIFY(pane.findChild<QLabel *>(QStringLiteral("correlationTitle"))->text().contains(QStringLiteral("geval")));
    QCOMPARE(pane.criterionBars().size(), 0); // imported scores have no criteria
}

void TestCorrelationPane::screenshot()
{
    addSecondJudge();
    CorrelationPane pane;
    pane.resize(1280, 820);
    QSignalSpy ready(&pane, &CorrelationPane::criterionIntervalsReady);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QTRY_VERIFY_WITH_TIMEOUT(!std::isnan(pane.criterionBars().value(0).ci.lo), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!pane.correlationModel()->computing(), 30000);
    QTRY_VERIFY(!pane.busy());
    QTest::mouseMove(pane.scatterView()->viewport(), pane.scatterPosition(QStringLiteral("item-0040")));
    const QImage shot = pane.grab().toImage();
    QVERIFY(!shot.isNull());
    const QString dir = qEnvironmentVariable("RUBRIC_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(shot.save(dir + QStringLiteral("/correlation.png")));
}

void TestCorrelationPane::stopBootstrapDropsTheResult()
{
    CorrelationModel model;
    QSignalSpy ready(&model, &CorrelationModel::intervalsReady);
    model.setBootstrap(50000);
    model.setProject(m_project.get());
    model.setAspect(QStringLiteral("coherence"));
    QVERIFY(model.computing());
    model.stopBootstrap();
    QTRY_VERIFY(!model.computing());
    QCoreApplication::processEvents(); // a queued finished signal would arrive here
    QCOMPARE(ready.count(), 0);
    QVERIFY(!model.index(0, CorrelationModel::IntervalColumn).data(CorrelationModel::IntervalLowRole).isValid());
    QVERIFY(!std::isnan(model.index(0, CorrelationModel::PearsonColumn).data(CorrelationModel::ValueRole).toDouble()));
    // The next setting computes its intervals as usual.
    model.setBootstrap(50);
    QVERIFY(ready.wait(20000));
    QVERIFY(model.index(0, CorrelationModel::IntervalColumn).data(CorrelationModel::IntervalLowRole).isValid());
}

void TestCorrelationPane::destroyingStopsTheBootstrap_data()
{
    QTest::addColumn<bool>("withPane");
    QTest::newRow("model") << false;
    QTest::newRow("pane") << true;
}

void TestCorrelationPane::destroyingStopsTheBootstrap()
{
    // 1600 items and many resamples: seconds of bootstrap that a model or pane going away (the
    // window closing, the studio quitting) must stop rather than wait out.
    QFETCH(bool, withPane);
    auto big = fixture::openProject(m_dir.filePath(QStringLiteral("big-%1.rubric").arg(int(withPane))));
    fixture::fillSynthetic(*big, 1600, 10);
    // The pane bootstraps the judge and each of the 10 criteria: fewer resamples give it seconds too.
    const int resamples = withPane ? 1000 : 4000;
    const auto start = [&]() -> std::unique_ptr<QObject> {
        if (withPane) {
            auto pane = std::make_unique<CorrelationPane>();
            pane->setBootstrap(resamples);
            pane->setProject(big.get());
            return pane;
        }
        auto model = std::make_unique<CorrelationModel>();
        model->setBootstrap(resamples);
        model->setProject(big.get());
        model->setAspect(QStringLiteral("coherence"));
        return model;
    };
    const auto busy = [](QObject *owner) {
        if (auto *pane = qobject_cast<CorrelationPane *>(owner))
            return pane->computingCriteria() || pane->correlationModel()->computing();
        return qobject_cast<CorrelationModel *>(owner)->computing();
    };
    QThreadPool *pool = CorrelationModel::bootstrapPool();

    // Uncancelled: how long the work takes on this machine. Seconds in a normal build; under TSan,
    // beside another test, 383 s were seen, so the wait is long (it costs nothing when the work ends).
    QElapsedTimer timer;
    timer.start();
    std::unique_ptr<QObject> owner = start();
    QVERIFY(busy(owner.get()));
    QTRY_VERIFY_WITH_TIMEOUT(!busy(owner.get()), 900000);
    const qint64 full = timer.elapsed();
    owner.reset();
    QTRY_COMPARE(pool->activeThreadCount(), 0);

    // Destroyed while the work runs on the pool's threads: the destructor returns at once.
    owner = start();
    QTRY_VERIFY(pool->activeThreadCount() > 0);
    QVERIFY(busy(owner.get()));
    timer.restart();
    owner.reset();
    const qint64 destroyed = timer.elapsed();
    qInfo("bootstrap of %d resamples: %lld ms to finish, %lld ms to destroy while running", resamples, full, destroyed);
    QVERIFY2(destroyed * 10 < full, qPrintable(QStringLiteral("%1 ms vs %2 ms").arg(destroyed).arg(full)));
    QTRY_COMPARE(pool->activeThreadCount(), 0); // the stopped task has ended, not been left running
}

QTEST_MAIN(TestCorrelationPane)
#include "TestCorrelationPane.moc"
