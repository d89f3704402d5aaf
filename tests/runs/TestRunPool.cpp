// A run over a pool of replicas of one model (issue 16.2): the pool in runs.config, `rubric run`
// with several --base-url where one replica answers only 500s, and what counts as another
// configuration of the judge.
#include "CliRun.h"
#include "FakeLlmServer.h"
#include "runs/RunConfig.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestRunPool : public QObject
{
    Q_OBJECT
private slots:
    void poolRoundTripsThroughTheConfig();
    void cliRunOverAPoolScoresEveryItem();
};

void TestRunPool::poolRoundTripsThroughTheConfig()
{
    ProviderProfile p;
    p.name = QStringLiteral("fleet");
    p.baseUrl = QStringLiteral("http://gpu1:8000/v1");
    p.replicaUrls = {QStringLiteral("http://gpu2:8000/v1"), QStringLiteral("http://gpu3:8000/v1?api_key=sk-abc12345")};
    p.replicaWeights = {2, 1, 0.5};
    p.model = QStringLiteral("qwen");
    const QVariantMap map = RunConfig::profileToMap(p);
    const QVariantMap pool = map.value(QStringLiteral("pool")).toMap();
    QCOMPARE(pool.value(QStringLiteral("urls")).toList().size(), 3);
    QCOMPARE(pool.value(QStringLiteral("weights")).toList().value(2).toDouble(), 0.5);
    QVERIFY(!QString::fromUtf8(QJsonDocument::fromVariant(map).toJson()).contains(QStringLiteral("sk-abc12345")));
    auto back = RunConfig::profileFromMap(map, QStringLiteral("evaluator"));
    QVERIFY2(back, qPrintable(back.errorString()));
    QCOMPARE(back->baseUrls().size(), 3);
    QCOMPARE(back->baseUrl, p.baseUrl);
    QCOMPARE(back->replicaUrls.value(0), p.replicaUrls.value(0));
    QCOMPARE(back->replicaWeights, p.replicaWeights);
    // A profile without replicas writes no pool (configurations stored before pools stay as they were).
    p.replicaUrls.clear();
    p.replicaWeights.clear();
    QVERIFY(!RunConfig::profileToMap(p).contains(QStringLiteral("pool")));
}

void TestRunPool::cliRunOverAPoolScoresEveryItem()
{
    QVERIFY2(!qEnvironmentVariable("RUBRIC_CLI").isEmpty(), "run through ctest, which sets RUBRIC_CLI");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pool.rubric"));
    auto project = test::testItemsProject(path, 6);
    QVERIFY(project);
    test::FakeLlmServer good, bad, spare;
    QVERIFY(good.listen() && bad.listen() && spare.listen());
    bad.setFaultRates(0, 1.0, 0, 0); // every request answered with HTTP 500
    const auto args = [&](const QStringList &urls, const QStringList &more = {}) {
        QStringList a{QStringLiteral("run"),     QStringLiteral("--project"), path,
                      QStringLiteral("--judge"), QStringLiteral("j"),         QStringLiteral("--method"),
                      QStringLiteral("geval"),   QStringLiteral("--aspect"),  QStringLiteral("fluency"),
                      QStringLiteral("--model"), QStringLiteral("m"),         QStringLiteral("--samples"),
                      QStringLiteral("1")};
        for (const QString &url : urls)
            a << QStringLiteral("--base-url") << url;
        return a + more;
    };

    test::CliResult first = test::runCli(
            args({bad.baseUrl(), good.baseUrl()}, {QStringLiteral("--set"), QStringLiteral("pool.weights=1,2")}));
    QVERIFY2(first.exitCode == 0, first.err.constData());
    QCOMPARE(project->judgeScores(QStringLiteral("j"), QStringLiteral("fluency")).size(), 6);
    // The failing replica cost no answer: every call was answered once, by the good one.
    QVERIFY(bad.requestCount() >= 1);
    QCOMPARE(bad.answeredCount(), 0);
    QCOMPARE(CallStore(project.get()).cacheSize().value(), good.answeredCount());
    const QVariantMap evaluator
            = RubricStore(project.get()).runConfig(QStringLiteral("j")).value(QStringLiteral("evaluator")).toMap();
    const QVariantMap pool = evaluator.value(QStringLiteral("pool")).toMap();
    QCOMPARE(pool.value(QStringLiteral("urls")).toStringList(), QStringList({bad.baseUrl(), good.baseUrl()}));
    QCOMPARE(pool.value(QStringLiteral("weights")).toList().value(1).toDouble(), 2.0);

    // A replica more of the same model is the same judge: not refused, nothing asked again.
    const int asked = good.requestCount() + bad.requestCount();
    test::CliResult grown = test::runCli(args({good.baseUrl(), bad.baseUrl(), spare.baseUrl()}));
    QVERIFY2(grown.exitCode == 0, grown.err.constData());
    QCOMPARE(good.requestCount() + bad.requestCount() + spare.requestCount(), asked);

    // The attempt records the pool it ran with.
    QCOMPARE(RubricStore(project.get())
                     .runConfig(QStringLiteral("j"))
                     .value(QStringLiteral("evaluator"))
                     .toMap()
                     .value(QStringLiteral("pool"))
                     .toMap()
                     .value(QStringLiteral("urls"))
                     .toStringList()
                     .size(),
             3);

    // A URL list with none in common is another deployment: refused, as another base URL is.
    test::CliResult moved = test::runCli(args({QStringLiteral("http://127.0.0.1:9/v1")}));
    QCOMPARE(moved.exitCode, 1);
    QVERIFY2(QString::fromUtf8(moved.err).contains(QStringLiteral("evaluator base URL")), moved.err.constData());

    // Weights that do not match the URLs are a usage error.
    test::CliResult badWeights = test::runCli(
            args({good.baseUrl(), spare.baseUrl()}, {QStringLiteral("--set"), QStringLiteral("pool.weights=1")}));
    QCOMPARE(badWeights.exitCode, 2);
}

QTEST_GUILESS_MAIN(TestRunPool)
#include "TestRunPool.moc"
