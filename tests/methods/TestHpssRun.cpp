// HPSS end to end on a real project against the loopback fake judge: the search evaluates exactly
// `budget` strategies on the whole validation split, the calls are the estimate's, the synthetic
// judge's helpful factor values are found, and show-rubric / show-prompt show the result.
// (The killed-and-resumed search is test_hpss_resume, HPSS against the baselines test_hpss_compare.)

#include "FakeLlmServer.h"
#include "HpssCli.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "methods/hpss/PromptAssembly.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kBudget = 25;
constexpr int kTestItems = 10;
constexpr int kValidation = 30; // the fixture's train split

/// Counts the fake server's requests of the final scoring: the only ones that show a test item's
/// text (its output, or a source no validation item has); the others are the auxiliary and
/// search phases'.
struct TestSplitRequests
{
    QSet<QString> validationSources, testOnlySources;
    QStringList texts;
    int count = 0;

    explicit TestSplitRequests(const Fixture &fx)
    {
        for (const QString &id : fx.project->itemIds(SplitFilter::Train))
            validationSources.insert(fx.project->item(id)->source);
        for (const QString &id : std::as_const(fx.testIds)) {
            const Item item = *fx.project->item(id);
            texts.append(item.output);
            if (!validationSources.contains(item.source))
                testOnlySources.insert(item.source);
        }
        texts += QStringList(testOnlySources.begin(), testOnlySources.end());
    }
    void note(const QJsonObject &body)
    {
        const QString prompt = promptText(body);
        if (std::any_of(texts.begin(), texts.end(), [&prompt](const QString &t) { return prompt.contains(t); }))
            ++count;
    }
};

} // namespace

class TestHpssRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void searchSpendsTheBudgetAndTheEstimate();
    void auxiliaryPhaseFollowsTheSpace_data();
    void auxiliaryPhaseFollowsTheSpace();

private:
    TempProjects m_projects;
};

void TestHpssRun::searchSpendsTheBudgetAndTheEstimate()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    TestSplitRequests testSplit(*fx);
    const QSet<QString> &validationSources = testSplit.validationSources;
    const QSet<QString> &testOnlySources = testSplit.testOnlySources;
    FakeLlmServer server;
    server.setJudge([&judge, &testSplit](const QJsonObject &body) {
        testSplit.note(body);
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("h"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("budget"), QString::number(kBudget));
    // The fixture holds about two summaries per article: too few for SummEval's summary-level Spearman
    // (its default since issue 32); the search's behaviour is tested on the dataset level.
    s.settings.insert(QStringLiteral("level"), QStringLiteral("dataset"));

    RunEstimate before;
    {
        Run run(fx->project.get(), s);
        auto e = run.estimate();
        QVERIFY2(e, qPrintable(e ? QString() : e.errorString()));
        before = *e;
    }
    QCOMPARE(server.requestCount(), 0);
    // Before the run: the auxiliary phase (a reference and questions per validation source, the
    // self criteria, AutoCoT for 5 scales × {human, self} criteria) and the search are exact; the
    // final scoring is a range (the winner's reference / questions for the test-only sources).
    QVERIFY(!before.exact);
    QCOMPARE(before.exactPhases, QStringList({QStringLiteral("auxiliary"), QStringLiteral("search")}));
    const int auxBefore = before.perPhase.value(QStringLiteral("auxiliary")).toInt();
    const int searchBefore = before.perPhase.value(QStringLiteral("search")).toInt();
    QCOMPARE(auxBefore, 2 * int(validationSources.size()) + 1 + 5 * 2);
    QCOMPARE(searchBefore, kBudget * kValidation);
    const QVariantMap evaluateBefore = before.perPhase.value(QStringLiteral("evaluate")).toMap();
    QCOMPARE(evaluateBefore.value(QStringLiteral("min")).toInt(), kTestItems);
    QCOMPARE(evaluateBefore.value(QStringLiteral("max")).toInt(), kTestItems + 2 * int(testOnlySources.size()));
    QCOMPARE(before.callsMin, auxBefore + searchBefore + kTestItems);
    QCOMPARE(before.calls, auxBefore + searchBefore + kTestItems + 2 * int(testOnlySources.size()));

    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    const int aux = result.value(QStringLiteral("aux_generations")).toInt();
    QCOMPARE(result.value(QStringLiteral("evaluations")).toInt(), kBudget);
    // The fake server's count of the auxiliary and search requests is the estimate's, exactly.
    QCOMPARE(server.requestCount() - testSplit.count, auxBefore + searchBefore);
    // Every strategy on the whole validation split, the auxiliaries once (before the search), the
    // winner on the test split after its texts for the test-only sources.
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("auxiliary"), "sent"), auxBefore);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("search")), kBudget * kValidation);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("search"), "sent"), searchBefore);
    const int winnerAux = aux - auxBefore;
    QVERIFY(winnerAux >= 0 && winnerAux <= 2 * int(testOnlySources.size()));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate")), kTestItems + winnerAux);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate"), "sent"), testSplit.count);
    QCOMPARE(testSplit.count, kTestItems + winnerAux);
    QCOMPARE(server.requestCount(), kBudget * kValidation + aux + kTestItems);
    QCOMPARE(o.summary.value(QStringLiteral("sent")).toInt(), server.requestCount());
    QVERIFY2(before.callsMin <= server.requestCount() && server.requestCount() <= before.calls,
             qPrintable(
                     QStringLiteral("%1 ≤ %2 ≤ %3").arg(before.callsMin).arg(server.requestCount()).arg(before.calls)));
    {
        Run again(fx->project.get(), s); // a finished search: exact, everything cached
        auto e = again.estimate();
        QVERIFY(e);
        QVERIFY(e->exact);
        QCOMPARE(e->calls, 0);
    }
    {
        // Another judge with the same settings: the auxiliary requests and the whole search replay
        // through the judge cache, so even its winner is known before the run: exact, nothing to send.
        RunSpec twin = s;
        twin.judge = QStringLiteral("h-twin");
        RunEstimate e;
        {
            Run run(fx->project.get(), twin);
            auto estimated = run.estimate();
            QVERIFY2(estimated, qPrintable(estimated ? QString() : estimated.errorString()));
            e = *estimated;
        }
        QVERIFY(e.exact);
        QCOMPARE(e.calls, 0);
        QCOMPARE(e.cached, aux + kBudget * kValidation + kTestItems);
        const int sent = server.requestCount();
        const Outcome twinRun = runToEnd(fx->project.get(), twin);
        QVERIFY2(twinRun.ok, qPrintable(twinRun.error));
        QCOMPARE(server.requestCount(), sent);
        QCOMPARE(twinRun.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("strategy")),
                 result.value(QStringLiteral("strategy")));
    }
    QCOMPARE(fx->project->judgeScores(QStringLiteral("h"), QStringLiteral("coherence")).size(), kTestItems);

    // show-rubric --json: the winner and the search.
    int rc = -1;
    const QJsonObject shown = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), fx->project->path(),
                                       QStringLiteral("--judge"), QStringLiteral("h"), QStringLiteral("--json")},
                                      &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(shown.value(QStringLiteral("method")).toString(), QStringLiteral("hpss"));
    const QJsonObject winner = shown.value(QStringLiteral("strategy")).toObject();
    QCOMPARE(winner.size(), hpss::kFactorCount);
    QCOMPARE(hpss::PromptStrategy::fromVariant(winner.toVariantMap())->format(),
             result.value(QStringLiteral("strategy")).toString());
    const QJsonObject search = shown.value(QStringLiteral("search")).toObject();
    const QJsonArray evaluated = search.value(QStringLiteral("evaluated")).toArray();
    QCOMPARE(evaluated.size(), kBudget);
    QSet<QString> distinct;
    double best = -2;
    for (int i = 0; i < evaluated.size(); ++i) {
        const QJsonObject e = evaluated[i].toObject();
        QCOMPARE(e.value(QStringLiteral("step")).toInt(), i + 1);
        QVERIFY(e.contains(QStringLiteral("validation_spearman")));
        best = std::max(best, e.value(QStringLiteral("validation_spearman")).toDouble());
        QCOMPARE(e.value(QStringLiteral("move")).toString(),
                 i < 21 ? QStringLiteral("init") : e.value(QStringLiteral("move")).toString());
        QVERIFY(i < 21
                || QStringList({QStringLiteral("explore"), QStringLiteral("exploit")})
                           .contains(e.value(QStringLiteral("move")).toString()));
        distinct.insert(evaluatedOf(shown).at(i));
        qInfo("%2d %-8s %.3f %s", i + 1, qPrintable(e.value(QStringLiteral("move")).toString()),
              e.value(QStringLiteral("validation_spearman")).toDouble(), qPrintable(evaluatedOf(shown).at(i)));
    }
    QCOMPARE(distinct.size(), kBudget);
    QCOMPARE(result.value(QStringLiteral("validation_spearman")).toDouble(), best);
    // The advantages rank each helpful value first in its factor.
    const QJsonObject adv = search.value(QStringLiteral("advantages")).toObject();
    for (const char *factor : {"reference", "metrics", "order"})
        qInfo("advantages of %s: %s", factor,
              QJsonDocument(adv.value(QLatin1String(factor)).toObject()).toJson(QJsonDocument::Compact).constData());
    for (const auto &[factor, value] : {std::pair{"reference", "dialectic"}, {"metrics", "on"}, {"order", "IET"}}) {
        const QJsonObject a = adv.value(QLatin1String(factor)).toObject();
        for (auto it = a.begin(); it != a.end(); ++it)
            QVERIFY2(it.key() == QLatin1String(value)
                             || it.value().toDouble() <= a.value(QLatin1String(value)).toDouble(),
                     qPrintable(QStringLiteral("%1: %2 above %3")
                                        .arg(QLatin1String(factor), it.key(), QLatin1String(value))));
    }
    QVERIFY2(helpfulValues(winner) >= 2, QJsonDocument(winner).toJson().constData());
    qInfo("HPSS, budget %d, %d validation / %d test items: winner %s, validation rho %.3f, test rho %.3f; %d "
          "requests (%d auxiliary, %d of them for the test split); estimate before: auxiliary + search %d + %d "
          "(exact; sent %d), in all %d-%d",
          kBudget, kValidation, kTestItems, qPrintable(result.value(QStringLiteral("strategy")).toString()), best,
          result.value(QStringLiteral("test_spearman")).toDouble(), server.requestCount(), aux, winnerAux, auxBefore,
          searchBefore, server.requestCount() - testSplit.count, before.callsMin, before.calls);

    // show-prompt: the origin strategy's prompt for a validation item is the §4 assembly.
    const QString itemId = fx->project->itemIds(SplitFilter::Train).first();
    const Item item = *fx->project->item(itemId);
    QString printed;
    cliJson({QStringLiteral("show-prompt"), QStringLiteral("--project"), fx->project->path(), QStringLiteral("--judge"),
             QStringLiteral("h"), QStringLiteral("--strategy"), hpss::PromptStrategy::mtBenchOrigin().format(),
             QStringLiteral("--item"), itemId},
            &rc, &printed);
    QCOMPARE(rc, 0);
    hpss::PromptInputs in;
    in.task = hpss::TaskWording::summEval();
    in.aspect = QStringLiteral("coherence");
    in.source = item.source;
    in.output = item.output;
    in.criteria = fx->project->aspect(QStringLiteral("coherence"))->definition;
    auto expected = hpss::renderPrompt(hpss::PromptStrategy::mtBenchOrigin(), in);
    QVERIFY(expected);
    QCOMPARE(printed, expected->text + QLatin1Char('\n'));
    QVERIFY(printed.startsWith(QLatin1String("[Instruction]\nPlease act as an impartial judge")));
    // Without --strategy: the winner, with the auxiliary texts the judge stored.
    QString winnerPrompt;
    cliJson({QStringLiteral("show-prompt"), QStringLiteral("--project"), fx->project->path(), QStringLiteral("--judge"),
             QStringLiteral("h"), QStringLiteral("--item"), fx->testIds.first()},
            &rc, &winnerPrompt);
    QCOMPARE(rc, 0);
    const auto winnerState = hpss::state::load(*fx->project, QStringLiteral("h"));
    QVERIFY(winnerState);
    const hpss::Auxiliaries stored = hpss::Auxiliaries::fromVariant(winnerState->value(QStringLiteral("aux")));
    if (winner.value(QStringLiteral("metrics")).toString() == QLatin1String("on"))
        QVERIFY(winnerPrompt.contains(stored.metrics.value(fx->testIds.first())));
    QVERIFY(winnerPrompt.contains(fx->project->item(fx->testIds.first())->output));
    // A strategy that needs an auxiliary text the judge never made says so.
    QString none;
    cliJson({QStringLiteral("show-prompt"), QStringLiteral("--project"), fx->project->path(), QStringLiteral("--judge"),
             QStringLiteral("h"), QStringLiteral("--strategy"),
             QStringLiteral("scale:5,examples:0,criteria:human,reference:self,cot:prefix,autocot:off,metrics:off,"
                            "order:TEI"),
             QStringLiteral("--item"), fx->testIds.last()},
            &rc, &none);
    const auto stateMap = hpss::state::load(*fx->project, QStringLiteral("h"));
    QVERIFY(stateMap);
    const bool hasRef = hpss::Auxiliaries::fromVariant(stateMap->value(QStringLiteral("aux")))
                                .references.contains(fx->testIds.last());
    QCOMPARE(rc, hasRef ? 0 : 1);

    // --replace: the removed judge's stored search is not continued; the new search asks every
    // strategy again, all from the judge cache.
    const int sentBefore = server.requestCount();
    RunSpec replaced = s;
    replaced.replace = true;
    const Outcome again = runToEnd(fx->project.get(), replaced);
    QVERIFY2(again.ok, qPrintable(again.error));
    QCOMPARE(phaseCalls(again.summary, QStringLiteral("search")), kBudget * kValidation);
    QCOMPARE(server.requestCount(), sentBefore);
    QCOMPARE(again.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("strategy")),
             result.value(QStringLiteral("strategy")));
}

void TestHpssRun::auxiliaryPhaseFollowsTheSpace_data()
{
    // S = the validation sources: a reference and questions each where those values are enabled.
    QTest::addColumn<QString>("search");
    QTest::addColumn<QString>("budget");
    QTest::addColumn<QString>("disable");
    QTest::addColumn<int>("perSource");       // texts per validation source
    QTest::addColumn<QStringList>("autocot"); // the AutoCoT keys made
    QTest::addColumn<bool>("criteria");       // the self criteria made
    QTest::addColumn<int>("evaluations");
    QTest::addColumn<int>("testAuxMax"); // per test-only source

    const QStringList all{QStringLiteral("3/human"),  QStringLiteral("3/self"),   QStringLiteral("5/human"),
                          QStringLiteral("5/self"),   QStringLiteral("10/human"), QStringLiteral("10/self"),
                          QStringLiteral("50/human"), QStringLiteral("50/self"),  QStringLiteral("100/human"),
                          QStringLiteral("100/self")};
    QStringList human;
    for (const QString &k : all)
        if (k.endsWith(QLatin1String("/human")))
            human.append(k);
    QTest::newRow("reference:self and metrics:on disabled: no per-source texts")
            << QStringLiteral("random") << QStringLiteral("4") << QStringLiteral("reference:self;metrics:on") << 0
            << all << true << 4 << 0;
    QTest::newRow("criteria:self disabled: no criteria, human AutoCoT only")
            << QStringLiteral("random") << QStringLiteral("4") << QStringLiteral("criteria:self") << 2 << human << false
            << 4 << 2;
    QTest::newRow("autocot:on disabled: no AutoCoT")
            << QStringLiteral("random") << QStringLiteral("4") << QStringLiteral("autocot:on") << 2 << QStringList()
            << true << 4 << 2;
    // Stepwise-Greedy tries each factor's other values once: 1 + (1+3+2+1+2+1+1+5) = 17 < budget.
    QTest::newRow("stepwise on scales 5 and 10, reference:self disabled")
            << QStringLiteral("stepwise") << QStringLiteral("71")
            << QStringLiteral("scale:3;scale:50;scale:100;reference:self") << 1
            << QStringList{QStringLiteral("5/human"), QStringLiteral("5/self"), QStringLiteral("10/human"),
                           QStringLiteral("10/self")}
            << true << 17 << 1;
    QTest::newRow("budget 1: the origin only, which needs no text")
            << QStringLiteral("random") << QStringLiteral("1") << QString() << 0 << QStringList() << false << 1 << 0;
}

void TestHpssRun::auxiliaryPhaseFollowsTheSpace()
{
    QFETCH(QString, search);
    QFETCH(QString, budget);
    QFETCH(QString, disable);
    QFETCH(int, perSource);
    QFETCH(QStringList, autocot);
    QFETCH(bool, criteria);
    QFETCH(int, evaluations);
    QFETCH(int, testAuxMax);
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    TestSplitRequests testSplit(*fx);
    FakeLlmServer server;
    server.setJudge([&judge, &testSplit](const QJsonObject &body) {
        testSplit.note(body);
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("h"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("search"), search);
    s.settings.insert(QStringLiteral("budget"), budget);
    if (!disable.isEmpty())
        s.settings.insert(QStringLiteral("disable"), disable);
    RunEstimate before;
    {
        Run run(fx->project.get(), s);
        auto e = run.estimate();
        QVERIFY2(e, qPrintable(e ? QString() : e.errorString()));
        before = *e;
    }
    const int sources = int(testSplit.validationSources.size());
    const int auxBefore = before.perPhase.value(QStringLiteral("auxiliary")).toInt();
    const int searchBefore = before.perPhase.value(QStringLiteral("search")).toInt();
    QCOMPARE(auxBefore, perSource * sources + int(autocot.size()) + (criteria ? 1 : 0));
    QCOMPARE(searchBefore, evaluations * kValidation);
    const int testOnly = int(testSplit.testOnlySources.size());
    QCOMPARE(before.calls - before.callsMin, testAuxMax * testOnly);
    QCOMPARE(before.exact, testAuxMax * testOnly == 0 && budget == QLatin1String("1"));

    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(o.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("evaluations")).toInt(),
             evaluations);
    QCOMPARE(server.requestCount() - testSplit.count, auxBefore + searchBefore);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("auxiliary"), "sent"), auxBefore);
    QVERIFY(before.callsMin <= server.requestCount() && server.requestCount() <= before.calls);
    const auto state = hpss::state::load(*fx->project, QStringLiteral("h"));
    QVERIFY(state);
    const hpss::Auxiliaries aux = hpss::Auxiliaries::fromVariant(state->value(QStringLiteral("aux")));
    QStringList made = aux.autocot.keys();
    QStringList expected = autocot;
    made.sort();
    expected.sort();
    QCOMPARE(made, expected);
    QCOMPARE(!aux.criteria.isEmpty(), criteria);
    qInfo("%s: estimate auxiliary %d + search %d, sent %d before the test split; in all %d of %d-%d",
          QTest::currentDataTag(), auxBefore, searchBefore, server.requestCount() - testSplit.count,
          server.requestCount(), before.callsMin, before.calls);
}

QTEST_GUILESS_MAIN(TestHpssRun)
#include "TestHpssRun.moc"
