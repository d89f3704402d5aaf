// The paper's efficiency curves and a SHAP-style summary, from a judge's stored node scores (0 calls).
#include "HdEvalCurves.h"

#include "HdEvalActions.h"
#include "HdEvalTree.h"
#include "learn/CrossValidation.h"
#include "learn/PermutationImportance.h"
#include "stats/Significance.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "util/Shuffle.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

namespace rubric::hdeval {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString trc(const char *text)
{
    return QCoreApplication::translate("HdEvalCurves", text);
}

QVariant number(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant();
}

void summarise(CurvePoint &p)
{
    QVector<double> ok;
    for (double v : std::as_const(p.values))
        if (std::isfinite(v))
            ok << v;
    p.mean = p.sd = kNaN;
    if (ok.isEmpty())
        return;
    p.mean = std::accumulate(ok.cbegin(), ok.cend(), 0.0) / double(ok.size());
    double ss = 0;
    for (double v : std::as_const(ok))
        ss += (v - p.mean) * (v - p.mean);
    p.sd = ok.size() > 1 ? std::sqrt(ss / double(ok.size() - 1)) : 0;
}

QVariantList pointsToList(const QVector<CurvePoint> &points)
{
    QVariantList out;
    for (const CurvePoint &p : points) {
        QVariantList values;
        for (double v : p.values)
            values << number(v);
        out << QVariantMap{{QStringLiteral("x"), p.x},
                           {QStringLiteral("mean"), number(p.mean)},
                           {QStringLiteral("sd"), number(p.sd)},
                           {QStringLiteral("values"), values}};
    }
    return out;
}

/// Test r of `settings` fitted on rows `rows` of (x, y) and columns `cols`, on the test basis.
double testR(const learn::AggregatorSettings &settings, const Eigen::MatrixXd &x, const Eigen::VectorXd &y,
             const QVector<int> &rows, const QVector<int> &cols, const Eigen::MatrixXd &xTest,
             const Eigen::VectorXd &yTest, quint64 seed)
{
    Eigen::MatrixXd xs(rows.size(), cols.size()), xt(xTest.rows(), cols.size());
    Eigen::MatrixXd ys(rows.size(), 1);
    for (int r = 0; r < rows.size(); ++r) {
        for (int c = 0; c < cols.size(); ++c)
            xs(r, c) = x(rows[r], cols[c]);
        ys(r, 0) = y[rows[r]];
    }
    for (int c = 0; c < cols.size(); ++c)
        xt.col(c) = xTest.col(cols[c]);
    learn::Aggregator a(settings);
    if (!a.fit(xs, ys, seed))
        return kNaN; // e.g. a node with no score on the drawn items: the point is undefined
    auto p = a.predict(xt);
    return p ? learn::pearsonPresent(p->col(0), yTest) : kNaN;
}

} // namespace

QVariantMap EfficiencyCurves::toMap() const
{
    return {{QStringLiteral("aspect"), aspect},
            {QStringLiteral("aggregator"), aggregator},
            {QStringLiteral("n_train"), nTrain},
            {QStringLiteral("n_test"), nTest},
            {QStringLiteral("seeds"), seeds},
            {QStringLiteral("calls"), 0},
            {QStringLiteral("data_efficiency"), pointsToList(data)},
            {QStringLiteral("criteria_efficiency"), pointsToList(criteria)},
            {QStringLiteral("ranking"), ranking}};
}

Result<EfficiencyCurves> efficiencyCurves(Project *project, const QString &judge, const CurveOptions &options)
{
    auto loaded = loadFitData(project, judge, options.layers);
    if (!loaded)
        return loaded.error();
    const FitData &d = loaded->data;
    // The judge's own aspect; train rows with its human score; test rows with a node score and one.
    QVector<int> train;
    for (int r = 0; r < d.yTrain.rows(); ++r)
        if (std::isfinite(d.yTrain(r, 0)))
            train << r;
    Eigen::VectorXd yTest = d.yTest.col(0);
    int nTest = 0;
    for (int r = 0; r < d.xTest.rows(); ++r) {
        bool any = false;
        for (int c = 0; c < d.xTest.cols(); ++c)
            any = any || std::isfinite(d.xTest(r, c));
        if (!any)
            yTest[r] = kNaN;
        nTest += std::isfinite(yTest[r]) ? 1 : 0;
    }
    if (train.size() < 4 || nTest < 3)
        return makeError(trc("judge '%1': efficiency curves need at least 4 train and 3 test items with node and "
                             "human scores (%2 and %3)")
                                 .arg(judge)
                                 .arg(train.size())
                                 .arg(nTest),
                         {}, 0, QStringLiteral("judge"));
    const int seeds = std::max(1, options.seeds);
    EfficiencyCurves out;
    out.aspect = d.aspects.first();
    out.aggregator = learn::aggregatorKindName(options.aggregator.kind);
    out.nTrain = int(train.size());
    out.nTest = nTest;
    out.seeds = seeds;
    const Eigen::VectorXd yTrain = d.yTrain.col(0);
    QVector<int> all(d.xTrain.cols());
    std::iota(all.begin(), all.end(), 0);

    QVector<int> sizes = options.sizes;
    if (sizes.isEmpty()) {
        for (int m = 5; m < train.size(); m += 5)
            sizes << m;
        sizes << int(train.size());
    }
    for (int m : std::as_const(sizes)) {
        if (m < 3 || m > train.size())
            return makeError(
                    trc("a training size of %1 is outside 3–%2 (the train items with scores)").arg(m).arg(train.size()),
                    {}, 0, QStringLiteral("sizes"));
        CurvePoint p;
        p.x = m;
        for (int s = 0; s < seeds; ++s) {
            QVector<int> rows = train;
            SeededRng rng(options.seed * 1000003ULL + quint64(s));
            seededShuffle(rows, rng);
            rows.resize(m);
            p.values << testR(options.aggregator, d.xTrain, yTrain, rows, all, d.xTest, yTest,
                              options.seed + quint64(s));
        }
        summarise(p);
        out.data << p;
    }

    // The nodes ranked once, on the whole train split (cross-validated permutation importance).
    Eigen::MatrixXd xr(train.size(), d.xTrain.cols()), yr(train.size(), 1);
    for (int r = 0; r < train.size(); ++r) {
        xr.row(r) = d.xTrain.row(train[r]);
        yr(r, 0) = yTrain[train[r]];
    }
    learn::ImportanceSettings is;
    is.seed = options.seed;
    is.split = learn::ImportanceSplit::CrossValidated;
    is.folds = std::min(5, int(train.size()));
    auto importance = learn::permutationImportance(options.aggregator, xr, yr, is);
    if (!importance)
        return makeError(trc("ranking the nodes: %1").arg(importance.errorString()), {}, 0, QStringLiteral("fit"));
    const QVector<int> order = learn::topK(*importance, all, int(all.size()));
    for (int j : order)
        out.ranking << d.nodes[j].key;
    for (int k = 1; k <= order.size(); ++k) {
        CurvePoint p;
        p.x = k;
        const QVector<int> cols = order.mid(0, k);
        for (int s = 0; s < seeds; ++s)
            p.values << testR(options.aggregator, d.xTrain, yTrain, train, cols, d.xTest, yTest,
                              options.seed + quint64(s));
        summarise(p);
        out.criteria << p;
    }
    return out;
}

QVariantMap ContributionSummary::toMap() const
{
    QVariantList perNode;
    for (int j = 0; j < nodes.size(); ++j) {
        QVariantList v, sc;
        for (Eigen::Index i = 0; i < values.rows(); ++i) {
            v << number(values(i, j));
            sc << number(scores(i, j));
        }
        perNode << QVariantMap{{QStringLiteral("id"), nodes[j]},
                               {QStringLiteral("mean_abs_contribution"), number(meanAbs[j])},
                               {QStringLiteral("contributions"), v},
                               {QStringLiteral("scores"), sc}};
    }
    return {{QStringLiteral("aspect"), aspect}, {QStringLiteral("aggregator"), aggregator},
            {QStringLiteral("method"), method}, {QStringLiteral("items"), items},
            {QStringLiteral("nodes"), perNode}, {QStringLiteral("calls"), 0}};
}

Result<ContributionSummary> contributionSummary(Project *project, const QString &judge, const QString &aspect)
{
    auto loaded = loadFitData(project, judge, 3);
    if (!loaded)
        return loaded.error();
    const Rubric &tree = loaded->tree;
    const QString wanted = aspect.isEmpty() ? tree.aspect() : aspect;
    const Criterion *root = nullptr;
    for (const Criterion &r : tree.children(QString()))
        if (rootAspect(tree, r) == wanted && r.stats.contains(QStringLiteral("aggregator_model")))
            root = tree.find(r.key);
    if (!root)
        return makeError(trc("judge '%1' has no fitted aggregator for aspect '%2'").arg(judge, wanted), {}, 0,
                         QStringLiteral("aspect"));
    const QVariantMap description = root->stats.value(QStringLiteral("aggregator")).toMap();
    auto aggregator = learn::Aggregator::fromJson(
            QJsonObject::fromVariantMap(root->stats.value(QStringLiteral("aggregator_model")).toMap()));
    if (!aggregator)
        return makeError(
                trc("judge '%1': the stored aggregator cannot be read: %2").arg(judge, aggregator.errorString()));
    const QStringList features = description.value(QStringLiteral("features")).toStringList();
    // The node scores of the test items with any, in the aggregator's column order.
    QHash<QString, QHash<QString, double>> scores;
    auto rows = RubricStore(project).readSampleScores(judge);
    if (!rows)
        return rows.error();
    for (const CriterionScore &row : *rows)
        if (std::isfinite(row.score))
            scores[row.itemId].insert(row.criterionKey, row.score);
    ContributionSummary out;
    for (const QString &id : std::as_const(loaded->test))
        if (scores.contains(id))
            out.items << id;
    if (out.items.isEmpty())
        return makeError(trc("judge '%1' has no test item with a node score").arg(judge), {}, 0,
                         QStringLiteral("judge"));
    Eigen::MatrixXd x(out.items.size(), features.size());
    for (int i = 0; i < out.items.size(); ++i)
        for (int c = 0; c < features.size(); ++c)
            x(i, c) = scores[out.items[i]].value(features[c], kNaN);
    auto parts = aggregator->contributions(x, 0);
    if (!parts)
        return parts.error();
    out.aspect = wanted;
    out.aggregator = description.value(QStringLiteral("kind")).toString();
    const QString kind = out.aggregator;
    out.method = kind == QLatin1String("mlp") ? trc("DeepLIFT rescale rule (additive attributions, not Shapley values)")
                 : kind == QLatin1String("tree") || kind == QLatin1String("forest") || kind == QLatin1String("boosted")
                         ? trc("TreeSHAP (Shapley values of the trees)")
                         : trc("exact Shapley values (weight × centred score)");
    QVector<int> order(features.size());
    std::iota(order.begin(), order.end(), 0);
    const Eigen::VectorXd meanAbs = parts->values.cwiseAbs().colwise().mean().transpose();
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return meanAbs[a] > meanAbs[b]; });
    out.meanAbs.resize(order.size());
    out.values.resize(x.rows(), order.size());
    out.scores.resize(x.rows(), order.size());
    for (int j = 0; j < order.size(); ++j) {
        out.nodes << features[order[j]];
        out.meanAbs[j] = meanAbs[order[j]];
        out.values.col(j) = parts->values.col(order[j]);
        out.scores.col(j) = x.col(order[j]);
    }
    return out;
}

QVariantMap AblationReport::toMap() const
{
    QVariantList values, list;
    for (double v : seedR)
        values << number(v);
    for (const AblationTest &t : tests)
        list << QVariantMap{{QStringLiteral("ablation"), t.tag},
                            {QStringLiteral("full_test_r"), number(t.fullR)},
                            {QStringLiteral("ablation_test_r"), number(t.ablationR)},
                            {QStringLiteral("difference"), number(t.difference)},
                            {QStringLiteral("difference_ci"), QVariantList{number(t.lo), number(t.hi)}},
                            {QStringLiteral("permutation_p"), number(t.permutationP)},
                            {QStringLiteral("williams_p"), number(t.williamsP)},
                            {QStringLiteral("n"), t.n}};
    return {{QStringLiteral("aggregator"), aggregator},
            {QStringLiteral("test_r_by_seed"), values},
            {QStringLiteral("test_r_mean"), number(mean)},
            {QStringLiteral("test_r_sd"), number(sd)},
            {QStringLiteral("test_r_min"), number(min)},
            {QStringLiteral("test_r_max"), number(max)},
            {QStringLiteral("ablations"), list}};
}

Result<AblationReport> ablationReport(Project *project, const QString &judge, const learn::AggregatorSettings &full,
                                      int seeds, quint64 seed)
{
    auto loaded = loadFitData(project, judge, 3);
    if (!loaded)
        return loaded.error();
    const FitData &d = loaded->data;
    QVector<int> train;
    for (int r = 0; r < d.yTrain.rows(); ++r)
        if (std::isfinite(d.yTrain(r, 0)))
            train << r;
    QVector<int> basis; // test rows with a node score and a human score
    for (int r = 0; r < d.xTest.rows(); ++r) {
        bool any = false;
        for (int c = 0; c < d.xTest.cols(); ++c)
            any = any || std::isfinite(d.xTest(r, c));
        if (any && std::isfinite(d.yTest(r, 0)))
            basis << r;
    }
    if (train.size() < 3 || basis.size() < 4)
        return makeError(trc("judge '%1': the ablation tests need at least 3 train and 4 test items with node and "
                             "human scores (%2 and %3)")
                                 .arg(judge)
                                 .arg(train.size())
                                 .arg(basis.size()),
                         {}, 0, QStringLiteral("judge"));
    Eigen::MatrixXd xTest(basis.size(), d.xTest.cols());
    Eigen::VectorXd yTest(basis.size());
    for (int r = 0; r < basis.size(); ++r) {
        xTest.row(r) = d.xTest.row(basis[r]);
        yTest[r] = d.yTest(basis[r], 0);
    }
    const Eigen::VectorXd yTrain = d.yTrain.col(0);
    const auto columns = [&](int layers) {
        QVector<int> cols;
        for (int c = 0; c < d.nodes.size(); ++c)
            if (layerOf(loaded->tree, d.nodes[c]) <= layers)
                cols << c;
        return cols;
    };
    // Predictions of `settings` on the test basis, fitted on the train rows and `cols`.
    const auto predict = [&](const learn::AggregatorSettings &settings, const QVector<int> &cols,
                             quint64 s) -> Result<Eigen::VectorXd> {
        Eigen::MatrixXd xs(train.size(), cols.size()), ys(train.size(), 1), xt(xTest.rows(), cols.size());
        for (int r = 0; r < train.size(); ++r) {
            for (int c = 0; c < cols.size(); ++c)
                xs(r, c) = d.xTrain(train[r], cols[c]);
            ys(r, 0) = yTrain[train[r]];
        }
        for (int c = 0; c < cols.size(); ++c)
            xt.col(c) = xTest.col(cols[c]);
        learn::Aggregator a(settings);
        if (auto f = a.fit(xs, ys, s); !f)
            return f.error();
        auto p = a.predict(xt);
        if (!p)
            return p.error();
        return Eigen::VectorXd(p->col(0));
    };
    AblationReport out;
    out.aggregator = learn::aggregatorKindName(full.kind);
    const QVector<int> all = columns(3);
    for (int s = 0; s < std::max(1, seeds); ++s) {
        auto p = predict(full, all, seed + quint64(s));
        out.seedR << (p ? learn::pearsonPresent(*p, yTest) : kNaN);
    }
    CurvePoint spread;
    spread.values = out.seedR;
    summarise(spread);
    out.mean = spread.mean;
    out.sd = spread.sd;
    out.min = *std::min_element(out.seedR.cbegin(), out.seedR.cend());
    out.max = *std::max_element(out.seedR.cbegin(), out.seedR.cend());

    auto fullPred = predict(full, all, seed);
    if (!fullPred)
        return makeError(trc("the full model: %1").arg(fullPred.errorString()), {}, 0, QStringLiteral("fit"));
    learn::AggregatorSettings mean;
    mean.kind = learn::AggregatorKind::Mean;
    const QVector<std::tuple<QString, learn::AggregatorSettings, QVector<int>>> variants{
            {QStringLiteral("without_layer_3"), full, columns(2)},
            {QStringLiteral("without_layers_2_3"), full, columns(1)},
            {QStringLiteral("without_aggregator"), mean, all}};
    stats::ComparisonOptions co;
    co.seed = seed;
    for (const auto &[tag, settings, cols] : variants) {
        if (cols.isEmpty() || (cols.size() == all.size() && settings.kind == full.kind))
            continue; // the tree has no such layer: the ablation is the full model
        auto p = predict(settings, cols, seed);
        if (!p)
            return makeError(trc("ablation %1: %2").arg(tag, p.errorString()), {}, 0, QStringLiteral("fit"));
        QVector<stats::PairedItem> items;
        for (int r = 0; r < yTest.size(); ++r)
            items.append({loaded->test.value(basis[r]), {}, {}, yTest[r], (*fullPred)[r], (*p)[r]});
        const stats::JudgeComparison c = stats::compareJudges(items, stats::Level::Dataset, co);
        AblationTest t;
        t.tag = tag;
        t.n = int(items.size());
        t.fullR = learn::pearsonPresent(*fullPred, yTest);
        t.ablationR = learn::pearsonPresent(*p, yTest);
        const int pearson = int(stats::Coefficient::Pearson);
        t.difference = c.difference[pearson];
        t.lo = c.differenceCi[pearson].lo;
        t.hi = c.differenceCi[pearson].hi;
        t.permutationP = c.permutationP[pearson];
        t.williamsP = c.williams.p;
        out.tests << t;
    }
    return out;
}

} // namespace rubric::hdeval
