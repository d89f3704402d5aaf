#include "FakeLlmServer.h"
#include "SyntheticJudge.h"
#include "runs/Run.h"
#include "stats/Correlation.h"
#include "store/Project.h"
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

namespace {

// SummEval coherence (resources/example/summeval.json): every 8th item, the first 30 train.
struct Fixture
{
    std::unique_ptr<Project> project;
    QHash<QString, double> humanByOutput;
    QStringList testIds;
};

// `duplicate`: one more test item repeating the first test item's source and output (the same
// prompt, sent once).
std::unique_ptr<Fixture> makeProject(const QString &path, int testItems, bool duplicate = false)
{
    auto fx = std::make_unique<Fixture>();
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/resources/example/summeval.json"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).array();
    auto p = Project::open(path);
    if (!p)
        return nullptr;
    fx->project = std::move(p).value();
    QVector<Item> items;
    QVector<Annotation> notes;
    QHash<QString, SplitRole> split;
    const int wanted = 30 + testItems;
    for (int i = 0; i < rows.size() && items.size() < wanted; i += 8) {
        const QJsonObject o = rows[i].toObject();
        Item it;
        it.id = QStringLiteral("se%1").arg(i);
        it.group = o.value(QStringLiteral("doc_id")).toString();
        it.system = o.value(QStringLiteral("system_id")).toString();
        it.source = o.value(QStringLiteral("source")).toString();
        it.output = o.value(QStringLiteral("system_output")).toString().trimmed();
        it.reference = o.value(QStringLiteral("reference")).toString();
        it.position = int(items.size());
        if (fx->humanByOutput.contains(it.output))
            continue; // identical outputs would make the synthetic judge ambiguous
        const double human = o.value(QStringLiteral("scores")).toObject().value(QStringLiteral("coherence")).toDouble();
        fx->humanByOutput.insert(it.output, human);
        notes.append(Annotation{it.id, QStringLiteral("coherence"), QStringLiteral("experts"), human, {}, {}});
        split.insert(it.id, items.size() < 30 ? SplitRole::Train : SplitRole::Test);
        if (items.size() >= 30)
            fx->testIds.append(it.id);
        items.append(it);
    }
    if (duplicate && items.size() > 30) {
        Item twin = items[30];
        twin.id += QStringLiteral("-twin");
        twin.position = int(items.size());
        notes.append(Annotation{twin.id,
                                QStringLiteral("coherence"),
                                QStringLiteral("experts"),
                                fx->humanByOutput.value(twin.output),
                                {},
                                {}});
        split.insert(twin.id, SplitRole::Test);
        fx->testIds.append(twin.id);
        items.append(twin);
    }
    if (!fx->project->addItems(items)
        || !fx->project->upsertAspect(
                Aspect{QStringLiteral("coherence"),
                       QStringLiteral("the quality of all sentences collectively, focusing on how well "
                                      "they fit together and sound natural as a whole"),
                       1, 5})
        || !fx->project->addAnnotations(notes) || !fx->project->setSplit(split))
        return nullptr;
    return fx;
}

RunSpec spec(const QString &judge, const QString &method, const QString &baseUrl)
{
    RunSpec s;
    s.judge = judge;
    s.method = method;
    s.aspect = QStringLiteral("coherence");
    s.evaluator.name = QStringLiteral("fake");
    s.evaluator.baseUrl = baseUrl;
    s.evaluator.model = QStringLiteral("synthetic");
    s.evaluator.concurrency = 8;
    s.evaluator.maxRetries = 1;
    return s;
}

struct Outcome
{
    bool ok = false;
    QString error;
    QVariantMap summary;
};

Outcome runToEnd(Project *project, const RunSpec &s)
{
    Run run(project, s);
    QSignalSpy finished(&run, &Run::finished);
    Outcome o;
    auto started = run.start();
    if (!started) {
        o.error = started.errorString();
        return o;
    }
    if (finished.isEmpty() && !finished.wait(240000)) {
        o.error = QStringLiteral("timeout");
        return o;
    }
    o.ok = finished.first().at(0).toBool();
    o.error = finished.first().at(1).toString();
    o.summary = run.summary();
    return o;
}

int phaseCalls(const QVariantMap &summary, const QString &phase, const char *what = "calls")
{
    return summary.value(QStringLiteral("calls")).toMap().value(phase).toMap().value(QString::fromLatin1(what)).toInt();
}

double pearsonOf(const QHash<QString, double> &scores, Fixture &fx)
{
    std::vector<double> x, y;
    const auto human = fx.project->humanScores(QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx.testIds))
        if (scores.contains(id)) {
            x.push_back(scores.value(id));
            y.push_back(human.value(id));
        }
    return stats::pearson(x, y);
}

} // namespace

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
    void endpointErrorsLeaveResumableRun();
    void killedRunResumesWithoutResending_data();
    void killedRunResumesWithoutResending();
    void cancelLeavesResumableRun();
    void rescoreSendsOnlyWhatAnEditChanged();
    void budgetStopsBeforeItIsPassed();

private:
    QTemporaryDir m_dir;
    int m_projects = 0;
    QString nextPath() { return m_dir.filePath(QStringLiteral("p%1.rubric").arg(++m_projects)); }
};

void TestMethodPipeline::initTestCase()
{
    QVERIFY(m_dir.isValid());
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
    QTemporaryDir lit;
    for (const char *name : {"a.txt", "b.md"}) {
        QFile f(lit.filePath(QString::fromLatin1(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Coherence is judged on the structure of the whole text.\n");
    }
    RunSpec s = spec(QStringLiteral("lit"), QStringLiteral("hypoeval"), evaluator.baseUrl());
    s.generator = s.evaluator;
    s.generator.baseUrl = generator.baseUrl(); // M_G and M_R on another endpoint than M_E
    s.generator.model = QStringLiteral("generator");
    s.refiner = s.generator;
    s.literatureDir = lit.path();
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("literature-only")), 1);
    const int events = phaseCalls(o.summary, QStringLiteral("wrong-generate"));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("refine")), 6 * events); // 3 data + 3 literature rounds each
    // every score went to the evaluator, every generation/refinement/redundancy call to the generator
    const int generatorCalls = 1 + events * 7 + 1 + phaseCalls(o.summary, QStringLiteral("redundancy"), "sent");
    QCOMPARE(generator.requestCount(), generatorCalls);
    QCOMPARE(evaluator.requestCount(), int(o.summary.value(QStringLiteral("sent")).toInt()) - generatorCalls);
    auto rubric = RubricStore(fx->project.get()).load(QStringLiteral("lit"));
    QVERIFY(rubric.ok());
    int literature = 0;
    for (const Criterion &c : rubric->ofKind(CriterionKind::Hypothesis))
        literature += c.origin.value(QStringLiteral("source")).toString() == QLatin1String("literature") ? 1 : 0;
    QVERIFY(literature > 0);
    QCOMPARE(rubric->enabled(CriterionKind::Hypothesis).size(), 5);
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
    s.logprobs = true;
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
    s.logprobs = logprobs;
    s.samples = samples;

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

    // With the rubric built, the estimate of a re-score is exact and everything is cached.
    RubricStore(fx->project.get()).clearCriterionScores(QStringLiteral("e")).ok();
    Run again(fx->project.get(), s);
    auto e2 = again.estimate();
    QVERIFY(e2.ok());
    QVERIFY(e2->exact);
    QCOMPARE(e2->calls, 0);
    QVERIFY(e2->cached > 0);
}

void TestMethodPipeline::endpointErrorsLeaveResumableRun()
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
            a.errorMessage = QStringLiteral("model 'synthetic' does not support logprobs");
        }
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("g"), QStringLiteral("geval"), server.baseUrl());
    s.logprobs = true;
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("does not support logprobs")), qPrintable(o.error));
    QCOMPARE(fx->project->judge(QStringLiteral("g"))->status, QStringLiteral("failed"));
    QVERIFY(fx->project->judgeScores(QStringLiteral("g"), QStringLiteral("coherence")).isEmpty()); // no zeros stored
    QSqlQuery q(fx->project->database());
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

void TestMethodPipeline::killedRunResumesWithoutResending_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("testItems");
    QTest::newRow("geval") << "geval" << 80;
    QTest::newRow("hypoeval") << "hypoeval" << 20;
}

void TestMethodPipeline::killedRunResumesWithoutResending()
{
    QFETCH(QString, method);
    QFETCH(int, testItems);
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
        QSqlQuery q(fx->project->database());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache")) && q.next());
        cached = q.value(0).toInt();
    }
    QVERIFY(cached > 0);
    server.resetCounts();

    QProcess resume;
    resume.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(resume.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(resume.state(), QProcess::NotRunning, 120000);
    QCOMPARE(resume.exitCode(), 0);
    // Exactly the calls whose answers were not committed before the kill are sent again.
    QCOMPARE(server.requestCount(), total - cached);
    qInfo("%s: SIGKILL after %d requests (%d answers committed); the resumed run sent %d of %d", qPrintable(method),
          firstRun, cached, server.requestCount(), total);
    QCOMPARE(fx->project->judgeScores(QStringLiteral("k"), QStringLiteral("coherence")).size(), fx->testIds.size());
    QCOMPARE(fx->project->judge(QStringLiteral("k"))->status, QStringLiteral("done"));
}

void TestMethodPipeline::cancelLeavesResumableRun()
{
    auto fx = makeProject(nextPath(), 30);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setLatencyMs(20);
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("c"), QStringLiteral("geval"), server.baseUrl());
    s.logprobs = true;
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

void TestMethodPipeline::rescoreSendsOnlyWhatAnEditChanged()
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

    server.resetCounts();
    o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(server.requestCount(), nTarget); // one per target item for the edited hypothesis
    QCOMPARE(o.summary.value(QStringLiteral("sent")).toInt(), nTarget);

    const QHash<QString, double> scoresV2 = fx->project->judgeScores(name, QStringLiteral("coherence"));
    QCOMPARE(scoresV2.size(), nTarget);
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
        if (r.criterionKey == key) { // its train rows (old text) are gone
            ++editedRows;
            QVERIFY(fx->testIds.contains(r.itemId));
            QCOMPARE(r.mean, judge.hypothesisScore(edited.find(key)->text, fx->project->item(r.itemId)->output));
        }
    }
    QCOMPARE(editedRows, nTarget);

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
             4 * nTarget);
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

    // Every version has its alignment, with the basis in its note.
    const auto versions = store.versions(name);
    QCOMPARE(versions.size(), 3);
    for (const auto &v : versions)
        QVERIFY2(v.alignment.has_value(), qPrintable(v.note));
    QVERIFY(versions[0].note.contains(QLatin1String("train split")));
    QVERIFY(versions[1].note.startsWith(QLatin1String("reworded one hypothesis")));
    QVERIFY(versions[1].note.contains(QLatin1String("test split, n = 10")));
    QVERIFY(*versions[2].alignment > *versions[1].alignment); // noise dropped
    QCOMPARE(*versions[2].alignment, stats::pearson(
                                             [&] {
                                                 std::vector<double> v;
                                                 for (const QString &id : std::as_const(fx->testIds))
                                                     v.push_back(scoresV3.value(id));
                                                 return v;
                                             }(),
                                             [&] {
                                                 std::vector<double> v;
                                                 const auto h = fx->project->humanScores(QStringLiteral("coherence"));
                                                 for (const QString &id : std::as_const(fx->testIds))
                                                     v.push_back(h.value(id));
                                                 return v;
                                             }()));
}

void TestMethodPipeline::budgetStopsBeforeItIsPassed()
{
    auto fx = makeProject(nextPath(), 20);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("budgeted"), QStringLiteral("geval"), server.baseUrl());
    s.logprobs = true;
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

QTEST_GUILESS_MAIN(TestMethodPipeline)
#include "TestMethodPipeline.moc"
