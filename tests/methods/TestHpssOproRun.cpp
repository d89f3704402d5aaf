// The OPRO-style search through the CLI on the synthetic judge (issue 32): the evaluator proposes
// every strategy after the initialisation through the same engine (cached, budgeted), and a run
// killed mid-search resumes to the same proposals and winner without sending an answered request
// again. The counts are recomputed from the stored log: one proposal per iteration, one call per
// validation item for each strategy that was new.

#include "FakeLlmServer.h"
#include "HpssCli.h"
#include "PipelineFixture.h"
#include "ProjectTestAccess.h"
#include "SyntheticJudge.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kBudget = 31; // 21 initial evaluations, 10 iterations
constexpr int kTestItems = 4;
constexpr int kValidation = 30; // the fixture's train split

QJsonArray oproLogOf(const QJsonObject &shown)
{
    return shown.value(QStringLiteral("search")).toObject().value(QStringLiteral("opro_log")).toArray();
}

} // namespace

class TestHpssOproRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void proposalsAreBudgetedCachedAndResumed();

private:
    TempProjects m_projects;
};

void TestHpssOproRun::proposalsAreBudgetedCachedAndResumed()
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
                     QStringLiteral("o"),
                     QStringLiteral("--base-url"),
                     server.baseUrl(),
                     QStringLiteral("--model"),
                     QStringLiteral("synthetic"),
                     QStringLiteral("--concurrency"),
                     QStringLiteral("4"),
                     QStringLiteral("--set"),
                     QStringLiteral("search=opro"),
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
                       QStringLiteral("--judge"), QStringLiteral("o"), QStringLiteral("--json")});
    const QJsonArray refLog = oproLogOf(refShown);
    QCOMPARE(refLog.size(), kBudget - 21); // one proposal per iteration
    int fresh = 0;
    for (const auto &e : refLog) {
        const QString outcome = e.toObject().value(QStringLiteral("outcome")).toString();
        QVERIFY2(QStringList({QStringLiteral("new"), QStringLiteral("repeat"), QStringLiteral("unreadable"),
                              QStringLiteral("outside")})
                         .contains(outcome),
                 qPrintable(outcome));
        fresh += outcome == QLatin1String("new") ? 1 : 0;
    }
    QVERIFY(fresh > 0);
    const QStringList refEvaluated = evaluatedOf(refShown);
    QCOMPARE(refEvaluated.size(), 21 + fresh);
    // The search phase's calls: one per iteration's proposal, one per validation item and new strategy.
    const QVariantMap refConfig = RubricStore(reference->project.get()).runConfig(QStringLiteral("o"));
    QCOMPARE(phaseCalls(refConfig, QStringLiteral("search")), (kBudget - 21) + (21 + fresh) * kValidation);
    // The winner: the first of the highest validation Spearman of the stored evaluations.
    double best = -2;
    QString bestName;
    for (const auto &e :
         refShown.value(QStringLiteral("search")).toObject().value(QStringLiteral("evaluated")).toArray())
        if (e.toObject().value(QStringLiteral("validation_spearman")).toDouble() > best) {
            best = e.toObject().value(QStringLiteral("validation_spearman")).toDouble();
            bestName = hpss::PromptStrategy::fromVariant(e.toObject().value(QStringLiteral("strategy")).toVariant())
                               ->format();
        }
    QCOMPARE(hpss::PromptStrategy::fromVariant(refShown.value(QStringLiteral("strategy")).toVariant())->format(),
             bestName);
    QCOMPARE(refShown.value(QStringLiteral("validation_spearman")).toDouble(), best);

    // Run again: everything comes from the cache and the stored state.
    server.resetCounts();
    cliJson(refArgs, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);

    // Killed mid-search, then resumed: the same proposals and winner, nothing answered sent again.
    server.resetCounts();
    QProcess child;
    child.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(child.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= total * 3 / 4, 60000);
    child.kill();
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 10000);
    QVERIFY(server.requestCount() < total);
    int cached = 0;
    {
        QSqlQuery q(ProjectTestAccess::database(*fx->project));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache")) && q.next());
        cached = q.value(0).toInt();
    }
    // The estimate after the kill replays the cached proposals and evaluations: an upper bound of
    // what the resumed run sends (a repeated proposal evaluates nothing), and it sends nothing itself.
    server.resetCounts();
    const QJsonObject estimate = cliJson(args + QStringList{QStringLiteral("--estimate")}, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);
    cliJson(args, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), total - cached);
    QVERIFY2(estimate.value(QStringLiteral("calls_min")).toInt() <= server.requestCount()
                     && server.requestCount() <= estimate.value(QStringLiteral("calls")).toInt(),
             qPrintable(QStringLiteral("estimate %1-%2, sent %3")
                                .arg(estimate.value(QStringLiteral("calls_min")).toInt())
                                .arg(estimate.value(QStringLiteral("calls")).toInt())
                                .arg(server.requestCount())));
    const QJsonObject shown = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), fx->project->path(),
                                       QStringLiteral("--judge"), QStringLiteral("o"), QStringLiteral("--json")});
    QCOMPARE(evaluatedOf(shown), refEvaluated);
    QCOMPARE(oproLogOf(shown), refLog);
    QCOMPARE(shown.value(QStringLiteral("strategy")).toObject(), refShown.value(QStringLiteral("strategy")).toObject());
    qInfo("OPRO, budget %d: %d of %d proposals new, %d requests in all; killed after %d answers, the resumed run "
          "sent %d",
          kBudget, fresh, kBudget - 21, total, cached, server.requestCount());
}

QTEST_GUILESS_MAIN(TestHpssOproRun)
#include "TestHpssOproRun.moc"
