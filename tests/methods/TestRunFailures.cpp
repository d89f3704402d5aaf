// Runs that meet failures (issue 11): an item the endpoint refuses does not stop the run, an error
// of the run stops it at once, and SIGKILLs at random points never make the endpoint answer more
// than what was in flight twice.

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "ProjectTestAccess.h"
#include "SyntheticJudge.h"
#include "store/RubricStore.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestRunFailures : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void refusedItemDoesNotStopTheRun_data();
    void refusedItemDoesNotStopTheRun();
    void unauthorizedStopsTheRunAtOnce();
    void refusalOfEveryRequestStopsTheRun();
    void killsAtRandomPointsPayOnlyWhatWasInFlight();
    void maxSourceTokensCutsLongSources();
    void unreadableRubricStopsTheRunBeforeAnyCall_data();
    void unreadableRubricStopsTheRunBeforeAnyCall();

private:
    TempProjects m_projects;
};

namespace {

int issuesOf(Project *project, const QString &itemId, QString *message)
{
    QSqlQuery q(ProjectTestAccess::database(*project));
    if (!q.exec(QStringLiteral("SELECT message FROM issues WHERE item_ext_id = '%1'").arg(itemId)))
        return -1;
    int n = 0;
    while (q.next()) {
        *message = q.value(0).toString();
        ++n;
    }
    return n;
}

} // namespace

void TestRunFailures::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestRunFailures::refusedItemDoesNotStopTheRun_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("items");
    QTest::newRow("geval") << "geval" << 200;
    QTest::newRow("hypoeval") << "hypoeval" << 40;
}

void TestRunFailures::refusedItemDoesNotStopTheRun()
{
    QFETCH(QString, method);
    QFETCH(int, items);
    auto fx = makeSummEvalProject(m_projects.next(), items, 4);
    QVERIFY(fx);
    QCOMPARE(fx->testIds.size(), items);
    const Item *refusedItem = nullptr;
    const QString refusedId = fx->testIds[items / 3];
    const QVector<Item> all = fx->project->items();
    for (const Item &it : all)
        if (it.id == refusedId)
            refusedItem = &it;
    QVERIFY(refusedItem);
    const QString refusedOutput = refusedItem->output;
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    bool refuse = true;
    int refusals = 0;
    server.setJudge([&](const QJsonObject &body) {
        if (refuse && promptText(body).contains(refusedOutput)) {
            ++refusals;
            FakeAnswer a;
            a.httpStatus = 400;
            a.errorMessage = QStringLiteral("This model's maximum context length is 4096 tokens. However, your "
                                            "messages resulted in 5120 tokens.");
            return a;
        }
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("j"), method, server.baseUrl());
    if (method == QLatin1String("geval"))
        s.settings.insert(QStringLiteral("logprobs"), true);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(fx->project->judge(QStringLiteral("j"))->status, QStringLiteral("done"));
    const QHash<QString, double> scores = fx->project->judgeScores(QStringLiteral("j"), QStringLiteral("coherence"));
    QCOMPARE(scores.size(), items - 1);
    QVERIFY(!scores.contains(refusedId));
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("failed")).toInt(), 1);
    QCOMPARE(result.value(QStringLiteral("scored")).toInt(), items - 1);
    const QVariantMap failedItems = o.summary.value(QStringLiteral("failed_items")).toMap();
    QCOMPARE(failedItems.keys(), QStringList{refusedId});
    QVERIFY2(failedItems.value(refusedId).toString().contains(QLatin1String("HTTP 400")), qPrintable(o.error));
    QVERIFY(failedItems.value(refusedId).toString().contains(QLatin1String("maximum context length")));
    QString message;
    QCOMPARE(issuesOf(fx->project.get(), refusedId, &message), 1); // the Issues pane lists it, with the message
    QVERIFY2(message.contains(QLatin1String("maximum context length")), qPrintable(message));
    const auto failed = RubricStore(fx->project.get()).failedItems(QStringLiteral("j"));
    QVERIFY(failed.ok());
    QCOMPARE(failed->size(), 1);

    // rubric info --json counts it.
    QProcess info;
    info.start(qEnvironmentVariable("RUBRIC_CLI"),
               {QStringLiteral("info"), QStringLiteral("--project"), fx->project->path(), QStringLiteral("--json")});
    QVERIFY(info.waitForFinished(30000));
    QCOMPARE(info.exitCode(), 0);
    const QJsonArray judges
            = QJsonDocument::fromJson(info.readAllStandardOutput()).object().value(QStringLiteral("judges")).toArray();
    QCOMPARE(judges.size(), 1);
    QCOMPARE(judges.first().toObject().value(QStringLiteral("failed_items")).toInt(), 1);

    // Running it again skips the refused item (not asked again), still done with it counted. (A
    // G-Eval re-run may score the train items once, for the version's train-split figure.)
    const int refusalsBefore = refusals;
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(refusals, refusalsBefore);
    const int before = server.requestCount();
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("failed")).toInt(), 1);
    QCOMPARE(issuesOf(fx->project.get(), refusedId, &message), 1); // not listed twice

    // --retry-failed asks it again; now the endpoint takes it.
    refuse = false;
    s.retryFailed = true;
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QVERIFY(server.requestCount() > before);
    QVERIFY(server.requestCount() - before <= 5);
    const QHash<QString, double> after = fx->project->judgeScores(QStringLiteral("j"), QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx->testIds))
        QVERIFY2(after.contains(id), qPrintable(id)); // every test item, the once-refused one too
    QVERIFY(o.summary.value(QStringLiteral("failed_items")).toMap().isEmpty());
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("failed")).toInt(), 0);
}

void TestRunFailures::unauthorizedStopsTheRunAtOnce()
{
    auto fx = makeProject(m_projects.next(), 100);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        if (body.value(QStringLiteral("logprobs")).toBool()) { // the steps pass, the scores do not
            FakeAnswer a;
            a.httpStatus = 401;
            a.errorMessage = QStringLiteral("Incorrect API key provided");
            return a;
        }
        return judge.answer(body);
    });
    server.setLatencyMs(5);
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("u"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("HTTP 401")) && o.error.contains(QLatin1String("Incorrect API key")),
             qPrintable(o.error));
    QCOMPARE(fx->project->judge(QStringLiteral("u"))->status, QStringLiteral("failed"));
    // At once: no more than what was in flight when the first 401 came back (plus the steps call).
    QVERIFY2(server.requestCount() <= 1 + s.evaluator.concurrency, qPrintable(QString::number(server.requestCount())));
    QVERIFY(RubricStore(fx->project.get()).failedItems(QStringLiteral("u"))->isEmpty()); // not the items' fault
}

void TestRunFailures::refusalOfEveryRequestStopsTheRun()
{
    // A 400 for every request is a setting the endpoint rejects, not a bad item: the run fails and
    // no item is recorded as refused (a resume asks them all).
    auto fx = makeProject(m_projects.next(), 60);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    bool broken = true;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (broken && body.value(QStringLiteral("logprobs")).toBool()) {
            a.httpStatus = 400;
            // Names no parameter the engine could send otherwise (a refused logprobs is adapted to).
            a.errorMessage = QStringLiteral("this deployment rejects the request: policy 17");
        }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("r"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("rejects the request: policy 17")), qPrintable(o.error));
    QVERIFY(server.requestCount() < 1 + 60);
    QVERIFY(RubricStore(fx->project.get()).failedItems(QStringLiteral("r"))->isEmpty());
    broken = false;
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(fx->project->judgeScores(QStringLiteral("r"), QStringLiteral("coherence")).size(), 60);
}

void TestRunFailures::killsAtRandomPointsPayOnlyWhatWasInFlight()
{
    const int items = 300, concurrency = 8, kills = 15;
    auto fx = makeSummEvalProject(m_projects.next(), items, 4);
    QVERIFY(fx);
    const QString path = fx->project->path();
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    // Every answer the endpoint gives, by request body: an answer given twice was paid twice.
    QHash<QByteArray, int> answered;
    int duplicatesThisAttempt = 0;
    server.setJudge([&](const QJsonObject &body) {
        const QByteArray key = QCryptographicHash::hash(QJsonDocument(body).toJson(QJsonDocument::Compact),
                                                        QCryptographicHash::Sha1);
        if (answered[key]++ > 0)
            ++duplicatesThisAttempt;
        return judge.answer(body);
    });
    server.setLatencyMs(10);
    QVERIFY(server.listen());
    const QStringList args{QStringLiteral("run"),
                           QStringLiteral("--project"),
                           path,
                           QStringLiteral("--method"),
                           QStringLiteral("geval"),
                           QStringLiteral("--aspect"),
                           QStringLiteral("coherence"),
                           QStringLiteral("--judge"),
                           QStringLiteral("k"),
                           QStringLiteral("--base-url"),
                           server.baseUrl(),
                           QStringLiteral("--model"),
                           QStringLiteral("synthetic"),
                           QStringLiteral("--concurrency"),
                           QString::number(concurrency),
                           QStringLiteral("--logprobs"),
                           QStringLiteral("--json")};
    QRandomGenerator rng(20261125);
    QVector<int> perKill;
    int killed = 0;
    while (killed < kills) {
        QProcess child;
        duplicatesThisAttempt = 0;
        const int start = server.requestCount();
        const int after = 1 + int(rng.bounded(30)); // requests this attempt sends before it is killed
        // Killed from the server's own signal, at exactly that request (a poll would come late).
        const QMetaObject::Connection trigger
                = connect(&server, &FakeLlmServer::requestReceived, &child, [&child, start, after](int count) {
                      if (count >= start + after && child.state() == QProcess::Running)
                          child.kill(); // SIGKILL
                  });
        child.start(qEnvironmentVariable("RUBRIC_CLI"), args);
        QVERIFY(child.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 60000);
        disconnect(trigger);
        if (child.exitStatus() == QProcess::NormalExit)
            break; // the run finished before this kill
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 10000);
        perKill.append(duplicatesThisAttempt); // paid again for what the kill before this attempt lost
        ++killed;
    }
    QVERIFY2(killed == kills, "the run ended before every kill: give it more items");
    duplicatesThisAttempt = 0;
    QProcess resume;
    resume.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(resume.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(resume.state(), QProcess::NotRunning, 120000);
    QCOMPARE(resume.exitCode(), 0);
    perKill.append(duplicatesThisAttempt);
    int total = 0;
    for (int d : std::as_const(perKill)) {
        QVERIFY2(d <= concurrency, qPrintable(QStringLiteral("answered twice after one kill: %1").arg(d)));
        total += d;
    }
    qInfo("%d kills at 8 in flight: answers paid twice per kill %s (%d in all, %d distinct answers)", kills,
          qPrintable([&] {
              QStringList l;
              for (int d : std::as_const(perKill))
                  l << QString::number(d);
              return l.join(QLatin1Char(' '));
          }()),
          total, int(answered.size()));
    QCOMPARE(fx->project->judgeScores(QStringLiteral("k"), QStringLiteral("coherence")).size(), items);
    QCOMPARE(fx->project->judge(QStringLiteral("k"))->status, QStringLiteral("done"));
    QSqlQuery q(ProjectTestAccess::database(*fx->project));
    QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
}

void TestRunFailures::maxSourceTokensCutsLongSources()
{
    auto fx = makeProject(m_projects.next(), 10);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    int longest = 0;
    server.setJudge([&](const QJsonObject &body) {
        if (body.value(QStringLiteral("logprobs")).toBool())
            longest = std::max(longest, int(promptText(body).size()));
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("m"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const int uncut = longest;
    longest = 0;
    RunSpec cut = s;
    cut.judge = QStringLiteral("m-cut");
    cut.settings.insert(QStringLiteral("max_source_tokens"), QStringLiteral("50"));
    o = runToEnd(fx->project.get(), cut);
    QVERIFY2(o.ok, qPrintable(o.error));
    QVERIFY2(longest > 0 && longest < uncut - 1000, qPrintable(QStringLiteral("%1 vs %2").arg(longest).arg(uncut)));
    // The run records it with its settings.
    QCOMPARE(RubricStore(fx->project.get())
                     .runConfig(QStringLiteral("m-cut"))
                     .value(QStringLiteral("settings"))
                     .toMap()
                     .value(QStringLiteral("max_source_tokens"))
                     .toString(),
             QStringLiteral("50"));
    cut.settings.insert(QStringLiteral("max_source_tokens"), QStringLiteral("none"));
    cut.judge = QStringLiteral("m-bad");
    o = runToEnd(fx->project.get(), cut);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("max_source_tokens")), qPrintable(o.error));
}

QTEST_GUILESS_MAIN(TestRunFailures)
#include "TestRunFailures.moc"

void TestRunFailures::unreadableRubricStopsTheRunBeforeAnyCall_data()
{
    QTest::addColumn<QString>("method");
    QTest::newRow("geval") << QStringLiteral("geval");
    QTest::newRow("hypoeval") << QStringLiteral("hypoeval");
}

void TestRunFailures::unreadableRubricStopsTheRunBeforeAnyCall()
{
    // Issue 18.8: a judge whose rubric cannot be read is not a judge without one. Before, G-Eval
    // and HypoEval read the failed load as "no rubric yet" and paid for the steps (or the whole
    // preparation) again.
    QFETCH(QString, method);
    auto fx = makeSummEvalProject(m_projects.next(), 6, 4);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("u"), method, server.baseUrl());
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const int sent = server.requestCount();
    QVERIFY(sent > 0);

    QSqlQuery q(ProjectTestAccess::database(*fx->project));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
    QVERIFY(q.exec(QStringLiteral("DROP TABLE criteria")));
    s.retryFailed = true;
    {
        // The estimate says it cannot read the judge, instead of counting the steps or the
        // preparation as if they were still to be paid for.
        Run run(fx->project.get(), s);
        const auto e = run.estimate();
        QVERIFY(!e.ok());
        QVERIFY2(e.errorString().contains(QLatin1String("criteria")), qPrintable(e.errorString()));
    }
    o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    // Stopped at reading: it did not go on to ask again (here the cache would have answered) and
    // to write a second rubric version.
    QVERIFY2(o.error.contains(QLatin1String("criteria")), qPrintable(o.error));
    QVERIFY2(!o.error.contains(QLatin1String("INSERT")), qPrintable(o.error));
    QCOMPARE(server.requestCount(), sent); // nothing asked again
}
