// CheckEval's generation against the synthetic judge: diversify / elaborate and the filter, a
// filter answer that is not JSON, regression weights, and the published preset run through the CLI.
#include "CheckEvalTestUtil.h"
#include "JudgedProject.h"
#include "PipelineFixture.h"
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

class TestCheckEvalGenerate : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void augmentationAndFilter();
    void filterAnswerThatIsNotJsonFailsThePhase();
    void regressionWeights();
    void augmentationReadsMarkdownOutlines();
    void regressionLeavesFailedItemsUnscored();
    void cliPresetRunAndShowRubric();

private:
    TempProjects m_projects;
    QTemporaryDir m_files;
};

void TestCheckEvalGenerate::initTestCase()
{
    QVERIFY(m_projects.isValid());
    QVERIFY(m_files.isValid());
}

void TestCheckEvalGenerate::augmentationAndFilter()
{
    auto env = judgedProject(m_projects.next(), 5);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QString path = writeChecklist(
            m_files.path(), QStringLiteral("coherence_seed.yaml"),
            {{QStringLiteral("Topic"),
              {QStringLiteral("Is SIGNAL3 the topic kept?"), QStringLiteral("Is NOISE the focus tight?")}},
             {QStringLiteral("Flow"),
              {QStringLiteral("Is SIGNAL2 the order logical?"), QStringLiteral("Is DROPME the flow smooth?")}}});
    RunSpec s = spec(QStringLiteral("aug"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    s.settings.insert(QStringLiteral("augment"), QStringLiteral("both"));
    const auto est = Run(fx->project.get(), s).estimate();
    QVERIFY2(est.ok(), qPrintable(est.errorString()));
    QVERIFY(!est->exact);
    QCOMPARE(est->perPhase.value(QStringLiteral("diversify")).toInt(), 1);
    QCOMPARE(est->perPhase.value(QStringLiteral("elaborate")).toInt(), 2);
    QCOMPARE(est->perPhase.value(QStringLiteral("filter")).toInt(), 1);
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("diversify")), 1);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("elaborate")), 2);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("filter")), 1);

    RubricStore store(fx->project.get());
    QCOMPARE(store.latestVersion(QStringLiteral("aug")), 2); // the checklist, then augmented + filtered
    auto rubric = store.load(QStringLiteral("aug"));
    QVERIFY(rubric.ok());
    QMap<QString, int> stages;
    int disabled = 0;
    for (const Criterion &q : rubric->ofKind(CriterionKind::Question)) {
        const QString stage = q.origin.value(QStringLiteral("stage")).toString();
        ++stages[stage];
        if (stage == QLatin1String("elaboration")) {
            const Criterion *seed = rubric->find(q.origin.value(QStringLiteral("seed")).toString());
            QVERIFY(seed);
            QCOMPARE(seed->parentKey, q.parentKey);
            QCOMPARE(q.origin.value(QStringLiteral("prompt")).toString(), QStringLiteral("checkeval_elaborate"));
            QCOMPARE(q.origin.value(QStringLiteral("generator")).toString(), QStringLiteral("synthetic"));
        }
        if (stage == QLatin1String("diversification"))
            QCOMPARE(q.origin.value(QStringLiteral("seeds")).toList().size(), 2);
        if (!q.enabled) {
            ++disabled;
            QVERIFY(q.text.contains(QLatin1String("detail 3")) || q.text.contains(QLatin1String("DROPME")));
            QCOMPARE(q.origin.value(QStringLiteral("filtered")).toString(),
                     QStringLiteral("removed by the filter (generator synthetic)"));
        }
    }
    // 4 seeds; 2 new per sub-aspect (the repeated seed dropped); 3 per seed; the filter drops
    // "detail 3" of each seed and the DROPME seed.
    QCOMPARE(stages.value(QStringLiteral("seed")), 4);
    QCOMPARE(stages.value(QStringLiteral("diversification")), 4);
    QCOMPARE(stages.value(QStringLiteral("elaboration")), 12);
    QCOMPARE(disabled, 5);
    const QVariantMap st = result(o).value(QStringLiteral("stages")).toMap();
    QCOMPARE(st.value(QStringLiteral("removed")).toInt(), 5);
    QCOMPARE(st.value(QStringLiteral("final")).toInt(), 15);
    QCOMPARE(result(o).value(QStringLiteral("augmentation")).toMap().value(QStringLiteral("dropped")).toInt(), 2);
    // Answering: the two sub-aspects' enabled questions per item.
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate")), itemsAnswered(*fx) * 2);
    // A second run of the judge does not augment again: the version says it was done.
    server.resetCounts();
    const Outcome again = runToEnd(fx->project.get(), s);
    QVERIFY2(again.ok, qPrintable(again.error));
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(store.latestVersion(QStringLiteral("aug")), 2);
}

void TestCheckEvalGenerate::filterAnswerThatIsNotJsonFailsThePhase()
{
    auto env = judgedProject(m_projects.next(), 5);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QString path = writeChecklist(m_files.path(), QStringLiteral("bad_seed.yaml"),
                                        {{QStringLiteral("Part"), {QStringLiteral("Is BADJSON the text fine?")}}});
    RunSpec s = spec(QStringLiteral("f"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    s.settings.insert(QStringLiteral("filter"), QStringLiteral("on"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("filter")) && o.error.contains(QLatin1String("JSON")), qPrintable(o.error));
    QCOMPARE(server.requestCount(), 2); // asked, then asked once more
    QCOMPARE(RubricStore(fx->project.get()).latestVersion(QStringLiteral("f")), 1);
}

void TestCheckEvalGenerate::regressionWeights()
{
    auto env = judgedProject(m_projects.next(), 40);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QString path
            = writeChecklist(m_files.path(), QStringLiteral("coherence_seed.yaml"),
                             {{QStringLiteral("Signal part"), kSignal}, {QStringLiteral("Noise part"), kNoise}});
    RunSpec s = spec(QStringLiteral("w"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    s.settings.insert(QStringLiteral("weights"), QStringLiteral("regression"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QVERIFY(result(o).value(QStringLiteral("scoring")).toString().contains(QLatin1String("regression")));
    auto rubric = RubricStore(fx->project.get()).load(QStringLiteral("w"));
    QVERIFY(rubric.ok());
    double signal = 0, noise = 0;
    for (const Criterion &q : rubric->enabled(CriterionKind::Question))
        (q.text.contains(QLatin1String("SIGNAL")) ? signal : noise) += std::abs(q.weight);
    qInfo("regression weights: |SIGNAL| sum %.3f, |NOISE| sum %.3f", signal, noise);
    QVERIFY(signal > 2 * noise);
    QVERIFY(rubric->find(QStringLiteral("aspect"))->stats.contains(QStringLiteral("regression")));
    const double r = pearsonOf(fx->project->judgeScores(QStringLiteral("w"), QStringLiteral("coherence")), *fx);
    qInfo("test-split Pearson with regression weights %.3f", r);
    QVERIFY(r > 0.6);
}

void TestCheckEvalGenerate::augmentationReadsMarkdownOutlines()
{
    // Issue 30.3: headers written as models write them ("**2. Flow:**", "### 3. …") open the
    // right sub-aspect, and elaboration labels in bold ("- **1-2.** …") name the right seed.
    auto env = judgedProject(m_projects.next(), 3);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    server.setJudge([&judge = judge](const QJsonObject &body) {
        const QString prompt = promptText(body);
        FakeAnswer a;
        if (prompt.contains(QLatin1String("Create additional sub-questions"))) {
            a.text = QStringLiteral("Here are the new questions:\n\n"
                                    "**1. Topic:**\n- Does the summary stay on topic A?\n"
                                    "**2. Flow:**\n* Does the summary move smoothly B?\n"
                                    "### 3. Wording\n1. Is the wording plain C?\n2) Is the wording exact D?\n");
            return a;
        }
        if (prompt.contains(QLatin1String("sub-sub-questions")) && prompt.contains(QLatin1String("Topic"))) {
            a.text = QStringLiteral("1. Topic:\n"
                                    "- **1-1.** Is SIGNAL3 the topic kept?\n"
                                    "  - **1-1-1.** Is the main topic named E?\n"
                                    "- **1-2.** Is NOISE the focus tight?\n"
                                    "  - **1-2-1.** Is the focus held F?\n"
                                    "  - **1-2-2.** Is the focus narrow G?\n");
            return a;
        }
        return judge.answer(body);
    });
    const QString path = writeChecklist(
            m_files.path(), QStringLiteral("coherence_seed.yaml"),
            {{QStringLiteral("Topic"),
              {QStringLiteral("Is SIGNAL3 the topic kept?"), QStringLiteral("Is NOISE the focus tight?")}},
             {QStringLiteral("Flow"), {QStringLiteral("Is SIGNAL2 the order logical?")}},
             {QStringLiteral("Wording"), {QStringLiteral("Is NOISE the wording clear?")}}});
    RunSpec s = spec(QStringLiteral("md"), QStringLiteral("checkeval"), server.baseUrl());
    s.settings.insert(QStringLiteral("checklist"), path);
    s.settings.insert(QStringLiteral("augment"), QStringLiteral("both"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    auto rubric = RubricStore(fx->project.get()).load(QStringLiteral("md"));
    QVERIFY(rubric.ok());
    const auto subOf = [&](const char *tag) -> QString {
        for (const Criterion &q : rubric->ofKind(CriterionKind::Question))
            if (q.text.endsWith(QStringLiteral(" %1?").arg(QLatin1String(tag))))
                return rubric->find(q.parentKey)->text;
        return QStringLiteral("(absent)");
    };
    QCOMPARE(subOf("A"), QStringLiteral("Topic"));
    QCOMPARE(subOf("B"), QStringLiteral("Flow"));
    QCOMPARE(subOf("C"), QStringLiteral("Wording"));
    QCOMPARE(subOf("D"), QStringLiteral("Wording"));
    const auto seedOf = [&](const char *tag) -> QString {
        for (const Criterion &q : rubric->ofKind(CriterionKind::Question))
            if (q.text.endsWith(QStringLiteral(" %1?").arg(QLatin1String(tag))))
                return rubric->find(q.origin.value(QStringLiteral("seed")).toString())->text;
        return QStringLiteral("(absent)");
    };
    QCOMPARE(seedOf("E"), QStringLiteral("Is SIGNAL3 the topic kept?"));
    QCOMPARE(seedOf("F"), QStringLiteral("Is NOISE the focus tight?"));
    QCOMPARE(seedOf("G"), QStringLiteral("Is NOISE the focus tight?"));
}

void TestCheckEvalGenerate::regressionLeavesFailedItemsUnscored()
{
    // Issue 30.2: an item whose call was refused, or whose answer covered no question, has no
    // score under weights=regression, as under uniform weights — never the imputed train mean.
    auto env = judgedProject(m_projects.next(), 40);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QString unreadable = fx->project->item(fx->testIds.at(0))->output;
    const QString refused = fx->project->item(fx->testIds.at(1))->output;
    server.setJudge([&judge = judge, unreadable, refused](const QJsonObject &body) {
        const QString prompt = promptText(body);
        FakeAnswer a;
        if (prompt.contains(unreadable)) {
            a.text = QStringLiteral("I cannot judge this summary.");
            return a;
        }
        if (prompt.contains(refused)) {
            a.httpStatus = 400;
            a.errorMessage = QStringLiteral("content policy");
            return a;
        }
        return judge.answer(body);
    });
    const QString path
            = writeChecklist(m_files.path(), QStringLiteral("coherence_seed.yaml"),
                             {{QStringLiteral("Signal part"), kSignal}, {QStringLiteral("Noise part"), kNoise}});
    for (const QString &weights : {QStringLiteral("uniform"), QStringLiteral("regression")}) {
        RunSpec s = spec(weights, QStringLiteral("checkeval"), server.baseUrl());
        s.settings.insert(QStringLiteral("checklist"), path);
        s.settings.insert(QStringLiteral("weights"), weights);
        const Outcome o = runToEnd(fx->project.get(), s);
        QVERIFY2(o.ok, qPrintable(o.error));
        const auto scores = fx->project->judgeScores(weights, QStringLiteral("coherence"));
        for (int i : {0, 1})
            QVERIFY2(std::isnan(scores.value(fx->testIds.at(i), std::nan(""))),
                     qPrintable(QStringLiteral("%1: %2 scored %3")
                                        .arg(weights, fx->testIds.at(i))
                                        .arg(scores.value(fx->testIds.at(i)))));
        QVERIFY(!std::isnan(scores.value(fx->testIds.at(2), std::nan(""))));
    }
}

void TestCheckEvalGenerate::cliPresetRunAndShowRubric()
{
    auto env = judgedProject(m_projects.next(), 10);
    QVERIFY(env);
    auto &[fx, judge, server] = *env;
    const QStringList run{QStringLiteral("run"),
                          QStringLiteral("--project"),
                          fx->project->path(),
                          QStringLiteral("--method"),
                          QStringLiteral("checkeval"),
                          QStringLiteral("--aspect"),
                          QStringLiteral("coherence"),
                          QStringLiteral("--judge"),
                          QStringLiteral("p"),
                          QStringLiteral("--base-url"),
                          server.baseUrl(),
                          QStringLiteral("--model"),
                          QStringLiteral("synthetic"),
                          QStringLiteral("--checklist"),
                          QStringLiteral("preset:summeval/coherence/elaboration"),
                          QStringLiteral("--json")};
    int rc = -1;
    const QJsonObject est = cliJson(QStringList(run) << QStringLiteral("--estimate"), &rc);
    QCOMPARE(rc, 0);
    // The published elaboration checklist: 3 sub-aspects.
    QCOMPARE(est.value(QStringLiteral("calls")).toInt(), itemsAnswered(*fx) * 3);
    // The fake server lives in this process: the event loop runs while the CLI does.
    QProcess child;
    child.start(qEnvironmentVariable("RUBRIC_CLI"), run);
    QVERIFY(child.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 120000);
    QCOMPARE(child.exitCode(), 0);
    QCOMPARE(server.requestCount(), itemsAnswered(*fx) * 3);
    const QJsonObject shown = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), fx->project->path(),
                                       QStringLiteral("--judge"), QStringLiteral("p"), QStringLiteral("--json")},
                                      &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(shown.value(QStringLiteral("method")).toString(), QStringLiteral("checkeval"));
    QMap<QString, int> kinds;
    int questions = 0;
    for (const auto &v : shown.value(QStringLiteral("criteria")).toArray()) {
        const QJsonObject c = v.toObject();
        ++kinds[c.value(QStringLiteral("kind")).toString()];
        if (c.value(QStringLiteral("kind")).toString() != QLatin1String("question"))
            continue;
        ++questions;
        const QString stage = c.value(QStringLiteral("origin")).toObject().value(QStringLiteral("stage")).toString();
        QVERIFY2(stage == QLatin1String("seed") || stage == QLatin1String("elaboration"), qPrintable(stage));
        const QJsonObject stats = c.value(QStringLiteral("stats")).toObject();
        QVERIFY(stats.contains(QStringLiteral("yes_rate")));
        QVERIFY(stats.contains(QStringLiteral("answered")));
        QCOMPARE(stats.value(QStringLiteral("answered")).toInt(), itemsAnswered(*fx));
    }
    QCOMPARE(kinds.value(QStringLiteral("aspect")), 1);
    QCOMPARE(kinds.value(QStringLiteral("sub-aspect")), 3);
    QCOMPARE(questions, 16);
}

QTEST_MAIN(TestCheckEvalGenerate)
#include "TestCheckEvalGenerate.moc"
