// A killed HPSS search resumes identically: the CLI run is SIGKILLed mid-search and run again; the
// resumed search evaluates the same strategies in the same order as an uninterrupted one with the
// same seed, and no request that was answered is sent again.

#include "FakeLlmServer.h"
#include "HpssCli.h"
#include "PipelineFixture.h"
#include "ProjectTestAccess.h"
#include "SyntheticJudge.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kBudget = 25;
constexpr int kTestItems = 4;
constexpr int kValidation = 30; // the fixture's train split

} // namespace

class TestHpssResume : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void killedSearchResumesIdentically();

private:
    TempProjects m_projects;
};

void TestHpssResume::killedSearchResumesIdentically()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    auto reference = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx && reference);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setLatencyMs(2);
    QVERIFY(server.listen());
    QStringList args{QStringLiteral("run"),
                     QStringLiteral("--project"),
                     fx->project->path(),
                     QStringLiteral("--method"),
                     QStringLiteral("hpss"),
                     QStringLiteral("--aspect"),
                     QStringLiteral("coherence"),
                     QStringLiteral("--judge"),
                     QStringLiteral("k"),
                     QStringLiteral("--base-url"),
                     server.baseUrl(),
                     QStringLiteral("--model"),
                     QStringLiteral("synthetic"),
                     QStringLiteral("--concurrency"),
                     QStringLiteral("4"),
                     QStringLiteral("--set"),
                     QStringLiteral("budget=%1").arg(kBudget),
                     QStringLiteral("--json")};

    // The uninterrupted search on another project file.
    QStringList refArgs = args;
    refArgs[2] = reference->project->path();
    int rc = -1;
    cliJson(refArgs, &rc);
    QCOMPARE(rc, 0);
    const int total = server.requestCount();
    const QJsonObject refShown
            = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), reference->project->path(),
                       QStringLiteral("--judge"), QStringLiteral("k"), QStringLiteral("--json")});
    const QStringList refEvaluated = evaluatedOf(refShown);
    QCOMPARE(refEvaluated.size(), kBudget);
    server.resetCounts();

    QProcess child;
    child.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(child.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= total / 2, 60000);
    child.kill(); // SIGKILL, mid-search
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 10000);
    const int firstRun = server.requestCount();
    QVERIFY(firstRun < total);
    int cached = 0;
    {
        QSqlQuery q(ProjectTestAccess::database(*fx->project));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache")) && q.next());
        cached = q.value(0).toInt();
    }
    const auto midState = hpss::state::load(*fx->project, QStringLiteral("k"));
    QVERIFY(midState && !midState->isEmpty());
    const int evaluatedBeforeKill
            = midState->value(QStringLiteral("search")).toMap().value(QStringLiteral("evaluated")).toList().size();
    QVERIFY(evaluatedBeforeKill > 0 && evaluatedBeforeKill < kBudget);
    // The estimate after the kill: what the resumed run's auxiliary and search phases still send,
    // exactly (the pending evaluation's committed answers left out).
    const QJsonObject estimate = cliJson(args + QStringList{QStringLiteral("--estimate")}, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), firstRun); // an estimate sends nothing
    const QJsonObject phases = estimate.value(QStringLiteral("phases")).toObject();
    QVERIFY(estimate.value(QStringLiteral("exact_phases")).toArray().contains(QStringLiteral("search")));
    QVERIFY(estimate.value(QStringLiteral("exact_phases")).toArray().contains(QStringLiteral("auxiliary")));
    const int auxSearchEstimate
            = phases.value(QStringLiteral("auxiliary")).toInt() + phases.value(QStringLiteral("search")).toInt();
    server.resetCounts();

    QProcess resume;
    resume.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(resume.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(resume.state(), QProcess::NotRunning, 120000);
    QCOMPARE(resume.exitCode(), 0);
    // Nothing answered is sent again: the resumed run sends exactly what the cache lacked.
    QCOMPARE(server.requestCount(), total - cached);
    const QJsonObject shown = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), fx->project->path(),
                                       QStringLiteral("--judge"), QStringLiteral("k"), QStringLiteral("--json")});
    QCOMPARE(evaluatedOf(shown), refEvaluated); // same strategies, same order
    // The search went on from its stored state: only the strategies not yet evaluated were asked.
    const QVariantMap config = RubricStore(fx->project.get()).runConfig(QStringLiteral("k"));
    QCOMPARE(phaseCalls(config, QStringLiteral("search")), (kBudget - evaluatedBeforeKill) * kValidation);
    const int evaluateSent = phaseCalls(config, QStringLiteral("evaluate"), "sent");
    QCOMPARE(phaseCalls(config, QStringLiteral("auxiliary"), "sent")
                     + phaseCalls(config, QStringLiteral("search"), "sent"),
             auxSearchEstimate);
    QCOMPARE(server.requestCount() - evaluateSent, auxSearchEstimate);
    QVERIFY(estimate.value(QStringLiteral("calls_min")).toInt() <= server.requestCount()
            && server.requestCount() <= estimate.value(QStringLiteral("calls")).toInt());
    QCOMPARE(shown.value(QStringLiteral("strategy")).toObject(), refShown.value(QStringLiteral("strategy")).toObject());
    qInfo("SIGKILL after %d of %d requests (%d answers committed, %d strategies evaluated); estimated after the kill: "
          "%d auxiliary + search requests (exact), %d-%d in all; the resumed run sent %d (%d of them for the test "
          "split)",
          firstRun, total, cached, evaluatedBeforeKill, auxSearchEstimate,
          estimate.value(QStringLiteral("calls_min")).toInt(), estimate.value(QStringLiteral("calls")).toInt(),
          server.requestCount(), evaluateSent);
}

QTEST_GUILESS_MAIN(TestHpssResume)
#include "TestHpssResume.moc"
