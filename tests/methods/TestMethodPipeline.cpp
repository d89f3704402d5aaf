#include "FakeLlmServer.h"
#include "PipelineFixture.h"
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

class TestMethodPipeline : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void hypoEvalKeepsInformativeHypotheses();
    void preparationIndependentOfTestSize();
    void hypoEvalWithLiteratureAndRoles();
    void baselineCommandStoresJudges();
    void gevalScoreIsExpectedValue();
    void estimateMatchesColdRun_data();
    void estimateMatchesColdRun();

private:
    TempProjects m_projects;
    QString nextPath() { return m_projects.next(); }
};

void TestMethodPipeline::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestMethodPipeline::hypoEvalKeepsInformativeHypotheses()
{
    auto fx = makeProject(nextPath(), 40);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());

    const Outcome o
            = runToEnd(fx->project.get(), spec(QStringLiteral("hypo"), QStringLiteral("hypoeval"), server.baseUrl()));
    QVERIFY2(o.ok, qPrintable(o.error));

    RubricStore store(fx->project.get());
    auto rubric = store.load(QStringLiteral("hypo"));
    QVERIFY(rubric.ok());
    const auto selected = rubric->enabled(CriterionKind::Hypothesis);
    QCOMPARE(selected.size(), 5);
    for (const Criterion &c : selected) {
        QVERIFY2(c.text.startsWith(QLatin1String("SIGNAL")), qPrintable(c.text));
        QVERIFY(c.stats.value(QStringLiteral("train_pearson")).toDouble() > 0.5);
        QVERIFY(!c.stats.value(QStringLiteral("reward_history")).toList().isEmpty()
                || c.origin.value(QStringLiteral("source")).toString() == QLatin1String("literature"));
        QVERIFY(!c.origin.value(QStringLiteral("source")).toString().isEmpty());
    }

    // Test split: the averaged judge beats the average single hypothesis of the bank.
    const auto scores = fx->project->judgeScores(QStringLiteral("hypo"), QStringLiteral("coherence"));
    QCOMPARE(scores.size(), fx->testIds.size());
    const double judgeR = pearsonOf(scores, *fx);
    double sumR = 0;
    int n = 0;
    for (const Criterion &c : rubric->ofKind(CriterionKind::Hypothesis)) {
        if (!c.stats.value(QStringLiteral("in_bank")).toBool())
            continue;
        QHash<QString, double> single;
        for (const QString &id : std::as_const(fx->testIds))
            single.insert(id, judge.hypothesisScore(c.text, fx->project->item(id)->output));
        const double r = pearsonOf(single, *fx);
        sumR += std::isnan(r) ? 0 : r;
        ++n;
    }
    QVERIFY(n > 5);
    qInfo("test-split Pearson: HypoEval %.3f, average single bank hypothesis %.3f (%d hypotheses)", judgeR, sumR / n,
          n);
    QVERIFY(judgeR > sumR / n);

    // Each score keeps the judge's reasoning; the evaluation made 5 calls per test item.
    const auto rows = store.criterionScores(QStringLiteral("hypo"));
    int testRows = 0;
    for (const auto &r : rows)
        if (fx->testIds.contains(r.itemId)) {
            ++testRows;
            QVERIFY(!r.reasoning.isEmpty());
            QCOMPARE(r.parseStatus, QStringLiteral("ok"));
        }
    QCOMPARE(testRows, 5 * int(fx->testIds.size()));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate")), 5 * int(fx->testIds.size()));
    QCOMPARE(fx->project->judge(QStringLiteral("hypo"))->status, QStringLiteral("done"));

    // show-rubric --json through the CLI
    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"),
              {QStringLiteral("show-rubric"), QStringLiteral("--project"), fx->project->path(),
               QStringLiteral("--judge"), QStringLiteral("hypo"), QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject shown = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(shown.value(QStringLiteral("method")).toString(), QStringLiteral("hypoeval"));
    QCOMPARE(shown.value(QStringLiteral("aspect")).toString(), QStringLiteral("coherence"));
    int enabled = 0;
    for (const auto &c : shown.value(QStringLiteral("criteria")).toArray())
        if (c.toObject().value(QStringLiteral("enabled")).toBool()
            && c.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("hypothesis")) {
            ++enabled;
            QVERIFY(c.toObject().value(QStringLiteral("stats")).toObject().contains(QStringLiteral("train_pearson")));
        }
    QCOMPARE(enabled, 5);

    QStringList report;
    const QVariantMap calls = o.summary.value(QStringLiteral("calls")).toMap();
    for (auto it = calls.begin(); it != calls.end(); ++it)
        report.append(QStringLiteral("%1=%2 (sent %3)")
                              .arg(it.key())
                              .arg(phaseCalls(o.summary, it.key()))
                              .arg(phaseCalls(o.summary, it.key(), "sent")));
    qInfo("SummEval coherence, 30 train / %d test, calls per phase: %s; requests received by the server: %d",
          int(fx->testIds.size()), qPrintable(report.join(QStringLiteral(", "))), server.requestCount());
}

void TestMethodPipeline::preparationIndependentOfTestSize()
{
    QVariantMap calls[2];
    const int sizes[2] = {20, 60};
    for (int k = 0; k < 2; ++k) {
        auto fx = makeProject(nextPath(), sizes[k]);
        QVERIFY(fx);
        SyntheticJudge judge(fx->humanByOutput);
        FakeLlmServer server;
        server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
        QVERIFY(server.listen());
        const Outcome o
                = runToEnd(fx->project.get(), spec(QStringLiteral("h"), QStringLiteral("hypoeval"), server.baseUrl()));
        QVERIFY2(o.ok, qPrintable(o.error));
        calls[k] = o.summary.value(QStringLiteral("calls")).toMap();
        QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate")), 5 * int(fx->testIds.size()));
    }
    QStringList phases = calls[0].keys();
    phases.removeAll(QStringLiteral("evaluate"));
    QCOMPARE(calls[1].keys().size(), calls[0].keys().size());
    for (const QString &phase : std::as_const(phases))
        QCOMPARE(calls[1].value(phase).toMap().value(QStringLiteral("calls")).toInt(),
                 calls[0].value(phase).toMap().value(QStringLiteral("calls")).toInt());
    QCOMPARE(calls[0].value(QStringLiteral("init")).toMap().value(QStringLiteral("calls")).toInt(), 1);
    QCOMPARE(calls[0].value(QStringLiteral("init-score")).toMap().value(QStringLiteral("calls")).toInt(), 25);
}

void TestMethodPipeline::hypoEvalWithLiteratureAndRoles()
{
    auto fx = makeProject(nextPath(), 10);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer generator, evaluator;
    generator.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    evaluator.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(generator.listen());
    QVERIFY(evaluator.listen());
    QTemporaryDir lit; // a paper the generator summarises first, and a summary written by the user
    for (const char *name : {"a.txt", "b.summary.md"}) {
        QFile f(lit.filePath(QString::fromLatin1(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Coherence is judged on the structure of the whole text.\n");
    }
    RunSpec s = spec(QStringLiteral("lit"), QStringLiteral("hypoeval"), evaluator.baseUrl());
    s.generator = s.evaluator;
    s.generator.baseUrl = generator.baseUrl(); // M_G and M_R on another endpoint than M_E
    s.generator.model = QStringLiteral("generator");
    s.refiner = s.generator;
    s.settings.insert(QStringLiteral("literature"), lit.path());
    Run probe(fx->project.get(), s);
    const auto e = probe.estimate();
    QVERIFY2(e.ok(), qPrintable(e.errorString()));
    QCOMPARE(e->perPhase.value(QStringLiteral("literature-summary")).toInt(), 1);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const int sent = generator.requestCount() + evaluator.requestCount();
    QVERIFY2(e->callsMin <= sent && sent <= e->calls,
             qPrintable(QStringLiteral("%1 ≤ %2 ≤ %3").arg(e->callsMin).arg(sent).arg(e->calls)));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("literature-summary")), 1);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("literature-only")), 1);
    const int events = phaseCalls(o.summary, QStringLiteral("wrong-generate"));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("refine")), 6 * events); // 3 data + 3 literature rounds each
    // every score went to the evaluator, every generation/refinement/redundancy call to the generator
    const int generatorCalls = 1 + 1 + events * 7 + 1 + phaseCalls(o.summary, QStringLiteral("redundancy"), "sent");
    QCOMPARE(generator.requestCount(), generatorCalls);
    QCOMPARE(evaluator.requestCount(), int(o.summary.value(QStringLiteral("sent")).toInt()) - generatorCalls);
    auto rubric = RubricStore(fx->project.get()).load(QStringLiteral("lit"));
    QVERIFY(rubric.ok());
    int literature = 0;
    for (const Criterion &c : rubric->ofKind(CriterionKind::Hypothesis))
        literature += c.origin.value(QStringLiteral("source")).toString() == QLatin1String("literature") ? 1 : 0;
    QVERIFY(literature > 0);
    QCOMPARE(rubric->enabled(CriterionKind::Hypothesis).size(), 5);
    // The rubric keeps the literature it was built from: the generator's summary of the paper
    // and the user's summary as written.
    const QVariantList papers
            = rubric->ofKind(CriterionKind::Aspect).value(0).stats.value(QStringLiteral("literature")).toList();
    QCOMPARE(papers.size(), 2);
    QCOMPARE(papers[0].toMap().value(QStringLiteral("title")).toString(), QStringLiteral("a"));
    QCOMPARE(papers[0].toMap().value(QStringLiteral("written_by")).toString(), QStringLiteral("generator"));
    QVERIFY(papers[0].toMap().value(QStringLiteral("summary")).toString().startsWith(QLatin1String("the paper finds")));
    QCOMPARE(papers[1].toMap().value(QStringLiteral("written_by")).toString(), QStringLiteral("user"));
    QCOMPARE(papers[1].toMap().value(QStringLiteral("summary")).toString(),
             QStringLiteral("Coherence is judged on the structure of the whole text."));

    // A second run of the same literature on another judge asks no summary again (cache).
    generator.resetCounts();
    RunSpec again = s;
    again.judge = QStringLiteral("lit2");
    const Outcome o2 = runToEnd(fx->project.get(), again);
    QVERIFY2(o2.ok, qPrintable(o2.error));
    QCOMPARE(phaseCalls(o2.summary, QStringLiteral("literature-summary"), "sent"), 0);
    QCOMPARE(generator.requestCount(), 0);
}

void TestMethodPipeline::baselineCommandStoresJudges()
{
    auto fx = makeProject(nextPath(), 10);
    QVERIFY(fx);
    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"),
              {QStringLiteral("baseline"), QStringLiteral("--project"), fx->project->path(), QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject out = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(out.value(QStringLiteral("judges")).toArray().size(), 4);
    const auto rl = fx->project->judgeScores(QStringLiteral("rouge-l"), QStringLiteral("coherence"));
    QCOMPARE(rl.size(), fx->project->itemCount());
    for (double v : rl)
        QVERIFY(v >= 0 && v <= 1);
}

void TestMethodPipeline::gevalScoreIsExpectedValue()
{
    auto fx = makeProject(nextPath(), 20);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("geval"), QStringLiteral("geval"), server.baseUrl());
    s.settings.insert(QStringLiteral("logprobs"), true);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const auto scores = fx->project->judgeScores(QStringLiteral("geval"), QStringLiteral("coherence"));
    QCOMPARE(scores.size(), fx->testIds.size());
    for (const QString &id : std::as_const(fx->testIds)) {
        const auto dist = judge.gevalDistribution(fx->project->item(id)->output);
        double expected = 0;
        for (int v = 1; v <= 5; ++v)
            expected += v * dist.value(v);
        QVERIFY2(std::abs(scores.value(id) - expected) < 1e-9,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(id).arg(scores.value(id)).arg(expected)));
    }
    // the auto-CoT steps are stored in the rubric
    auto rubric = RubricStore(fx->project.get()).load(QStringLiteral("geval"));
    QVERIFY(rubric.ok());
    QCOMPARE(rubric->ofKind(CriterionKind::Step).size(), 3);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("steps")), 1);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate")), int(fx->testIds.size()));
}

void TestMethodPipeline::estimateMatchesColdRun_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<bool>("logprobs");
    QTest::addColumn<int>("samples");
    QTest::newRow("geval logprobs") << "geval" << true << 1;
    QTest::newRow("geval 20 samples") << "geval" << false << 20;
    QTest::newRow("hypoeval") << "hypoeval" << false << 1;
}

void TestMethodPipeline::estimateMatchesColdRun()
{
    QFETCH(QString, method);
    QFETCH(bool, logprobs);
    QFETCH(int, samples);
    auto fx = makeProject(nextPath(), 15, true);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("e"), method, server.baseUrl());
    if (method == QLatin1String("geval")) { // G-Eval's parameters
        s.settings.insert(QStringLiteral("logprobs"), logprobs);
        s.settings.insert(QStringLiteral("samples"), samples);
    }

    Run probe(fx->project.get(), s);
    auto e = probe.estimate();
    QVERIFY2(e.ok(), qPrintable(e.errorString()));
    QCOMPARE(server.requestCount(), 0);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const int sent = server.requestCount();
    if (e->exact) {
        QCOMPARE(e->calls, sent);
        // The twin's request is sent once; the estimate counts its copy as answered from the
        // cache, as the run does (so calls + cached is every call the run answers).
        QCOMPARE(e->cached, 1);
        QCOMPARE(o.summary.value(QStringLiteral("cache_hits")).toInt(), e->cached);
    } else { // HypoEval's preparation depends on the answers: the estimate is a range
        QVERIFY2(e->callsMin <= sent && sent <= e->calls,
                 qPrintable(QStringLiteral("%1 ≤ %2 ≤ %3").arg(e->callsMin).arg(sent).arg(e->calls)));
    }
    QVERIFY(e->tokensIn > 0);
    // While it ran, every progress report's "at most so many requests in all" held, and the
    // last one (during the evaluation) was exact.
    QVERIFY(!o.sendMax.isEmpty());
    for (int most : std::as_const(o.sendMax))
        QVERIFY2(most >= sent, qPrintable(QStringLiteral("reported at most %1, sent %2").arg(most).arg(sent)));
    QCOMPARE(o.sendMax.last(), sent);

    // The same settings under another judge name: every call is in the cache, so the estimate
    // is exact (the preparation replayed through the cache) and nothing is sent.
    RunSpec twin = s;
    twin.judge = QStringLiteral("e-twin");
    Run twinProbe(fx->project.get(), twin);
    auto e3 = twinProbe.estimate();
    QVERIFY2(e3.ok(), qPrintable(e3.errorString()));
    QVERIFY(e3->exact);
    QCOMPARE(e3->calls, 0);
    server.resetCounts();
    QVERIFY(runToEnd(fx->project.get(), twin).ok);
    QCOMPARE(server.requestCount(), 0);

    // With the rubric built, the estimate of a re-score is exact and the scored items are cached;
    // the same command asks nothing it did not ask the first time (issue 33.6).
    RubricStore(fx->project.get()).clearCriterionScores(QStringLiteral("e")).ok();
    Run again(fx->project.get(), s);
    auto e2 = again.estimate();
    QVERIFY(e2.ok());
    QVERIFY(e2->exact);
    QCOMPARE(e2->calls, 0);
    QVERIFY(e2->cached > 0);
}

QTEST_GUILESS_MAIN(TestMethodPipeline)
#include "TestMethodPipeline.moc"
