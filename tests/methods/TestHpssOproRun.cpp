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

// [code] baseline/opro_prompts/opro_prompt.py after str.format (its "{{" and "}}" become braces).
const char *const kOfficialOproPrompt = R"(## Instruction:
Your task is to decide the selection strategy of different parts of a prompt to enhance the performance of LLM using this prompt. 
The selection range of each part is as follows:

- Part 0: [0,1,2,3,4]
- Part 1: [0,1,2]
- Part 2: [0,1,2]
- Part 3: [0,1]
- Part 4: [0,1]
- Part 5: [0,1,2,3]
- Part 6: [0,1,2]
- Part 7: [0,1,2,3,4,5]

The previous selection strategy and performance are as follows:

%1

Your goal is to generate a new selection strategy of these parts to improve the performance of LLM using this prompt. The selection strategy you generate should not be identical to any previous ones. You should generate the new selection strategy without any explanation by strictly following this format: "{"Part 0" : x, "Part 1" : x, ..., "Part 7" : x}", for example: "{"Part 0" : 2, "Part 1" : 1, ..., "Part 7" : 0}". Each part must be selected strictly according to the selection range.)";

// [code] item_2_str of a strategy given as {factor: value}: the parts in factors.py's order.
QString partsOf(const QJsonObject &strategy)
{
    const QVector<std::pair<QString, QStringList>> parts = {
            {QStringLiteral("scale"), QStringLiteral("3,5,10,50,100").split(QLatin1Char(','))},
            {QStringLiteral("criteria"), QStringLiteral("human,none,self").split(QLatin1Char(','))},
            {QStringLiteral("cot"), QStringLiteral("prefix,suffix,none").split(QLatin1Char(','))},
            {QStringLiteral("autocot"), QStringLiteral("off,on").split(QLatin1Char(','))},
            {QStringLiteral("metrics"), QStringLiteral("off,on").split(QLatin1Char(','))},
            {QStringLiteral("examples"), QStringLiteral("0,3,5,10").split(QLatin1Char(','))},
            {QStringLiteral("reference"), QStringLiteral("none,self,dialectic").split(QLatin1Char(','))},
            {QStringLiteral("order"), QStringLiteral("TEI,TIE,ITE,IET,EIT,ETI").split(QLatin1Char(','))},
    };
    QStringList out;
    for (int p = 0; p < 8; ++p)
        out << QStringLiteral("'Part %1': %2")
                        .arg(p)
                        .arg(parts[p].second.indexOf(strategy.value(parts[p].first).toVariant().toString()));
    return QLatin1Char('{') + out.join(QLatin1String(", ")) + QLatin1Char('}');
}

// Python's repr of a float: the shortest text that reads back to it ("1.0" for one).
QString pythonFloat(double x)
{
    for (int digits = 1; digits <= 17; ++digits) {
        QString t = QString::number(x, 'g', digits);
        if (t.toDouble() == x)
            return t.contains(QLatin1Char('.')) || t.contains(QLatin1Char('e')) ? t : t + QStringLiteral(".0");
    }
    return QString::number(x, 'g', 17);
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
    QVector<QJsonObject> proposals; // the proposal requests as the endpoint received them
    server.setJudge([&judge, &proposals](const QJsonObject &body) {
        if (promptText(body).contains(QLatin1String("decide the selection strategy")))
            proposals.append(body);
        return judge.answer(body);
    });
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

    // The first proposal prompt byte for byte: the official text, its history the 21 initial
    // evaluations in [code] load_initiation's order (the scale values with the origin among them,
    // then examples, criteria, reference, CoT, AutoCoT, metrics, order, each in factors.py's
    // order), sorted ascending by Spearman (stable), the last 20.
    QCOMPARE(proposals.size(), kBudget - 21);
    const QStringList initOrder
            = {QStringLiteral("scale:3"),       QStringLiteral("origin"),         QStringLiteral("scale:10"),
               QStringLiteral("scale:50"),      QStringLiteral("scale:100"),      QStringLiteral("examples:3"),
               QStringLiteral("examples:5"),    QStringLiteral("examples:10"),    QStringLiteral("criteria:none"),
               QStringLiteral("criteria:self"), QStringLiteral("reference:self"), QStringLiteral("reference:dialectic"),
               QStringLiteral("cot:suffix"),    QStringLiteral("cot:none"),       QStringLiteral("autocot:on"),
               QStringLiteral("metrics:on"),    QStringLiteral("order:TIE"),      QStringLiteral("order:ITE"),
               QStringLiteral("order:IET"),     QStringLiteral("order:EIT"),      QStringLiteral("order:ETI")};
    const QJsonObject origin{{QStringLiteral("scale"), QStringLiteral("5")},
                             {QStringLiteral("examples"), QStringLiteral("0")},
                             {QStringLiteral("criteria"), QStringLiteral("human")},
                             {QStringLiteral("reference"), QStringLiteral("none")},
                             {QStringLiteral("cot"), QStringLiteral("prefix")},
                             {QStringLiteral("autocot"), QStringLiteral("off")},
                             {QStringLiteral("metrics"), QStringLiteral("off")},
                             {QStringLiteral("order"), QStringLiteral("TEI")}};
    QVector<std::pair<QString, double>> init; // (parts text, Spearman) in the official order
    const QJsonArray evaluated
            = refShown.value(QStringLiteral("search")).toObject().value(QStringLiteral("evaluated")).toArray();
    for (const QString &change : initOrder) {
        QJsonObject want = origin;
        if (change != QLatin1String("origin"))
            want.insert(change.section(QLatin1Char(':'), 0, 0), change.section(QLatin1Char(':'), 1));
        bool found = false;
        for (const auto &e : evaluated) {
            QJsonObject got = e.toObject().value(QStringLiteral("strategy")).toObject();
            for (auto it = got.begin(); it != got.end(); ++it)
                it.value() = it.value().toVariant().toString();
            if (got == want) {
                init.append({partsOf(got), e.toObject().value(QStringLiteral("validation_spearman")).toDouble()});
                found = true;
            }
        }
        QVERIFY2(found, qPrintable(change));
    }
    std::stable_sort(init.begin(), init.end(), [](const auto &x, const auto &y) { return x.second < y.second; });
    QString history;
    for (qsizetype k = init.size() - 20; k < init.size(); ++k)
        history += QStringLiteral("Prompt: %1\nScore: %2\n\n").arg(init[k].first, pythonFloat(init[k].second));
    const QJsonArray messages = proposals.first().value(QStringLiteral("messages")).toArray();
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages[0].toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("You are a helpful assistant."));
    QCOMPARE(messages[1].toObject().value(QStringLiteral("content")).toString(),
             QString::fromUtf8(kOfficialOproPrompt).arg(history));
    QCOMPARE(proposals.first().value(QStringLiteral("temperature")).toDouble(), 1.0);

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
