// HD-Eval as the paper reports it (issue #31): the score reader on ordinary answers, every test
// figure on the items the Compare pane correlates (with failed node calls), apply_from's alignment on
// the target's test split alone, the best-node baseline chosen on the train split. Each figure is
// recomputed here from the stored scores with a Pearson of this file's own, never read back from
// the fit that produced it.

#include "FakeLlmServer.h"
#include "IndependentPearson.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "methods/hdeval/HdEvalCurves.h"
#include "methods/hdeval/HdEvalExplain.h"
#include "methods/hdeval/HdEvalTree.h"
#include "rubric/RubricExport.h"
#include "stats/Comparison.h"
#include "store/RubricStore.h"

#include <QJsonObject>
#include <QSet>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestHdEvalFidelity : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void readsOrdinaryScoreAnswers_data();
    void readsOrdinaryScoreAnswers();
    void figuresOnTheComparePanesItems();
    void appliedAlignmentOnTheTestSplitOnly();
    void foldsKeepAnArticleTogether();
    void curvesFromTheStoredScores();

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

double coherence(const QVariantMap &map, const char *key)
{
    const QVariant v = map.value(QString::fromLatin1(key)).toMap().value(QStringLiteral("coherence"));
    return v.isNull() ? std::nan("") : v.toDouble();
}

} // namespace

void TestHdEvalFidelity::initTestCase()
{
    QVERIFY(m_projects.isValid());
}

void TestHdEvalFidelity::readsOrdinaryScoreAnswers_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<double>("score");
    QTest::newRow("labelled with its scale") << QStringLiteral("Score (1-5): 4") << 4.0;
    QTest::newRow("labelled, then reasons")
            << QStringLiteral("Score (1-5): 4\n\nThe summary keeps 2 of the 3 main events; 1 sentence is vague.")
            << 4.0;
    QTest::newRow("scale named first") << QStringLiteral("On a scale of 1 to 5, I would give this a 4.") << 4.0;
    QTest::newRow("scale named first, then reasons")
            << QStringLiteral("On a scale of 1 to 5, I would give this a 4. It misses 1 detail.\n\n5 sentences.")
            << 4.0;
    QTest::newRow("out of, then the verdict") << QStringLiteral("Out of 5, this gets 4") << 4.0;
    QTest::newRow("out of, then reasons")
            << QStringLiteral("Out of 5, this gets 4.\n\n1. It is clear.\n2. It is short.") << 4.0;
    QTest::newRow("the prompt's form: the score first") << QStringLiteral("3\nThe summary has 5 sentences.\n2") << 3.0;
    QTest::newRow("score first, then a count out of")
            << QStringLiteral("4\nOnly 2 out of 5 key points are covered.") << 4.0;
    QTest::newRow("score first, then a fraction") << QStringLiteral("4\n\nThe summary drops 1/5 of the events.") << 4.0;
    QTest::newRow("markdown") << QStringLiteral("**Score (1-5):** 2\n\nReasoning: the order is off.") << 2.0;
}

void TestHdEvalFidelity::readsOrdinaryScoreAnswers()
{
    // The node score is read by the shared reader's strong forms first (a labelled score, a
    // verdict verb), the first lone number only when there is none of those.
    QFETCH(QString, answer);
    QFETCH(double, score);
    const auto read = hdeval::firstScore(answer);
    QVERIFY2(read.has_value(), qPrintable(answer));
    QCOMPARE(*read, score);
}

void TestHdEvalFidelity::figuresOnTheComparePanesItems()
{
    auto fx = makeProject(m_projects.next(), 20);
    QVERIFY(fx);
    // Every node call of 2 test items (10 %) fails; 3 more test items lose their NOISE nodes'
    // calls (their scores lean on imputed nodes).
    QSet<QString> dead, partly;
    for (int i = 0; i < fx->testIds.size(); ++i) {
        const auto it = fx->project->item(fx->testIds[i]);
        QVERIFY(it);
        if (i % 10 == 3)
            dead.insert(it->output);
        else if (i % 10 == 5 || i == 8)
            partly.insert(it->output);
    }
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        const QString prompt = promptText(body);
        if (prompt.contains(QLatin1String("Score (1-5):"))) {
            const bool noise = prompt.contains(QLatin1String("following metric:\n\nNOISE"));
            for (const QString &out : std::as_const(dead))
                if (prompt.contains(out)) {
                    FakeAnswer a;
                    a.httpStatus = 400;
                    a.errorMessage = QStringLiteral(
                            "The response was filtered due to the prompt triggering a content policy.");
                    return a;
                }
            for (const QString &out : std::as_const(partly))
                if (noise && prompt.contains(out)) {
                    FakeAnswer a;
                    a.httpStatus = 400;
                    a.errorMessage = QStringLiteral(
                            "The response was filtered due to the prompt triggering a content policy.");
                    return a;
                }
        }
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    const Outcome o = runToEnd(fx->project.get(), hdSpec(QStringLiteral("hd"), server.baseUrl(),
                                                         {{QStringLiteral("aggregator"), QStringLiteral("ridge")},
                                                          {QStringLiteral("top_k"), QStringLiteral("2")}}));
    QVERIFY2(o.ok, qPrintable(o.error));
    auto tree = RubricStore(fx->project.get()).load(QStringLiteral("hd"));
    QVERIFY(tree);
    const QVariantMap agg = RubricExport::toJson(*tree).value(QStringLiteral("aggregator")).toMap();
    const QVariantMap baselines = agg.value(QStringLiteral("baselines")).toMap();
    const QStringList features = agg.value(QStringLiteral("features")).toStringList();

    // The Compare pane's figures for the judge on the test split.
    stats::CompareOptions co;
    co.aspect = QStringLiteral("coherence");
    co.judges = {QStringLiteral("hd")};
    co.split = SplitFilter::Test;
    co.bootstrap = 0;
    co.permutations = 0;
    co.pairs = false;
    auto compared = stats::compareJudges(*fx->project, co);
    QVERIFY2(compared, qPrintable(compared.errorString()));
    QCOMPARE(compared->judges.size(), 1);
    const stats::JudgeAlignment &row = compared->judges.first();
    QCOMPARE(row.n, int(fx->testIds.size() - dead.size()));
    QVERIFY2(std::abs(coherence(agg, "test_r") - row.pearson) < 1e-9,
             qPrintable(QStringLiteral("panel %1, compare %2").arg(coherence(agg, "test_r")).arg(row.pearson)));
    QCOMPARE(agg.value(QStringLiteral("n_test_scored")).toMap().value(QStringLiteral("coherence")).toInt(), row.n);
    QCOMPARE(agg.value(QStringLiteral("n_test_unscored")).toInt(), int(dead.size()));
    QCOMPARE(agg.value(QStringLiteral("n_test_imputed")).toMap().value(QStringLiteral("coherence")).toInt(),
             int(partly.size()));
    QVERIFY(std::abs(coherence(agg, "test_rho") - row.spearman) < 1e-9);
    QVERIFY(std::abs(result(o).value(QStringLiteral("test_r")).toDouble() - row.pearson) < 1e-9);

    // The baselines on the same items, recomputed from the stored node and human scores.
    const auto humans = fx->project->humanScores(QStringLiteral("coherence"));
    const auto stored = fx->project->judgeScores(QStringLiteral("hd"), QStringLiteral("coherence"));
    QHash<QString, QHash<QString, double>> nodes;
    for (const ItemCriterionScores &s : RubricStore(fx->project.get()).criterionScores(QStringLiteral("hd")))
        nodes[s.itemId].insert(s.criterionKey, s.mean);
    QVector<double> mean, human;
    QHash<QString, QVector<double>> nodeX, nodeY;
    int basis = 0;
    for (const QString &id : std::as_const(fx->testIds)) {
        if (!std::isfinite(stored.value(id, std::nan(""))) || !humans.contains(id))
            continue;
        ++basis;
        double sum = 0;
        int n = 0;
        for (const QString &k : features)
            if (const double v = nodes[id].value(k, std::nan("")); std::isfinite(v)) {
                sum += v;
                ++n;
                nodeX[k] << v;
                nodeY[k] << humans.value(id);
            }
        mean << sum / n;
        human << humans.value(id);
    }
    QCOMPARE(basis, row.n);
    QVERIFY(std::abs(coherence(baselines, "mean_test_r") - pearsonOf(mean, human)) < 1e-9);
    const QString root = hdeval::layerNodes(*tree, 1).first().key;
    QVERIFY(std::abs(coherence(baselines, "direct_test_r") - pearsonOf(nodeX[root], nodeY[root])) < 1e-9);

    // The best single node is chosen by its train r, and its test r is reported.
    const auto trainIds = fx->project->readItemIds(SplitFilter::Train);
    QVERIFY(trainIds);
    QString best;
    double bestTrain = -2;
    for (const QString &k : features) {
        QVector<double> x, y;
        for (const QString &id : std::as_const(*trainIds))
            if (const double v = nodes[id].value(k, std::nan("")); std::isfinite(v) && humans.contains(id)) {
                x << v;
                y << humans.value(id);
            }
        if (const double r = pearsonOf(x, y); std::isfinite(r) && r > bestTrain) {
            bestTrain = r;
            best = k;
        }
    }
    const QVariantMap bestByAspect = baselines.value(QStringLiteral("best_node_by_aspect")).toMap();
    QCOMPARE(bestByAspect.value(QStringLiteral("coherence")).toString(), best);
    QVERIFY(std::abs(coherence(baselines, "best_node_train_r") - bestTrain) < 1e-9);
    QVERIFY(std::abs(coherence(baselines, "best_node_test_r") - pearsonOf(nodeX[best], nodeY[best])) < 1e-9);

    // The run pane's lines name the items left out and those with imputed nodes.
    const QStringList notes = result(o).value(QStringLiteral("notes")).toStringList();
    QCOMPARE(notes.size(), 2);
    QVERIFY2(notes.first().contains(QString::number(row.n)), qPrintable(notes.first()));
    QVERIFY(result(o).value(QStringLiteral("items_imputed")).toInt() >= int(partly.size()));
    qInfo("with %d of %d test items failed: panel test r %.4f = compare %.4f (n %d), mean %.4f, best node %s "
          "(train r %.3f) test r %.4f",
          int(dead.size()), int(fx->testIds.size()), coherence(agg, "test_r"), row.pearson, row.n,
          coherence(baselines, "mean_test_r"), qPrintable(best), bestTrain, coherence(baselines, "best_node_test_r"));
}

void TestHdEvalFidelity::appliedAlignmentOnTheTestSplitOnly()
{
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const QVariantMap settings{{QStringLiteral("aggregator"), QStringLiteral("ridge")},
                               {QStringLiteral("top_k"), QStringLiteral("2")}};
    RunSpec t = hdSpec(QStringLiteral("trained"), server.baseUrl(), settings);
    t.items = SplitFilter::Train;
    QVERIFY(runToEnd(fx->project.get(), t).ok);
    // Applied to every item of the project, the source's train items among them.
    RunSpec a = hdSpec(QStringLiteral("applied"), server.baseUrl(),
                       {{QStringLiteral("apply_from"), QStringLiteral("trained")}});
    a.items = SplitFilter::All;
    const Outcome applied = runToEnd(fx->project.get(), a);
    QVERIFY2(applied.ok, qPrintable(applied.error));
    const auto scores = fx->project->judgeScores(QStringLiteral("applied"), QStringLiteral("coherence"));
    const auto humans = fx->project->humanScores(QStringLiteral("coherence"));
    QVERIFY(scores.size() > fx->testIds.size()); // the train items were scored too
    QVector<double> x, y;
    for (const QString &id : std::as_const(fx->testIds))
        if (std::isfinite(scores.value(id, std::nan(""))) && humans.contains(id)) {
            x << scores.value(id);
            y << humans.value(id);
        }
    const double expected = pearsonOf(x, y);
    const double stored = result(applied).value(QStringLiteral("test_r")).toDouble();
    QVERIFY2(std::abs(stored - expected) < 1e-9,
             qPrintable(QStringLiteral("stored %1, on the test split %2").arg(stored).arg(expected)));
    QCOMPARE(result(applied).value(QStringLiteral("n_test_scored")).toInt(), int(x.size()));
    qInfo("apply_from on all %d items: test r %.4f on the %d test items", int(scores.size()), stored, int(x.size()));
}

void TestHdEvalFidelity::foldsKeepAnArticleTogether()
{
    // SummEval's items carry their article as the group: two train items share one, so the folds
    // go by group unless told otherwise, and the description says which was used.
    auto fx = makeProject(m_projects.next(), 8);
    QVERIFY(fx);
    QStringList trainGroups;
    for (const QString &id : fx->project->itemIds(SplitFilter::Train))
        trainGroups << fx->project->item(id)->group;
    QVERIFY(QSet<QString>(trainGroups.cbegin(), trainGroups.cend()).size() < trainGroups.size());
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    const auto described = [&](const QString &name, const QString &groups) {
        const Outcome o = runToEnd(fx->project.get(), hdSpec(name, server.baseUrl(),
                                                             {{QStringLiteral("aggregator"), QStringLiteral("ridge")},
                                                              {QStringLiteral("top_k"), QStringLiteral("2")},
                                                              {QStringLiteral("cv_groups"), groups}}));
        if (!o.ok)
            qWarning("%s", qPrintable(o.error));
        auto tree = RubricStore(fx->project.get()).load(name);
        return tree ? RubricExport::toJson(*tree).value(QStringLiteral("aggregator")).toMap() : QVariantMap();
    };
    const QVariantMap byGroup = described(QStringLiteral("g"), QStringLiteral("auto"));
    QVERIFY(byGroup.value(QStringLiteral("cv_by_group")).toBool());
    QVERIFY2(byGroup.value(QStringLiteral("cv")).toString().endsWith(QStringLiteral("by group")),
             qPrintable(byGroup.value(QStringLiteral("cv")).toString()));
    QCOMPARE(byGroup.value(QStringLiteral("n_train_groups")).toInt(),
             int(QSet<QString>(trainGroups.cbegin(), trainGroups.cend()).size()));
    // The fixture's split draws items, not articles: it says so.
    QVERIFY(byGroup.contains(QStringLiteral("split_groups")));
    const QVariantMap plain = described(QStringLiteral("n"), QStringLiteral("off"));
    QVERIFY(!plain.value(QStringLiteral("cv_by_group")).toBool());
    QCOMPARE(plain.value(QStringLiteral("cv")).toString(), QStringLiteral("5-fold"));
    qInfo("cv by group: %s, CV r %.3f; plain: CV r %.3f; split: %s (%d articles on both sides)",
          qPrintable(byGroup.value(QStringLiteral("cv")).toString()), coherence(byGroup, "cv_r"),
          coherence(plain, "cv_r"), qPrintable(byGroup.value(QStringLiteral("split_groups")).toString()),
          byGroup.value(QStringLiteral("n_groups_both_sides")).toInt());
}

void TestHdEvalFidelity::curvesFromTheStoredScores()
{
    auto fx = makeProject(m_projects.next(), 10);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    QVERIFY(runToEnd(fx->project.get(), hdSpec(QStringLiteral("c"), server.baseUrl(),
                                               {{QStringLiteral("aggregator"), QStringLiteral("linear")},
                                                {QStringLiteral("top_k"), QStringLiteral("2")}}))
                    .ok);
    server.resetCounts();
    hdeval::CurveOptions options; // linear: every seed's fit on all train items is the judge's own
    options.seeds = 3;
    options.sizes = {10, 20, 30};
    auto curves = hdeval::efficiencyCurves(fx->project.get(), QStringLiteral("c"), options);
    QVERIFY2(curves, qPrintable(curves.errorString()));
    QCOMPARE(server.requestCount(), 0);
    QCOMPARE(curves->data.size(), 3);
    QCOMPARE(curves->criteria.size(), int(curves->ranking.size()));
    // Recomputed from the stored judge scores on the test split: the full-size point and the
    // all-nodes point are the judge's own test r.
    const auto stored = fx->project->judgeScores(QStringLiteral("c"), QStringLiteral("coherence"));
    const auto humans = fx->project->humanScores(QStringLiteral("coherence"));
    QVector<double> x, y;
    for (const QString &id : std::as_const(fx->testIds))
        if (std::isfinite(stored.value(id, std::nan(""))) && humans.contains(id)) {
            x << stored.value(id);
            y << humans.value(id);
        }
    const double own = pearsonOf(x, y);
    for (double v : curves->data.last().values)
        QVERIFY2(std::abs(v - own) < 1e-9, qPrintable(QStringLiteral("%1 vs %2").arg(v).arg(own)));
    QVERIFY(std::abs(curves->criteria.last().mean - own) < 1e-9);
    QVERIFY(curves->data.first().sd >= 0);
    // The contribution summary adds up: per item, the base plus its contributions is its stored score.
    auto summary = hdeval::contributionSummary(fx->project.get(), QStringLiteral("c"));
    QVERIFY2(summary, qPrintable(summary.errorString()));
    QVERIFY(summary->method.contains(QStringLiteral("Shapley")));
    QCOMPARE(summary->items.size(), int(x.size()));
    auto explained = hdeval::explainItem(fx->project.get(), QStringLiteral("c"), summary->items.first());
    QVERIFY(explained);
    QVERIFY(std::abs(explained->base + summary->values.row(0).sum() - stored.value(summary->items.first())) < 1e-9);
    for (int j = 1; j < summary->nodes.size(); ++j)
        QVERIFY(summary->meanAbs[j - 1] >= summary->meanAbs[j]);
    // The ablations against the full model on the same items: the mean's test r is the Pearson of the
    // plain node mean, recomputed here.
    learn::AggregatorSettings linear;
    linear.kind = learn::AggregatorKind::Linear;
    auto report = hdeval::ablationReport(fx->project.get(), QStringLiteral("c"), linear, 3);
    QVERIFY2(report, qPrintable(report.errorString()));
    QCOMPARE(report->seedR.size(), 3);
    QVERIFY(std::abs(report->mean - own) < 1e-9); // linear: the same fit whatever the seed
    QCOMPARE(report->sd, 0.0);
    QCOMPARE(report->tests.size(), 3);
    const QStringList features = RubricExport::toJson(*RubricStore(fx->project.get()).load(QStringLiteral("c")))
                                         .value(QStringLiteral("aggregator"))
                                         .toMap()
                                         .value(QStringLiteral("features"))
                                         .toStringList();
    QHash<QString, QHash<QString, double>> nodes;
    for (const ItemCriterionScores &s : RubricStore(fx->project.get()).criterionScores(QStringLiteral("c")))
        nodes[s.itemId].insert(s.criterionKey, s.mean);
    QVector<double> means, hum;
    for (const QString &id : std::as_const(fx->testIds)) {
        double sum = 0;
        for (const QString &k : features)
            sum += nodes[id].value(k);
        means << sum / double(features.size());
        hum << humans.value(id);
    }
    for (const hdeval::AblationTest &t : report->tests) {
        QVERIFY(std::abs(t.fullR - own) < 1e-9);
        QVERIFY(t.permutationP > 0 && t.permutationP <= 1);
        QVERIFY(t.lo <= t.difference && t.difference <= t.hi);
        QCOMPARE(t.n, int(x.size()));
        if (t.tag == QLatin1String("without_aggregator"))
            QVERIFY2(std::abs(t.ablationR - pearsonOf(means, hum)) < 1e-9,
                     qPrintable(QStringLiteral("%1 vs %2").arg(t.ablationR).arg(pearsonOf(means, hum))));
        qInfo("%s: test r %.3f vs full %.3f, difference %.3f [%.3f, %.3f], permutation p %.3f, Williams p %.3f",
              qPrintable(t.tag), t.ablationR, t.fullR, t.difference, t.lo, t.hi, t.permutationP, t.williamsP);
    }
    qInfo("data efficiency (linear, 3 seeds): n=10 %.3f ± %.3f, n=20 %.3f ± %.3f, n=30 %.3f; criteria: 1 node %.3f, "
          "all %d %.3f; largest mean |contribution| %s %.3f",
          curves->data[0].mean, curves->data[0].sd, curves->data[1].mean, curves->data[1].sd, curves->data[2].mean,
          curves->criteria.first().mean, int(curves->criteria.size()), curves->criteria.last().mean,
          qPrintable(summary->nodes.first()), summary->meanAbs[0]);
}

QTEST_GUILESS_MAIN(TestHdEvalFidelity)
#include "TestHdEvalFidelity.moc"
