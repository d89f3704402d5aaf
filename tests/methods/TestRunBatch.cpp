// Runs through provider batches (issue 16.1), end to end against the fake endpoint's batch
// interface: a 10,000-item G-Eval run through `rubric run --batch` (with failing lines), the CLI
// killed while its batch is at the provider and run again (picked up, not submitted again), and a
// HypoEval run whose steps go as batches or interactively by the threshold, giving the same judge
// as an interactive run.
#include "CliRun.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "store/BatchStore.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestRunBatch : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void tenThousandItemsThroughOneBatch();
    void killedWhileTheBatchIsOutPicksItUp();
    void hypoEvalThroughBatchesMatchesInteractive();

private:
    QTemporaryDir m_dir;
};

namespace {

QStringList runArgs(const QString &path, const QString &baseUrl, bool batch = true)
{
    const QStringList batchArgs{QStringLiteral("--batch"), QStringLiteral("--set"),
                                QStringLiteral("batch.poll_seconds=0.2")};
    return QStringList{QStringLiteral("run"),         QStringLiteral("--project"),  path,
                       QStringLiteral("--judge"),     QStringLiteral("j"),          QStringLiteral("--method"),
                       QStringLiteral("geval"),       QStringLiteral("--aspect"),   QStringLiteral("fluency"),
                       QStringLiteral("--model"),     QStringLiteral("m"),          QStringLiteral("--samples"),
                       QStringLiteral("1"),           QStringLiteral("--base-url"), baseUrl,
                       QStringLiteral("--set"),       QStringLiteral("price.in=3"), QStringLiteral("--set"),
                       QStringLiteral("price.out=15")}
           + (batch ? batchArgs : QStringList());
}

} // namespace

void TestRunBatch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(!qEnvironmentVariable("RUBRIC_CLI").isEmpty(), "run through ctest, which sets RUBRIC_CLI");
}

void TestRunBatch::tenThousandItemsThroughOneBatch()
{
    const QString path = m_dir.filePath(QStringLiteral("ten-thousand.rubric"));
    auto project = testItemsProject(path, 10000, QStringLiteral("The source text number %1."),
                                    QStringLiteral("A summary of text %1."));
    QVERIFY(project);
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setBatchDelayMs(1500);
    server.setSeed(16);
    server.setBatchLineFailureRate(0.01);
    server.setAnswer(FakeAnswer{QStringLiteral("4"), {}, {}, 200, 1});

    // The estimate prices the batch at half: the evaluation's 10,000 calls go as one.
    const auto estimatedCost = [&](const QStringList &args) {
        const CliResult e = runCli(args + QStringList{QStringLiteral("--estimate"), QStringLiteral("--json")});
        return QJsonDocument::fromJson(e.out).object().value(QStringLiteral("cost")).toDouble(-1);
    };
    const double full = estimatedCost(runArgs(path, server.baseUrl(), false));
    const double halved = estimatedCost(runArgs(path, server.baseUrl()));
    QVERIFY2(full > 0 && halved > 0.49 * full && halved < 0.51 * full,
             qPrintable(QStringLiteral("%1 %2").arg(full).arg(halved)));

    const CliResult r = runCli(runArgs(path, server.baseUrl()), 240000);
    QVERIFY2(r.exitCode == 0, r.err.right(2000).constData());
    QCOMPARE(project->judgeScores(QStringLiteral("j"), QStringLiteral("fluency")).size(), 10000);

    // The 10,000 scores went as one batch; the evaluation steps (one call) and the failed lines
    // interactively, once each.
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(server.batchLines(), 10000);
    const int failedLines = 10000 - server.batchLinesAnswered();
    QVERIFY2(failedLines > 50 && failedLines < 200, qPrintable(QString::number(failedLines)));
    QCOMPARE(server.requestCount(), 1 + failedLines);

    // The ledger prices the batch's answers at half the interactive price.
    const auto ledger = CallStore(project.get()).ledger(QStringLiteral("j"));
    QVERIFY(ledger.ok());
    int batched = 0, interactive = 0, failed = 0;
    for (const LedgerEntry &e : *ledger) {
        if (e.outcome == QLatin1String("failed")) {
            ++failed;
            continue;
        }
        const double full = (e.tokensIn * 3.0 + e.tokensOut * 15.0) / 1e6;
        QVERIFY(full > 0);
        if (e.batch.isEmpty()) {
            ++interactive;
            QVERIFY(qAbs(e.cost - full) < 1e-12);
        } else {
            ++batched;
            QCOMPARE(e.batch, QStringLiteral("batch_1"));
            QVERIFY(qAbs(e.cost - 0.5 * full) < 1e-12);
        }
    }
    QCOMPARE(batched, 10000 - failedLines);
    QCOMPARE(interactive, 1 + failedLines);
    QCOMPARE(failed, failedLines);
    const auto batches = BatchStore(project.get()).batches(QStringLiteral("j"));
    QVERIFY(batches.ok());
    QCOMPARE(batches->size(), 1);
    QCOMPARE(batches->first().state, QStringLiteral("done"));
}

void TestRunBatch::killedWhileTheBatchIsOutPicksItUp()
{
    const QString path = m_dir.filePath(QStringLiteral("killed.rubric"));
    auto project = testItemsProject(path, 300, QStringLiteral("The source text number %1."),
                                    QStringLiteral("A summary of text %1."));
    QVERIFY(project);
    FakeLlmServer server;
    QVERIFY(server.listen());
    server.setBatchDelayMs(4000);

    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"), runArgs(path, server.baseUrl()));
    QVERIFY(cli.waitForStarted());
    // Killed once the batch is at the provider and recorded in the project.
    QTRY_VERIFY_WITH_TIMEOUT(!BatchStore(project.get()).batches().value().value(0).remoteId.isEmpty(), 60000);
    cli.kill();
    QVERIFY(cli.waitForFinished());
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(project->judgeScores(QStringLiteral("j"), QStringLiteral("fluency")).size(), 0);
    // `rubric info` says a batch is still out.
    const CliResult info = runCli({QStringLiteral("info"), QStringLiteral("--project"), path});
    QVERIFY2(info.out.contains("open provider batch batch_1 of j: ") && info.out.contains(" of 300 calls answered"),
             info.out.constData());

    // The same command again: it waits for that batch, submits nothing new.
    const CliResult again = runCli(runArgs(path, server.baseUrl()), 240000);
    QVERIFY2(again.exitCode == 0, again.err.right(2000).constData());
    QCOMPARE(project->judgeScores(QStringLiteral("j"), QStringLiteral("fluency")).size(), 300);
    QCOMPARE(server.batchesCreated(), 1);
    QCOMPARE(server.batchLines(), 300);
    QCOMPARE(server.batchLinesDistinct(), 300);
    QCOMPARE(server.requestCount(), 1); // the evaluation steps, asked (and cached) before the kill
    QCOMPARE(CallStore(project.get()).cacheSize().value(), 301);
    QVERIFY2(QString::fromUtf8(again.err).contains(QStringLiteral("batch_1")), again.err.right(500).constData());
}

void TestRunBatch::hypoEvalThroughBatchesMatchesInteractive()
{
    // Two copies of one project: the same run through batches and interactively.
    auto batchFx = makeProject(m_dir.filePath(QStringLiteral("hypo-batch.rubric")), 10);
    auto plainFx = makeProject(m_dir.filePath(QStringLiteral("hypo-plain.rubric")), 10);
    QVERIFY(batchFx && plainFx);
    SyntheticJudge judge(batchFx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setBatchDelayMs(50);
    QVERIFY(server.listen());

    RunSpec s = spec(QStringLiteral("hypo"), QStringLiteral("hypoeval"), server.baseUrl());
    s.batch.enabled = true;
    s.batch.threshold = 20;
    s.batch.pollMs = 30;
    const Outcome viaBatches = runToEnd(batchFx->project.get(), s);
    QVERIFY2(viaBatches.ok, qPrintable(viaBatches.error));
    const int batches = server.batchesCreated();
    const int interactive = server.requestCount();
    QVERIFY2(batches >= 2, qPrintable(QString::number(batches))); // the bank's selection, the test items …
    QVERIFY2(interactive > 0, "the generation steps are below the threshold");
    const QVariantList recorded = viaBatches.summary.value(QStringLiteral("batches")).toList();
    QCOMPARE(recorded.size(), batches);
    QCOMPARE(recorded.first().toMap().value(QStringLiteral("state")).toString(), QStringLiteral("done"));

    server.resetCounts();
    s.batch = BatchOptions();
    const Outcome plain = runToEnd(plainFx->project.get(), s);
    QVERIFY2(plain.ok, qPrintable(plain.error));
    QCOMPARE(server.batchesCreated(), batches); // nothing more went as a batch
    const auto a = batchFx->project->judgeScores(QStringLiteral("hypo"), QStringLiteral("coherence"));
    const auto b = plainFx->project->judgeScores(QStringLiteral("hypo"), QStringLiteral("coherence"));
    QCOMPARE(a.size(), 10);
    QCOMPARE(a, b);
}

QTEST_GUILESS_MAIN(TestRunBatch)
#include "TestRunBatch.moc"
