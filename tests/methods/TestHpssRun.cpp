// HPSS end to end on a real project against the loopback fake judge: the search evaluates exactly
// `budget` strategies on the whole validation split, the calls are the estimate's, a killed run
// resumes into the same search without sending an answered request again, the synthetic judge's
// helpful factor values are found, and show-rubric / show-prompt show the result.

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "methods/hpss/PromptAssembly.h"
#include "store/RubricStore.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTimer>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kBudget = 25;
constexpr int kTestItems = 10;
constexpr int kValidation = 30; // the fixture's train split

QJsonObject cliJson(const QStringList &args, int *exitCode = nullptr, QString *out = nullptr)
{
    // An event loop, not waitForFinished: the fake server lives in this thread.
    QProcess cli;
    QEventLoop loop;
    QObject::connect(&cli, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    cli.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    loop.exec();
    if (cli.state() != QProcess::NotRunning) {
        cli.kill();
        cli.waitForFinished();
    }
    if (cli.exitCode() != 0)
        qWarning("%s", cli.readAllStandardError().constData());
    if (exitCode)
        *exitCode = cli.exitCode();
    const QByteArray text = cli.readAllStandardOutput();
    if (out)
        *out = QString::fromUtf8(text);
    return QJsonDocument::fromJson(text).object();
}

/// The strategies the stored search evaluated, in order ("scale:5,…" each).
QStringList evaluatedOf(const QJsonObject &shown)
{
    QStringList out;
    for (const auto &e :
         shown.value(QStringLiteral("search")).toObject().value(QStringLiteral("evaluated")).toArray()) {
        auto s = hpss::PromptStrategy::fromVariant(e.toObject().value(QStringLiteral("strategy")).toVariant());
        out.append(s ? s->format() : QStringLiteral("?"));
    }
    return out;
}

int helpfulValues(const QJsonObject &strategy)
{
    return (strategy.value(QStringLiteral("reference")).toString() == QLatin1String("dialectic") ? 1 : 0)
           + (strategy.value(QStringLiteral("metrics")).toString() == QLatin1String("on") ? 1 : 0)
           + (strategy.value(QStringLiteral("order")).toString() == QLatin1String("IET") ? 1 : 0);
}

} // namespace

class TestHpssRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void searchSpendsTheBudgetAndTheEstimate();
    void killedSearchResumesIdentically();
    void hpssAtLeastAsGoodAsRandomOverSeeds();

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

void TestHpssRun::killedSearchResumesIdentically()
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
        QSqlQuery q(fx->project->database());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache")) && q.next());
        cached = q.value(0).toInt();
    }
    const auto midState = hpss::state::load(*fx->project, QStringLiteral("k"));
    QVERIFY(midState && !midState->isEmpty());
    const int evaluatedBeforeKill
            = midState->value(QStringLiteral("search")).toMap().value(QStringLiteral("evaluated")).toList().size();
    QVERIFY(evaluatedBeforeKill > 0 && evaluatedBeforeKill < kBudget);
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
    QCOMPARE(shown.value(QStringLiteral("strategy")).toObject(), refShown.value(QStringLiteral("strategy")).toObject());
    qInfo("SIGKILL after %d of %d requests (%d answers committed, %d strategies evaluated); the resumed run sent %d",
          firstRun, total, cached, evaluatedBeforeKill, server.requestCount());
}

void TestHpssRun::hpssAtLeastAsGoodAsRandomOverSeeds()
{
    // The same budget for HPSS, plain random search and random one-factor mutation ("w/o all"),
    // three seeds each, on one project (strategies two searches share are asked once).
    constexpr int budget = 35;
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QStringList searches{QStringLiteral("hpss"), QStringLiteral("random"), QStringLiteral("mutation")};
    QHash<QString, double> sum, helpful;
    QStringList table;
    for (const QString &search : searches)
        for (int seed = 1; seed <= 3; ++seed) {
            RunSpec s = spec(QStringLiteral("%1-%2").arg(search).arg(seed), QStringLiteral("hpss"), server.baseUrl());
            s.settings.insert(QStringLiteral("budget"), QString::number(budget));
            s.settings.insert(QStringLiteral("search"), search);
            s.settings.insert(QStringLiteral("seed"), QString::number(seed));
            const Outcome o = runToEnd(fx->project.get(), s);
            QVERIFY2(o.ok, qPrintable(o.error));
            const QVariantMap r = o.summary.value(QStringLiteral("result")).toMap();
            QCOMPARE(r.value(QStringLiteral("evaluations")).toInt(), budget);
            const double rho = r.value(QStringLiteral("validation_spearman")).toDouble();
            auto winner = hpss::PromptStrategy::parse(r.value(QStringLiteral("strategy")).toString());
            QVERIFY(winner);
            const int good = helpfulValues(QJsonObject::fromVariantMap(winner->toVariant()));
            sum[search] += rho;
            helpful[search] += good;
            table.append(QStringLiteral("%1 seed %2: validation %3, test %4, helpful values %5/3")
                                 .arg(search)
                                 .arg(seed)
                                 .arg(rho, 0, 'f', 3)
                                 .arg(r.value(QStringLiteral("test_spearman")).toDouble(), 0, 'f', 3)
                                 .arg(good));
        }
    for (const QString &line : std::as_const(table))
        qInfo("%s", qPrintable(line));
    for (const QString &search : searches)
        qInfo("%s: mean validation Spearman %.3f, mean helpful values %.2f/3", qPrintable(search), sum[search] / 3,
              helpful[search] / 3);
    QVERIFY(sum[QStringLiteral("hpss")] >= sum[QStringLiteral("random")]);
    QVERIFY(sum[QStringLiteral("hpss")] >= sum[QStringLiteral("mutation")]);
    QVERIFY(helpful[QStringLiteral("hpss")] / 3 >= 2);
}

QTEST_GUILESS_MAIN(TestHpssRun)
#include "TestHpssRun.moc"
