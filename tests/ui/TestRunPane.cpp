// The run pane: profiles through the editor, G-Eval runs against the loopback server, progress,
// cancel and resume, HTTP errors and refusals, re-scoring, closing mid-run. The HypoEval form is in
// TestRunPaneHypoEval.cpp; the shared fixture in RunPaneFixture.h.
#include "RunPaneFixture.h"
#include "judge/ProviderProfiles.h"
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

class TestRunPane : public RunPaneFixture
{
    Q_OBJECT
private slots:
    void initTestCase() { testing::isolateSettings(); }
    void init() { setUpPane(); }
    void cleanup() { tearDownPane(); }

    void profileIsSavedAndLoadedThroughTheEditor();
    void testConnectionShowsOkOrTheError_data();
    void testConnectionShowsOkOrTheError();
    void runAgainstTheFakeServerFillsTheHeatmap();
    void progressCountsOutOfTheEstimate();
    void cancelThenResumeSendsOnlyWhatIsMissing();
    void httpErrorShowsStatusAndBodyAndAnIssue();
    void refusedItemIsCountedAndAskedAgainOnRequest();
    void rescoreRebuildsTheSpecAndAsksNothingAgain();
    void closingMidRunLeavesItResumable();
    void anotherConfigurationAsksBeforeMixing();
    void runListCountsItemsOffTheGuiThread();
};

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
    auto *structured = child<QComboBox>("profileStructured");
    QCOMPARE(structured->currentData().toString(), QStringLiteral("off"));
    structured->setCurrentIndex(structured->findData(QStringLiteral("guided_json")));
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
    QCOMPARE(p->structuredAnswers, StructuredMode::GuidedJson);
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
    QCOMPARE(other.findChild<QComboBox *>(QStringLiteral("profileStructured"))->currentData().toString(),
             QStringLiteral("guided_json"));

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
    const int answeredAtCancel = bar->value();
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
    // Every answer received before the cancel is cached: the bar counted the steps call too, which the
    // resumed run reads from its rubric (it was only ≥ 6 when one more answer came in while the cancel
    // travelled to the run's thread).
    QVERIFY2(atResume.cached >= answeredAtCancel - 1,
             qPrintable(QStringLiteral("%1 cached, %2 answered").arg(atResume.cached).arg(answeredAtCancel)));
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
    // The test items came from the cache, and a first version's re-score asks nothing it did not
    // ask the first time (issue 33.6: not the 30 train items nobody asked for).
    QCOMPARE(m_pane->lastEstimate().calls, 0);
    QCOMPARE(m_server->requestCount(), sent);
    // Again: the same.
    finished.clear();
    estimates.clear();
    m_pane->rescore(QStringLiteral("again"));
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.first().at(1).toBool());
    QCOMPARE(estimates.size(), 1);
    QCOMPARE(m_pane->lastEstimate().calls, 0);
    QCOMPARE(m_server->requestCount(), sent); // everything came from the cache
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

void TestRunPane::runListCountsItemsOffTheGuiThread()
{
    // Two imported judges; "b" has a NULL score (not counted) and a second aspect on an item it
    // scored already (counted once).
    Project *p = m_fx.project.get();
    const QStringList ids = p->itemIds();
    QVERIFY(ids.size() >= 10);
    QVERIFY(p->upsertAspect({QStringLiteral("fluency"), {}, 1, 5}).ok());
    QHash<QString, double> a, b, bFluency;
    for (int i = 0; i < 7; ++i)
        a.insert(ids[i], 3);
    for (int i = 2; i < 10; ++i)
        b.insert(ids[i], i == 5 ? qQNaN() : 2.0);
    bFluency.insert(ids[2], 4);
    bFluency.insert(ids[0], 4);
    QVERIFY(p->ensureJudge(QStringLiteral("a"), QStringLiteral("imported")).ok());
    QVERIFY(p->ensureJudge(QStringLiteral("b"), QStringLiteral("imported")).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("a"), QStringLiteral("coherence"), a).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("b"), QStringLiteral("coherence"), b).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("b"), QStringLiteral("fluency"), bFluency).ok());

    // A pane bound now lists the judges at once and counts their items on the thread pool.
    RunPane pane;
    pane.setProfileSettingsFile(m_settingsFile);
    auto *runs = pane.findChild<QTreeWidget *>(QStringLiteral("runList"));
    QVERIFY(runs);
    QSignalSpy shown(runs, SIGNAL(countsShown()));
    pane.setProject(p);
    QCOMPARE(runs->topLevelItemCount(), 2);
    QCOMPARE(runs->topLevelItem(1)->text(2), QStringLiteral("coherence, fluency"));
    QCOMPARE(runs->topLevelItem(0)->text(4), QStringLiteral("…")); // not counted on this thread
    QVERIFY(shown.wait(10000));
    QCOMPARE(runs->topLevelItem(0)->text(4), QStringLiteral("7"));
    QCOMPARE(runs->topLevelItem(1)->text(4), QStringLiteral("8")); // 8 items from 2 to 9, one NULL, one more
    // A new judge while the pane is bound: listed, then counted.
    QVERIFY(p->ensureJudge(QStringLiteral("c"), QStringLiteral("imported")).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("c"), QStringLiteral("coherence"), {{ids[3], 1.0}}).ok());
    QTRY_COMPARE(runs->topLevelItemCount(), 3);
    QTRY_COMPARE(runs->topLevelItem(2)->text(4), QStringLiteral("1"));
    // Unbinding waits for a count in flight (it reads through the project).
    pane.setProject(nullptr);
    QCOMPARE(runs->topLevelItemCount(), 0);
}
