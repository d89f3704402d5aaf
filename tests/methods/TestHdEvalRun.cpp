// HD-Eval end to end against the loopback fake endpoint: the synthetic judge decomposes into
// SIGNAL and NOISE criteria and scores them by a known rule (tests/support/SyntheticJudge).

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "ProjectTestAccess.h"
#include "SyntheticJudge.h"
#include "methods/hdeval/HdEvalExplain.h"
#include "methods/hdeval/HdEvalParams.h"
#include "methods/hdeval/HdEvalTree.h"
#include "rubric/RubricExport.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestHdEvalRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void parsesDecompositions();
    void readsTheFirstScore();
    void paramsAreStrict();
    void callsPerPhaseAndExactEstimate();
    void anotherAggregatorSendsNothing();
    void pruningPrefersSignal();
    void batchedDecompositionOneCallPerLayer();
    void killedRunResumesWithoutResending();

private:
    TempProjects m_projects;
};

namespace {

RunSpec hdSpec(const QString &judge, const QString &baseUrl, const QVariantMap &settings)
{
    RunSpec s = spec(judge, QStringLiteral("hdeval"), baseUrl);
    s.settings = settings;
    return s;
}

QStringList featureKeys(const Rubric &r)
{
    QStringList keys;
    for (const Criterion &c : hdeval::featureNodes(r))
        keys << c.key;
    return keys;
}

/// What the method reported (Run's summary holds it under "result").
QVariantMap result(const Outcome &o)
{
    return o.summary.value(QStringLiteral("result")).toMap();
}

int layerCount(const Rubric &r, int layer)
{
    return int(hdeval::layerNodes(r, layer).size());
}

} // namespace

void TestHdEvalRun::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestHdEvalRun::parsesDecompositions()
{
    const auto groups = hdeval::parseDecomposition(
            QStringLiteral("Here are some critics:\n"
                           "1. ord | Sentence ordering: how well the sentences follow a logical order.\n"
                           "2) **Discourse structure**: how well discourse markers are used.\n"
                           "- Topic focus - how well one topic is kept.\n"
                           "* Entity consistency (entcon): consistent names for entities.\n"
                           "These should cover the aspect.\n"));
    QCOMPARE(groups.size(), 1);
    const auto &c = groups.first().children;
    QCOMPARE(c.size(), 4);
    QCOMPARE(c[0].key, QStringLiteral("ord"));
    QCOMPARE(c[0].name, QStringLiteral("Sentence ordering"));
    QCOMPARE(c[1].name, QStringLiteral("Discourse structure"));
    QCOMPARE(c[1].definition, QStringLiteral("how well discourse markers are used."));
    QCOMPARE(c[2].name, QStringLiteral("Topic focus"));
    QCOMPARE(c[3].key, QStringLiteral("entcon"));
    QCOMPARE(c[3].name, QStringLiteral("Entity consistency"));

    const auto batched = hdeval::parseDecomposition(QStringLiteral(
            "## Coherence\n1. ord | Ordering: order.\n2. Focus: focus.\n\n## Fluency\n1. gram | Grammar: grammar.\n"));
    QCOMPARE(batched.size(), 2);
    QCOMPARE(batched[0].header, QStringLiteral("Coherence"));
    QCOMPARE(batched[0].children.size(), 2);
    QCOMPARE(batched[1].header, QStringLiteral("Fluency"));
    QCOMPARE(batched[1].children.first().key, QStringLiteral("gram"));

    QSet<QString> taken{QStringLiteral("ord"), QStringLiteral("topic")};
    QCOMPARE(hdeval::makeKey({QStringLiteral("ord"), QStringLiteral("Order"), QStringLiteral("x")}, taken),
             QStringLiteral("ord2"));
    QCOMPARE(hdeval::makeKey({{}, QStringLiteral("Topic focus"), QStringLiteral("x")}, taken),
             QStringLiteral("topic2"));
    QCOMPARE(hdeval::makeKey({QStringLiteral("Not A Key!"), QStringLiteral("Grammar and syntax"), QStringLiteral("x")},
                             taken),
             QStringLiteral("grammar"));
    QVERIFY(hdeval::parseDecomposition(QStringLiteral("I cannot help with that.")).isEmpty());
}

void TestHdEvalRun::readsTheFirstScore()
{
    QCOMPARE(hdeval::firstScore(QStringLiteral("4\nThe summary is clear.")).value(), 4.0);
    QCOMPARE(hdeval::firstScore(QStringLiteral("Score: 3.5 because 2 sentences")).value(), 3.5);
    QVERIFY(!hdeval::firstScore(QStringLiteral("7 out of 5")).has_value()); // outside 1–5: missing, not clamped
    QVERIFY(!hdeval::firstScore(QStringLiteral("The summary is")).has_value());
    QVERIFY(!hdeval::firstScore(QStringLiteral("0")).has_value()); // never 0
}

void TestHdEvalRun::paramsAreStrict()
{
    auto p = HdEvalParams::fromSettings({});
    QVERIFY(p);
    QCOMPARE(p->layers, 3);
    QCOMPARE(p->children, 4);
    QCOMPARE(p->topK, 3);
    QCOMPARE(p->maxTokens, 32);
    QCOMPARE(p->aggregator.kind, learn::AggregatorKind::Mlp);
    auto q = HdEvalParams::fromSettings({{QStringLiteral("aggregator"), QStringLiteral("ridge")},
                                         {QStringLiteral("ridge_lambda"), QStringLiteral("0.5")},
                                         {QStringLiteral("decompose"), QStringLiteral("batched")}});
    QVERIFY2(q, qPrintable(q.errorString()));
    QCOMPARE(q->aggregator.kind, learn::AggregatorKind::Ridge);
    QCOMPARE(q->aggregator.ridgeLambda, 0.5);
    QVERIFY(q->batched);
    const auto bad = HdEvalParams::fromSettings({{QStringLiteral("layers"), QStringLiteral("4")}});
    QVERIFY(!bad);
    QCOMPARE(bad.error().field, QStringLiteral("layers"));
    const auto unknown = HdEvalParams::fromSettings({{QStringLiteral("depth"), QStringLiteral("2")}});
    QVERIFY(!unknown);
    QVERIFY(unknown.errorString().contains(QStringLiteral("unknown")));
    QVERIFY(!HdEvalParams::fromSettings({{QStringLiteral("aggregator"), QStringLiteral("svm")}}));
}

void TestHdEvalRun::callsPerPhaseAndExactEstimate()
{
    auto fx = makeProject(m_projects.next(), 20);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QVariantMap settings{{QStringLiteral("aggregator"), QStringLiteral("linear")},
                               {QStringLiteral("top_k"), QStringLiteral("2")}};

    // Judge a: the 30 train items only. The estimate on a cold cache is a bound.
    RunSpec a = hdSpec(QStringLiteral("a"), server.baseUrl(), settings);
    a.items = SplitFilter::Train;
    {
        Run run(fx->project.get(), a);
        auto e = run.estimate();
        QVERIFY2(e, qPrintable(e.errorString()));
        QVERIFY(!e->exact);
        // decompose-2: 1; scores: 30 × (1 + ≤4 + ≤2·4); decompose-3: ≤ 2
        QCOMPARE(e->calls, 1 + 30 * (1 + 4 + 8) + 2);
        QVERIFY(e->callsMin <= 1 + 30 * 3 + 1);
        QCOMPARE(server.requestCount(), 0);
    }
    const Outcome oa = runToEnd(fx->project.get(), a);
    QVERIFY2(oa.ok, qPrintable(oa.error));
    const int itemsA = 30;
    QCOMPARE(phaseCalls(oa.summary, QStringLiteral("decompose-2")), 1);
    QCOMPARE(phaseCalls(oa.summary, QStringLiteral("score-1")), itemsA * 1);
    QCOMPARE(phaseCalls(oa.summary, QStringLiteral("score-2")), itemsA * 4);
    QCOMPARE(phaseCalls(oa.summary, QStringLiteral("decompose-3")), 2);
    QCOMPARE(phaseCalls(oa.summary, QStringLiteral("score-3")), itemsA * 8);
    QCOMPARE(server.requestCount(), 1 + 2 + itemsA * 13);
    RubricStore store(fx->project.get());
    auto tree = store.load(QStringLiteral("a"));
    QVERIFY(tree);
    QCOMPARE(layerCount(*tree, 1), 1);
    QCOMPARE(layerCount(*tree, 2), 4);
    QCOMPARE(layerCount(*tree, 3), 8);
    for (const Criterion &c : hdeval::layerNodes(*tree, 2)) {
        QVERIFY(c.stats.contains(QStringLiteral("selected")));
        QVERIFY(c.stats.value(QStringLiteral("importance")).toMap().contains(QStringLiteral("coherence")));
        QCOMPARE(c.origin.value(QStringLiteral("method")).toString(), QStringLiteral("hdeval"));
        QCOMPARE(c.kind, CriterionKind::Criterion);
    }
    // show-rubric --json: the aggregator at the top, linear with one weight per node (layer 1 too).
    const QVariantMap exported = RubricExport::toJson(*tree);
    const QVariantMap agg = exported.value(QStringLiteral("aggregator")).toMap();
    QCOMPARE(agg.value(QStringLiteral("kind")).toString(), QStringLiteral("linear"));
    const QVariantMap lin = agg.value(QStringLiteral("aspects")).toMap().value(QStringLiteral("coherence")).toMap();
    QVERIFY(lin.contains(QStringLiteral("intercept")));
    QCOMPARE(lin.value(QStringLiteral("weights")).toMap().size(), 13);
    QVERIFY(agg.value(QStringLiteral("cv_r")).toMap().contains(QStringLiteral("coherence")));
    // Every train item has a judge score (the aggregator's prediction).
    QCOMPARE(fx->project->judgeScores(QStringLiteral("a"), QStringLiteral("coherence")).size(), 30);

    // Judge b: the test split (plus the train items). Decomposition is independent of the item
    // count (all from the cache), the tree is known from the cache, so the estimate is exact.
    server.resetCounts();
    RunSpec b = hdSpec(QStringLiteral("b"), server.baseUrl(), settings);
    int estimated = 0;
    {
        Run run(fx->project.get(), b);
        auto e = run.estimate();
        QVERIFY2(e, qPrintable(e.errorString()));
        QVERIFY(e->exact);
        QCOMPARE(e->calls, int(fx->testIds.size()) * 13);
        QCOMPARE(e->perPhase.value(QStringLiteral("decompose-2")).toInt(), 0);
        QCOMPARE(e->perPhase.value(QStringLiteral("decompose-3")).toInt(), 0);
        QCOMPARE(e->cached, 3 + 30 * 13);
        estimated = e->calls;
    }
    const Outcome ob = runToEnd(fx->project.get(), b);
    QVERIFY2(ob.ok, qPrintable(ob.error));
    const int itemsB = 30 + int(fx->testIds.size());
    QCOMPARE(server.requestCount(), estimated);
    QCOMPARE(phaseCalls(ob.summary, QStringLiteral("decompose-2")), 1);
    QCOMPARE(phaseCalls(ob.summary, QStringLiteral("decompose-3")), 2);
    QCOMPARE(phaseCalls(ob.summary, QStringLiteral("decompose-3"), "sent"), 0);
    QCOMPARE(phaseCalls(ob.summary, QStringLiteral("score-1")), itemsB);
    QCOMPARE(phaseCalls(ob.summary, QStringLiteral("score-2")), itemsB * 4);
    QCOMPARE(phaseCalls(ob.summary, QStringLiteral("score-3")), itemsB * 8);
    // The aggregator on all nodes is at least as good on the test split as the best single node.
    const double testR = result(ob).value(QStringLiteral("test_r")).toDouble();
    const double bestNode = result(ob).value(QStringLiteral("best_node_test_r")).toDouble();
    qInfo("linear aggregator: train r %.3f, CV r %.3f, test r %.3f; best single node test r %.3f; direct (layer 1) "
          "test r %.3f",
          result(ob).value(QStringLiteral("train_r")).toDouble(), result(ob).value(QStringLiteral("cv_r")).toDouble(),
          testR, bestNode, result(ob).value(QStringLiteral("direct_test_r")).toDouble());
    QVERIFY(std::isfinite(testR));
    QVERIFY2(testR >= bestNode, qPrintable(QStringLiteral("%1 < %2").arg(testR).arg(bestNode)));
    // The judge score of a test item is the aggregator's prediction; its Pearson is the test_r.
    const auto scores = fx->project->judgeScores(QStringLiteral("b"), QStringLiteral("coherence"));
    QCOMPARE(scores.size(), itemsB);
    QVERIFY(std::abs(pearsonOf(scores, *fx) - testR) < 1e-9);

    // The linear aggregator's intercept and weights equal a least-squares fit of the stored node
    // scores of the train items to their human scores, solved here with Eigen's QR, apart from learn.
    {
        auto fitted = RubricStore(fx->project.get()).load(QStringLiteral("b"));
        QVERIFY(fitted);
        const QVariantMap agg = RubricExport::toJson(*fitted).value(QStringLiteral("aggregator")).toMap();
        const QVariantMap lin = agg.value(QStringLiteral("aspects")).toMap().value(QStringLiteral("coherence")).toMap();
        const QStringList keys = featureKeys(*fitted);
        QHash<QString, QHash<QString, double>> byItem;
        for (const CriterionScore &row : RubricStore(fx->project.get()).sampleScores(QStringLiteral("b")))
            byItem[row.itemId].insert(row.criterionKey, row.score);
        const auto human = fx->project->humanScores(QStringLiteral("coherence"));
        const QStringList train = fx->project->itemIds(SplitFilter::Train);
        Eigen::MatrixXd x(train.size(), keys.size() + 1);
        Eigen::VectorXd y(train.size());
        for (int r = 0; r < train.size(); ++r) {
            x(r, 0) = 1;
            for (int c = 0; c < keys.size(); ++c)
                x(r, c + 1) = byItem.value(train[r]).value(keys[c]);
            y[r] = human.value(train[r]);
        }
        const Eigen::VectorXd beta = x.colPivHouseholderQr().solve(y);
        QVERIFY(std::abs(beta[0] - lin.value(QStringLiteral("intercept")).toDouble()) < 1e-6);
        const QVariantMap w = lin.value(QStringLiteral("weights")).toMap();
        for (int c = 0; c < keys.size(); ++c)
            QVERIFY2(std::abs(beta[c + 1] - w.value(keys[c]).toDouble()) < 1e-6, qPrintable(keys[c]));
    }

    // One item's score node by node: base + Σ contributions = the stored judge score.
    const QString item = fx->testIds.first();
    auto e = hdeval::explainItem(fx->project.get(), QStringLiteral("b"), item);
    QVERIFY2(e, qPrintable(e.errorString()));
    QCOMPARE(e->nodes.size(), 13);
    double sum = e->base;
    for (const hdeval::NodeContribution &n : e->nodes)
        sum += n.contribution;
    QVERIFY(std::abs(sum - e->prediction) < 1e-9);
    QVERIFY(std::abs(e->prediction - scores.value(item)) < 1e-9);
    QVERIFY(std::abs(e->nodes.first().contribution) >= std::abs(e->nodes.last().contribution));
    if (qEnvironmentVariableIsEmpty("RUBRIC_CLI"))
        return;
    for (const QStringList &args :
         {QStringList{QStringLiteral("explain"), QStringLiteral("--item"), item, QStringLiteral("--json")},
          QStringList{QStringLiteral("show-rubric"), QStringLiteral("--json")}}) {
        QProcess cli;
        cli.start(qEnvironmentVariable("RUBRIC_CLI"), QStringList(args)
                                                              << QStringLiteral("--project") << fx->project->path()
                                                              << QStringLiteral("--judge") << QStringLiteral("b"));
        QVERIFY(cli.waitForFinished(30000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const QJsonObject out = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        if (args.first() == QLatin1String("explain")) {
            QCOMPARE(out.value(QStringLiteral("contributions")).toArray().size(), 13);
            QVERIFY(std::abs(out.value(QStringLiteral("score")).toDouble() - scores.value(item)) < 1e-9);
        } else {
            const QJsonObject agg = out.value(QStringLiteral("aggregator")).toObject();
            QCOMPARE(agg.value(QStringLiteral("kind")).toString(), QStringLiteral("linear"));
            QCOMPARE(agg.value(QStringLiteral("aspects"))
                             .toObject()
                             .value(QStringLiteral("coherence"))
                             .toObject()
                             .value(QStringLiteral("weights"))
                             .toObject()
                             .size(),
                     13);
        }
    }
}

void TestHdEvalRun::anotherAggregatorSendsNothing()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const Outcome first = runToEnd(fx->project.get(), hdSpec(QStringLiteral("nn"), server.baseUrl(), {}));
    QVERIFY2(first.ok, qPrintable(first.error));
    QCOMPARE(result(first).value(QStringLiteral("aggregator")).toString(), QStringLiteral("mlp"));
    const int sent = server.requestCount();
    QVERIFY(sent > 0);
    for (const QString &kind : {QStringLiteral("mean"), QStringLiteral("linear"), QStringLiteral("forest")}) {
        server.resetCounts();
        const QVariantMap settings{{QStringLiteral("aggregator"), kind},
                                   {QStringLiteral("tree_from"), QStringLiteral("nn")}};
        {
            Run run(fx->project.get(), hdSpec(QStringLiteral("re-") + kind, server.baseUrl(), settings));
            auto e = run.estimate();
            QVERIFY2(e, qPrintable(e.errorString()));
            QVERIFY(e->exact);
            QCOMPARE(e->calls, 0);
        }
        const Outcome o = runToEnd(fx->project.get(), hdSpec(QStringLiteral("re-") + kind, server.baseUrl(), settings));
        QVERIFY2(o.ok, qPrintable(o.error));
        QCOMPARE(server.requestCount(), 0);
        QCOMPARE(result(o).value(QStringLiteral("aggregator")).toString(), kind);
        qInfo("%s on the tree of the mlp judge: 0 calls sent, test r %.3f (mlp: %.3f)", qPrintable(kind),
              result(o).value(QStringLiteral("test_r")).toDouble(),
              result(first).value(QStringLiteral("test_r")).toDouble());
    }
    // The ablation without layer 3 on the same tree: no calls either.
    server.resetCounts();
    const Outcome l2 = runToEnd(fx->project.get(), hdSpec(QStringLiteral("l2"), server.baseUrl(),
                                                          {{QStringLiteral("layers"), QStringLiteral("2")},
                                                           {QStringLiteral("tree_from"), QStringLiteral("nn")}}));
    QVERIFY2(l2.ok, qPrintable(l2.error));
    QCOMPARE(server.requestCount(), 0);
    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("l2"));
    QVERIFY(tree);
    QCOMPARE(tree->children(QString())
                     .first()
                     .stats.value(QStringLiteral("aggregator"))
                     .toMap()
                     .value(QStringLiteral("features"))
                     .toStringList()
                     .size(),
             1 + 4);

    // "Layer 1 only" of the mlp judge is what the same run with layers = 1 gives (0 calls).
    server.resetCounts();
    const Outcome l1 = runToEnd(fx->project.get(), hdSpec(QStringLiteral("l1"), server.baseUrl(),
                                                          {{QStringLiteral("layers"), QStringLiteral("1")},
                                                           {QStringLiteral("tree_from"), QStringLiteral("nn")}}));
    QVERIFY2(l1.ok, qPrintable(l1.error));
    QCOMPARE(server.requestCount(), 0);
    auto nn = RubricStore(fx->project.get()).load(QStringLiteral("nn"));
    QVERIFY(nn);
    const QVariantMap baselines = RubricExport::toJson(*nn)
                                          .value(QStringLiteral("aggregator"))
                                          .toMap()
                                          .value(QStringLiteral("baselines"))
                                          .toMap();
    const auto coherence = [&baselines](const char *key) {
        return baselines.value(QString::fromLatin1(key)).toMap().value(QStringLiteral("coherence")).toDouble();
    };
    QVERIFY(std::isfinite(result(l1).value(QStringLiteral("test_r")).toDouble()));
    QVERIFY(std::abs(coherence("layer1_test_r") - result(l1).value(QStringLiteral("test_r")).toDouble()) < 1e-9);
    QVERIFY(std::abs(coherence("layer1_cv_r") - result(l1).value(QStringLiteral("cv_r")).toDouble()) < 1e-9);
    QVERIFY(std::abs(result(first).value(QStringLiteral("layer1_test_r")).toDouble() - coherence("layer1_test_r"))
            < 1e-12);
    qInfo("mlp on all nodes: test r %.3f; layer 1 only (stored baseline) %.3f; the run with layers = 1: %.3f",
          result(first).value(QStringLiteral("test_r")).toDouble(), coherence("layer1_test_r"),
          result(l1).value(QStringLiteral("test_r")).toDouble());
}

void TestHdEvalRun::pruningPrefersSignal()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    QHash<QString, int> counts; // "linear/SIGNAL" → selections
    for (const QString &kind : {QStringLiteral("linear"), QStringLiteral("mlp"), QStringLiteral("forest")}) {
        for (int seed = 1; seed <= 5; ++seed) {
            const QString name = QStringLiteral("%1-%2").arg(kind).arg(seed);
            const Outcome o = runToEnd(fx->project.get(), hdSpec(name, server.baseUrl(),
                                                                 {{QStringLiteral("aggregator"), kind},
                                                                  {QStringLiteral("seed"), QString::number(seed)},
                                                                  {QStringLiteral("layers"), QStringLiteral("3")},
                                                                  {QStringLiteral("top_k"), QStringLiteral("2")}}));
            QVERIFY2(o.ok, qPrintable(o.error));
            auto tree = RubricStore(fx->project.get()).load(name);
            QVERIFY(tree);
            for (const Criterion &c : hdeval::layerNodes(*tree, 2)) {
                const bool signal = c.text.startsWith(QLatin1String("SIGNAL"));
                counts[kind + (signal ? QStringLiteral("/SIGNAL") : QStringLiteral("/NOISE"))] += 0;
                if (c.stats.value(QStringLiteral("selected")).toBool())
                    ++counts[kind + (signal ? QStringLiteral("/SIGNAL") : QStringLiteral("/NOISE"))];
            }
        }
        const int s = counts.value(kind + QStringLiteral("/SIGNAL")), n = counts.value(kind + QStringLiteral("/NOISE"));
        qInfo("%s, seeds 1-5, top_k 2 of 2 SIGNAL + 2 NOISE layer-2 nodes: SIGNAL selected %d times, NOISE %d times",
              qPrintable(kind), s, n);
        QVERIFY2(s >= 3 * n && s > 0, qPrintable(QStringLiteral("%1: SIGNAL %2, NOISE %3").arg(kind).arg(s).arg(n)));
    }
}

void TestHdEvalRun::batchedDecompositionOneCallPerLayer()
{
    auto fx = makeProject(m_projects.next(), 4);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const Outcome o = runToEnd(fx->project.get(), hdSpec(QStringLiteral("batched"), server.baseUrl(),
                                                         {{QStringLiteral("decompose"), QStringLiteral("batched")},
                                                          {QStringLiteral("aggregator"), QStringLiteral("ridge")},
                                                          {QStringLiteral("children"), QStringLiteral("3")}}));
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("decompose-2")), 1);
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("decompose-3")), 1); // the three selected nodes in one call
    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("batched"));
    QVERIFY(tree);
    QCOMPARE(layerCount(*tree, 2), 3);
    QCOMPARE(layerCount(*tree, 3), 9); // top_k 3 of 3, each with its own group of the batched answer
    for (const Criterion &c : hdeval::layerNodes(*tree, 3)) {
        const Criterion *parent = tree->find(c.parentKey);
        QVERIFY(parent && parent->stats.value(QStringLiteral("selected")).toBool());
        QCOMPARE(c.origin.value(QStringLiteral("parent")).toString(), parent->key);
    }
    const int items = 30 + int(fx->testIds.size());
    QCOMPARE(phaseCalls(o.summary, QStringLiteral("score-3")), items * 9);
}

void TestHdEvalRun::killedRunResumesWithoutResending()
{
    if (qEnvironmentVariableIsEmpty("RUBRIC_CLI"))
        QSKIP("RUBRIC_CLI is not set (ctest sets it)");
    auto reference = makeProject(m_projects.next(), 10);
    auto fx = makeProject(m_projects.next(), 10);
    QVERIFY(reference && fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setLatencyMs(15);
    QVERIFY(server.listen());
    // The calls of an uninterrupted run of the same data on another project file.
    const Outcome ref = runToEnd(reference->project.get(), hdSpec(QStringLiteral("k"), server.baseUrl(), {}));
    QVERIFY2(ref.ok, qPrintable(ref.error));
    const int total = server.requestCount();
    server.resetCounts();
    const QString path = fx->project->path();
    const QStringList args{QStringLiteral("run"),
                           QStringLiteral("--project"),
                           path,
                           QStringLiteral("--method"),
                           QStringLiteral("hdeval"),
                           QStringLiteral("--aspect"),
                           QStringLiteral("coherence"),
                           QStringLiteral("--judge"),
                           QStringLiteral("k"),
                           QStringLiteral("--base-url"),
                           server.baseUrl(),
                           QStringLiteral("--model"),
                           QStringLiteral("synthetic"),
                           QStringLiteral("--concurrency"),
                           QStringLiteral("2"),
                           QStringLiteral("--json")};
    QProcess child;
    child.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(child.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(server.requestCount() >= total / 2, 60000);
    child.kill(); // SIGKILL, in the middle of layer 2 or 3
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
    QProcess estimate;
    estimate.start(qEnvironmentVariable("RUBRIC_CLI"), QStringList(args) << QStringLiteral("--estimate"));
    QVERIFY(estimate.waitForFinished(60000));
    QCOMPARE(estimate.exitCode(), 0);
    const QJsonObject est = QJsonDocument::fromJson(estimate.readAllStandardOutput()).object();
    QCOMPARE(server.requestCount(), 0);

    QProcess resume;
    resume.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    QVERIFY(resume.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(resume.state(), QProcess::NotRunning, 120000);
    QVERIFY2(resume.exitCode() == 0, resume.readAllStandardError().constData());
    // Exactly the calls whose answers were not committed before the kill are sent again.
    const int resent = server.requestCount();
    QCOMPARE(resent, total - cached);
    if (est.value(QStringLiteral("exact")).toBool())
        QCOMPARE(est.value(QStringLiteral("calls")).toInt(), resent);
    else
        QVERIFY2(est.value(QStringLiteral("calls_min")).toInt() <= resent
                         && resent <= est.value(QStringLiteral("calls")).toInt(),
                 QJsonDocument(est).toJson().constData());
    qInfo("hdeval: SIGKILL after %d of %d requests (%d answers committed); the resumed run sent %d; the "
          "estimate after the kill: %d-%d (%s)",
          firstRun, total, cached, resent, est.value(QStringLiteral("calls_min")).toInt(),
          est.value(QStringLiteral("calls")).toInt(), est.value(QStringLiteral("exact")).toBool() ? "exact" : "bound");
    QCOMPARE(fx->project->judge(QStringLiteral("k"))->status, QStringLiteral("done"));
    // The resumed judge equals the uninterrupted one: the same tree and the same judge scores.
    auto a = RubricStore(reference->project.get()).load(QStringLiteral("k"));
    auto b = RubricStore(fx->project.get()).load(QStringLiteral("k"));
    QVERIFY(a && b);
    QCOMPARE(featureKeys(*a), featureKeys(*b));
    const auto sa = reference->project->judgeScores(QStringLiteral("k"), QStringLiteral("coherence"));
    const auto sb = fx->project->judgeScores(QStringLiteral("k"), QStringLiteral("coherence"));
    QCOMPARE(sa.size(), sb.size());
    for (auto it = sa.begin(); it != sa.end(); ++it)
        QVERIFY(std::abs(it.value() - sb.value(it.key())) < 1e-9);
}

QTEST_GUILESS_MAIN(TestHdEvalRun)
#include "TestHdEvalRun.moc"
