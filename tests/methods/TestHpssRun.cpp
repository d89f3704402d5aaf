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

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kBudget = 25;
constexpr int kTestItems = 10;
constexpr int kValidation = 30; // the fixture's train split

} // namespace

class TestHpssRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void searchSpendsTheBudgetAndTheEstimate();

private:
    TempProjects m_projects;
};

void TestHpssRun::searchSpendsTheBudgetAndTheEstimate()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("h"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("budget"), QString::number(kBudget));

    RunEstimate before;
    {
        Run run(fx->project.get(), s);
        auto e = run.estimate();
        QVERIFY2(e, qPrintable(e ? QString() : e.errorString()));
        before = *e;
    }
    QCOMPARE(server.requestCount(), 0);
    QVERIFY(!before.exact);
    QCOMPARE(before.callsMin, kBudget * kValidation + kTestItems);

    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    const int aux = result.value(QStringLiteral("aux_generations")).toInt();
    QCOMPARE(result.value(QStringLiteral("evaluations")).toInt(), kBudget);
    // Every strategy on the whole validation split, the winner on the test split, the auxiliaries once.
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("search")), kBudget * kValidation);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("evaluate")), kTestItems);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("auxiliary")), aux);
    QCOMPARE(server.requestCount(), kBudget * kValidation + aux + kTestItems);
    QCOMPARE(o.summary.value(QStringLiteral("sent")).toInt(), server.requestCount());
    QVERIFY(aux > 0); // the initialisation's neighbours need references, questions, criteria and AutoCoT
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
          "requests (%d auxiliary); estimate before %d-%d",
          kBudget, kValidation, kTestItems, qPrintable(result.value(QStringLiteral("strategy")).toString()), best,
          result.value(QStringLiteral("test_spearman")).toDouble(), server.requestCount(), aux, before.callsMin,
          before.calls);

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

QTEST_GUILESS_MAIN(TestHpssRun)
#include "TestHpssRun.moc"
