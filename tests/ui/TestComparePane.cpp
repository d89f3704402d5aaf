#include "ChartExport.h"
#include "panes/ComparePane.h"
#include "stats/Comparison.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPointer>
#include <QProcess>
#include <QRandomGenerator>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;

namespace {

/// 240 items in 30 documents × 8 systems, two aspects scored by two annotators, a train/test
/// split, and four judges: two LLM methods with calls in the ledger (hypoeval dearer and closer to
/// people), an offline baseline (no calls) and imported scores (cost unknown).
void fill(Project &project)
{
    QRandomGenerator rng(7);
    const auto normal = [&rng] {
        // Box–Muller from the seeded generator: deterministic on every platform.
        const double u = std::max(1e-12, rng.generateDouble());
        return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * rng.generateDouble());
    };
    QVector<Item> items;
    for (int i = 0; i < 240; ++i) {
        Item it;
        it.id = QStringLiteral("item-%1").arg(i, 4, 10, QLatin1Char('0'));
        it.group = QStringLiteral("doc-%1").arg(i / 8);
        it.system = QStringLiteral("M%1").arg(i % 8);
        it.source = QStringLiteral("source %1").arg(i);
        it.output = QStringLiteral("output %1").arg(i);
        items.append(it);
    }
    QVERIFY(project.addItems(items));
    const QStringList aspects{QStringLiteral("coherence"), QStringLiteral("fluency")};
    for (const QString &a : aspects)
        QVERIFY(project.upsertAspect({a, QStringLiteral("How good it is."), 1, 5}));
    const struct
    {
        QString name, method;
        double noise;
    } judges[] = {{QStringLiteral("geval"), QStringLiteral("geval"), 0.8},
                  {QStringLiteral("hypoeval"), QStringLiteral("hypoeval"), 0.5},
                  {QStringLiteral("rouge-l"), QStringLiteral("rouge-l"), 1.6},
                  {QStringLiteral("other-tool"), QStringLiteral("imported"), 1.0}};
    QVector<Annotation> annotations;
    QHash<QString, SplitRole> split;
    QHash<QString, QHash<QString, double>> scores; // judge + aspect → item → score
    for (int i = 0; i < items.size(); ++i) {
        const QString &id = items[i].id;
        split.insert(id, i < 40 ? SplitRole::Train : SplitRole::Test);
        for (const QString &a : aspects) {
            const double truth = 3.0 + normal();
            for (const QString &who : {QStringLiteral("alice"), QStringLiteral("bob")})
                annotations.append({id, a, who, std::clamp(std::round(truth + 0.5 * normal()), 1.0, 5.0), {}, {}});
            for (const auto &j : judges)
                scores[j.name + QLatin1Char('/') + a].insert(id, truth + j.noise * normal());
        }
    }
    QVERIFY(project.addAnnotations(annotations));
    QVERIFY(project.setSplit(split));
    for (const auto &j : judges) {
        QVERIFY(project.ensureJudge(j.name, j.method));
        for (const QString &a : aspects)
            QVERIFY(project.setJudgeScores(j.name, a, scores.value(j.name + QLatin1Char('/') + a)));
    }
    CallStore calls(&project);
    for (int i = 0; i < 240 * 2; ++i) {
        for (const auto &[run, perItem, cost] :
             {std::tuple{QStringLiteral("geval"), 1, 0.0004}, std::tuple{QStringLiteral("hypoeval"), 5, 0.0009}}) {
            for (int c = 0; c < perItem; ++c) {
                LedgerEntry e;
                e.key = QStringLiteral("%1-%2-%3").arg(run).arg(i).arg(c);
                e.run = run;
                e.outcome = QStringLiteral("ok");
                e.cost = cost;
                calls.addLedger(e);
            }
        }
    }
    QVERIFY(calls.flush());
}

} // namespace

class TestComparePane : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void tableEqualsCore();
    void figuresEqualTheCli_data();
    void figuresEqualTheCli();
    void sortsByValue();
    void pairInWordsEqualsCore();
    void exportsWhatTheCoreWrites();
    void paretoFront();
    void inMainWindowList();
    void screenshot();

private:
    void waitReady(ComparePane &pane);
    stats::CompareOptions options(const QString &aspect) const;
    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<Project> m_project;
};

void TestComparePane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("compare.rubric"));
    auto p = Project::open(m_path);
    QVERIFY(p);
    m_project = std::move(p).value();
    fill(*m_project);
}

void TestComparePane::waitReady(ComparePane &pane)
{
    QTRY_VERIFY_WITH_TIMEOUT(!pane.comparisons().isEmpty() && !pane.computing(), 60000);
}

stats::CompareOptions TestComparePane::options(const QString &aspect) const
{
    stats::CompareOptions o;
    o.aspect = aspect;
    o.split = SplitFilter::Test; // the project has a split: the pane starts on the test split
    o.bootstrap = 200;
    o.permutations = 200;
    return o;
}

void TestComparePane::tableEqualsCore()
{
    ComparePane pane;
    pane.setResamples(200);
    pane.setProject(m_project.get());
    waitReady(pane);
    QCOMPARE(pane.comparisons().size(), 2);
    QAbstractItemModel *model = pane.table()->model();
    QCOMPARE(model->rowCount(), 8); // 4 judges × 2 aspects
    for (const QString &aspect : {QStringLiteral("coherence"), QStringLiteral("fluency")}) {
        stats::CompareOptions o = options(aspect);
        o.pairs = false;
        const auto core = stats::compareJudges(*m_project, o);
        QVERIFY(core);
        for (const stats::JudgeAlignment &j : core->judges) {
            int row = -1;
            for (int r = 0; r < model->rowCount(); ++r)
                if (model->index(r, 0).data().toString() == j.judge && model->index(r, 2).data().toString() == aspect)
                    row = r;
            QVERIFY2(row >= 0, qPrintable(j.judge));
            QCOMPARE(model->index(row, 3).data().toString(), stats::formatStatistic(j.pearson));
            QCOMPARE(model->index(row, 4).data().toString(), stats::formatStatistic(j.spearman));
            QCOMPARE(model->index(row, 5).data().toString(), stats::formatStatistic(j.kendall));
            QCOMPARE(model->index(row, 6).data().toString(),
                     QStringLiteral("[%1, %2]").arg(stats::formatStatistic(j.lo), stats::formatStatistic(j.hi)));
            QCOMPARE(model->index(row, 7).data().toInt(), 200);
            if (j.judge == QLatin1String("hypoeval")) {
                // The whole ledger (5 calls per item for each of the two aspects) over the items scored.
                QCOMPARE(model->index(row, 8).data().toString(), QStringLiteral("10.00"));
                QCOMPARE(model->index(row, 9).data().toString(), stats::formatCost(10 * 0.0009));
            }
            if (j.judge == QLatin1String("other-tool"))
                QCOMPARE(model->index(row, 9).data().toString(), QStringLiteral("unknown"));
        }
    }
    const QString ceiling = pane.findChild<QLabel *>(QStringLiteral("compareCeiling"))->text();
    QVERIFY2(ceiling.contains(QStringLiteral("on 200 items (2 annotators)")), qPrintable(ceiling));
}

void TestComparePane::figuresEqualTheCli_data()
{
    QTest::addColumn<int>("levelIndex");
    QTest::addColumn<QString>("level");
    QTest::newRow("dataset") << 0 << QStringLiteral("dataset");
    QTest::newRow("group") << 1 << QStringLiteral("group");
    QTest::newRow("system") << 2 << QStringLiteral("system");
}

void TestComparePane::figuresEqualTheCli()
{
    // The pane and `rubric compare --json` on the same SQLite file: every judge's row, the human
    // ceiling and the pair under the table, as the CLI writes them.
    QFETCH(int, levelIndex);
    QFETCH(QString, level);
    const QString cli = qEnvironmentVariable("RUBRIC_CLI");
    if (cli.isEmpty())
        QSKIP("RUBRIC_CLI is not set (run through ctest)");
    ComparePane pane;
    pane.setResamples(200);
    pane.setProject(m_project.get());
    pane.findChild<QComboBox *>(QStringLiteral("compareLevel"))->setCurrentIndex(levelIndex);
    waitReady(pane);
    auto *a = pane.findChild<QComboBox *>(QStringLiteral("compareJudgeA"));
    auto *b = pane.findChild<QComboBox *>(QStringLiteral("compareJudgeB"));
    a->setCurrentText(QStringLiteral("hypoeval"));
    b->setCurrentText(QStringLiteral("rouge-l"));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.computing() && pane.pair().a == QLatin1String("hypoeval")
                                     && pane.pair().b == QLatin1String("rouge-l"),
                             30000);
    for (const stats::Comparison &shown : pane.comparisons()) {
        QProcess p;
        p.start(cli, {QStringLiteral("compare"), QStringLiteral("--project"), m_path, QStringLiteral("--aspect"),
                      shown.options.aspect, QStringLiteral("--level"), level, QStringLiteral("--bootstrap"),
                      QStringLiteral("200"), QStringLiteral("--permutations"), QStringLiteral("200"),
                      QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject out = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(out.value(QStringLiteral("split")).toString(), QStringLiteral("test"));
        const QJsonObject fromPane = stats::comparisonToJson(shown);
        for (const char *key : {"aspect", "level", "split", "coefficient", "convention", "judges", "human_ceiling"})
            QVERIFY2(fromPane.value(QLatin1String(key)) == out.value(QLatin1String(key)),
                     qPrintable(
                             QStringLiteral("%1 %2: pane %3, CLI %4")
                                     .arg(shown.options.aspect, QLatin1String(key),
                                          QString::fromUtf8(
                                                  QJsonDocument(QJsonObject{{QStringLiteral("v"),
                                                                             fromPane.value(QLatin1String(key))}})
                                                          .toJson(QJsonDocument::Compact)),
                                          QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("v"),
                                                                                       out.value(QLatin1String(key))}})
                                                                    .toJson(QJsonDocument::Compact)))));
        if (shown.options.aspect != QLatin1String("coherence"))
            continue; // the pair is asked on the aspect shown (the first)
        stats::Comparison withPair = shown;
        withPair.pairs = {pane.pair()};
        const QJsonObject pair
                = stats::comparisonToJson(withPair).value(QStringLiteral("pairs")).toArray().at(0).toObject();
        bool found = false;
        for (const QJsonValue &v : out.value(QStringLiteral("pairs")).toArray())
            if (v.toObject().value(QStringLiteral("a")) == pair.value(QStringLiteral("a"))
                && v.toObject().value(QStringLiteral("b")) == pair.value(QStringLiteral("b"))) {
                found = true;
                QCOMPARE(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact),
                         QJsonDocument(pair).toJson(QJsonDocument::Compact));
            }
        QVERIFY(found);
    }
}

void TestComparePane::sortsByValue()
{
    ComparePane pane;
    pane.setResamples(50);
    pane.setProject(m_project.get());
    waitReady(pane);
    QTableView *table = pane.table();
    table->horizontalHeader()->setSortIndicator(3, Qt::DescendingOrder);
    QAbstractItemModel *model = table->model();
    double previous = 2.0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const double v = model->index(r, 3).data().toDouble();
        QVERIFY(v <= previous);
        previous = v;
    }
    QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("hypoeval")); // least noise
    table->horizontalHeader()->setSortIndicator(9, Qt::AscendingOrder);
    // Unknown cost sorts below every known one.
    QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("other-tool"));
}

void TestComparePane::pairInWordsEqualsCore()
{
    ComparePane pane;
    pane.setResamples(200);
    pane.setProject(m_project.get());
    waitReady(pane);
    auto *a = pane.findChild<QComboBox *>(QStringLiteral("compareJudgeA"));
    auto *b = pane.findChild<QComboBox *>(QStringLiteral("compareJudgeB"));
    auto *words = pane.findChild<QLabel *>(QStringLiteral("compareWords"));
    QSignalSpy ready(&pane, &ComparePane::pairReady);
    b->setCurrentText(QStringLiteral("geval"));
    a->setCurrentText(QStringLiteral("geval"));
    QVERIFY(words->text().contains(QStringLiteral("two different judges")));
    a->setCurrentText(QStringLiteral("hypoeval"));
    b->setCurrentText(QStringLiteral("rouge-l"));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.computing() && pane.pair().b == QLatin1String("rouge-l"), 30000);
    const auto core = stats::compareJudgePair(*m_project, options(QStringLiteral("coherence")),
                                              QStringLiteral("hypoeval"), QStringLiteral("rouge-l"));
    QVERIFY(core);
    QCOMPARE(pane.pair().p, core->p);
    QCOMPARE(pane.pair().difference, core->difference);
    QCOMPARE(words->text(), core->plainWords);
    QVERIFY2(words->text().startsWith(QStringLiteral("hypoeval agrees with people more than rouge-l")),
             qPrintable(words->text()));
}

void TestComparePane::exportsWhatTheCoreWrites()
{
    ComparePane pane;
    pane.setResamples(100);
    pane.setProject(m_project.get());
    waitReady(pane);
    pane.findChild<QComboBox *>(QStringLiteral("compareAspect"))->setCurrentText(QStringLiteral("fluency"));
    const stats::Comparison *fluency = nullptr;
    for (const stats::Comparison &c : pane.comparisons())
        if (c.options.aspect == QLatin1String("fluency"))
            fluency = &c;
    QVERIFY(fluency);
    const struct
    {
        QString name;
        QString expected;
    } files[] = {{QStringLiteral("t.csv"), stats::comparisonToCsv(*fluency)},
                 {QStringLiteral("t.tex"), stats::comparisonToLatex(*fluency)},
                 {QStringLiteral("t.md"), stats::comparisonToMarkdown(*fluency)}};
    for (const auto &f : files) {
        const QString path = m_dir.filePath(f.name);
        QVERIFY(pane.exportTo(path));
        QFile in(path);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(in.readAll()), f.expected);
    }
    QVERIFY(stats::comparisonToCsv(*fluency).count(QLatin1Char('\n')) == 5);
    QVERIFY(!pane.exportTo(m_dir.filePath(QStringLiteral("missing/dir/t.csv"))));
}

void TestComparePane::paretoFront()
{
    ComparePane pane;
    pane.setResamples(50);
    pane.setProject(m_project.get());
    waitReady(pane);
    // rouge-l costs nothing; hypoeval agrees most: both on the front; geval costs more than
    // rouge-l and agrees less than hypoeval, so it is on it only if it beats rouge-l.
    const QStringList front = pane.paretoFront();
    QCOMPARE(front.first(), QStringLiteral("rouge-l"));
    QCOMPARE(front.last(), QStringLiteral("hypoeval"));
    QVERIFY(!front.contains(QStringLiteral("other-tool")));
    const QString note = pane.findChild<QLabel *>(QStringLiteral("compareChartNote"))->text();
    QVERIFY2(note.contains(QStringLiteral("cost unknown")) && note.contains(QStringLiteral("other-tool")),
             qPrintable(note));
    auto *view = pane.findChild<QChartView *>(QStringLiteral("compareChart"));
    QCOMPARE(view->chart()->series().size(), 4); // three judges with a known cost + the front
    // Redrawing replaces the axes and frees the old ones (QChart::removeAxis gives them back; LSan found them leaked).
    QList<QPointer<QAbstractAxis>> oldAxes;
    for (QAbstractAxis *a : view->chart()->axes())
        oldAxes.append(a);
    QCOMPARE(oldAxes.size(), 2);
    pane.findChild<QComboBox *>(QStringLiteral("compareAxis"))->setCurrentIndex(1); // calls per item
    QCOMPARE(view->chart()->axes().size(), 2);
    for (const auto &a : std::as_const(oldAxes))
        QVERIFY(a.isNull());
    QCOMPARE(pane.paretoFront().first(), QStringLiteral("rouge-l"));
    QVERIFY(view->chart()->title().contains(QStringLiteral("calls per item")));
    // File → Export Chart writes it as SVG (vector: the judges' names stay text).
    QCOMPARE(pane.chartWidget(), view);
    const QString svg = m_dir.filePath(QStringLiteral("front.svg"));
    QVERIFY(ChartExport::write(pane.chartWidget(), pane.chartTitle(), svg));
    QFile in(svg);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray text = in.readAll();
    QVERIFY(text.contains("<svg") && text.contains("hypoeval"));
}

void TestComparePane::inMainWindowList()
{
    // The pane is a widget of its own; the main window lists it as "compare" (TestMainWindow
    // walks every pane); here: a second binding replaces the first, and null unbinds.
    ComparePane pane;
    pane.setResamples(20);
    pane.setProject(m_project.get());
    pane.setProject(nullptr);
    QCOMPARE(pane.table()->model()->rowCount(), 0);
    QVERIFY(pane.comparisons().isEmpty());
}

void TestComparePane::screenshot()
{
    ComparePane pane;
    pane.resize(1360, 820);
    pane.setResamples(1000);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    waitReady(pane);
    pane.findChild<QComboBox *>(QStringLiteral("compareJudgeA"))->setCurrentText(QStringLiteral("hypoeval"));
    pane.findChild<QComboBox *>(QStringLiteral("compareJudgeB"))->setCurrentText(QStringLiteral("geval"));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.computing() && pane.pair().b == QLatin1String("geval"), 30000);
    pane.table()->horizontalHeader()->setSortIndicator(3, Qt::DescendingOrder);
    const QImage shot = pane.grab().toImage();
    QVERIFY(!shot.isNull());
    const QString dir = qEnvironmentVariable("RUBRIC_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(shot.save(dir + QStringLiteral("/compare.png")));
}

QTEST_MAIN(TestComparePane)
#include "TestComparePane.moc"
