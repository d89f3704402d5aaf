// Issue 29: the run pane against the endpoints of today's models — an OpenAI reasoning model
// refuses max_tokens and temperature 0 and spends a small budget on hidden thinking. The run
// finishes, and the pane and Test connection say what was adapted and why.

#include "RunPaneFixture.h"
#include "models/RunController.h"
#include "panes/RunPane.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestRunPaneEndpoints : public RunPaneFixture
{
    Q_OBJECT
private slots:
    void initTestCase() { testing::isolateSettings(); }
    void init() { setUpPane(); }
    void cleanup() { tearDownPane(); }

    void reasoningEndpointRunSaysWhatWasAdapted();
    void testConnectionSaysWhatWasAdapted();
};

void TestRunPaneEndpoints::reasoningEndpointRunSaysWhatWasAdapted()
{
    m_server->setModelKind(FakeModelKind::OpenAiReasoning);
    addProfile(QStringLiteral("o-series"), m_server->baseUrl());
    fillGEval(QStringLiteral("reasoning"), QStringLiteral("o-series"));
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    const QString message = m_pane->messageText();
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(message));
    for (const char *part : {"Adapted to the endpoint", "max_completion_tokens", "temperature 0 refused",
                             "logprobs refused", "reasoning model"})
        QVERIFY2(message.contains(QLatin1String(part)),
                 qPrintable(QString::fromLatin1(part) + QStringLiteral(" in: ") + message));
    // Every test item scored, from the samples the endpoint could give without logprobs.
    const QHash<QString, double> scores
            = m_fx.project->judgeScores(QStringLiteral("reasoning"), QStringLiteral("coherence"));
    for (const QString &id : std::as_const(m_fx.testIds))
        QVERIFY2(scores.contains(id), qPrintable(id));
    auto *runs = child<QTreeWidget>("runList");
    QTRY_COMPARE(runs->topLevelItemCount(), 1);
    runs->setCurrentItem(runs->topLevelItem(0));
    if (const QString dir = qEnvironmentVariable("RUBRIC_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(m_pane->grab().save(dir + QStringLiteral("/run-reasoning.png"))); // to look at the message
}

void TestRunPaneEndpoints::testConnectionSaysWhatWasAdapted()
{
    m_server->setModelKind(FakeModelKind::OpenAiReasoning);
    addProfile(QStringLiteral("o-series"), m_server->baseUrl());
    QTest::mouseClick(child<QPushButton>("testConnection"), Qt::LeftButton);
    auto *result = child<QLabel>("connectionResult");
    QTRY_VERIFY2_WITH_TIMEOUT(result->text().contains(QLatin1String("max_completion_tokens")),
                              qPrintable(result->text()), 20000);
}

QTEST_MAIN(TestRunPaneEndpoints)
#include "TestRunPaneEndpoints.moc"
