// The run pane with "Provider batches" ticked (issue 16.1): a G-Eval run of 120 test items goes as
// one batch to the fake endpoint's batch interface; while it is out, the progress line names the
// batch, its state and counts; the run then finishes with one interactive call (the steps).
#include "RunFixture.h"
#include "UiTestProject.h"
#include "models/RunController.h"
#include "panes/RunPane.h"
#include "store/BatchStore.h"
#include "store/CallStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestRunPaneBatch : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { testing::isolateSettings(); }
    void batchRunShowsTheBatchWhileItIsOut();
};

void TestRunPaneBatch::batchRunShowsTheBatchWhileItIsOut()
{
    QTemporaryDir dir;
    fixture::RunProject fx = fixture::makeRunProject(dir.filePath(QStringLiteral("run.rubric")), 120);
    QCOMPARE(fx.testIds.size(), 120);
    SyntheticJudge judge(fx.humanByOutput);
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setBatchDelayMs(2500);

    RunPane pane;
    pane.setProfileSettingsFile(dir.filePath(QStringLiteral("profiles.ini")));
    pane.setProject(fx.project.get());
    pane.resize(1300, 800);
    pane.show();
    const auto child = [&pane](const char *name) {
        QWidget *w = pane.findChild<QWidget *>(QString::fromLatin1(name));
        if (!w)
            qFatal("no child %s", name);
        return w;
    };
    static_cast<QPushButton *>(child("profileNew"))->click();
    static_cast<QLineEdit *>(child("profileName"))->setText(QStringLiteral("fake"));
    static_cast<QLineEdit *>(child("profileBaseUrl"))->setText(server.baseUrl());
    static_cast<QLineEdit *>(child("profileModel"))->setText(QStringLiteral("synthetic"));
    static_cast<QComboBox *>(child("profileKeySource"))->setCurrentIndex(0);
    static_cast<QPushButton *>(child("profileSave"))->click();
    auto *method = static_cast<QComboBox *>(child("method"));
    method->setCurrentIndex(method->findData(QStringLiteral("geval")));
    static_cast<QLineEdit *>(child("judgeName"))->setText(QStringLiteral("geval-batch"));
    auto *evaluator = static_cast<QComboBox *>(child("evaluatorProfile"));
    evaluator->setCurrentIndex(evaluator->findData(QStringLiteral("fake")));
    static_cast<QCheckBox *>(child("param_logprobs"))->setChecked(true);
    static_cast<QCheckBox *>(child("batchMode"))->setChecked(true);

    QSignalSpy finished(&pane, &RunPane::runFinished);
    QTest::mouseClick(static_cast<QPushButton *>(child("startButton")), Qt::LeftButton);
    // While the batch is out, the progress line says which, in what state, and how far.
    auto *progress = static_cast<QLabel *>(child("progressLabel"));
    QTRY_VERIFY_WITH_TIMEOUT(progress->text().contains(QStringLiteral("Batch batch_1 (in_progress)")), 20000);
    QVERIFY2(progress->text().contains(QStringLiteral("/ 120 answered")), qPrintable(progress->text()));
    if (const QString shots = qEnvironmentVariable("RUBRIC_SHOT_DIR"); !shots.isEmpty())
        pane.grab().save(shots + QStringLiteral("/run-batch.png"));

    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    QVERIFY(!progress->text().contains(QStringLiteral("Batch batch_1")));
    QCOMPARE(fx.project->judgeScores(QStringLiteral("geval-batch"), QStringLiteral("coherence")).size(), 120);
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(server.batchLines(), 120);
    QCOMPARE(server.requestCount(), 1); // the evaluation steps
    const auto batches = BatchStore(fx.project.get()).batches(QStringLiteral("geval-batch"));
    QVERIFY(batches.ok());
    QCOMPARE(batches->size(), 1);
    QCOMPARE(batches->first().state, QStringLiteral("done"));
}

QTEST_MAIN(TestRunPaneBatch)
#include "TestRunPaneBatch.moc"
