#include "RunFixture.h"
#include "UiTestProject.h"
#include "judge/ProviderProfiles.h"
#include "methods/hypoeval/HypoEvalParams.h"
#include "models/IssuesModel.h"
#include "models/RunController.h"
#include "models/ScoreModel.h"
#include "panes/HeatmapPane.h"
#include "panes/RunPane.h"
#include "runs/RunConfig.h"
#include "store/RubricStore.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestRunPane : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();

    void profileIsSavedAndLoadedThroughTheEditor();
    void testConnectionShowsOkOrTheError_data();
    void testConnectionShowsOkOrTheError();
    void hypoEvalParametersShowThePaperDefaults();
    void runAgainstTheFakeServerFillsTheHeatmap();
    void hypoEvalThroughTheFormSelectsFiveHypotheses();
    void progressCountsOutOfTheEstimate();
    void cancelThenResumeSendsOnlyWhatIsMissing();
    void httpErrorShowsStatusAndBodyAndAnIssue();
    void refusedItemIsCountedAndAskedAgainOnRequest();
    void rescoreRebuildsTheSpecAndAsksNothingAgain();
    void closingMidRunLeavesItResumable();
    void anotherConfigurationAsksBeforeMixing();

private:
    template <typename T> T *child(const char *name) const
    {
        auto *w = m_pane->findChild<T *>(QString::fromLatin1(name));
        if (!w)
            qFatal("no child %s", name);
        return w;
    }
    void addProfile(const QString &name, const QString &baseUrl, int concurrency = 4);
    void fillGEval(const QString &judge, const QString &profile);
    bool waitIdle(int ms = 60000);

    std::unique_ptr<QTemporaryDir> m_dir;
    fixture::RunProject m_fx;
    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<SyntheticJudge> m_judge;
    std::unique_ptr<RunPane> m_pane;
    QString m_settingsFile;
};

void TestRunPane::initTestCase()
{
    testing::isolateSettings();
}

void TestRunPane::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_settingsFile = m_dir->filePath(QStringLiteral("profiles.ini"));
    m_fx = fixture::makeRunProject(m_dir->filePath(QStringLiteral("run.rubric")), 24);
    m_judge = std::make_unique<SyntheticJudge>(m_fx.humanByOutput);
    m_server = std::make_unique<FakeLlmServer>();
    QVERIFY(m_server->listen());
    m_server->setJudge([this](const QJsonObject &body) { return m_judge->answer(body); });
    m_pane = std::make_unique<RunPane>();
    m_pane->setProfileSettingsFile(m_settingsFile);
    m_pane->setProject(m_fx.project.get());
    m_pane->resize(1300, 800);
    m_pane->show();
}

void TestRunPane::cleanup()
{
    m_pane.reset();
    m_server.reset();
    m_fx.project.reset();
    m_dir.reset();
}

void TestRunPane::addProfile(const QString &name, const QString &baseUrl, int concurrency)
{
    child<QPushButton>("profileNew")->click();
    child<QLineEdit>("profileName")->setText(name);
    child<QLineEdit>("profileBaseUrl")->setText(baseUrl);
    child<QLineEdit>("profileModel")->setText(QStringLiteral("synthetic"));
    auto *keySource = child<QComboBox>("profileKeySource");
    keySource->setCurrentIndex(0); // no key
    child<QSpinBox>("profileConcurrency")->setValue(concurrency);
    child<QSpinBox>("profileRetries")->setValue(1);
    child<QPushButton>("profileSave")->click();
}

void TestRunPane::fillGEval(const QString &judge, const QString &profile)
{
    auto *method = child<QComboBox>("method");
    method->setCurrentIndex(method->findData(QStringLiteral("geval")));
    child<QComboBox>("aspect")->setCurrentText(QStringLiteral("coherence"));
    child<QLineEdit>("judgeName")->setText(judge);
    auto *items = child<QComboBox>("items");
    items->setCurrentIndex(items->findData(QStringLiteral("test")));
    auto *evaluator = child<QComboBox>("evaluatorProfile");
    evaluator->setCurrentIndex(evaluator->findData(profile));
    child<QCheckBox>("param_logprobs")->setChecked(true);
}

bool TestRunPane::waitIdle(int ms)
{
    return QTest::qWaitFor([this] { return !m_pane->controller()->isRunning(); }, ms);
}

void TestRunPane::profileIsSavedAndLoadedThroughTheEditor()
{
    child<QPushButton>("profileNew")->click();
    QTest::keyClicks(child<QLineEdit>("profileName"), QStringLiteral("local vllm"));
    child<QComboBox>("profileProvider")->setCurrentIndex(1); // Anthropic
    QTest::keyClicks(child<QLineEdit>("profileBaseUrl"), QStringLiteral("http://127.0.0.1:9/v1"));
    QTest::keyClicks(child<QLineEdit>("profileModel"), QStringLiteral("qwen-7b"));
    auto *keySource = child<QComboBox>("profileKeySource");
    keySource->setCurrentIndex(keySource->findText(QStringLiteral("Environment variable")));
    QTest::keyClicks(child<QLineEdit>("profileKeyEnv"), QStringLiteral("VLLM_KEY"));
    child<QDoubleSpinBox>("profilePriceIn")->setValue(0.25);
    child<QDoubleSpinBox>("profilePriceOut")->setValue(1.25);
    child<QSpinBox>("profileConcurrency")->setValue(12);
    child<QDoubleSpinBox>("profileRpm")->setValue(600);
    child<QSpinBox>("profileTimeout")->setValue(45);
    QTest::mouseClick(child<QPushButton>("profileSave"), Qt::LeftButton);

    QCOMPARE(child<QListWidget>("profileList")->count(), 1);
    QCOMPARE(child<QComboBox>("evaluatorProfile")->findData(QStringLiteral("local vllm")), 0);

    // Stored in the test's settings file, key name only.
    ProviderProfiles stored(m_settingsFile);
    const auto p = stored.load(QStringLiteral("local vllm"));
    QVERIFY(p);
    QCOMPARE(p->kind, ProviderKind::Anthropic);
    QCOMPARE(p->baseUrl, QStringLiteral("http://127.0.0.1:9/v1"));
    QCOMPARE(p->model, QStringLiteral("qwen-7b"));
    QCOMPARE(p->apiKeyEnv, QStringLiteral("VLLM_KEY"));
    QCOMPARE(p->pricePerMillionIn, 0.25);
    QCOMPARE(p->pricePerMillionOut, 1.25);
    QCOMPARE(p->concurrency, 12);
    QCOMPARE(p->requestsPerMinute, 600.0);
    QCOMPARE(p->timeoutMs, 45000);
    // Nothing went to the application's own settings.
    QVERIFY(ProviderProfiles().names().isEmpty());

    // A new pane on the same file lists it; selecting it fills the editor.
    RunPane other;
    other.setProfileSettingsFile(m_settingsFile);
    auto *list = other.findChild<QListWidget *>(QStringLiteral("profileList"));
    QCOMPARE(list->count(), 1);
    list->setCurrentRow(0);
    QCOMPARE(other.findChild<QLineEdit *>(QStringLiteral("profileModel"))->text(), QStringLiteral("qwen-7b"));
    QCOMPARE(other.findChild<QLineEdit *>(QStringLiteral("profileKeyEnv"))->text(), QStringLiteral("VLLM_KEY"));
    QCOMPARE(other.findChild<QSpinBox *>(QStringLiteral("profileConcurrency"))->value(), 12);
    QCOMPARE(other.findChild<QComboBox *>(QStringLiteral("profileProvider"))->currentIndex(), 1);

    // Delete removes it from the file.
    QTest::mouseClick(other.findChild<QPushButton *>(QStringLiteral("profileDelete")), Qt::LeftButton);
    QCOMPARE(list->count(), 0);
    QVERIFY(!ProviderProfiles(m_settingsFile).load(QStringLiteral("local vllm")));
}

void TestRunPane::testConnectionShowsOkOrTheError_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fake server answers") << QStringLiteral("server") << QStringLiteral("OK · HTTP 200");
    QTest::newRow("closed port") << QStringLiteral("closed") << QStringLiteral("Failed:");
    QTest::newRow("HTTP 404 with body") << QStringLiteral("404") << QStringLiteral("HTTP 404");
}

void TestRunPane::testConnectionShowsOkOrTheError()
{
    QFETCH(QString, target);
    QFETCH(QString, expected);
    QString url = m_server->baseUrl();
    if (target == QLatin1String("closed")) {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        url = QStringLiteral("http://127.0.0.1:%1/v1").arg(probe.serverPort());
    } else if (target == QLatin1String("404")) {
        FakeAnswer a;
        a.httpStatus = 404;
        a.errorMessage = QStringLiteral("no such model: synthetic");
        m_server->setAnswer(a);
    }
    child<QPushButton>("profileNew")->click();
    child<QLineEdit>("profileName")->setText(QStringLiteral("t"));
    child<QLineEdit>("profileBaseUrl")->setText(url);
    child<QLineEdit>("profileModel")->setText(QStringLiteral("synthetic"));
    child<QComboBox>("profileKeySource")->setCurrentIndex(0);
    child<QSpinBox>("profileRetries")->setValue(0);
    child<QSpinBox>("profileTimeout")->setValue(5);
    QTest::mouseClick(child<QPushButton>("testConnection"), Qt::LeftButton);
    auto *result = child<QLabel>("connectionResult");
    QTRY_VERIFY2_WITH_TIMEOUT(result->text().startsWith(expected) || result->text().contains(expected),
                              qPrintable(result->text()), 20000);
    if (target == QLatin1String("404"))
        QVERIFY2(result->text().contains(QLatin1String("no such model: synthetic")), qPrintable(result->text()));
    if (target == QLatin1String("server"))
        QVERIFY(result->text().contains(QLatin1String("ms")));
    QVERIFY(child<QPushButton>("testConnection")->isEnabled());
}

void TestRunPane::hypoEvalParametersShowThePaperDefaults()
{
    auto *method = child<QComboBox>("method");
    method->setCurrentIndex(method->findData(QStringLiteral("hypoeval")));
    QCOMPARE(child<QSpinBox>("param_init_samples")->value(), 5);
    QCOMPARE(child<QSpinBox>("param_k")->value(), 10);
    QCOMPARE(child<QDoubleSpinBox>("param_theta")->value(), 0.5);
    QCOMPARE(child<QDoubleSpinBox>("param_alpha")->value(), 0.5);
    QCOMPARE(child<QDoubleSpinBox>("param_b")->value(), 0.0625);
    QCOMPARE(child<QSpinBox>("param_refine_rounds")->value(), 6);
    QCOMPARE(child<QSpinBox>("param_h_max")->value(), 20);
    QCOMPARE(child<QSpinBox>("param_h_ev")->value(), 5);
    QCOMPARE(child<QSpinBox>("param_min_parsed")->value(), 0); // automatic
    QVERIFY(child<QSpinBox>("param_w_max")->toolTip().contains(QLatin1String("10")));
    // every label with a mnemonic has its field as buddy (Alt+T reaches the literature folder)
    for (const QLabel *label : m_pane->findChildren<QLabel *>())
        if (label->text().contains(QLatin1Char('&')) && label->isVisibleTo(m_pane.get()))
            QVERIFY2(label->buddy(), qPrintable(label->text()));
    for (const char *name :
         {"param_init_samples", "param_k", "param_theta", "param_alpha", "param_a", "param_b", "param_w_hyp",
          "param_w_max", "param_refine_rounds", "param_h_max", "param_h_ev", "param_min_parsed", "param_seed"})
        QVERIFY2(!m_pane->findChild<QWidget *>(QString::fromLatin1(name))->toolTip().isEmpty(), name);
    // The form's spec carries them as method settings HypoEval accepts.
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    child<QLineEdit>("judgeName")->setText(QStringLiteral("h"));
    child<QSpinBox>("param_k")->setValue(7);
    child<QSpinBox>("param_min_parsed")->setValue(12);
    const auto spec = m_pane->specFromForm();
    QVERIFY2(spec, qPrintable(spec.errorString()));
    QCOMPARE(spec->method, QStringLiteral("hypoeval"));
    QCOMPARE(spec->settings.value(QStringLiteral("k")).toString(), QStringLiteral("7"));
    QCOMPARE(spec->settings.value(QStringLiteral("b")).toDouble(), 0.0625);
    QCOMPARE(spec->settings.value(QStringLiteral("min_parsed")).toString(), QStringLiteral("12"));
    QCOMPARE(HypoEvalParams::fromSettings(spec->settings)->minParsed, 12);
}

void TestRunPane::runAgainstTheFakeServerFillsTheHeatmap()
{
    HeatmapPane heatmap;
    heatmap.setProject(m_fx.project.get());
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    fillGEval(QStringLiteral("geval-ui"), QStringLiteral("fake"));

    QSignalSpy estimates(m_pane.get(), &RunPane::estimateShown);
    QTest::mouseClick(child<QPushButton>("estimateButton"), Qt::LeftButton);
    QVERIFY(estimates.wait(20000));
    const RunEstimate e = m_pane->lastEstimate();
    QVERIFY(e.exact);
    QCOMPARE(e.calls, 1 + int(m_fx.testIds.size())); // the steps, then one logprobs call per test item
    QVERIFY(child<QLabel>("estimateLabel")->text().contains(QString::number(e.calls)));
    QCOMPARE(m_server->requestCount(), 0); // an estimate sends nothing

    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(child<QPushButton>("cancelButton")->isEnabled());
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    QCOMPARE(m_server->requestCount(), e.calls); // the estimate was exact
    auto *bar = child<QProgressBar>("progressBar");
    QCOMPARE(bar->value(), bar->maximum());
    QCOMPARE(bar->maximum(), e.calls);
    QVERIFY(child<QLabel>("progressLabel")->text().contains(QString::number(e.calls)));

    // The shared score model (the heatmap's) shows the run's judge with a score per test item
    // and the criterion column of the G-Eval steps.
    ScoreModel *scores = ScoreModel::of(m_fx.project.get());
    QCOMPARE(scores->judge(), QStringLiteral("geval-ui"));
    QCOMPARE(scores->aspect(), QStringLiteral("coherence"));
    QTRY_VERIFY(scores->columnCount() > ScoreModel::FirstCriterionColumn);
    for (const QString &id : std::as_const(m_fx.testIds)) {
        const int row = scores->rowOfItem(id);
        QVERIFY(row >= 0);
        QVERIFY2(!std::isnan(scores->score(row, ScoreModel::JudgeColumn)), qPrintable(id));
        QVERIFY(!std::isnan(scores->score(row, ScoreModel::FirstCriterionColumn)));
    }
    // The run list shows it done; the message line the summary.
    auto *runs = child<QTreeWidget>("runList");
    QCOMPARE(runs->topLevelItemCount(), 1);
    QCOMPARE(runs->topLevelItem(0)->text(0), QStringLiteral("geval-ui"));
    QCOMPARE(runs->topLevelItem(0)->text(3), QStringLiteral("done"));
    QVERIFY(m_pane->messageText().contains(QString::number(m_fx.testIds.size())));
}

void TestRunPane::hypoEvalThroughTheFormSelectsFiveHypotheses()
{
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    auto *method = child<QComboBox>("method");
    method->setCurrentIndex(method->findData(QStringLiteral("hypoeval")));
    QCOMPARE(child<QStackedWidget>("methodParameters")->currentIndex(), 1);
    child<QComboBox>("aspect")->setCurrentText(QStringLiteral("coherence"));
    child<QLineEdit>("judgeName")->setText(QStringLiteral("hypo-ui"));
    auto *items = child<QComboBox>("items");
    items->setCurrentIndex(items->findData(QStringLiteral("test")));
    auto *evaluator = child<QComboBox>("evaluatorProfile");
    evaluator->setCurrentIndex(evaluator->findData(QStringLiteral("fake")));
    // Small hyperparameters, typed into the form as a user would (H_ev stays at the paper's 5).
    const auto type = [this](const char *name, const QString &value) {
        auto *box = child<QAbstractSpinBox>(name);
        box->selectAll();
        QTest::keyClicks(box, value);
        QTest::keyClick(box, Qt::Key_Tab);
    };
    type("param_init_samples", QStringLiteral("3"));
    type("param_per_call", QStringLiteral("3"));
    type("param_k", QStringLiteral("3"));
    type("param_w_max", QStringLiteral("6"));
    type("param_refine_rounds", QStringLiteral("1"));
    type("param_h_max", QStringLiteral("8"));
    QCOMPARE(child<QSpinBox>("param_k")->value(), 3);
    QCOMPARE(child<QSpinBox>("param_h_max")->value(), 8);
    QCOMPARE(child<QSpinBox>("param_h_ev")->value(), 5);
    const auto spec = m_pane->specFromForm();
    QVERIFY2(spec, qPrintable(spec.errorString()));
    QCOMPARE(spec->settings.value(QStringLiteral("refine_rounds")).toString(), QStringLiteral("1"));

    // Cold HypoEval: the estimate is a range, and the label shows both ends.
    QSignalSpy estimates(m_pane.get(), &RunPane::estimateShown);
    QTest::mouseClick(child<QPushButton>("estimateButton"), Qt::LeftButton);
    QVERIFY(estimates.wait(20000));
    const RunEstimate e = m_pane->lastEstimate();
    QVERIFY(!e.exact);
    QVERIFY2(0 < e.callsMin && e.callsMin < e.calls, qPrintable(QStringLiteral("%1–%2").arg(e.callsMin).arg(e.calls)));
    const QString label = child<QLabel>("estimateLabel")->text();
    const QLocale l;
    QVERIFY2(label.contains(QStringLiteral("%1–%2").arg(l.toString(e.callsMin), l.toString(e.calls))),
             qPrintable(label));
    QCOMPARE(m_server->requestCount(), 0);

    auto *bar = child<QProgressBar>("progressBar");
    QVector<int> maxima;
    QStringList formats;
    connect(m_pane->controller(), &RunController::progressed, this, [&] {
        maxima.append(bar->maximum());
        formats.append(bar->format());
    });
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(180000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    const int sent = m_server->requestCount();
    // While it ran, the bar counted out of the estimate's upper bound ("at most"); done, out of
    // the calls it made.
    QVERIFY(!maxima.isEmpty());
    QCOMPARE(maxima.first(), e.calls);
    QVERIFY2(formats.first().contains(QLatin1String("at most")), qPrintable(formats.first()));
    const RunProgress last = m_pane->controller()->lastProgress();
    QVERIFY(last.total >= sent);
    QCOMPARE(bar->maximum(), last.total);
    QCOMPARE(bar->value(), last.total);
    QVERIFY(!bar->format().contains(QLatin1String("at most")));
    qInfo("HypoEval through the pane: %d requests sent, estimate %d–%d", sent, e.callsMin, e.calls);
    QVERIFY2(e.callsMin <= sent && sent <= e.calls,
             qPrintable(QStringLiteral("%1 ≤ %2 ≤ %3").arg(e.callsMin).arg(sent).arg(e.calls)));

    // A rubric version with the 5 selected hypotheses, and a judge score for every target item
    // built from those 5 criteria.
    RubricStore store(m_fx.project.get());
    QVERIFY(store.latestVersion(QStringLiteral("hypo-ui")) >= 1);
    const auto rubric = store.load(QStringLiteral("hypo-ui"));
    QVERIFY2(rubric, qPrintable(rubric.errorString()));
    const QVector<Criterion> selected = rubric->enabled(CriterionKind::Hypothesis);
    QCOMPARE(selected.size(), 5);
    QSet<QString> selectedKeys;
    for (const Criterion &c : selected)
        selectedKeys.insert(c.key);
    QCOMPARE(m_fx.project->judge(QStringLiteral("hypo-ui"))->status, QStringLiteral("done"));
    // The run used the form's parameters (stored with it for resuming).
    const auto stored = RunConfig::load(m_fx.project.get(), QStringLiteral("hypo-ui"));
    QVERIFY2(stored, qPrintable(stored.errorString()));
    QCOMPARE(stored->method, QStringLiteral("hypoeval"));
    QCOMPARE(stored->settings.value(QStringLiteral("k")).toString(), QStringLiteral("3"));
    QCOMPARE(stored->settings.value(QStringLiteral("h_max")).toString(), QStringLiteral("8"));
    QCOMPARE(stored->settings.value(QStringLiteral("refine_rounds")).toString(), QStringLiteral("1"));
    const QHash<QString, double> scores
            = m_fx.project->judgeScores(QStringLiteral("hypo-ui"), QStringLiteral("coherence"));
    QCOMPARE(scores.size(), m_fx.testIds.size());
    QHash<QString, int> criteriaPerItem;
    for (const ItemCriterionScores &c : store.criterionScores(QStringLiteral("hypo-ui")))
        if (selectedKeys.contains(c.criterionKey) && !std::isnan(c.mean))
            ++criteriaPerItem[c.itemId];
    for (const QString &id : std::as_const(m_fx.testIds)) {
        QVERIFY2(scores.contains(id) && !std::isnan(scores.value(id)), qPrintable(id));
        QCOMPARE(criteriaPerItem.value(id), 5);
    }

    // Start again with the same judge: it resumes the finished run, and everything it needs
    // comes from the project's cache.
    m_server->resetCounts();
    estimates.clear();
    finished.clear();
    QVERIFY(child<QPushButton>("startButton")->isEnabled());
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    QCOMPARE(m_server->requestCount(), 0);
    QTRY_COMPARE(estimates.size(), 1);
    QVERIFY(m_pane->lastEstimate().exact);
    QCOMPARE(m_pane->lastEstimate().calls, 0);
    QCOMPARE(store.latestVersion(QStringLiteral("hypo-ui")), rubric->version());
    QCOMPARE(m_fx.project->judgeScores(QStringLiteral("hypo-ui"), QStringLiteral("coherence")), scores);
}

void TestRunPane::progressCountsOutOfTheEstimate()
{
    // G-Eval on all 54 items submits its calls in chunks (32 at this concurrency): the run reports
    // only the calls submitted so far, the bar counts out of the estimate from the start.
    addProfile(QStringLiteral("fake"), m_server->baseUrl(), 2);
    fillGEval(QStringLiteral("chunks"), QStringLiteral("fake"));
    auto *items = child<QComboBox>("items");
    items->setCurrentIndex(items->findData(QStringLiteral("all")));
    m_pane->controller()->setProgressInterval(0); // every report
    auto *bar = child<QProgressBar>("progressBar");
    struct Seen
    {
        int reported, maximum;
    };
    QVector<Seen> seen;
    // Connected after the pane's own slot: runs once the pane has shown the report.
    connect(m_pane->controller(), &RunController::progressed, this, [&](const RunProgress &p) {
        seen.append({p.total, bar->maximum()});
    });
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    const RunEstimate e = m_pane->lastEstimate();
    QVERIFY(e.exact);
    QCOMPARE(e.calls, 1 + 30 + int(m_fx.testIds.size()));
    QVERIFY(!seen.isEmpty());
    bool chunked = false;
    for (const Seen &s : std::as_const(seen)) {
        QCOMPARE(s.maximum, e.calls);
        chunked = chunked || s.reported < e.calls;
    }
    QVERIFY(chunked); // the run's own count was short of the total during the run
    QCOMPARE(bar->maximum(), e.calls);
    QCOMPARE(bar->value(), e.calls);
    QCOMPARE(m_server->requestCount(), e.calls);
}

void TestRunPane::cancelThenResumeSendsOnlyWhatIsMissing()
{
    m_server->setLatencyMs(80);
    addProfile(QStringLiteral("slow"), m_server->baseUrl(), 2);
    fillGEval(QStringLiteral("resumable"), QStringLiteral("slow"));
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    auto *bar = child<QProgressBar>("progressBar");
    QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > 1 && bar->value() >= 6, 30000);
    QTest::mouseClick(child<QPushButton>("cancelButton"), Qt::LeftButton);
    QVERIFY(finished.wait(20000));
    QVERIFY(!finished.first().at(1).toBool());
    QCOMPARE(m_fx.project->judge(QStringLiteral("resumable"))->status, QStringLiteral("cancelled"));
    QVERIFY(m_pane->messageText().contains(QLatin1String("Resume")));
    const int sentBefore = m_server->requestCount();
    QVERIFY(sentBefore < 1 + m_fx.testIds.size());

    // Select the cancelled run and resume it.
    auto *runs = child<QTreeWidget>("runList");
    QTRY_COMPARE(runs->topLevelItemCount(), 1);
    runs->setCurrentItem(runs->topLevelItem(0));
    QVERIFY(child<QPushButton>("resumeButton")->isEnabled());
    QSignalSpy estimates(m_pane.get(), &RunPane::estimateShown);
    finished.clear();
    QTest::mouseClick(child<QPushButton>("resumeButton"), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    QCOMPARE(estimates.size(), 1);
    const RunEstimate atResume = m_pane->lastEstimate();
    QVERIFY(atResume.cached >= 6); // what was answered before the cancel
    const int sentOnResume = m_server->requestCount() - sentBefore;
    QCOMPARE(sentOnResume, atResume.calls); // and only the rest was sent
    QVERIFY(sentOnResume <= 1 + m_fx.testIds.size() - 6);
    QCOMPARE(m_fx.project->judge(QStringLiteral("resumable"))->status, QStringLiteral("done"));
    QCOMPARE(m_fx.project->judgeScores(QStringLiteral("resumable"), QStringLiteral("coherence")).size(),
             m_fx.testIds.size());
}

void TestRunPane::httpErrorShowsStatusAndBodyAndAnIssue()
{
    IssuesModel issues;
    issues.setProject(m_fx.project.get());
    QCOMPARE(issues.rowCount(), 0);
    FakeAnswer bad;
    bad.httpStatus = 400;
    bad.errorMessage = QStringLiteral("max_tokens is too large for this model");
    m_server->setAnswer(bad);
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    fillGEval(QStringLiteral("broken"), QStringLiteral("fake"));
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(30000));
    QVERIFY2(!finished.first().at(1).toBool(), qPrintable(m_pane->messageText()));
    const QString message = m_pane->messageText();
    QVERIFY2(message.contains(QLatin1String("HTTP 400")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("max_tokens is too large for this model")), qPrintable(message));
    QCOMPARE(m_fx.project->judge(QStringLiteral("broken"))->status, QStringLiteral("failed"));
    // The core recorded it in the issues channel; the issues model follows.
    QTRY_VERIFY(issues.rowCount() >= 1);
    bool found = false;
    for (int r = 0; r < issues.rowCount(); ++r)
        found = found || issues.issue(r).message.contains(QLatin1String("max_tokens is too large"));
    QVERIFY(found);
    // The failed run is offered for resume.
    auto *runs = child<QTreeWidget>("runList");
    QTRY_COMPARE(runs->topLevelItemCount(), 1);
    runs->setCurrentItem(runs->topLevelItem(0));
    QVERIFY(child<QPushButton>("resumeButton")->isEnabled());
}

void TestRunPane::refusedItemIsCountedAndAskedAgainOnRequest()
{
    // One item the endpoint refuses (its context is too long): the run ends done with it counted,
    // and "Ask refused items again" with Resume asks it once more.
    QString refusedOutput;
    for (const Item &it : m_fx.project->items())
        if (it.id == m_fx.testIds.value(3))
            refusedOutput = it.output;
    QVERIFY(!refusedOutput.isEmpty());
    bool refuse = true;
    m_server->setJudge([&](const QJsonObject &body) {
        if (refuse && body.value(QStringLiteral("logprobs")).toBool() && promptText(body).contains(refusedOutput)) {
            FakeAnswer a;
            a.httpStatus = 400;
            a.errorMessage = QStringLiteral("maximum context length exceeded");
            return a;
        }
        return m_judge->answer(body);
    });
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    fillGEval(QStringLiteral("refusing"), QStringLiteral("fake"));
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(30000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(m_pane->messageText()));
    QVERIFY2(m_pane->messageText().contains(QLatin1String("refused by the endpoint"))
                     && m_pane->messageText().contains(QLatin1String("Ask refused items again")),
             qPrintable(m_pane->messageText()));
    QCOMPARE(m_fx.project->judgeScores(QStringLiteral("refusing"), QStringLiteral("coherence")).size(),
             m_fx.testIds.size() - 1);

    auto *runs = child<QTreeWidget>("runList");
    QTRY_COMPARE(runs->topLevelItemCount(), 1);
    runs->setCurrentItem(runs->topLevelItem(0));
    if (const QString dir = qEnvironmentVariable("RUBRIC_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(m_pane->grab().save(dir + QStringLiteral("/run-refused.png"))); // to look at the message
    auto *resume = child<QPushButton>("resumeButton");
    QVERIFY(!resume->isEnabled()); // a finished run is not resumed …
    child<QCheckBox>("retryFailed")->setChecked(true);
    QVERIFY(resume->isEnabled()); // … unless its refused items are to be asked again
    refuse = false;
    finished.clear();
    QTest::mouseClick(resume, Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(m_pane->messageText()));
    const QHash<QString, double> scores
            = m_fx.project->judgeScores(QStringLiteral("refusing"), QStringLiteral("coherence"));
    for (const QString &id : std::as_const(m_fx.testIds))
        QVERIFY2(scores.contains(id), qPrintable(id));
}

void TestRunPane::rescoreRebuildsTheSpecAndAsksNothingAgain()
{
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    fillGEval(QStringLiteral("again"), QStringLiteral("fake"));
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    m_pane->start();
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.first().at(1).toBool());
    const int sent = m_server->requestCount();

    // Another judge in the form; rescore("again") must rebuild "again" from its stored config.
    fillGEval(QStringLiteral("something-else"), QStringLiteral("fake"));
    child<QComboBox>("items")->setCurrentIndex(child<QComboBox>("items")->findData(QStringLiteral("all")));
    QSignalSpy estimates(m_pane.get(), &RunPane::estimateShown);
    finished.clear();
    m_pane->rescore(QStringLiteral("again"));
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.first().at(1).toBool());
    QCOMPARE(finished.first().at(0).toString(), QStringLiteral("again"));
    QCOMPARE(estimates.size(), 1);
    // The test items came from the cache; the first re-score of the steps also asks the 30
    // annotated train items, so the version's alignment is measured on the train split.
    const int train = int(m_fx.project->itemIds(SplitFilter::Train).size());
    QCOMPARE(train, 30);
    QCOMPARE(m_pane->lastEstimate().calls, train);
    QCOMPARE(m_server->requestCount(), sent + train);
    QVERIFY(RubricStore(m_fx.project.get()).versions(QStringLiteral("again")).first().alignment.has_value());
    // Once measured, a re-score asks nothing.
    finished.clear();
    estimates.clear();
    m_pane->rescore(QStringLiteral("again"));
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.first().at(1).toBool());
    QCOMPARE(estimates.size(), 1);
    QCOMPARE(m_pane->lastEstimate().calls, 0);
    QCOMPARE(m_server->requestCount(), sent + train); // everything came from the cache
    QCOMPARE(child<QLineEdit>("judgeName")->text(), QStringLiteral("again"));
    QCOMPARE(child<QComboBox>("items")->currentData().toString(), QStringLiteral("test"));
    QCOMPARE(child<QTreeWidget>("runList")->currentItem()->text(0), QStringLiteral("again"));

    // Unknown judge: an error in the message line, nothing started.
    m_pane->rescore(QStringLiteral("nobody"));
    QVERIFY(m_pane->messageText().contains(QLatin1String("nobody")));
    QVERIFY(!m_pane->controller()->isRunning());
}

void TestRunPane::anotherConfigurationAsksBeforeMixing()
{
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    fillGEval(QStringLiteral("cfg"), QStringLiteral("fake"));
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    m_pane->start();
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.first().at(1).toBool());
    const int sent = m_server->requestCount();

    // Answers the configuration box once it is up: its text is kept, `button` pressed.
    QString shown;
    const auto answer = [this, &shown](const QString &button) {
        auto *poll = new QTimer(this);
        poll->setInterval(10);
        connect(poll, &QTimer::timeout, this, [poll, &shown, button] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("configDifferenceBox"))
                return;
            poll->stop();
            poll->deleteLater();
            shown = box->informativeText();
            QAbstractButton *b
                    = button.isEmpty() ? box->button(QMessageBox::Cancel) : box->findChild<QPushButton *>(button);
            b->click();
        });
        poll->start();
    };

    // The same name with another configuration (no logprobs): the box names the difference;
    // Cancel starts nothing.
    child<QCheckBox>("param_logprobs")->setChecked(false);
    finished.clear();
    answer({});
    m_pane->start();
    QVERIFY2(shown.contains(QStringLiteral("logprobs: on (stored) → off")), qPrintable(shown));
    QVERIFY(!m_pane->controller()->isRunning());
    QCOMPARE(m_server->requestCount(), sent);
    QVERIFY(RubricStore(m_fx.project.get())
                    .runConfig(QStringLiteral("cfg"))
                    .value(QStringLiteral("logprobs"))
                    .toBool());

    // Replace: the judge starts afresh under the name with the new configuration.
    shown.clear();
    answer(QStringLiteral("replaceButton"));
    m_pane->start();
    QVERIFY(!shown.isEmpty());
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    const QVariantMap config = RubricStore(m_fx.project.get()).runConfig(QStringLiteral("cfg"));
    QVERIFY(!config.value(QStringLiteral("logprobs")).toBool());
    QCOMPARE(config.value(QStringLiteral("attempts")).toInt(), 1);
}

void TestRunPane::closingMidRunLeavesItResumable()
{
    m_server->setLatencyMs(50);
    addProfile(QStringLiteral("slow"), m_server->baseUrl(), 2);
    fillGEval(QStringLiteral("interrupted"), QStringLiteral("slow"));
    m_pane->start();
    auto *bar = child<QProgressBar>("progressBar");
    QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > 1 && bar->value() >= 3, 30000);
    m_pane.reset(); // the window goes: cancel + join in the destructor
    const auto info = m_fx.project->judge(QStringLiteral("interrupted"));
    QVERIFY(info);
    QCOMPARE(info->status, QStringLiteral("cancelled"));
    const QVariantMap config = RubricStore(m_fx.project.get()).runConfig(QStringLiteral("interrupted"));
    QVERIFY(config.value(QStringLiteral("resumable")).toBool());
}

QTEST_MAIN(TestRunPane)
#include "TestRunPane.moc"
