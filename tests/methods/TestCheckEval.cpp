// CheckEval end to end against the loopback fake endpoint's synthetic judge (tests/support):
// answering, scores, coverage, re-asks, call counts against the estimate, the cache, and a SIGKILL
// and resume through the CLI. Generation (augment, filter), weights and the preset CLI run are in
// TestCheckEvalGenerate.cpp.
#include "CheckEvalTestUtil.h"
#include "JudgedProject.h"
#include "PipelineFixture.h"
#include "ProjectTestAccess.h"
#include "data/Aspect.h"
#include "methods/PromptLibrary.h"
#include "methods/checkeval/CheckEvalMethod.h"
#include "methods/checkeval/CheckEvalParams.h"
#include "methods/checkeval/ChecklistAnswers.h"
#include "store/RubricStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlQuery>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestCheckEval : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void parsesAnswersStrictly();
    void paramsRefuseBadValues();
    void answerPromptFollowsTheItem();
    void answerCallIsTheAuthorsSingleUserMessage();
    void signalQuestionsCarryTheScore();
    void silentQuestionLowersCoverageNotScore();
    void callsMatchEstimate_data();
    void callsMatchEstimate();
    void badChecklistLeavesProjectUnchanged();
    void rescoreAsksOnlyWhatAnEditChanged();
    void killedRunResumesWithoutResending();

private:
    TempProjects m_projects;
    QTemporaryDir m_files;
};

void TestCheckEval::initTestCase()
{
    QVERIFY(m_projects.isValid());
    QVERIFY(m_files.isValid());
}

void TestCheckEval::parsesAnswersStrictly()
{
    const auto a = checkeval::parseAnswers(
            QStringLiteral("Q1: Yes\n  q2) no\nQ3: not sure\nQ4 - YES, because\nQ5: eyes\nQ1: no\nQ9: yes\nQ6. No"), 6);
    QCOMPARE(a.size(), 4);
    QCOMPARE(a.value(1), true); // the first answer of an index counts
    QCOMPARE(a.value(2), false);
    QVERIFY(!a.contains(3)); // "not" is no "no"
    QCOMPARE(a.value(4), true);
    QVERIFY(!a.contains(5)); // "eyes" is no "yes"
    QCOMPARE(a.value(6), false);
    QVERIFY(!a.contains(9)); // beyond the questions asked
    QVERIFY(checkeval::parseAnswers(QStringLiteral("Yes, yes and no."), 3).isEmpty());
}

void TestCheckEval::paramsRefuseBadValues()
{
    auto d = CheckEvalParams::fromSettings({});
    QVERIFY(d.ok());
    QCOMPARE(d->groupName(), QStringLiteral("sub-aspect"));
    QCOMPARE(d->maxTokens, 200);
    QVERIFY(!d->filter); // no augmentation, no filter
    auto aug = CheckEvalParams::fromSettings({{QStringLiteral("augment"), QStringLiteral("both")}});
    QVERIFY(aug.ok() && aug->filter && aug->diversify && aug->elaborate);
    for (const auto &[key, value] :
         QList<QPair<QString, QString>>{{QStringLiteral("group"), QStringLiteral("batch")},
                                        {QStringLiteral("augment"), QStringLiteral("yes")},
                                        {QStringLiteral("elaborate_min"), QStringLiteral("0")},
                                        {QStringLiteral("missing"), QStringLiteral("zero")},
                                        {QStringLiteral("colour"), QStringLiteral("red")}}) {
        auto p = CheckEvalParams::fromSettings({{key, value}});
        QVERIFY2(!p.ok(), qPrintable(key));
        QVERIFY2(p.errorString().contains(key), qPrintable(p.errorString()));
    }
    auto range = CheckEvalParams::fromSettings({{QStringLiteral("elaborate_min"), QStringLiteral("5")},
                                                {QStringLiteral("elaborate_max"), QStringLiteral("4")}});
    QVERIFY(!range.ok());
}

void TestCheckEval::answerPromptFollowsTheItem()
{
    // SummEval-style: the article and the summary, the questions numbered, the answer format.
    auto t = PromptLibrary::builtin(QStringLiteral("checkeval_answer"));
    QVERIFY(t.ok());
    const Aspect aspect{QStringLiteral("coherence"), QStringLiteral("how the sentences fit"), 1, 5};
    QVariantMap c = PromptLibrary::taskContext(QStringLiteral("summarization"), aspect);
    const QVariantList qs{QVariantMap{{QStringLiteral("index"), 1}, {QStringLiteral("text"), QStringLiteral("Is A?")}},
                          QVariantMap{{QStringLiteral("index"), 2}, {QStringLiteral("text"), QStringLiteral("Is B?")}}};
    c.insert(QStringLiteral("questions"), qs);
    c.insert(QStringLiteral("has_source"), true);
    c.insert(QStringLiteral("source"), QStringLiteral("THE ARTICLE"));
    c.insert(QStringLiteral("output"), QStringLiteral("THE SUMMARY"));
    auto r = PromptLibrary::render(*t, c);
    QVERIFY(r.ok());
    const QString user = r->messages.last().content;
    for (const char *part :
         {"### Task Overview ###", "Coherence - how the sentences fit", "Q1: [Your Answer]", "Q2: [Your Answer]",
          "### Source Text ###\n\"THE ARTICLE\"", "### Summary ###\n\"THE SUMMARY\"", "Q1: Is A?\nQ2: Is B?",
          "following the specified Answer Format"})
        QVERIFY2(user.contains(QString::fromUtf8(part)), part);
    QVERIFY(!user.contains(QLatin1String("Fact")));
    QVERIFY(!user.contains(QLatin1String("unanswered before")));
    // Topical-Chat-style: the conversation, the fact, the response; the re-ask line.
    QVariantMap d = PromptLibrary::taskContext(QStringLiteral("dialogue"), aspect);
    d.insert(QStringLiteral("dialogue"), true);
    d.insert(QStringLiteral("questions"), qs);
    d.insert(QStringLiteral("has_source"), true);
    d.insert(QStringLiteral("source"), QStringLiteral("A: hi"));
    d.insert(QStringLiteral("has_fact"), true);
    d.insert(QStringLiteral("fact"), QStringLiteral("THE FACT"));
    d.insert(QStringLiteral("output"), QStringLiteral("B: hello"));
    d.insert(QStringLiteral("reask"), true);
    auto dr = PromptLibrary::render(*t, d);
    QVERIFY(dr.ok());
    const QString du = dr->messages.last().content;
    for (const char *part : {"conversation between two individuals", "interesting fact", "### Fact ###\n\"THE FACT\"",
                             "### Response ###\n\"B: hello\"", "unanswered before"})
        QVERIFY2(du.contains(QString::fromUtf8(part)), part);
}

void TestCheckEval::answerCallIsTheAuthorsSingleUserMessage()
{
    // Issue 30.7: the authors send one user message (Gemma-2 on vLLM refuses a system role) with
    // a fixed seed; the filter prompt names the benchmark and its key metrics.
    auto env = judgedProject(m_projects.next(), 4);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    server.setModelKind(FakeModelKind::RefusesSystemRole);
    server.setRecording(true);
    const QString path
            = writeChecklist(m_files.path(), QStringLiteral("gemma_seed.yaml"),
                             {{QStringLiteral("Signal part"), kSignal}, {QStringLiteral("Noise part"), kNoise}});
    RunSpec s = spec(QStringLiteral("gemma"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    s.settings.insert(QStringLiteral("filter"), QStringLiteral("on"));
    s.settings.insert(QStringLiteral("benchmark"), QStringLiteral("SummEval"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(server.refusedCount(), 0);
    int answers = 0, filters = 0;
    for (const RecordedRequest &r : server.recorded()) {
        const QJsonObject body = QJsonDocument::fromJson(r.body).object();
        const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
        QCOMPARE(body.value(QStringLiteral("seed")).toInteger(-1), 0);
        const QString prompt = promptText(body);
        // Every call, answering or generating, is one user message, as the paper's prompts are.
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.first().toObject().value(QStringLiteral("role")).toString(), QStringLiteral("user"));
        if (prompt.contains(QLatin1String("### Answer Format ###"))) {
            ++answers;
        } else if (prompt.contains(QLatin1String("Filter out questions"))) {
            ++filters;
            QVERIFY2(prompt.contains(QLatin1String("- Name: SummEval")), qPrintable(prompt));
            QVERIFY2(prompt.contains(QLatin1String("- Key metrics: ")), qPrintable(prompt));
        }
    }
    QCOMPARE(answers, itemsAnswered(*fx) * 2);
    QCOMPARE(filters, 1);
}

void TestCheckEval::signalQuestionsCarryTheScore()
{
    auto env = judgedProject(m_projects.next(), 40);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QString mixed
            = writeChecklist(m_files.path(), QStringLiteral("coherence_seed.yaml"),
                             {{QStringLiteral("Signal part"), kSignal}, {QStringLiteral("Noise part"), kNoise}});
    const QString noise = writeChecklist(m_files.path(), QStringLiteral("noise_seed.yaml"),
                                         {{QStringLiteral("Noise part"), kNoise}});
    RunSpec s = spec(QStringLiteral("ce"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), mixed);
    const auto est = Run(fx->project.get(), s).estimate();
    QVERIFY2(est.ok(), qPrintable(est.errorString()));
    QCOMPARE(server.requestCount(), 0);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    // One call per item and sub-aspect, as estimated.
    QCOMPARE(est->calls, itemsAnswered(*fx) * 2);
    QVERIFY(est->exact);
    QCOMPARE(server.requestCount(), est->calls);

    RunSpec n = spec(QStringLiteral("noise"), QStringLiteral("checkeval"), server.baseUrl());
    n.settings.insert(QStringLiteral("checklist"), noise);
    const Outcome on = runToEnd(fx->project.get(), n);
    QVERIFY2(on.ok, qPrintable(on.error));
    const double r = pearsonOf(fx->project->judgeScores(QStringLiteral("ce"), QStringLiteral("coherence")), *fx);
    const double rNoise
            = pearsonOf(fx->project->judgeScores(QStringLiteral("noise"), QStringLiteral("coherence")), *fx);
    qInfo("test-split Pearson: checklist (3 SIGNAL + 3 NOISE) %.3f, NOISE only %.3f", r, rNoise);
    QVERIFY(r > 0.6);
    QVERIFY(r > rNoise + 0.4);

    // Discrimination (train split) ranks the SIGNAL questions first.
    RubricStore store(fx->project.get());
    auto rubric = store.load(QStringLiteral("ce"));
    QVERIFY(rubric.ok());
    QCOMPARE(rubric->version(), 1);
    QVector<double> sig, noi;
    for (const Criterion &q : rubric->enabled(CriterionKind::Question)) {
        QVERIFY2(q.stats.contains(QStringLiteral("yes_rate")), qPrintable(q.text));
        QCOMPARE(q.stats.value(QStringLiteral("answered")).toInt(), itemsAnswered(*fx));
        const double d = q.stats.value(QStringLiteral("discrimination"), -1.0).toDouble();
        (q.text.contains(QLatin1String("SIGNAL")) ? sig : noi).append(d);
    }
    QCOMPARE(sig.size(), 3);
    QCOMPARE(noi.size(), 3);
    const double auc = aucOf(sig, noi);
    qInfo("discrimination AUC, SIGNAL over NOISE: %.3f", auc);
    QVERIFY(auc >= 0.9);
    // Every answer stored as 1/0, coverage 1.
    const auto rows = store.sampleScores(QStringLiteral("ce"));
    QCOMPARE(rows.size(), itemsAnswered(*fx) * 6);
    for (const CriterionScore &row : rows) {
        QCOMPARE(row.parseStatus, QStringLiteral("ok"));
        QVERIFY(row.score == 0 || row.score == 1);
    }
    for (double c : checkeval::checklistCoverage(*rubric, rows))
        QCOMPARE(c, 1.0);
    // The version's alignment is recorded on the train split.
    QVERIFY(store.versions(QStringLiteral("ce")).last().alignment.has_value());

    // The same checklist under another judge name on the same endpoint: all from the cache.
    server.resetCounts();
    RunSpec again = s;
    again.judge = QStringLiteral("ce2");
    QVERIFY(runToEnd(fx->project.get(), again).ok);
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(fx->project->judgeScores(QStringLiteral("ce2"), QStringLiteral("coherence")),
             fx->project->judgeScores(QStringLiteral("ce"), QStringLiteral("coherence")));
}

void TestCheckEval::silentQuestionLowersCoverageNotScore()
{
    auto env = judgedProject(m_projects.next(), 20);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QStringList base{kSignal[0], kSignal[1], kNoise[0], QStringLiteral("Is SHY the ending right?")};
    const QString plain
            = writeChecklist(m_files.path(), QStringLiteral("plain_seed.yaml"), {{QStringLiteral("Part"), base}});
    const QString silent = writeChecklist(
            m_files.path(), QStringLiteral("silent_seed.yaml"),
            {{QStringLiteral("Part"), QStringList(base) << QStringLiteral("Is SILENT the tone even?")}});
    RunSpec a = spec(QStringLiteral("plain"), QStringLiteral("checkeval"), server.baseUrl());
    a.settings.insert(QStringLiteral("checklist"), plain);
    QVERIFY(runToEnd(fx->project.get(), a).ok);
    const int items = itemsAnswered(*fx);
    // SHY is left out of each first answer: one re-ask per item, which answers it.
    QCOMPARE(server.requestCount(), 2 * items);
    server.resetCounts();
    RunSpec b = spec(QStringLiteral("silent"), QStringLiteral("checkeval"), server.baseUrl());
    b.settings.insert(QStringLiteral("checklist"), silent);
    const Outcome o = runToEnd(fx->project.get(), b);
    QVERIFY2(o.ok, qPrintable(o.error));
    // One call per item, then exactly one re-ask per item for SHY and SILENT together.
    QCOMPARE(server.requestCount(), 2 * items);
    QCOMPARE(result(o).value(QStringLiteral("reasked_calls")).toInt(), items);
    QCOMPARE(result(o).value(QStringLiteral("unanswered")).toInt(), items);
    // The scores are those without the silent question; coverage is 4/5.
    QCOMPARE(fx->project->judgeScores(QStringLiteral("silent"), QStringLiteral("coherence")),
             fx->project->judgeScores(QStringLiteral("plain"), QStringLiteral("coherence")));
    RubricStore store(fx->project.get());
    auto rubric = store.load(QStringLiteral("silent"));
    QVERIFY(rubric.ok());
    const auto rows = store.sampleScores(QStringLiteral("silent"));
    const auto coverage = checkeval::checklistCoverage(*rubric, rows);
    QCOMPARE(coverage.size(), items);
    for (double c : coverage)
        QCOMPARE(c, 0.8);
    int unparsed = 0, shyYes = 0;
    for (const CriterionScore &r : rows) {
        const QString text = rubric->find(r.criterionKey)->text;
        if (text.contains(QLatin1String("SILENT"))) {
            QVERIFY(std::isnan(r.score));
            QCOMPARE(r.parseStatus, QStringLiteral("unparsed"));
            QVERIFY(r.raw.contains(QLatin1String("asked again"))); // both answers kept
            ++unparsed;
        } else if (text.contains(QLatin1String("SHY"))) {
            QCOMPARE(r.parseStatus, QStringLiteral("ok"));
            shyYes += r.score == 1;
        }
    }
    QCOMPARE(unparsed, items);
    QCOMPARE(shyYes, items);
    const auto silentQ = std::find_if(rubric->criteria().begin(), rubric->criteria().end(),
                                      [](const Criterion &c) { return c.text.contains(QLatin1String("SILENT")); });
    QCOMPARE(silentQ->stats.value(QStringLiteral("answered")).toInt(), 0);

    // The strict policy counts it as "no": every score drops by the same factor 4/5.
    server.resetCounts();
    RunSpec strict = b;
    strict.judge = QStringLiteral("strict");
    strict.settings.insert(QStringLiteral("missing"), QStringLiteral("no"));
    QVERIFY(runToEnd(fx->project.get(), strict).ok);
    QCOMPARE(server.requestCount(), 0);
    const auto skip = fx->project->judgeScores(QStringLiteral("silent"), QStringLiteral("coherence"));
    const auto strictScores = fx->project->judgeScores(QStringLiteral("strict"), QStringLiteral("coherence"));
    for (auto it = skip.begin(); it != skip.end(); ++it)
        QVERIFY(std::abs(strictScores.value(it.key()) - it.value() * 0.8) < 1e-9);
}

void TestCheckEval::callsMatchEstimate_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<int>("groups");
    QTest::newRow("sub-aspect") << "sub-aspect" << 2;
    QTest::newRow("aspect") << "aspect" << 1;
    QTest::newRow("question") << "question" << 6;
}

void TestCheckEval::callsMatchEstimate()
{
    QFETCH(QString, group);
    QFETCH(int, groups);
    auto env = judgedProject(m_projects.next(), 10);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QString path
            = writeChecklist(m_files.path(), QStringLiteral("coherence_seed.yaml"),
                             {{QStringLiteral("Signal part"), kSignal}, {QStringLiteral("Noise part"), kNoise}});
    RunSpec s = spec(QStringLiteral("g"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    s.settings.insert(QStringLiteral("group"), group);
    const auto est = Run(fx->project.get(), s).estimate();
    QVERIFY2(est.ok(), qPrintable(est.errorString()));
    QCOMPARE(est->calls, itemsAnswered(*fx) * groups);
    QCOMPARE(est->perPhase.value(QStringLiteral("evaluate")).toInt(), est->calls);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(server.requestCount(), est->calls);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate")), est->calls);
    QCOMPARE(result(o).value(QStringLiteral("groups")).toInt(), groups);
    // Once done, the estimate of a re-run is 0 calls (all cached).
    const auto after = Run(fx->project.get(), s).estimate();
    QVERIFY(after.ok());
    QCOMPARE(after->calls, 0);
}

void TestCheckEval::badChecklistLeavesProjectUnchanged()
{
    auto fx = makeProject(m_projects.next(), 5);
    QVERIFY(fx);
    FakeLlmServer server;
    QVERIFY(server.listen());
    const QString path = m_files.filePath(QStringLiteral("broken_seed.yaml"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("definition: x\nsub_aspect:\n  Part:\n    Is it fine?\n  - [unclosed\n");
    f.close();
    RunSpec s = spec(QStringLiteral("bad"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("broken_seed.yaml")), qPrintable(o.error));
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(RubricStore(fx->project.get()).latestVersion(QStringLiteral("bad")), 0);
    QVERIFY2(!fx->project->judge(QStringLiteral("bad")), "a refused checklist must not create the judge");
    // No checklist at all: a message that says how to give one.
    RunSpec none = spec(QStringLiteral("none"), QStringLiteral("checkeval"), server.baseUrl());
    const Outcome o2 = runToEnd(fx->project.get(), none);
    QVERIFY(!o2.ok);
    QVERIFY2(o2.error.contains(QLatin1String("--checklist")), qPrintable(o2.error));
    QVERIFY(!fx->project->judge(QStringLiteral("none")));
    // checklist_from a judge that does not exist names it.
    none.settings.insert(QStringLiteral("checklist_from"), QStringLiteral("ghost"));
    const Outcome o3 = runToEnd(fx->project.get(), none);
    QVERIFY(!o3.ok);
    QVERIFY2(o3.error.contains(QLatin1String("ghost")), qPrintable(o3.error));
}

void TestCheckEval::rescoreAsksOnlyWhatAnEditChanged()
{
    auto env = judgedProject(m_projects.next(), 10);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QString path
            = writeChecklist(m_files.path(), QStringLiteral("coherence_seed.yaml"),
                             {{QStringLiteral("Signal part"), kSignal}, {QStringLiteral("Noise part"), kNoise}});
    RunSpec s = spec(QStringLiteral("e"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    QVERIFY(runToEnd(fx->project.get(), s).ok);
    const int items = itemsAnswered(*fx);
    QCOMPARE(server.requestCount(), 2 * items);

    // The studio's edit: a NOISE question disabled (a new version). Only the Noise group's prompt
    // changed: one call per item for it, none for the Signal group.
    RubricStore store(fx->project.get());
    auto rubric = store.load(QStringLiteral("e"));
    QVERIFY(rubric.ok());
    QString disabled;
    for (Criterion &c : rubric->criteria())
        if (c.text == kNoise[1]) {
            c.enabled = false;
            disabled = c.key;
        }
    QVERIFY(!disabled.isEmpty());
    QVERIFY(store.saveVersion(QStringLiteral("e"), *rubric, QStringLiteral("edited")).ok());
    server.resetCounts();
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(server.requestCount(), items);
    QCOMPARE(result(o).value(QStringLiteral("rubric_version")).toInt(), 2);
    // The disabled question's answers are gone; the others are there for every item.
    const auto rows = store.sampleScores(QStringLiteral("e"));
    QCOMPARE(rows.size(), 5 * items);
    for (const CriterionScore &r : rows)
        QVERIFY(r.criterionKey != disabled);
    // The stats are the edited version's.
    auto v2 = store.load(QStringLiteral("e"), 2);
    QVERIFY(v2.ok());
    for (const Criterion &q : v2->enabled(CriterionKind::Question))
        QCOMPARE(q.stats.value(QStringLiteral("answered")).toInt(), items);
    QVERIFY(!v2->find(disabled)->stats.contains(QStringLiteral("yes_rate")));
}

void TestCheckEval::killedRunResumesWithoutResending()
{
    auto env = judgedProject(m_projects.next(), 40);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    server.setLatencyMs(15);
    const QString path
            = writeChecklist(m_files.path(), QStringLiteral("coherence_seed.yaml"),
                             {{QStringLiteral("Signal part"), kSignal}, {QStringLiteral("Noise part"), kNoise}});
    const QStringList args{QStringLiteral("run"),
                           QStringLiteral("--project"),
                           fx->project->path(),
                           QStringLiteral("--method"),
                           QStringLiteral("checkeval"),
                           QStringLiteral("--aspect"),
                           QStringLiteral("coherence"),
                           QStringLiteral("--judge"),
                           QStringLiteral("k"),
                           QStringLiteral("--base-url"),
                           server.baseUrl(),
                           QStringLiteral("--model"),
                           QStringLiteral("synthetic"),
                           QStringLiteral("--checklist"),
                           path,
                           QStringLiteral("--set"),
                           QStringLiteral("group=question"),
                           QStringLiteral("--concurrency"),
                           QStringLiteral("2"),
                           QStringLiteral("--json")};
    const int total = itemsAnswered(*fx) * 6;
    int rc = -1;
    const QJsonObject cold = cliJson(QStringList(args) << QStringLiteral("--estimate"), &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(cold.value(QStringLiteral("calls")).toInt(), total);
    QCOMPARE(server.requestCount(), 0);

    QProcess child;
    child.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(child.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= total / 2, 60000);
    child.kill(); // SIGKILL
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 10000);
    const int firstRun = server.requestCount();
    QVERIFY(firstRun < total);
    int cached = 0;
    {
        QSqlQuery q(ProjectTestAccess::database(*fx->project));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache")) && q.next());
        cached = q.value(0).toInt();
    }
    QVERIFY(cached > 0);
    server.resetCounts();
    const QJsonObject est = cliJson(QStringList(args) << QStringLiteral("--estimate"), &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);
    QProcess resume;
    resume.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(resume.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(resume.state(), QProcess::NotRunning, 120000);
    QCOMPARE(resume.exitCode(), 0);
    qInfo("SIGKILL after %d of %d requests (%d answers committed); the resumed run sent %d (estimate %d)", firstRun,
          total, cached, server.requestCount(), est.value(QStringLiteral("calls")).toInt());
    QCOMPARE(server.requestCount(), total - cached);
    QCOMPARE(est.value(QStringLiteral("calls")).toInt(), total - cached);
    QCOMPARE(RubricStore(fx->project.get()).sampleScores(QStringLiteral("k")).size(), total);
    QCOMPARE(fx->project->judge(QStringLiteral("k"))->status, QStringLiteral("done"));
}

QTEST_MAIN(TestCheckEval)
#include "TestCheckEval.moc"
