#include "RunFixture.h"
#include "models/RunController.h"
#include "models/ScoreModel.h"
#include "store/RubricStore.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestRunController : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void runsOffTheGuiThreadWithCoalescedProgress();
    void refusedSpecFinishesWithTheError();
    void supersededEstimatesAreDropped();
    void shutdownMidRunJoinsAndLeavesItResumable();
    void shutdownWithoutARunIsHarmless();

private:
    RunSpec spec(const QString &judge, int concurrency = 4) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    fixture::RunProject m_fx;
    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<SyntheticJudge> m_judge;
};

void TestRunController::init()
{
    qRegisterMetaType<rubric::RunProgress>();
    qRegisterMetaType<rubric::RunEstimate>();
    m_dir = std::make_unique<QTemporaryDir>();
    m_fx = fixture::makeRunProject(m_dir->filePath(QStringLiteral("c.rubric")), 40);
    m_judge = std::make_unique<SyntheticJudge>(m_fx.humanByOutput);
    m_server = std::make_unique<FakeLlmServer>();
    QVERIFY(m_server->listen());
    m_server->setJudge([this](const QJsonObject &body) { return m_judge->answer(body); });
}

void TestRunController::cleanup()
{
    m_server.reset();
    m_fx.project.reset();
    m_dir.reset();
}

RunSpec TestRunController::spec(const QString &judge, int concurrency) const
{
    RunSpec s;
    s.judge = judge;
    s.method = QStringLiteral("geval");
    s.aspect = QStringLiteral("coherence");
    s.settings.insert(QStringLiteral("logprobs"), true);
    s.evaluator.name = QStringLiteral("fake");
    s.evaluator.baseUrl = m_server->baseUrl();
    s.evaluator.model = QStringLiteral("synthetic");
    s.evaluator.concurrency = concurrency;
    s.evaluator.maxRetries = 1;
    s.generator = s.refiner = s.evaluator;
    return s;
}

void TestRunController::runsOffTheGuiThreadWithCoalescedProgress()
{
    m_server->setLatencyMs(20);
    RunController c;
    c.setProject(m_fx.project.get());
    c.setProgressInterval(100);
    QThread *runThread = nullptr;
    // The project's change signals come from the thread that wrote: the run's.
    connect(
            m_fx.project.get(), &Project::judgesChanged, this, [&runThread] { runThread = QThread::currentThread(); },
            Qt::DirectConnection);
    QSignalSpy progressed(&c, &RunController::progressed);
    QSignalSpy finished(&c, &RunController::finished);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(c.start(spec(QStringLiteral("bg"), 2)));
    QVERIFY(c.isRunning());
    QVERIFY(!c.start(spec(QStringLiteral("second")))); // one at a time
    QVERIFY(finished.wait(60000));
    const qint64 elapsed = clock.elapsed();
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    QCOMPARE(finished.first().at(0).toString(), QStringLiteral("bg"));
    QVERIFY(runThread && runThread != QThread::currentThread());
    // 41 answers, but at most one report per 100 ms (plus the last one).
    QVERIFY(progressed.size() >= 1);
    QVERIFY2(progressed.size() <= elapsed / 100 + 2,
             qPrintable(QStringLiteral("%1 reports in %2 ms").arg(progressed.size()).arg(elapsed)));
    const auto last = progressed.last().first().value<RunProgress>();
    QCOMPARE(last.done, 1 + int(m_fx.testIds.size()));
    QCOMPARE(last.total, last.done);
    QCOMPARE(last.sent, m_server->requestCount());
    QVERIFY(!c.isRunning());
    // The shared score model was pointed at the run and reloaded at the end.
    ScoreModel *scores = ScoreModel::of(m_fx.project.get());
    QCOMPARE(scores->judge(), QStringLiteral("bg"));
    QVERIFY(scores->columnCount() > ScoreModel::FirstCriterionColumn);
}

void TestRunController::refusedSpecFinishesWithTheError()
{
    RunController c;
    c.setProject(m_fx.project.get());
    RunSpec s = spec(QStringLiteral("x"));
    s.aspect = QStringLiteral("no-such-aspect");
    QSignalSpy finished(&c, &RunController::finished);
    QVERIFY(c.start(s));
    QVERIFY(finished.wait(20000));
    QVERIFY(!finished.first().at(1).toBool());
    QVERIFY2(finished.first().at(2).toString().contains(QLatin1String("no-such-aspect")),
             qPrintable(finished.first().at(2).toString()));
    QVERIFY(!c.isRunning());
    QCOMPARE(m_server->requestCount(), 0);
}

void TestRunController::supersededEstimatesAreDropped()
{
    RunController c;
    c.setProject(m_fx.project.get());
    QSignalSpy estimated(&c, &RunController::estimated);
    const quint64 first = c.estimate(spec(QStringLiteral("e1")));
    RunSpec all = spec(QStringLiteral("e2"));
    all.items = SplitFilter::All;
    const quint64 second = c.estimate(all);
    QVERIFY(second > first);
    // Estimates are answered in order: had the superseded one been reported, it would be first.
    QVERIFY(estimated.wait(20000));
    QCOMPARE(estimated.size(), 1);
    QCOMPARE(estimated.first().at(0).toULongLong(), second);
    QCOMPARE(estimated.first().at(1).value<RunEstimate>().calls, 1 + 30 + int(m_fx.testIds.size()));
}

void TestRunController::shutdownMidRunJoinsAndLeavesItResumable()
{
    m_server->setLatencyMs(60);
    auto c = std::make_unique<RunController>();
    c->setProject(m_fx.project.get());
    QSignalSpy progressed(c.get(), &RunController::progressed);
    QVERIFY(c->start(spec(QStringLiteral("half"), 2)));
    // done counts the steps call too: 4 answered = the steps and three scores, each committed
    // before it was counted.
    QTRY_VERIFY_WITH_TIMEOUT(!progressed.isEmpty() && progressed.last().first().value<RunProgress>().done >= 4, 30000);
    QSignalSpy finished(c.get(), &RunController::finished);
    c->shutdown(); // blocks until the worker has cancelled and destroyed the run
    QCOMPARE(finished.size(), 1);
    QVERIFY(!c->isRunning());
    QCOMPARE(m_fx.project->judge(QStringLiteral("half"))->status, QStringLiteral("cancelled"));
    c.reset();
    // The requests the shutdown aborted reach the server's counters once it has read their
    // connections, which the shutdown closed.
    QTRY_COMPARE_WITH_TIMEOUT(m_server->openConnections(), 0, 10000);

    // Started again under the same name it resumes: answered calls are not sent again.
    const int before = m_server->requestCount();
    m_server->setLatencyMs(0);
    RunController again;
    again.setProject(m_fx.project.get());
    QSignalSpy estimated(&again, &RunController::estimated);
    QSignalSpy done(&again, &RunController::finished);
    again.estimate(spec(QStringLiteral("half")));
    QVERIFY(estimated.wait(20000));
    const RunEstimate e = estimated.first().at(1).value<RunEstimate>();
    QVERIFY(e.cached >= 3);
    QVERIFY(again.start(spec(QStringLiteral("half"))));
    QVERIFY(done.wait(60000));
    QVERIFY(done.first().at(1).toBool());
    QCOMPARE(m_server->requestCount() - before, e.calls);
}

void TestRunController::shutdownWithoutARunIsHarmless()
{
    RunController c;
    c.shutdown();
    c.setProject(m_fx.project.get());
    c.shutdown();
    QSignalSpy finished(&c, &RunController::finished);
    c.cancel();
    QCOMPARE(finished.size(), 0);
    QVERIFY(!c.isRunning());
    QCOMPARE(c.etaSeconds(), -1.0);
}

QTEST_MAIN(TestRunController)
#include "TestRunController.moc"
