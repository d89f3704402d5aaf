// HPSS's pairwise setting through the CLI on the synthetic judge (issue 32; paper App. I, E.2):
// `--set setting=pairwise` searches the 1,728 pairwise strategies with one request per validation
// pair, each answer a verdict; the test accuracy recomputed here from the answers the endpoint gave
// and the fixture's human scores equals what the rubric stores, and no accuracy is called a
// Spearman; the estimate counts a call per validation pair; a re-run sends nothing; a run killed
// mid-search resumes to the same search without sending an answered request again; bad settings
// are refused with a message naming them.

#include "../HpssCli.h"
#include "../PipelineFixture.h"
#include "FakeLlmServer.h"
#include "ProjectTestAccess.h"
#include "SyntheticJudge.h"
#include "methods/hpss/HpssJudgeView.h"
#include "runs/RunConfig.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kBudget = 20; // the origin and its 15 neighbours in the pairwise space, then 4 more
constexpr int kTestItems = 16;
constexpr int kStep = 4; // four outputs per article: pairs within a source

QString userMessage(const QJsonObject &body)
{
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    return messages.isEmpty() ? QString() : messages.last().toObject().value(QStringLiteral("content")).toString();
}

/// The outputs in a pairwise prompt's "[The Start of … A]" / "… B]" blocks, in prompt order: the
/// example pairs', then (the last two) the pair it compares.
QStringList pairBlocks(const QString &prompt)
{
    static const QRegularExpression block(QStringLiteral("\\[The Start of ([^\\]]*) (A|B)\\]\\n(.*?)\\n\\[The End of "
                                                         "\\1 \\2\\]"),
                                          QRegularExpression::DotMatchesEverythingOption);
    QStringList out;
    for (auto it = block.globalMatch(prompt); it.hasNext();)
        out.append(it.next().captured(3));
    return out;
}

/// MT-Bench's verdict: the last of [[A]], [[B]], [[C]] in the answer ('?' when none).
QChar lastVerdict(const QString &answer)
{
    static const QRegularExpression verdict(QStringLiteral("\\[\\[([ABC])\\]\\]"));
    QChar out = QLatin1Char('?');
    for (auto it = verdict.globalMatch(answer); it.hasNext();)
        out = it.next().captured(1).at(0);
    return out;
}

} // namespace

class TestHpssPairwiseRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void badSettingsAreRefused();
    void searchesPairsCachedAndResumed();

private:
    TempProjects m_projects;
};

void TestHpssPairwiseRun::badSettingsAreRefused()
{
    auto fx = makeSummEvalProject(m_projects.next(), kTestItems, kStep);
    QVERIFY(fx);
    const QStringList base{QStringLiteral("run"),
                           QStringLiteral("--project"),
                           fx->project->path(),
                           QStringLiteral("--method"),
                           QStringLiteral("hpss"),
                           QStringLiteral("--aspect"),
                           QStringLiteral("coherence"),
                           QStringLiteral("--judge"),
                           QStringLiteral("p"),
                           QStringLiteral("--base-url"),
                           QStringLiteral("http://127.0.0.1:9"),
                           QStringLiteral("--model"),
                           QStringLiteral("synthetic"),
                           QStringLiteral("--estimate")};
    const QVector<std::pair<QStringList, QString>> cases = {
            {{QStringLiteral("setting=pairs")}, QStringLiteral("'setting'")},
            {{QStringLiteral("pair_seed=3")}, QStringLiteral("setting=pairwise")},
            {{QStringLiteral("setting=pairwise"), QStringLiteral("pairs_per_group=0")},
             QStringLiteral("'pairs_per_group'")},
            {{QStringLiteral("setting=pairwise"), QStringLiteral("search=ape")}, QStringLiteral("search=ape")},
            {{QStringLiteral("setting=pairwise"), QStringLiteral("samples=20")}, QStringLiteral("samples")},
            {{QStringLiteral("setting=pairwise"), QStringLiteral("space=full")}, QStringLiteral("scale:3")},
            {{QStringLiteral("setting=pairwise"), QStringLiteral("strategy=scale:5,examples:0,criteria:human,"
                                                                 "reference:none,cot:prefix,autocot:off,"
                                                                 "metrics:off,order:TEI")},
             QStringLiteral("transferred strategy")},
    };
    for (const auto &[sets, needle] : cases) {
        QStringList args = base;
        for (const QString &s : sets)
            args << QStringLiteral("--set") << s;
        int rc = 0;
        QString err;
        cliJson(args, &rc, nullptr, &err);
        QVERIFY2(rc != 0, qPrintable(sets.join(QLatin1Char(' '))));
        QVERIFY2(err.contains(needle), qPrintable(sets.join(QLatin1Char(' ')) + QStringLiteral(": ") + err));
    }
}

void TestHpssPairwiseRun::searchesPairsCachedAndResumed()
{
    auto fx = makeSummEvalProject(m_projects.next(), kTestItems, kStep);
    auto reference = makeSummEvalProject(m_projects.next(), kTestItems, kStep);
    QVERIFY(fx && reference);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    QVector<std::pair<QString, QString>> answered; // (prompt, answer) as the endpoint gave them
    server.setJudge([&](const QJsonObject &body) {
        const FakeAnswer a = judge.answer(body);
        answered.append({userMessage(body), a.text});
        return a;
    });
    server.setLatencyMs(1);
    QVERIFY(server.listen());
    QStringList args{QStringLiteral("run"),
                     QStringLiteral("--project"),
                     fx->project->path(),
                     QStringLiteral("--method"),
                     QStringLiteral("hpss"),
                     QStringLiteral("--aspect"),
                     QStringLiteral("coherence"),
                     QStringLiteral("--judge"),
                     QStringLiteral("p"),
                     QStringLiteral("--base-url"),
                     server.baseUrl(),
                     QStringLiteral("--model"),
                     QStringLiteral("synthetic"),
                     QStringLiteral("--concurrency"),
                     QStringLiteral("4"),
                     QStringLiteral("--set"),
                     QStringLiteral("setting=pairwise"),
                     QStringLiteral("--set"),
                     QStringLiteral("budget=%1").arg(kBudget),
                     QStringLiteral("--json")};
    QStringList refArgs = args;
    refArgs[2] = reference->project->path();

    // The estimate before anything is cached: a call per validation pair and evaluation.
    int rc = -1;
    const QJsonObject estimate = cliJson(refArgs + QStringList{QStringLiteral("--estimate")}, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);

    const QJsonObject result = cliJson(refArgs, &rc);
    QCOMPARE(rc, 0);
    const int total = server.requestCount();
    const QJsonObject run = result.value(QStringLiteral("result")).toObject();
    QCOMPARE(run.value(QStringLiteral("metric")).toString(), QStringLiteral("accuracy"));
    QCOMPARE(run.value(QStringLiteral("setting")).toString(), QStringLiteral("pairwise"));
    QVERIFY(!run.contains(QStringLiteral("validation_spearman")) && !run.contains(QStringLiteral("test_spearman")));
    const int validationPairs = run.value(QStringLiteral("validation_n")).toInt();
    QVERIFY2(validationPairs >= 10, qPrintable(QString::number(validationPairs)));
    QCOMPARE(run.value(QStringLiteral("evaluations")).toInt(), kBudget);
    const QVariantMap config = RubricStore(reference->project.get()).runConfig(QStringLiteral("p"));
    QCOMPARE(phaseCalls(config, QStringLiteral("search")), kBudget * validationPairs);
    QCOMPARE(estimate.value(QStringLiteral("phases")).toObject().value(QStringLiteral("search")).toInt(),
             kBudget * validationPairs);

    const QJsonObject shown
            = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), reference->project->path(),
                       QStringLiteral("--judge"), QStringLiteral("p"), QStringLiteral("--json")});
    QCOMPARE(shown.value(QStringLiteral("metric")).toString(), QStringLiteral("accuracy"));
    QCOMPARE(shown.value(QStringLiteral("search")).toObject().value(QStringLiteral("metric")).toString(),
             QStringLiteral("accuracy"));
    for (const QString &key : {QStringLiteral("validation_spearman"), QStringLiteral("test_spearman")})
        QVERIFY2(!shown.contains(key), qPrintable(key));
    for (const auto &e : shown.value(QStringLiteral("search")).toObject().value(QStringLiteral("evaluated")).toArray())
        QVERIFY(e.toObject().contains(QStringLiteral("validation_accuracy"))
                && !e.toObject().contains(QStringLiteral("validation_spearman")));
    // The winner's strategy lies in the pairwise space (no other scale, no self criteria).
    const QJsonObject strategy = shown.value(QStringLiteral("strategy")).toObject();
    QCOMPARE(strategy.value(QStringLiteral("scale")).toString(), QStringLiteral("5"));
    QVERIFY(strategy.value(QStringLiteral("criteria")).toString() != QLatin1String("self"));

    // Every pairwise prompt shows its pair once: no example pair holds either of its outputs.
    QSet<QString> knownOutputs;
    for (auto it = fx->humanByOutput.cbegin(); it != fx->humanByOutput.cend(); ++it)
        knownOutputs.insert(it.key());
    QHash<QString, QString> testAnswers; // "outputA\x1FoutputB" → the answer, for the test pairs
    QSet<QString> testItemOutputs;
    for (const QString &id : std::as_const(reference->testIds))
        testItemOutputs.insert(reference->project->item(id)->output);
    int pairwisePrompts = 0, withExamples = 0;
    int originRight = 0, originAsked = 0; // the first evaluation (the origin): the first validation pair prompts
    for (const auto &[prompt, answer] : std::as_const(answered)) {
        const QStringList blocks = pairBlocks(prompt);
        if (blocks.size() < 2)
            continue; // an auxiliary request
        QCOMPARE(blocks.size() % 2, 0);
        ++pairwisePrompts;
        withExamples += blocks.size() > 2 ? 1 : 0;
        const QString a = blocks.at(blocks.size() - 2), b = blocks.last();
        QVERIFY(knownOutputs.contains(a) && knownOutputs.contains(b));
        for (qsizetype k = 0; k + 2 < blocks.size(); ++k)
            QVERIFY2(blocks[k] != a && blocks[k] != b, "an example pair holds an output of the pair judged");
        // A pair is never split: both test items or both validation items.
        QCOMPARE(testItemOutputs.contains(a), testItemOutputs.contains(b));
        if (testItemOutputs.contains(a))
            testAnswers.insert(a + QChar(0x1F) + b, answer);
        else if (originAsked < validationPairs) { // evaluations stream one after the other
            ++originAsked;
            const QChar v = lastVerdict(answer);
            const double ha = fx->humanByOutput.value(a), hb = fx->humanByOutput.value(b);
            originRight += (v == QLatin1Char('A') && ha > hb) || (v == QLatin1Char('B') && hb > ha) ? 1 : 0;
        }
    }
    QVERIFY(pairwisePrompts > 0);
    QVERIFY(withExamples > 0); // the initialisation tries examples:3, 5 and 10
    // The origin's validation accuracy (Eq. 10) from its answers, as the search record stores it.
    const QJsonObject origin = shown.value(QStringLiteral("search"))
                                       .toObject()
                                       .value(QStringLiteral("evaluated"))
                                       .toArray()
                                       .first()
                                       .toObject();
    QCOMPARE(origin.value(QStringLiteral("step")).toInt(), 1);
    QCOMPARE(originAsked, validationPairs);
    QCOMPARE(origin.value(QStringLiteral("validation_accuracy")).toDouble(), double(originRight) / validationPairs);

    // The test accuracy recomputed: each stored test pair's verdict read from the endpoint's answer,
    // the human preference from the fixture's scores, Eq. 10 over the pairs.
    const QJsonArray testPairs = shown.value(QStringLiteral("test_pairs")).toArray();
    QVERIFY2(testPairs.size() >= 4, qPrintable(QString::number(testPairs.size())));
    QCOMPARE(testAnswers.size(), testPairs.size());
    int right = 0;
    for (const auto &v : testPairs) {
        const QJsonObject p = v.toObject();
        const QString a = reference->project->item(p.value(QStringLiteral("a")).toString())->output;
        const QString b = reference->project->item(p.value(QStringLiteral("b")).toString())->output;
        const double ha = fx->humanByOutput.value(a), hb = fx->humanByOutput.value(b);
        QVERIFY(ha != hb);
        QCOMPARE(p.value(QStringLiteral("human")).toString(), ha > hb ? QStringLiteral("A") : QStringLiteral("B"));
        QVERIFY2(testAnswers.contains(a + QChar(0x1F) + b), "a stored test pair the endpoint never compared");
        const QChar verdict = lastVerdict(testAnswers.value(a + QChar(0x1F) + b));
        QCOMPARE(p.value(QStringLiteral("verdict")).toString(), QString(verdict));
        right += (verdict == QLatin1Char('A') && ha > hb) || (verdict == QLatin1Char('B') && hb > ha) ? 1 : 0;
    }
    QCOMPARE(shown.value(QStringLiteral("test_n")).toInt(), int(testPairs.size()));
    QCOMPARE(shown.value(QStringLiteral("test_accuracy")).toDouble(), double(right) / testPairs.size());
    QCOMPARE(run.value(QStringLiteral("test_accuracy")).toDouble(), double(right) / testPairs.size());
    // The studio's view of the judge (the prompt inspector) rebuilds the same pairs and renders the
    // winner's prompt for a test pair byte for byte as it was sent.
    {
        auto view = hpss::JudgeView::load(reference->project.get(), QStringLiteral("p"), &RunConfig::load);
        QVERIFY2(view, qPrintable(view ? QString() : view.errorString()));
        QVERIFY(view->isPairwise());
        QCOMPARE(view->validationPairCount(), validationPairs);
        QCOMPARE(int(view->pairs().size()), validationPairs + int(testPairs.size()));
        auto winner = hpss::PromptStrategy::fromVariant(strategy.toVariantMap());
        QVERIFY(winner);
        int rendered = 0;
        for (const auto &v : testPairs) {
            const QJsonObject p = v.toObject();
            hpss::PreferencePair pair;
            pair.a = p.value(QStringLiteral("a")).toString();
            pair.b = p.value(QStringLiteral("b")).toString();
            auto prompt = view->render(*winner, hpss::JudgeView::pairKey(pair));
            QVERIFY2(prompt, qPrintable(prompt ? QString() : prompt.errorString()));
            bool sent = false;
            for (const auto &[text, answer] : std::as_const(answered))
                sent = sent || text == prompt->text;
            QVERIFY2(sent, qPrintable(prompt->text.left(300)));
            ++rendered;
        }
        QCOMPARE(rendered, int(testPairs.size()));
    }
    // No per-item score that would look like a rating.
    {
        QSqlQuery q(ProjectTestAccess::database(*reference->project));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_scores")) && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
    }

    // Run again: everything comes from the cache and the stored state. The text summary counts pairs
    // and shows the accuracy, not items and a Spearman.
    server.resetCounts();
    QString text;
    QStringList textArgs = refArgs;
    textArgs.removeAll(QStringLiteral("--json"));
    cliJson(textArgs, &rc, &text);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);
    const int testPairCount = run.value(QStringLiteral("test_n")).toInt();
    QVERIFY2(text.contains(
                     QStringLiteral("Accuracy over pairs  validation %1 (n = %2)  |  test %3 (n = %4)")
                             .arg(QString::number(run.value(QStringLiteral("validation_accuracy")).toDouble(), 'f', 3))
                             .arg(validationPairs)
                             .arg(QString::number(run.value(QStringLiteral("test_accuracy")).toDouble(), 'f', 3))
                             .arg(testPairCount)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral(" pairs judged, ")) && !text.contains(QStringLiteral("Spearman")),
             qPrintable(text));
    // `rubric compare` names the judge as a pairwise one with its accuracy, not as one that never ran.
    QString compareErr;
    cliJson({QStringLiteral("compare"), QStringLiteral("--project"), reference->project->path(),
             QStringLiteral("--aspect"), QStringLiteral("coherence"), QStringLiteral("--judge"), QStringLiteral("p")},
            &rc, nullptr, &compareErr);
    QVERIFY(rc != 0);
    QVERIFY2(compareErr.contains(QStringLiteral("judges pairs of outputs"))
                     && compareErr.contains(
                             QStringLiteral("its accuracy on %1 test pairs is %2")
                                     .arg(testPairCount)
                                     .arg(QString::number(run.value(QStringLiteral("test_accuracy")).toDouble(), 'f',
                                                          3))),
             qPrintable(compareErr));

    // Killed mid-search, then resumed: the same search, nothing answered sent again.
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
    server.resetCounts();
    const QJsonObject resumedEstimate = cliJson(args + QStringList{QStringLiteral("--estimate")}, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);
    cliJson(args, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), total - cached);
    QVERIFY2(resumedEstimate.value(QStringLiteral("calls_min")).toInt() <= server.requestCount()
                     && server.requestCount() <= resumedEstimate.value(QStringLiteral("calls")).toInt(),
             qPrintable(QStringLiteral("estimate %1-%2, sent %3")
                                .arg(resumedEstimate.value(QStringLiteral("calls_min")).toInt())
                                .arg(resumedEstimate.value(QStringLiteral("calls")).toInt())
                                .arg(server.requestCount())));
    const QJsonObject resumed
            = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), fx->project->path(),
                       QStringLiteral("--judge"), QStringLiteral("p"), QStringLiteral("--json")});
    QCOMPARE(evaluatedOf(resumed), evaluatedOf(shown));
    QCOMPARE(resumed.value(QStringLiteral("test_pairs")).toArray().size(), testPairs.size());
    QCOMPARE(resumed.value(QStringLiteral("test_accuracy")).toDouble(),
             shown.value(QStringLiteral("test_accuracy")).toDouble());
    qInfo("pairwise HPSS, budget %d: %d validation pairs, %d test pairs, %d requests; winner %s, validation accuracy "
          "%.4f, test accuracy %.4f; killed after %d answers, the resumed run sent %d",
          kBudget, validationPairs, int(testPairs.size()), total,
          qPrintable(evaluatedOf(shown).isEmpty() ? QString() : run.value(QStringLiteral("strategy")).toString()),
          shown.value(QStringLiteral("validation_accuracy")).toDouble(),
          shown.value(QStringLiteral("test_accuracy")).toDouble(), cached, server.requestCount());
}

QTEST_GUILESS_MAIN(TestHpssPairwiseRun)
#include "TestHpssPairwiseRun.moc"
