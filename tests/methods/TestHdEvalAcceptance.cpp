// HD-Eval acceptance (issue #13) against the loopback fake endpoint and the synthetic judge
// (tests/support/SyntheticJudge: SIGNAL nodes carry the coherence score, NOISE nodes a hash):
// several aspects in layer 1 with one aggregator per scale, the linear aggregator against numpy's
// least squares on the exported matrix, the selection overridden by hand, a finished tree and
// aggregator applied to new items with no training data, the "layer 1 only" baseline against an
// independent layers = 1 re-fit, and the studio's actions (HdEvalActions).

#include "FakeLlmServer.h"
#include "IndependentPearson.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "methods/hdeval/HdEvalActions.h"
#include "methods/hdeval/HdEvalExplain.h"
#include "methods/hdeval/HdEvalParams.h"
#include "methods/hdeval/HdEvalTree.h"
#include "rubric/RubricExport.h"
#include "store/RubricStore.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <optional>

using namespace rubric;
using namespace rubric::test;

class TestHdEvalAcceptance : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void severalAspectsOneAggregatorPerScale();
    void selectionByHandOverridesPruning();
    void appliedTreeNeedsNoTrainingData();
    void refitSendsNothing();
    void layerOneBaselineIsTheLayersOneFit();
    void proposeAndAddChildren();

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

QVariantMap result(const Outcome &o)
{
    return o.summary.value(QStringLiteral("result")).toMap();
}

/// Two more aspects by a known rule from coherence: "fluency" = 6 − coherence (1–5) and
/// "grounded" = 1 when coherence ≥ 3.5, else 0 (a 0–1 scale, so it gets its own aggregator).
bool addAspects(Fixture &fx)
{
    if (!fx.project->upsertAspect(Aspect{QStringLiteral("fluency"), QStringLiteral("how fluent the text reads"), 1, 5})
        || !fx.project->upsertAspect(
                Aspect{QStringLiteral("grounded"), QStringLiteral("whether the text keeps to the source"), 0, 1}))
        return false;
    QVector<Annotation> notes;
    const auto human = fx.project->humanScores(QStringLiteral("coherence"));
    for (auto it = human.begin(); it != human.end(); ++it) {
        notes.append(Annotation{it.key(), QStringLiteral("fluency"), QStringLiteral("rule"), 6 - it.value(), {}, {}});
        notes.append(Annotation{
                it.key(), QStringLiteral("grounded"), QStringLiteral("rule"), it.value() >= 3.5 ? 1.0 : 0.0, {}, {}});
    }
    return fx.project->addAnnotations(notes).ok();
}

/// Runs the CLI; its stdout, and whether it exited with 0 in `ok`.
QByteArray cli(const QStringList &args, bool *ok)
{
    // The fake endpoint answers from this process's event loop: wait in one, not in waitForFinished().
    QProcess p;
    QEventLoop loop;
    QObject::connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    p.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    loop.exec();
    *ok = p.state() == QProcess::NotRunning && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (!*ok)
        qWarning("rubric %s: %s", qPrintable(args.join(QLatin1Char(' '))), p.readAllStandardError().constData());
    return p.readAllStandardOutput();
}

} // namespace

void TestHdEvalAcceptance::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestHdEvalAcceptance::severalAspectsOneAggregatorPerScale()
{
    if (qEnvironmentVariableIsEmpty("RUBRIC_CLI"))
        QSKIP("RUBRIC_CLI is not set (ctest sets it)");
    // Debian's python3 (python3-numpy, scripts/install-deps.sh), not a pyenv shim without numpy.
    QString python = QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")});
    if (python.isEmpty())
        python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty())
        QSKIP("python3 is not installed (scripts/install-deps.sh installs it with numpy)");
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx && addAspects(*fx));
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    // The CLI's --aspect all: the project's aspects, the first (coherence) the run's own.
    const QStringList runArgs{QStringLiteral("run"),
                              QStringLiteral("--project"),
                              fx->project->path(),
                              QStringLiteral("--method"),
                              QStringLiteral("hdeval"),
                              QStringLiteral("--aspect"),
                              QStringLiteral("all"),
                              QStringLiteral("--judge"),
                              QStringLiteral("m"),
                              QStringLiteral("--base-url"),
                              server.baseUrl(),
                              QStringLiteral("--model"),
                              QStringLiteral("synthetic"),
                              QStringLiteral("--set"),
                              QStringLiteral("aggregator=linear"),
                              QStringLiteral("--set"),
                              QStringLiteral("children=3"),
                              QStringLiteral("--set"),
                              QStringLiteral("top_k=2"),
                              QStringLiteral("--json")};
    const int items = 30 + int(fx->testIds.size());
    bool ok = false;
    // Before the tree is known the estimate is a bound: 3 roots × ≤ 3 children, top_k 2 × ≤ 3 children.
    const QJsonObject estimate
            = QJsonDocument::fromJson(cli(QStringList(runArgs) << QStringLiteral("--estimate"), &ok)).object();
    QVERIFY(ok);
    QVERIFY(!estimate.value(QStringLiteral("exact")).toBool());
    QCOMPARE(estimate.value(QStringLiteral("calls")).toInt(), 3 + 2 + items * (3 + 9 + 6));
    QCOMPARE(server.requestCount(), 0);
    const QByteArray run = cli(runArgs, &ok);
    QVERIFY(ok);
    QCOMPARE(server.requestCount(), 3 + 2 + items * (3 + 9 + 6));
    const QJsonObject summary = QJsonDocument::fromJson(run).object();
    const QJsonObject calls = summary.value(QStringLiteral("calls")).toObject();
    // Decomposition: one call per layer-1 aspect, then one per selected node; scoring: items × nodes.
    QCOMPARE(calls.value(QStringLiteral("decompose-2")).toObject().value(QStringLiteral("calls")).toInt(), 3);
    QCOMPARE(calls.value(QStringLiteral("score-1")).toObject().value(QStringLiteral("calls")).toInt(), items * 3);
    QCOMPARE(calls.value(QStringLiteral("score-2")).toObject().value(QStringLiteral("calls")).toInt(), items * 9);
    QCOMPARE(calls.value(QStringLiteral("decompose-3")).toObject().value(QStringLiteral("calls")).toInt(), 2);
    QCOMPARE(calls.value(QStringLiteral("score-3")).toObject().value(QStringLiteral("calls")).toInt(), items * 6);

    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("m"));
    QVERIFY(tree);
    QCOMPARE(hdeval::layerNodes(*tree, 1).size(), 3);
    QCOMPARE(hdeval::layerNodes(*tree, 2).size(), 9);
    QCOMPARE(hdeval::layerNodes(*tree, 3).size(), 6);
    const QStringList aspects{QStringLiteral("coherence"), QStringLiteral("fluency"), QStringLiteral("grounded")};
    for (const Criterion &root : hdeval::layerNodes(*tree, 1)) {
        QVERIFY(aspects.contains(root.stats.value(QStringLiteral("aspect")).toString()));
        QCOMPARE(root.kind, CriterionKind::Aspect);
        QCOMPARE(hdeval::layerNodes(*tree, 2).size(), 9);
    }
    for (const Criterion &c : hdeval::featureNodes(*tree))
        for (const QString &a : aspects)
            QVERIFY2(c.stats.value(QStringLiteral("importance")).toMap().contains(a), qPrintable(c.key + a));

    // show-rubric --json: one aggregator description, a linear form per aspect over all 18 nodes,
    // the 0–1 aspect fitted apart.
    const QJsonObject shown = QJsonDocument::fromJson(cli({QStringLiteral("show-rubric"), QStringLiteral("--project"),
                                                           fx->project->path(), QStringLiteral("--judge"),
                                                           QStringLiteral("m"), QStringLiteral("--json")},
                                                          &ok))
                                      .object();
    QVERIFY(ok);
    const QJsonObject agg = shown.value(QStringLiteral("aggregator")).toObject();
    QCOMPARE(agg.value(QStringLiteral("kind")).toString(), QStringLiteral("linear"));
    const QJsonArray groups = agg.value(QStringLiteral("scale_groups")).toArray();
    QCOMPARE(groups.size(), 2);
    QCOMPARE(groups.at(1).toArray().size(), 1);
    QCOMPARE(groups.at(1).toArray().at(0).toString(), QStringLiteral("grounded"));
    for (const QString &a : aspects) {
        QCOMPARE(agg.value(QStringLiteral("aspects"))
                         .toObject()
                         .value(a)
                         .toObject()
                         .value(QStringLiteral("weights"))
                         .toObject()
                         .size(),
                 18);
        QVERIFY(agg.value(QStringLiteral("test_r")).toObject().contains(a));
        QCOMPARE(fx->project->judgeScores(QStringLiteral("m"), a).size(), items);
    }
    const QJsonObject testR = agg.value(QStringLiteral("test_r")).toObject();
    qInfo("3 aspects, linear: test r coherence %.3f, fluency %.3f, grounded %.3f",
          testR.value(QStringLiteral("coherence")).toDouble(), testR.value(QStringLiteral("fluency")).toDouble(),
          testR.value(QStringLiteral("grounded")).toDouble());
    // fluency = 6 − coherence: the fitted weights turn the signal round, so the correlation is positive.
    QVERIFY(testR.value(QStringLiteral("fluency")).toDouble() > 0.5);

    // The exported matrix (rubric export --criteria) fitted by numpy's lstsq, outside the code
    // under test, equals every aspect's intercept and weights to 1e-6.
    const QString csv = fx->project->path() + QStringLiteral(".criteria.csv");
    cli({QStringLiteral("export"), QStringLiteral("--project"), fx->project->path(), QStringLiteral("--judge"),
         QStringLiteral("m"), QStringLiteral("--criteria"), QStringLiteral("--out"), csv},
        &ok);
    QVERIFY(ok);
    QFile header(csv);
    QVERIFY(header.open(QIODevice::ReadOnly));
    QVERIFY(header.readLine().startsWith("id,split,human.coherence,human.fluency,human.grounded,"));
    QProcess py;
    py.start(python, {QStringLiteral(RUBRIC_SOURCE_DIR "/tests/methods/hdeval_lstsq.py"), csv});
    QVERIFY(py.waitForFinished(60000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    const QJsonObject reference = QJsonDocument::fromJson(py.readAllStandardOutput()).object();
    for (const QString &a : aspects) {
        const QJsonObject ref = reference.value(a).toObject();
        QCOMPARE(ref.value(QStringLiteral("rank")).toInt(), ref.value(QStringLiteral("columns")).toInt());
        QCOMPARE(ref.value(QStringLiteral("n")).toInt(), 30);
        const QJsonObject lin = agg.value(QStringLiteral("aspects")).toObject().value(a).toObject();
        double worst = std::abs(ref.value(QStringLiteral("intercept")).toDouble()
                                - lin.value(QStringLiteral("intercept")).toDouble());
        const QJsonObject w = lin.value(QStringLiteral("weights")).toObject();
        const QJsonObject rw = ref.value(QStringLiteral("weights")).toObject();
        QCOMPARE(rw.size(), w.size());
        for (auto it = rw.begin(); it != rw.end(); ++it) {
            QVERIFY2(w.contains(it.key()), qPrintable(it.key()));
            worst = std::max(worst, std::abs(it.value().toDouble() - w.value(it.key()).toDouble()));
        }
        qInfo("%s: largest |numpy lstsq − stored| over intercept and %d weights: %.2e", qPrintable(a), int(w.size()),
              worst);
        QVERIFY2(worst < 1e-6, qPrintable(QStringLiteral("%1: %2").arg(a).arg(worst)));
    }

    // One item's explanation for another aspect: base + contributions = its stored judge score.
    auto e = hdeval::explainItem(fx->project.get(), QStringLiteral("m"), fx->testIds.first(),
                                 QStringLiteral("grounded"));
    QVERIFY2(e, qPrintable(e.errorString()));
    double sum = e->base;
    for (const hdeval::NodeContribution &n : e->nodes)
        sum += n.contribution;
    QVERIFY(std::abs(sum - e->stored) < 1e-9);
    QCOMPARE(e->aspect, QStringLiteral("grounded"));
}

void TestHdEvalAcceptance::selectionByHandOverridesPruning()
{
    auto fx = makeProject(m_projects.next(), 4);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QVariantMap base{{QStringLiteral("aggregator"), QStringLiteral("linear")},
                           {QStringLiteral("top_k"), QStringLiteral("1")}};
    QVariantMap two = base;
    two.insert(QStringLiteral("layers"), QStringLiteral("2"));
    const Outcome l2 = runToEnd(fx->project.get(), hdSpec(QStringLiteral("l2"), server.baseUrl(), two));
    QVERIFY2(l2.ok, qPrintable(l2.error));
    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("l2"));
    QVERIFY(tree);
    QString noise;
    for (const Criterion &c : hdeval::layerNodes(*tree, 2))
        if (c.text.startsWith(QLatin1String("NOISE")) && noise.isEmpty())
            noise = c.key;
    QVERIFY(!noise.isEmpty());

    // --set select=<a NOISE node>: layer 3 goes under it, though pruning would pick a SIGNAL node.
    server.resetCounts();
    QVariantMap hand = base;
    hand.insert(QStringLiteral("tree_from"), QStringLiteral("l2"));
    hand.insert(QStringLiteral("select"), noise);
    const Outcome o = runToEnd(fx->project.get(), hdSpec(QStringLiteral("hand"), server.baseUrl(), hand));
    QVERIFY2(o.ok, qPrintable(o.error));
    auto handTree = RubricStore(fx->project.get()).load(QStringLiteral("hand"));
    QVERIFY(handTree);
    QCOMPARE(hdeval::layerNodes(*handTree, 3).size(), 4);
    for (const Criterion &c : hdeval::layerNodes(*handTree, 3))
        QCOMPARE(c.parentKey, noise);
    for (const Criterion &c : hdeval::layerNodes(*handTree, 2)) {
        QCOMPARE(c.stats.value(QStringLiteral("selected")).toBool(), c.key == noise);
        QCOMPARE(c.stats.value(QStringLiteral("selected_by")).toString(), QStringLiteral("hand"));
    }
    // Layers 1–2 came from the cache: only the decomposition of the chosen node and its scores were sent.
    const int items = 30 + int(fx->testIds.size());
    QCOMPARE(server.requestCount(), 1 + items * 4);

    // Pruning alone (same tree, no override) picks a SIGNAL node.
    QVariantMap auto_ = base;
    auto_.insert(QStringLiteral("tree_from"), QStringLiteral("l2"));
    const Outcome p = runToEnd(fx->project.get(), hdSpec(QStringLiteral("pruned"), server.baseUrl(), auto_));
    QVERIFY2(p.ok, qPrintable(p.error));
    auto pruned = RubricStore(fx->project.get()).load(QStringLiteral("pruned"));
    QVERIFY(pruned);
    for (const Criterion &c : hdeval::layerNodes(*pruned, 3))
        QVERIFY(pruned->find(c.parentKey)->text.startsWith(QLatin1String("SIGNAL")));

    // The studio's setSelection: the same override stored in the tree; a run from that tree keeps it.
    auto v = hdeval::setSelection(fx->project.get(), QStringLiteral("l2"), {noise});
    QVERIFY2(v, qPrintable(v.errorString()));
    QVERIFY(!hdeval::setSelection(fx->project.get(), QStringLiteral("l2"), {QStringLiteral("nosuchnode")}));
    const Outcome s = runToEnd(fx->project.get(), hdSpec(QStringLiteral("stored"), server.baseUrl(), auto_));
    QVERIFY2(s.ok, qPrintable(s.error));
    auto stored = RubricStore(fx->project.get()).load(QStringLiteral("stored"));
    QVERIFY(stored);
    QCOMPARE(hdeval::layerNodes(*stored, 3).size(), 4);
    for (const Criterion &c : hdeval::layerNodes(*stored, 3))
        QCOMPARE(c.parentKey, noise);

    // An unknown key is an error naming the setting.
    QVariantMap wrong = base;
    wrong.insert(QStringLiteral("tree_from"), QStringLiteral("l2"));
    wrong.insert(QStringLiteral("select"), QStringLiteral("nosuchnode"));
    const Outcome bad = runToEnd(fx->project.get(), hdSpec(QStringLiteral("bad"), server.baseUrl(), wrong));
    QVERIFY(!bad.ok);
    QVERIFY2(bad.error.contains(QStringLiteral("select")) && bad.error.contains(QStringLiteral("nosuchnode")),
             qPrintable(bad.error));
}

void TestHdEvalAcceptance::appliedTreeNeedsNoTrainingData()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QVariantMap settings{{QStringLiteral("aggregator"), QStringLiteral("ridge")},
                               {QStringLiteral("top_k"), QStringLiteral("2")}};
    // Trained on the train split alone.
    RunSpec t = hdSpec(QStringLiteral("trained"), server.baseUrl(), settings);
    t.items = SplitFilter::Train;
    const Outcome trained = runToEnd(fx->project.get(), t);
    QVERIFY2(trained.ok, qPrintable(trained.error));
    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("trained"));
    QVERIFY(tree);
    const int nodes = int(hdeval::featureNodes(*tree).size());
    QCOMPARE(nodes, 1 + 4 + 8);

    // Applied to the test split: the estimate is exact, nothing is decomposed or fitted, one call
    // per (test item, node).
    server.resetCounts();
    RunSpec a = hdSpec(QStringLiteral("applied"), server.baseUrl(),
                       {{QStringLiteral("apply_from"), QStringLiteral("trained")}});
    a.items = SplitFilter::Test;
    {
        Run run(fx->project.get(), a);
        auto e = run.estimate();
        QVERIFY2(e, qPrintable(e.errorString()));
        QVERIFY(e->exact);
        QCOMPARE(e->calls, int(fx->testIds.size()) * nodes);
    }
    const Outcome applied = runToEnd(fx->project.get(), a);
    QVERIFY2(applied.ok, qPrintable(applied.error));
    QCOMPARE(server.requestCount(), int(fx->testIds.size()) * nodes);
    QCOMPARE(phaseCalls(applied.summary, QStringLiteral("decompose-2")), 0);
    QCOMPARE(phaseCalls(applied.summary, QStringLiteral("decompose-3")), 0);
    const auto appliedScores = fx->project->judgeScores(QStringLiteral("applied"), QStringLiteral("coherence"));
    QCOMPARE(appliedScores.size(), int(fx->testIds.size()));
    QCOMPARE(result(applied).value(QStringLiteral("applied_from")).toString(), QStringLiteral("trained"));

    // The same judge run on train + test with the same settings (everything from the cache) gives
    // the test items the same scores: the applied aggregator is the one fitted on the train split.
    server.resetCounts();
    const Outcome full = runToEnd(fx->project.get(), hdSpec(QStringLiteral("full"), server.baseUrl(), settings));
    QVERIFY2(full.ok, qPrintable(full.error));
    QCOMPARE(server.requestCount(), 0);
    const auto fullScores = fx->project->judgeScores(QStringLiteral("full"), QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx->testIds))
        QVERIFY2(std::abs(appliedScores.value(id) - fullScores.value(id)) < 1e-9, qPrintable(id));
    qInfo("applied ridge aggregator on %d new items: %d calls (items × %d nodes), test r %.3f", int(fx->testIds.size()),
          int(fx->testIds.size()) * nodes, nodes, result(applied).value(QStringLiteral("test_r")).toDouble());

    // apply_from a judge without a finished aggregator, or with tree_from too, is refused.
    QVERIFY(!HdEvalParams::fromSettings({{QStringLiteral("apply_from"), QStringLiteral("trained")},
                                         {QStringLiteral("tree_from"), QStringLiteral("trained")}}));
}

void TestHdEvalAcceptance::refitSendsNothing()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const Outcome o = runToEnd(fx->project.get(), hdSpec(QStringLiteral("r"), server.baseUrl(),
                                                         {{QStringLiteral("aggregator"), QStringLiteral("linear")}}));
    QVERIFY2(o.ok, qPrintable(o.error));
    const int before = RubricStore(fx->project.get()).latestVersion(QStringLiteral("r"));
    server.resetCounts();
    hdeval::RefitOptions options;
    options.aggregator.kind = learn::AggregatorKind::Ridge;
    options.aggregator.ridgeLambda = 2.0;
    auto r = hdeval::refit(fx->project.get(), QStringLiteral("r"), options);
    QVERIFY2(r, qPrintable(r.errorString()));
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(r->version, before + 1);
    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("r"));
    QVERIFY(tree);
    const QVariantMap agg = RubricExport::toJson(*tree).value(QStringLiteral("aggregator")).toMap();
    QCOMPARE(agg.value(QStringLiteral("kind")).toString(), QStringLiteral("ridge"));
    const QVariantMap lin = agg.value(QStringLiteral("aspects")).toMap().value(QStringLiteral("coherence")).toMap();
    const QVariantMap w = lin.value(QStringLiteral("weights")).toMap();
    QCOMPARE(w.size(), int(hdeval::featureNodes(*tree).size()));
    // The new judge score of an item is intercept + Σ w·score of its stored node scores.
    const QString item = fx->testIds.first();
    double expected = lin.value(QStringLiteral("intercept")).toDouble();
    for (const CriterionScore &row : RubricStore(fx->project.get()).sampleScores(QStringLiteral("r")))
        if (row.itemId == item)
            expected += w.value(row.criterionKey).toDouble() * row.score;
    const double stored = fx->project->judgeScores(QStringLiteral("r"), QStringLiteral("coherence")).value(item);
    QVERIFY2(std::abs(stored - expected) < 1e-9, qPrintable(QStringLiteral("%1 vs %2").arg(stored).arg(expected)));
    // Without layer 3 (the ablation), from the same scores.
    options.layers = 2;
    auto r2 = hdeval::refit(fx->project.get(), QStringLiteral("r"), options);
    QVERIFY2(r2, qPrintable(r2.errorString()));
    QCOMPARE(r2->fit.description.value(QStringLiteral("features")).toStringList().size(), 1 + 4);
    QCOMPARE(server.requestCount(), 0);
    qInfo("re-fit without calls: ridge test r %.3f, ridge without layer 3 test r %.3f (linear run: %.3f)",
          r->fit.aspects.value(QStringLiteral("coherence")).testR,
          r2->fit.aspects.value(QStringLiteral("coherence")).testR,
          result(o).value(QStringLiteral("test_r")).toDouble());
}

void TestHdEvalAcceptance::layerOneBaselineIsTheLayersOneFit()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx && addAspects(*fx));
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QStringList aspects{QStringLiteral("coherence"), QStringLiteral("fluency"), QStringLiteral("grounded")};
    const Outcome o = runToEnd(fx->project.get(), hdSpec(QStringLiteral("l"), server.baseUrl(),
                                                         {{QStringLiteral("aggregator"), QStringLiteral("linear")},
                                                          {QStringLiteral("aspects"), aspects.join(QLatin1Char(','))},
                                                          {QStringLiteral("children"), QStringLiteral("3")},
                                                          {QStringLiteral("top_k"), QStringLiteral("2")}}));
    QVERIFY2(o.ok, qPrintable(o.error));
    const auto description = [&fx] {
        auto tree = RubricStore(fx->project.get()).load(QStringLiteral("l"));
        return tree ? RubricExport::toJson(*tree).value(QStringLiteral("aggregator")).toMap() : QVariantMap();
    };
    const auto figure = [](const QVariantMap &map, const char *key, const QString &aspect) {
        const QVariant v = map.value(QString::fromLatin1(key)).toMap().value(aspect);
        return v.isNull() ? std::nan("") : v.toDouble();
    };
    // The run stores the figure per aspect, next to the other baselines, fitted on the 3 roots.
    const QVariantMap run = description();
    QCOMPARE(run.value(QStringLiteral("layers")).toInt(), 3);
    QVERIFY(run.value(QStringLiteral("ablation")).toStringList().isEmpty());
    const QVariantMap runBaselines = run.value(QStringLiteral("baselines")).toMap();
    QVERIFY(!runBaselines.contains(QStringLiteral("layer1_error")));
    QStringList roots;
    for (const Criterion &c : hdeval::layerNodes(*RubricStore(fx->project.get()).load(QStringLiteral("l")), 1))
        roots << c.key;
    QCOMPARE(runBaselines.value(QStringLiteral("layer1_features")).toStringList(), roots);
    QCOMPARE(result(o).value(QStringLiteral("layer1_test_r")).toDouble(),
             figure(runBaselines, "layer1_test_r", QStringLiteral("coherence")));

    // An independent fit with layers = 1 on the same node scores (0 calls) gives the same test r
    // (linear: the same least squares; the run orders the rows its own way, hence the tolerance).
    server.resetCounts();
    hdeval::RefitOptions linear;
    linear.aggregator.kind = learn::AggregatorKind::Linear;
    linear.layers = 1;
    auto one = hdeval::refit(fx->project.get(), QStringLiteral("l"), linear);
    QVERIFY2(one, qPrintable(one.errorString()));
    QCOMPARE(one->fit.description.value(QStringLiteral("features")).toStringList(), roots);
    QCOMPARE(one->fit.description.value(QStringLiteral("ablation")).toStringList(),
             QStringList{QStringLiteral("without_layers_2_3")});
    for (const QString &a : aspects) {
        const double baseline = figure(runBaselines, "layer1_test_r", a);
        QVERIFY2(std::isfinite(baseline), qPrintable(a));
        QVERIFY2(std::abs(baseline - one->fit.aspects.value(a).testR) < 1e-9,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(a).arg(baseline).arg(one->fit.aspects.value(a).testR)));
        QVERIFY(std::abs(figure(runBaselines, "layer1_train_r", a) - one->fit.aspects.value(a).trainR) < 1e-9);
        qInfo("%s: test r %.3f on all nodes, layer 1 only %.3f (re-fit with layers = 1: %.3f), direct %.3f",
              qPrintable(a), figure(run, "test_r", a), baseline, one->fit.aspects.value(a).testR,
              figure(runBaselines, "direct_test_r", a));
    }

    // Another kind and seed, both re-fits on the same rows: train, CV and test r agree exactly.
    hdeval::RefitOptions forest;
    forest.aggregator.kind = learn::AggregatorKind::Forest;
    forest.seed = 7;
    forest.layers = 1;
    auto forestOne = hdeval::refit(fx->project.get(), QStringLiteral("l"), forest);
    QVERIFY2(forestOne, qPrintable(forestOne.errorString()));
    // What the layers = 1 fit stored as the judge's scores, correlated here with the human scores on
    // the test split (this file's own Pearson): the figure the fit reports as its test r.
    QHash<QString, double> independentTestR;
    const auto testIds = fx->project->readItemIds(SplitFilter::Test);
    QVERIFY(testIds);
    for (const QString &a : aspects) {
        const auto predicted = fx->project->judgeScores(QStringLiteral("l"), a);
        const auto human = fx->project->humanScores(a);
        QVector<double> x, y;
        for (const QString &id : std::as_const(*testIds))
            if (std::isfinite(predicted.value(id, std::nan(""))) && human.contains(id)) {
                x << predicted.value(id);
                y << human.value(id);
            }
        independentTestR.insert(a, pearsonOf(x, y));
    }
    forest.layers = 3;
    auto forestAll = hdeval::refit(fx->project.get(), QStringLiteral("l"), forest);
    QVERIFY2(forestAll, qPrintable(forestAll.errorString()));
    QCOMPARE(server.requestCount(), 0);
    const QVariantMap stored = description();
    QCOMPARE(stored.value(QStringLiteral("kind")).toString(), QStringLiteral("forest"));
    const QVariantMap storedBaselines = stored.value(QStringLiteral("baselines")).toMap();
    for (const QString &a : aspects) {
        const hdeval::AspectFit &f = forestOne->fit.aspects[a];
        QCOMPARE(figure(storedBaselines, "layer1_test_r", a), f.testR);
        QCOMPARE(figure(storedBaselines, "layer1_cv_r", a), f.cvR);
        QCOMPARE(figure(storedBaselines, "layer1_train_r", a), f.trainR);
        QCOMPARE(forestAll->fit.aspects[a].layer1TestR, f.testR);
        // A layers = 1 fit is its own baseline: both equal the Pearson of its stored scores.
        QVERIFY2(std::isfinite(independentTestR.value(a)), qPrintable(a));
        QVERIFY2(std::abs(f.testR - independentTestR.value(a)) < 1e-9,
                 qPrintable(QStringLiteral("%1: fit %2, stored scores %3")
                                    .arg(a)
                                    .arg(f.testR)
                                    .arg(independentTestR.value(a))));
        QVERIFY(std::abs(f.layer1TestR - independentTestR.value(a)) < 1e-9);
    }

    // show-rubric --json carries it under the aggregator's baselines.
    if (qEnvironmentVariableIsEmpty("RUBRIC_CLI"))
        return;
    bool ok = false;
    const QJsonObject shown = QJsonDocument::fromJson(cli({QStringLiteral("show-rubric"), QStringLiteral("--project"),
                                                           fx->project->path(), QStringLiteral("--judge"),
                                                           QStringLiteral("l"), QStringLiteral("--json")},
                                                          &ok))
                                      .object();
    QVERIFY(ok);
    const QJsonObject layerOne = shown.value(QStringLiteral("aggregator"))
                                         .toObject()
                                         .value(QStringLiteral("baselines"))
                                         .toObject()
                                         .value(QStringLiteral("layer1_test_r"))
                                         .toObject();
    QCOMPARE(layerOne.size(), 3);
    for (const QString &a : aspects)
        QVERIFY(std::abs(layerOne.value(a).toDouble() - forestOne->fit.aspects[a].testR) < 1e-12);
}

void TestHdEvalAcceptance::proposeAndAddChildren()
{
    auto fx = makeProject(m_projects.next(), 4);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const Outcome o = runToEnd(fx->project.get(), hdSpec(QStringLiteral("p"), server.baseUrl(),
                                                         {{QStringLiteral("aggregator"), QStringLiteral("linear")},
                                                          {QStringLiteral("layers"), QStringLiteral("2")}}));
    QVERIFY2(o.ok, qPrintable(o.error));
    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("p"));
    QVERIFY(tree);
    const Criterion node = hdeval::layerNodes(*tree, 2).first();
    server.resetCounts();
    ProviderProfile generator = spec(QStringLiteral("p"), QStringLiteral("hdeval"), server.baseUrl()).evaluator;
    QObject context;
    std::optional<Result<QVector<hdeval::ProposedChild>>> proposals;
    hdeval::proposeChildren(fx->project.get(), QStringLiteral("p"), node.key, generator, 3, &context,
                            [&proposals](Result<QVector<hdeval::ProposedChild>> r) { proposals = r; });
    QTRY_VERIFY_WITH_TIMEOUT(proposals.has_value(), 20000);
    QVERIFY2(proposals->ok(), qPrintable(proposals->errorString()));
    QCOMPARE((*proposals)->size(), 3);
    QCOMPARE(server.requestCount(), 1);
    // Accept the first: a layer-3 node under it, in a new version.
    auto key = hdeval::addNode(fx->project.get(), QStringLiteral("p"), node.key, (*proposals)->first(),
                               {{QStringLiteral("generator"), generator.model}});
    QVERIFY2(key, qPrintable(key.errorString()));
    auto after = RubricStore(fx->project.get()).load(QStringLiteral("p"));
    QVERIFY(after);
    const Criterion *added = after->find(*key);
    QVERIFY(added);
    QCOMPARE(added->parentKey, node.key);
    QCOMPARE(hdeval::layerOf(*after, *added), 3);
    QCOMPARE(added->stats.value(QStringLiteral("layer")).toInt(), 3);
    QCOMPARE(added->text, (*proposals)->first().name);
    // An unknown node is an error that reaches the callback.
    proposals.reset();
    hdeval::proposeChildren(fx->project.get(), QStringLiteral("p"), QStringLiteral("nosuchnode"), generator, 3,
                            &context, [&proposals](Result<QVector<hdeval::ProposedChild>> r) { proposals = r; });
    QTRY_VERIFY_WITH_TIMEOUT(proposals.has_value(), 5000);
    QVERIFY(!proposals->ok());
    QVERIFY(proposals->errorString().contains(QStringLiteral("nosuchnode")));
}

QTEST_GUILESS_MAIN(TestHdEvalAcceptance)
#include "TestHdEvalAcceptance.moc"
