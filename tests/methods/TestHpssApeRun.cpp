// The APE-style search through the CLI on the synthetic judge (issue 32): the base prompt and the
// resample prompt byte for byte against the official texts (typed here from the authors'
// baseline/ape_prompts, filled as Python's str.format fills them), the passes, the queue and the
// winner recomputed from the stored log as the authors' baseline/ape.py loop runs, the calls counted
// from that log, a re-run that sends nothing, and a run killed mid-search that resumes to the same
// candidates and winner without sending an answered request again.

#include "FakeLlmServer.h"
#include "HpssCli.h"
#include "PipelineFixture.h"
#include "ProjectTestAccess.h"
#include "SyntheticJudge.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QSqlQuery>
#include <QtTest>

#include <algorithm>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kBudget = 16; // the base prompt, then 15 evaluations that cost ([code] --budget 15)
constexpr int kQueue = 5;   // [code] --batch_size
constexpr int kTestItems = 4;
constexpr int kValidation = 30; // the fixture's train split

// [code] baseline/ape_prompts/summeval.py base_prompt, as its Python literal reads.
const char *const kOfficialBase = R"([Instruction]
Please act as an impartial judge and evaluate the quality of the summary to the news article displayed below on its {aspect}. Begin your evaluation by providing a short explanation. After providing your explanation, you must rate the summary on a scale of {min} to {max} by strictly following this format: "[[rating]]", for example: "Rating: [[{max}]]".

Here are some rules of the evaluation:
1. Your evaluation should consider the {aspect} of the summary. {criteria}
2. Be as objective as possible.

[Article]
{{document}}

[The Start of the Summary]
{{summary}}
[The End of the Summary])";

// [code] baseline/ape_prompts/resample_prompt.py, as its Python literal reads (no newline at the end).
const char *const kOfficialResample
        = "Generate a variation of the following instruction while keeping the semantic meaning without any "
          "explanation. The placeholder within \"{{}}\" cannot be modified. And the variation of the following "
          "instruction cannot contain \"{{\" and \"}}\".\nInput: {prompt}\nOutput: ";

// str.format for the plain fields of these two texts: each "{name}" once, then "{{" / "}}".
QString formatted(QString text, const QHash<QString, QString> &values)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.mid(i, 2) == QLatin1String("{{") || text.mid(i, 2) == QLatin1String("}}")) {
            out += text[i];
            ++i;
        } else if (text[i] == QLatin1Char('{')) {
            const qsizetype close = text.indexOf(QLatin1Char('}'), i);
            out += values.value(text.mid(i + 1, close - i - 1), QStringLiteral("<missing>"));
            i = close;
        } else {
            out += text[i];
        }
    }
    return out;
}

QJsonObject searchOf(const QJsonObject &shown)
{
    return shown.value(QStringLiteral("search")).toObject();
}

QString userMessage(const QJsonObject &body)
{
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    return messages.isEmpty() ? QString() : messages.last().toObject().value(QStringLiteral("content")).toString();
}

} // namespace

class TestHpssApeRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void searchIsOfficialBudgetedCachedAndResumed();

private:
    TempProjects m_projects;
};

void TestHpssApeRun::searchIsOfficialBudgetedCachedAndResumed()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    auto reference = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx && reference);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    QVector<QJsonObject> resamples, scorings; // the requests as the endpoint received them
    server.setJudge([&](const QJsonObject &body) {
        (promptText(body).contains(QLatin1String("Generate a variation of the following instruction")) ? resamples
                                                                                                       : scorings)
                .append(body);
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
                     QStringLiteral("a"),
                     QStringLiteral("--base-url"),
                     server.baseUrl(),
                     QStringLiteral("--model"),
                     QStringLiteral("synthetic"),
                     QStringLiteral("--concurrency"),
                     QStringLiteral("4"),
                     QStringLiteral("--set"),
                     QStringLiteral("search=ape"),
                     QStringLiteral("--set"),
                     QStringLiteral("budget=%1").arg(kBudget),
                     QStringLiteral("--json")};

    // The uninterrupted search on another project file.
    QStringList refArgs = args;
    refArgs[2] = reference->project->path();
    int rc = -1;
    const QJsonObject result = cliJson(refArgs, &rc);
    QCOMPARE(rc, 0);
    const int total = server.requestCount();
    const QJsonObject refShown
            = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), reference->project->path(),
                       QStringLiteral("--judge"), QStringLiteral("a"), QStringLiteral("--json")});
    const QJsonObject search = searchOf(refShown);
    QCOMPARE(search.value(QStringLiteral("algorithm")).toString(), QStringLiteral("ape"));
    const QJsonArray log = search.value(QStringLiteral("ape_log")).toArray();
    const QJsonArray evaluated = search.value(QStringLiteral("evaluated")).toArray();
    QHash<int, QJsonObject> byCandidate;
    for (const auto &e : evaluated)
        byCandidate.insert(e.toObject().value(QStringLiteral("candidate")).toInt(), e.toObject());

    // The base prompt (candidate 0) byte for byte: the official text filled with the aspect, the
    // aspect's definition as its human criteria (no anchors to put on the scale), 1 and 5.
    const QString definition = QStringLiteral("the quality of all sentences collectively, focusing on how well they "
                                              "fit together and sound natural as a whole");
    const QString base
            = formatted(QString::fromUtf8(kOfficialBase), {{QStringLiteral("aspect"), QStringLiteral("coherence")},
                                                           {QStringLiteral("criteria"), definition},
                                                           {QStringLiteral("min"), QStringLiteral("1")},
                                                           {QStringLiteral("max"), QStringLiteral("5")}});
    QCOMPARE(byCandidate.value(0).value(QStringLiteral("prompt")).toString(), base);
    // Its first scoring request: filled with the item's article and summary.
    const QString firstScoring = userMessage(scorings.first());
    QVERIFY2(firstScoring.startsWith(base.left(base.indexOf(QLatin1String("{document}")))), qPrintable(firstScoring));
    QCOMPARE(scorings.first()
                     .value(QStringLiteral("messages"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("content"))
                     .toString(),
             QStringLiteral("You are a helpful assistant."));
    // The first resample request byte for byte: the official resample text around the base prompt.
    QVERIFY(!resamples.isEmpty());
    QCOMPARE(userMessage(resamples.first()),
             formatted(QString::fromUtf8(kOfficialResample), {{QStringLiteral("prompt"), base}}));
    QCOMPARE(resamples.first().value(QStringLiteral("temperature")).toDouble(), 1.0);

    // The loop recomputed from the log as [code] ape.py runs it: passes over the queue, one
    // variation per queued prompt in queue order; an unusable one (here: the judge's "{style}")
    // costs nothing; the pass ends when the cost reaches the budget; then the queue is
    // sorted(queue + new, by Spearman, stable)[-5:]; the winner is its last.
    const auto rho
            = [&](int k) { return byCandidate.value(k).value(QStringLiteral("validation_spearman")).toDouble(); };
    QVector<int> queue{0};
    int cost = 0, at = 0, unusable = 0;
    while (cost < kBudget - 1) {
        QVector<int> fresh;
        for (int parent : std::as_const(queue)) {
            QVERIFY2(at < log.size(), "the log ends before the budget is spent");
            const QJsonObject entry = log[at++].toObject();
            QCOMPARE(entry.value(QStringLiteral("parent")).toInt(), parent);
            const bool broken = entry.value(QStringLiteral("outcome")).toString() == QLatin1String("unusable");
            const QString text = userMessage(resamples[at - 1]);
            QCOMPARE(text, formatted(QString::fromUtf8(kOfficialResample),
                                     {{QStringLiteral("prompt"),
                                       byCandidate.value(parent).value(QStringLiteral("prompt")).toString()}}));
            if (broken) {
                ++unusable;
                QVERIFY(entry.value(QStringLiteral("text")).toString().contains(QLatin1String("{style}")));
                continue;
            }
            const int k = entry.value(QStringLiteral("candidate")).toInt();
            QVERIFY(byCandidate.contains(k));
            QCOMPARE(byCandidate.value(k).value(QStringLiteral("parent")).toInt(), parent);
            QVERIFY(!byCandidate.value(k)
                             .value(QStringLiteral("prompt"))
                             .toString()
                             .contains(QLatin1String("{style}")));
            fresh.append(k);
            ++cost;
            QCOMPARE(byCandidate.value(k).value(QStringLiteral("step")).toInt(), cost);
            if (cost >= kBudget - 1)
                break;
        }
        queue += fresh;
        std::stable_sort(queue.begin(), queue.end(), [&](int a, int b) { return rho(a) < rho(b); });
        queue = queue.mid(std::max<qsizetype>(0, queue.size() - kQueue));
    }
    QCOMPARE(at, log.size());
    QCOMPARE(int(resamples.size()), int(log.size()));
    QCOMPARE(int(evaluated.size()), kBudget);
    QJsonArray wantQueue;
    for (int k : std::as_const(queue))
        wantQueue.append(k);
    QCOMPARE(search.value(QStringLiteral("queue")).toArray(), wantQueue);
    QCOMPARE(search.value(QStringLiteral("winner")).toInt(), queue.last());
    QCOMPARE(refShown.value(QStringLiteral("prompt_text")).toString(),
             byCandidate.value(queue.last()).value(QStringLiteral("prompt")).toString());
    QCOMPARE(refShown.value(QStringLiteral("validation_spearman")).toDouble(), rho(queue.last()));
    QCOMPARE(result.value(QStringLiteral("result")).toObject().value(QStringLiteral("strategy")).toString(),
             QStringLiteral("ape-style"));
    // The search phase's calls: each variation, and each evaluation a call per validation item; those
    // sent: the variations and each distinct prompt's (a repeated text is answered from the judge cache).
    QSet<QString> distinct;
    for (const auto &e : evaluated)
        distinct.insert(e.toObject().value(QStringLiteral("prompt")).toString());
    const QVariantMap refConfig = RubricStore(reference->project.get()).runConfig(QStringLiteral("a"));
    QCOMPARE(phaseCalls(refConfig, QStringLiteral("search")), int(log.size()) + kBudget * kValidation);
    QCOMPARE(phaseCalls(refConfig, QStringLiteral("search"), "sent"),
             int(log.size()) + int(distinct.size()) * kValidation);
    // The test split: the winner's prompt, filled per item.
    const QString winner = byCandidate.value(queue.last()).value(QStringLiteral("prompt")).toString();
    const QString head = winner.left(winner.indexOf(QLatin1String("{document}")));
    for (qsizetype k = scorings.size() - kTestItems; k < scorings.size(); ++k)
        QVERIFY(userMessage(scorings[k]).startsWith(head));

    // Run again: everything comes from the cache and the stored state.
    server.resetCounts();
    cliJson(refArgs, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);

    // Killed mid-search, then resumed: the same candidates and winner, nothing answered sent again.
    server.resetCounts();
    QProcess child;
    child.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(child.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= total / 2, 60000);
    child.kill();
    QTRY_COMPARE_WITH_TIMEOUT(child.state(), QProcess::NotRunning, 10000);
    QVERIFY(server.requestCount() < total);
    int cached = 0;
    {
        QSqlQuery q(ProjectTestAccess::database(*fx->project));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache")) && q.next());
        cached = q.value(0).toInt();
    }
    // The estimate after the kill replays the cached variations and evaluations; it bounds what
    // the resumed run sends, and sends nothing itself.
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
                                       QStringLiteral("--judge"), QStringLiteral("a"), QStringLiteral("--json")});
    QCOMPARE(searchOf(shown).value(QStringLiteral("evaluated")).toArray(), evaluated);
    QCOMPARE(searchOf(shown).value(QStringLiteral("ape_log")).toArray(), log);
    QCOMPARE(shown.value(QStringLiteral("prompt_text")).toString(),
             refShown.value(QStringLiteral("prompt_text")).toString());
    qInfo("APE-style, budget %d: %d variations (%d unusable), %d distinct prompts, %d requests in all; killed after %d "
          "answers, the resumed run sent %d; winner candidate %d, validation Spearman %.4f",
          kBudget, int(log.size()), unusable, int(distinct.size()), total, cached, server.requestCount(), queue.last(),
          rho(queue.last()));
}

QTEST_GUILESS_MAIN(TestHpssApeRun)
#include "TestHpssApeRun.moc"
