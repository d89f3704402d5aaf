#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "ProjectTestAccess.h"
#include "SyntheticJudge.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <vector>

using namespace rubric;
using namespace rubric::test;

class TestRunLifecycle : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void endpointErrorsLeaveResumableRun();
    void killedRunResumesWithoutResending_data();
    void killedRunResumesWithoutResending();
    void cancelLeavesResumableRun();
    void rescoreSendsOnlyWhatAnEditChanged();
    void budgetStopsBeforeItIsPassed();
    void identicalRunOnAFinishedJudgeSendsNothing();

private:
    TempProjects m_projects;
    QString nextPath() { return m_projects.next(); }
};

void TestRunLifecycle::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestRunLifecycle::endpointErrorsLeaveResumableRun()
{
    auto fx = makeProject(nextPath(), 10);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    bool broken = true;
    server.setJudge([&](const QJsonObject &body) {
        FakeAnswer a = judge.answer(body);
        if (broken && body.value(QStringLiteral("logprobs")).toBool()) {
            a.httpStatus = 400;
            // A refusal that names no parameter the engine could send otherwise (a refused logprobs
            // is adapted to since issue 29): the run's setting stays refused.
            a.errorMessage = QStringLiteral("this deployment rejects the request: policy 17");
        }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("g"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("rejects the request: policy 17")), qPrintable(o.error));
    QCOMPARE(fx->project->judge(QStringLiteral("g"))->status, QStringLiteral("failed"));
    QVERIFY(fx->project->judgeScores(QStringLiteral("g"), QStringLiteral("coherence")).isEmpty()); // no zeros stored
    QSqlQuery q(ProjectTestAccess::database(*fx->project));
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_scores")) && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    QVERIFY(RubricStore(fx->project.get()).runConfig(QStringLiteral("g")).value(QStringLiteral("resumable")).toBool());

    broken = false;
    const int before = server.requestCount();
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(server.requestCount() - before, int(fx->testIds.size())); // the steps came from the cache
    QCOMPARE(fx->project->judgeScores(QStringLiteral("g"), QStringLiteral("coherence")).size(), fx->testIds.size());
    QCOMPARE(fx->project->judge(QStringLiteral("g"))->status, QStringLiteral("done"));
}

void TestRunLifecycle::killedRunResumesWithoutResending_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("testItems");
    QTest::addColumn<QStringList>("settings"); // KEY=VALUE, for --set and the reference run
    QTest::newRow("geval") << "geval" << 80 << QStringList();
    QTest::newRow("hypoeval") << "hypoeval" << 20 << QStringList();
    // Issue 33.6: every method, HPSS killed in its search.
    QTest::newRow("checkeval") << "checkeval" << 20
                               << QStringList{QStringLiteral("checklist=preset:summeval/coherence")};
    QTest::newRow("hdeval") << "hdeval" << 20 << QStringList{QStringLiteral("layers=1")};
    QTest::newRow("hpss") << "hpss" << 20 << QStringList{QStringLiteral("budget=30")};
}

void TestRunLifecycle::killedRunResumesWithoutResending()
{
    QFETCH(QString, method);
    QFETCH(int, testItems);
    QFETCH(QStringList, settings);
    auto fx = makeProject(nextPath(), testItems);
    QVERIFY(fx);
    const QString path = fx->project->path();
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setLatencyMs(15);
    QVERIFY(server.listen());
    QStringList args{QStringLiteral("run"),
                     QStringLiteral("--project"),
                     path,
                     QStringLiteral("--method"),
                     method,
                     QStringLiteral("--aspect"),
                     QStringLiteral("coherence"),
                     QStringLiteral("--judge"),
                     QStringLiteral("k"),
                     QStringLiteral("--base-url"),
                     server.baseUrl(),
                     QStringLiteral("--model"),
                     QStringLiteral("synthetic"),
                     QStringLiteral("--concurrency"),
                     QStringLiteral("2"),
                     QStringLiteral("--json")};
    for (const QString &kv : std::as_const(settings))
        args << QStringLiteral("--set") << kv;
    int total = 0;
    if (method == QLatin1String("geval")) {
        args << QStringLiteral("--logprobs");
        total = 1 + int(fx->testIds.size()); // steps + one call per item
        QProcess estimate;                   // --estimate on the cold cache names exactly the calls the run then makes
        estimate.start(qEnvironmentVariable("RUBRIC_CLI"), QStringList(args) << QStringLiteral("--estimate"));
        QVERIFY(estimate.waitForFinished(60000));
        QCOMPARE(estimate.exitCode(), 0);
        const QJsonObject est = QJsonDocument::fromJson(estimate.readAllStandardOutput()).object();
        QCOMPARE(est.value(QStringLiteral("calls")).toInt(), total);
        QVERIFY(est.value(QStringLiteral("exact")).toBool());
        QCOMPARE(server.requestCount(), 0);
    } else {
        // HypoEval's number of calls depends on the answers: take it from an uninterrupted
        // run of the same data on another project file.
        auto reference = makeProject(nextPath(), testItems);
        QVERIFY(reference);
        RunSpec s = spec(QStringLiteral("k"), method, server.baseUrl());
        for (const QString &kv : std::as_const(settings))
            s.settings.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        const Outcome o = runToEnd(reference->project.get(), s);
        QVERIFY2(o.ok, qPrintable(o.error));
        total = server.requestCount();
        server.resetCounts();
    }

    QProcess child;
    child.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(child.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= total / 2, 60000);
    child.kill(); // SIGKILL
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 10000);
    const int firstRun = server.requestCount();
    QVERIFY(firstRun < total);
    QCOMPARE(fx->project->judge(QStringLiteral("k"))->status, QStringLiteral("running")); // as the kill left it

    int cached = 0;
    {
        QSqlQuery q(ProjectTestAccess::database(*fx->project));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache")) && q.next());
        cached = q.value(0).toInt();
    }
    QVERIFY(cached > 0);
    server.resetCounts();

    // The estimate after the kill replays what the cache holds: it names what the resumed run
    // sends (a range only while HypoEval's preparation is not done; the run then lies inside).
    QProcess estimate;
    estimate.start(qEnvironmentVariable("RUBRIC_CLI"), QStringList(args) << QStringLiteral("--estimate"));
    QVERIFY(estimate.waitForFinished(60000));
    QCOMPARE(estimate.exitCode(), 0);
    const QJsonObject est = QJsonDocument::fromJson(estimate.readAllStandardOutput()).object();
    QCOMPARE(server.requestCount(), 0);

    QProcess resume;
    resume.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(resume.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(resume.state(), QProcess::NotRunning, 120000);
    QCOMPARE(resume.exitCode(), 0);
    // Exactly the calls whose answers were not committed before the kill are sent again.
    QCOMPARE(server.requestCount(), total - cached);
    const int resent = server.requestCount();
    if (est.value(QStringLiteral("exact")).toBool())
        QCOMPARE(est.value(QStringLiteral("calls")).toInt(), resent);
    else
        QVERIFY2(est.value(QStringLiteral("calls_min")).toInt() <= resent
                         && resent <= est.value(QStringLiteral("calls")).toInt(),
                 QJsonDocument(est).toJson().constData());
    QVERIFY(est.value(QStringLiteral("cached")).toInt() > 0);
    qInfo("%s: SIGKILL after %d requests (%d answers committed); the resumed run sent %d of %d; the estimate "
          "after the kill: %d-%d",
          qPrintable(method), firstRun, cached, server.requestCount(), total,
          est.value(QStringLiteral("calls_min")).toInt(), est.value(QStringLiteral("calls")).toInt());
    // Every test item scored (CheckEval's regression weights and HD-Eval's aggregator score the
    // annotated train items too).
    const auto scored = fx->project->judgeScores(QStringLiteral("k"), QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx->testIds))
        QVERIFY2(scored.contains(id), qPrintable(id));
    QCOMPARE(fx->project->judge(QStringLiteral("k"))->status, QStringLiteral("done"));
}

void TestRunLifecycle::cancelLeavesResumableRun()
{
    auto fx = makeProject(nextPath(), 30);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setLatencyMs(20);
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("c"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    s.evaluator.concurrency = 1;
    Run run(fx->project.get(), s);
    QSignalSpy finished(&run, &Run::finished);
    QSignalSpy progressed(&run, &Run::progressed);
    QVERIFY(run.start().ok());
    QTRY_VERIFY_WITH_TIMEOUT(progressed.count() >= 3, 30000);
    run.cancel();
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(fx->project->judge(QStringLiteral("c"))->status, QStringLiteral("cancelled"));
    const RunProgress last = progressed.last().at(0).value<RunProgress>();
    QVERIFY(last.done >= 3 && last.done < last.total + 1);
    QVERIFY(last.sent >= 3);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(fx->project->judgeScores(QStringLiteral("c"), QStringLiteral("coherence")).size(), fx->testIds.size());
}

void TestRunLifecycle::rescoreSendsOnlyWhatAnEditChanged()
{
    auto fx = makeProject(nextPath(), 10);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QString name = QStringLiteral("hypo");
    const RunSpec s = spec(name, QStringLiteral("hypoeval"), server.baseUrl());
    const int nTarget = int(fx->testIds.size());
    QCOMPARE(nTarget, 10);
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));

    RubricStore store(fx->project.get());
    auto v1 = store.load(name);
    QVERIFY(v1.ok());
    QCOMPARE(v1->version(), 1);
    const QVector<Criterion> selected = v1->enabled(CriterionKind::Hypothesis);
    QCOMPARE(selected.size(), 5);
    const QHash<QString, double> scoresV1 = fx->project->judgeScores(name, QStringLiteral("coherence"));
    QCOMPARE(scoresV1.size(), nTarget);
    // The first run kept the selection-phase scores of the whole bank (train items).
    QSet<QString> keysV1;
    for (const auto &r : store.criterionScores(name))
        keysV1.insert(r.criterionKey);
    QVERIFY(keysV1.size() > 5);

    // Edit one selected hypothesis (it now scores like noise) and save version 2.
    Rubric edited = *v1;
    const QString key = selected.first().key;
    edited.find(key)->text = QStringLiteral("NOISE edited: whether the summary reads well");
    edited.find(key)->origin.insert(QStringLiteral("edited_from"), selected.first().text);
    QCOMPARE(*store.saveVersion(name, edited, QStringLiteral("reworded one hypothesis")), 2);

    // The re-score of version 2 (no train figure yet) scores the train items too, so the
    // version's alignment is measured on the train split, as version 1's was.
    QStringList trainIds = fx->project->itemIds(SplitFilter::Train);
    const int nTrain = int(trainIds.size());
    QCOMPARE(nTrain, 30);
    server.resetCounts();
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    // one per item for the edited hypothesis; the others' train answers are the selection's
    QCOMPARE(server.requestCount(), nTarget + nTrain);
    QCOMPARE(o.summary.value(QStringLiteral("sent")).toInt(), server.requestCount());

    const QHash<QString, double> scoresV2 = fx->project->judgeScores(name, QStringLiteral("coherence"));
    QCOMPARE(scoresV2.size(), nTarget + nTrain);
    bool changed = false;
    for (const QString &id : std::as_const(fx->testIds)) {
        // the aggregate is the mean of the five enabled hypotheses' current answers
        double sum = 0;
        for (const Criterion &h : selected) {
            const QString text = h.key == key ? edited.find(key)->text : h.text;
            sum += judge.hypothesisScore(text, fx->project->item(id)->output);
        }
        QCOMPARE(scoresV2.value(id), sum / 5);
        changed = changed || scoresV2.value(id) != scoresV1.value(id);
    }
    QVERIFY(changed);
    // Only the enabled hypotheses' scores remain; the edited one only where it was re-asked.
    QSet<QString> enabledKeys;
    for (const Criterion &h : selected)
        enabledKeys.insert(h.key);
    int editedRows = 0;
    for (const auto &r : store.criterionScores(name)) {
        QVERIFY2(enabledKeys.contains(r.criterionKey), qPrintable(r.criterionKey));
        if (r.criterionKey == key) { // its train rows hold the new text's answers
            ++editedRows;
            QCOMPARE(r.mean, judge.hypothesisScore(edited.find(key)->text, fx->project->item(r.itemId)->output));
        }
    }
    QCOMPARE(editedRows, nTarget + nTrain);

    // Disable it again (version 3): no request, and the aggregate goes back to version 1's.
    Rubric disabled = edited;
    disabled.find(key)->enabled = false;
    QCOMPARE(*store.saveVersion(name, disabled, QStringLiteral("disabled the reworded hypothesis")), 3);
    server.resetCounts();
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(o.summary.value(QStringLiteral("calls"))
                     .toMap()
                     .value(QStringLiteral("evaluate"))
                     .toMap()
                     .value(QStringLiteral("cache_hits"))
                     .toInt(),
             4 * (nTarget + nTrain)); // version 3 has no train figure either: train items from the cache
    const QHash<QString, double> scoresV3 = fx->project->judgeScores(name, QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx->testIds)) {
        QCOMPARE(scoresV3.value(id), scoresV1.value(id)); // the four remaining SIGNAL hypotheses agree
    }
    int targetRows = 0;
    for (const auto &r : store.criterionScores(name)) {
        QVERIFY(r.criterionKey != key && enabledKeys.contains(r.criterionKey));
        targetRows += fx->testIds.contains(r.itemId) ? 1 : 0;
    }
    QCOMPARE(targetRows, 4 * nTarget);

    // Every version has its alignment on one basis, the train split, with the basis in its note;
    // the test figure apart (shown on request only).
    const auto versions = store.versions(name);
    QCOMPARE(versions.size(), 3);
    for (const auto &v : versions) {
        QVERIFY2(v.alignment.has_value(), qPrintable(v.note));
        QVERIFY2(v.note.contains(QLatin1String("train split")), qPrintable(v.note));
        QVERIFY2(!v.note.contains(QLatin1String("test split")), qPrintable(v.note));
        QVERIFY(v.testAlignment.has_value());
        QVERIFY2(v.testBasis.contains(QLatin1String("test split, n = 10")), qPrintable(v.testBasis));
    }
    QVERIFY(versions[1].note.startsWith(QLatin1String("reworded one hypothesis")));
    QVERIFY(versions[1].note.contains(QLatin1String("train split, n = 30")));
    QVERIFY(*versions[2].alignment > *versions[1].alignment); // noise dropped
    const auto pearsonOn = [&](const QStringList &ids, const QHash<QString, double> &judged) {
        std::vector<double> x, y;
        const auto h = fx->project->humanScores(QStringLiteral("coherence"));
        for (const QString &id : ids) {
            x.push_back(judged.value(id));
            y.push_back(h.value(id));
        }
        return stats::pearson(x, y);
    };
    QCOMPARE(*versions[2].alignment, pearsonOn(trainIds, scoresV3));
    QCOMPARE(*versions[2].testAlignment, pearsonOn(fx->testIds, scoresV3));
}

void TestRunLifecycle::identicalRunOnAFinishedJudgeSendsNothing()
{
    // Issue 33.6: the same G-Eval command on the test split, three times. Before: 10 items, then
    // 40 (the train items nobody asked for, paid), then 10 again.
    auto fx = makeProject(nextPath(), 10);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QString name = QStringLiteral("g");
    const RunSpec s = spec(name, QStringLiteral("geval"), server.baseUrl());
    QCOMPARE(s.items, SplitFilter::Test);
    QVector<int> sent, scored;
    for (int i = 0; i < 3; ++i) {
        server.resetCounts();
        const Outcome o = runToEnd(fx->project.get(), s);
        QVERIFY2(o.ok, qPrintable(o.error));
        sent << server.requestCount();
        scored << int(fx->project->judgeScores(name, QStringLiteral("coherence")).size());
    }
    QVERIFY(sent[0] > 0);
    QCOMPARE(sent[1], 0);
    QCOMPARE(sent[2], 0);
    QCOMPARE(scored, (QVector<int>{10, 10, 10}));
}

void TestRunLifecycle::budgetStopsBeforeItIsPassed()
{
    auto fx = makeProject(nextPath(), 20);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("budgeted"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    s.evaluator.pricePerMillionIn = 2.0;
    s.evaluator.pricePerMillionOut = 8.0;
    s.generator = s.evaluator;
    s.refiner = s.evaluator;
    double full = 0;
    {
        Run dry(fx->project.get(), s);
        const auto e = dry.estimate();
        QVERIFY2(e.ok(), qPrintable(e.errorString()));
        QVERIFY(e->cost > 0);
        full = e->cost;
    }
    // Half the estimate: the steps call fits, the batch of item scores does not.
    s.budget = full / 2;
    const Outcome first = runToEnd(fx->project.get(), s);
    QVERIFY(!first.ok);
    QVERIFY2(first.error.contains(QLatin1String("budget")), qPrintable(first.error));
    QVERIFY2(first.summary.value(QStringLiteral("cost")).toDouble() <= s.budget, qPrintable(first.error));
    QCOMPARE(server.requestCount(), 1); // the steps only
    QVERIFY(fx->project->judgeScores(QStringLiteral("budgeted"), QStringLiteral("coherence")).isEmpty());
    // A larger budget resumes: what was paid for is not asked again.
    s.budget = full * 10;
    const Outcome second = runToEnd(fx->project.get(), s);
    QVERIFY2(second.ok, qPrintable(second.error));
    QCOMPARE(server.requestCount(), 1 + int(fx->testIds.size()));
    QCOMPARE(fx->project->judgeScores(QStringLiteral("budgeted"), QStringLiteral("coherence")).size(),
             fx->testIds.size());
}

QTEST_GUILESS_MAIN(TestRunLifecycle)
#include "TestRunLifecycle.moc"
