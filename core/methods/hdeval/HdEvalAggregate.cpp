// HD-Eval's final fit as a plain function: the run's finish() and the studio's re-fit share it.
#include "HdEvalAggregate.h"

#include "HdEvalTree.h"
#include "learn/ValidatedFit.h"
#include "stats/Correlation.h"

#include <QCoreApplication>
#include <QSet>

#include <cmath>
#include <limits>

namespace rubric::hdeval {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QVariant jsonNumber(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(); // NaN → null
}

QString trc(const char *text)
{
    return QCoreApplication::translate("HdEvalAggregate", text);
}

/// The columns `keep` of `x`, in that order.
Eigen::MatrixXd columnsOf(const Eigen::MatrixXd &x, const QVector<int> &keep)
{
    Eigen::MatrixXd out(x.rows(), keep.size());
    for (int j = 0; j < keep.size(); ++j)
        out.col(j) = x.col(keep[j]);
    return out;
}

/// Spearman's rho over the rows where both values are present (NaN when fewer than 2 or constant).
double spearmanPresent(const Eigen::VectorXd &a, const Eigen::VectorXd &b)
{
    std::vector<double> x, y;
    for (Eigen::Index i = 0; i < std::min(a.size(), b.size()); ++i)
        if (!std::isnan(a[i]) && !std::isnan(b[i])) {
            x.push_back(a[i]);
            y.push_back(b[i]);
        }
    return stats::spearman(x, y);
}

/// `v` with the rows outside `keep` set to NaN, so the pairwise figures skip them.
Eigen::VectorXd onRows(const Eigen::VectorXd &v, const QVector<bool> &keep)
{
    Eigen::VectorXd out = v;
    for (Eigen::Index r = 0; r < out.size(); ++r)
        if (!keep.value(int(r), false))
            out[r] = kNaN;
    return out;
}

/// "Layer 1 only" into every aspect of `out`: the same aggregator on the layer-1 columns alone
/// (the aspects' direct scores, scored in every run), fitted exactly as a fit with layers = 1
/// fits it. Empty, or the reason the baseline is undefined.
QString fitLayerOne(const FitData &data, const QVector<bool> &testScored, const FitSettings &settings, FitResult &out,
                    QStringList &keys)
{
    QVector<int> layerOne;
    for (int c = 0; c < data.nodes.size(); ++c)
        if (data.nodes[c].parentKey.isEmpty()) {
            layerOne.append(c);
            keys << data.nodes[c].key;
        }
    for (AspectFit &f : out.aspects)
        f.layer1TrainR = f.layer1CvR = f.layer1TestR = f.layer1TestRho = kNaN;
    if (layerOne.isEmpty())
        return trc("no layer-1 node among the features");
    if (layerOne.size() == data.nodes.size()) { // the fit is the layer-1 fit itself
        for (AspectFit &f : out.aspects) {
            f.layer1TrainR = f.trainR;
            f.layer1CvR = f.cvR;
            f.layer1TestR = f.testR;
            f.layer1TestRho = f.testRho;
        }
        return {};
    }
    FitData sub;
    sub.aspects = data.aspects;
    sub.scales = data.scales;
    for (int c : std::as_const(layerOne))
        sub.nodes.append(data.nodes[c]);
    sub.xTrain = columnsOf(data.xTrain, layerOne);
    sub.xTest = columnsOf(data.xTest, layerOne);
    sub.xAll = columnsOf(data.xAll, layerOne);
    sub.yTrain = data.yTrain;
    sub.yTest = data.yTest;
    sub.testScored = testScored; // the full judge's test rows, not the layer-1 columns' own
    sub.trainGroups = data.trainGroups;
    sub.testGroups = data.testGroups;
    FitSettings one = settings;
    one.layers = 1;
    auto fit = fitAggregators(sub, one);
    if (!fit)
        return fit.errorString();
    for (auto it = out.aspects.begin(); it != out.aspects.end(); ++it) {
        const AspectFit &f = fit->aspects.value(it.key());
        it->layer1TrainR = f.trainR;
        it->layer1CvR = f.cvR;
        it->layer1TestR = f.testR;
        it->layer1TestRho = f.testRho;
    }
    return {};
}

} // namespace

QStringList ablationTags(int layers, learn::AggregatorKind kind)
{
    QStringList tags;
    if (layers == 2)
        tags << QStringLiteral("without_layer_3");
    else if (layers == 1)
        tags << QStringLiteral("without_layers_2_3");
    if (kind == learn::AggregatorKind::Mean)
        tags << QStringLiteral("without_aggregator");
    return tags;
}

QVector<QStringList> scaleGroups(const QStringList &aspects, const QHash<QString, QPair<double, double>> &scales)
{
    QVector<QStringList> groups;
    for (const QString &a : aspects) {
        bool placed = false;
        for (QStringList &g : groups)
            if (scales.value(g.first()) == scales.value(a)) {
                g.append(a);
                placed = true;
                break;
            }
        if (!placed)
            groups.append(QStringList{a});
    }
    return groups;
}

QString rootAspect(const Rubric &tree, const Criterion &root)
{
    const QString a = root.stats.value(QStringLiteral("aspect")).toString();
    return a.isEmpty() ? tree.aspect() : a;
}

bool useGroupFolds(GroupFolds mode, const QStringList &trainGroups)
{
    if (mode == GroupFolds::Off || trainGroups.isEmpty())
        return false;
    const int groups = learn::groupCount(trainGroups);
    if (groups < 2)
        return false; // one group: nothing to keep apart
    return mode == GroupFolds::On || groups < trainGroups.size();
}

Result<FitResult> fitAggregators(const FitData &data, const FitSettings &settings)
{
    const int p = int(data.nodes.size()), nTrain = int(data.xTrain.rows()), nTest = int(data.xTest.rows());
    if (data.aspects.isEmpty() || p == 0)
        return makeError(trc("nothing to fit: no aspect or no node"));
    QStringList names;
    for (const Criterion &c : data.nodes)
        names << c.key;
    learn::ValidationSettings vs;
    vs.aggregator = settings.aggregator;
    vs.seed = settings.seed;
    vs.folds = settings.cvFolds;
    vs.importanceRepeats = settings.importanceRepeats;
    if (settings.cvFolds != 0 && useGroupFolds(settings.groupFolds, data.trainGroups))
        vs.groups = data.trainGroups;
    const learn::CvSettings cv = learn::cvSettings(vs, nTrain);
    const bool byGroup = !cv.leaveOneOut && !cv.groups.isEmpty();

    // The test rows the judge stores a score for: every test figure is computed on them alone,
    // the same items the Compare pane correlates (an item without any node score has no stored
    // score; the aggregator would predict it from the training means).
    QVector<bool> scored = data.testScored;
    if (scored.size() != nTest) {
        scored = QVector<bool>(nTest, false);
        for (int r = 0; r < nTest; ++r)
            for (int c = 0; c < p && !scored[r]; ++c)
                scored[r] = std::isfinite(data.xTest(r, c));
    }
    int unscoredTest = 0;
    QVector<bool> complete(std::max(nTest, 0), true);
    for (int r = 0; r < nTest; ++r) {
        for (int c = 0; c < p; ++c)
            complete[r] = complete[r] && std::isfinite(data.xTest(r, c));
        unscoredTest += scored[r] ? 0 : 1;
    }

    // The mean of all node scores per test item: the paper's "w/o aggregator" baseline.
    Eigen::VectorXd meanScore = Eigen::VectorXd::Constant(nTest, kNaN);
    for (int r = 0; r < nTest; ++r) {
        double sum = 0;
        int n = 0;
        for (int c = 0; c < p; ++c)
            if (std::isfinite(data.xTest(r, c))) {
                sum += data.xTest(r, c);
                ++n;
            }
        if (n > 0 && scored[r])
            meanScore[r] = sum / n;
    }

    FitResult out;
    QVariantMap aspectModels;
    const QVector<QStringList> groups = scaleGroups(data.aspects, data.scales);
    for (const QStringList &group : groups) {
        QVector<int> columns;
        for (const QString &a : group)
            columns.append(int(data.aspects.indexOf(a)));
        Eigen::MatrixXd yTrain(nTrain, group.size()), yTest(nTest, group.size());
        for (int g = 0; g < group.size(); ++g) {
            yTrain.col(g) = data.yTrain.col(columns[g]);
            yTest.col(g) = data.yTest.col(columns[g]);
        }
        auto fitted = learn::fitValidated(data.xTrain, yTrain, vs);
        if (!fitted) {
            const QString step = fitted.error().field;
            if (step == QLatin1String("cross-validation"))
                return makeError(trc("cross-validation of the aggregator: %1").arg(fitted.error().message), {}, 0,
                                 QStringLiteral("fit"));
            if (step == QLatin1String("importance"))
                return makeError(trc("permutation importance: %1").arg(fitted.error().message), {}, 0,
                                 QStringLiteral("fit"));
            return makeError(trc("the aggregator for %1 could not be fitted on %2 train items: %3")
                                     .arg(group.join(QStringLiteral(", ")))
                                     .arg(nTrain)
                                     .arg(fitted.error().message),
                             {}, 0, QStringLiteral("fit"));
        }
        const learn::Aggregator &aggregator = fitted->aggregator;
        const learn::CvResult *cvResult = &fitted->cv;
        const learn::FeatureImportance *importance = &fitted->importance;
        auto predicted = aggregator.predict(data.xAll);
        if (!predicted)
            return predicted.error();
        const QVariantMap described = aggregator.describe(names, group).value(QStringLiteral("aspects")).toMap();
        for (auto it = described.begin(); it != described.end(); ++it)
            aspectModels.insert(it.key(), it.value());
        for (int g = 0; g < group.size(); ++g) {
            const QString &a = group[g];
            AspectFit f;
            f.trainR = cvResult->trainR.value(g, kNaN);
            f.cvR = cvResult->cvR.value(g, kNaN);
            f.testR = f.directR = f.meanR = f.bestR = kNaN;
            f.testRho = f.directRho = f.meanRho = f.bestRho = kNaN;
            f.cvWarning = cvResult->warning.value(g, false);
            f.importance = importance->mean.col(g);
            f.predicted = predicted->col(g);
            f.model = aggregator.toJson(g);
            f.nTestUnscored = unscoredTest;
            QVector<bool> basis(nTest, false);
            for (int r = 0; r < nTest; ++r) {
                basis[r] = scored[r] && std::isfinite(yTest(r, g));
                f.nTestScored += basis[r] ? 1 : 0;
                f.nTestImputed += basis[r] && !complete[r] ? 1 : 0;
            }
            // The best single node, chosen on the train split: its test r is then a fair baseline.
            f.bestTrainR = kNaN;
            for (int c = 0; c < p; ++c) {
                const double r = learn::pearsonPresent(data.xTrain.col(c), yTrain.col(g));
                if (std::isfinite(r) && (!std::isfinite(f.bestTrainR) || r > f.bestTrainR)) {
                    f.bestTrainR = r;
                    f.bestNode = names[c];
                }
            }
            f.testPredicted = Eigen::VectorXd::Constant(nTest, kNaN);
            if (nTest >= 3) {
                // Predicted here, from xTest, to be independent of xAll's row order.
                auto testPred = aggregator.predict(data.xTest);
                if (!testPred)
                    return testPred.error();
                f.testPredicted = onRows(testPred->col(g), basis);
                const Eigen::VectorXd y = onRows(yTest.col(g), basis);
                f.testR = learn::pearsonPresent(f.testPredicted, y);
                f.testRho = spearmanPresent(f.testPredicted, y);
                f.meanR = learn::pearsonPresent(meanScore, y);
                f.meanRho = spearmanPresent(meanScore, y);
                for (int c = 0; c < p; ++c) {
                    const Eigen::VectorXd node = onRows(data.xTest.col(c), basis);
                    const double r = learn::pearsonPresent(node, y);
                    f.nodeTestR.insert(names[c], jsonNumber(r));
                    if (names[c] == f.bestNode) {
                        f.bestR = r;
                        f.bestRho = spearmanPresent(node, y);
                    }
                }
                // The direct score: the aspect's own layer-1 node.
                for (int c = 0; c < p; ++c) {
                    const Criterion &node = data.nodes[c];
                    if (node.parentKey.isEmpty()
                        && node.stats.value(QStringLiteral("aspect"), data.aspects.first()) == a
                        && !f.nodeTestR.value(node.key).isNull()) {
                        f.directR = f.nodeTestR.value(node.key).toDouble();
                        f.directRho = spearmanPresent(onRows(data.xTest.col(c), basis), y);
                    }
                }
            }
            out.aspects.insert(a, f);
        }
    }

    QStringList layerOneKeys;
    const QString layerOneError = fitLayerOne(data, scored, settings, out, layerOneKeys);

    const auto perAspect = [&](auto value) {
        QVariantMap m;
        for (const QString &a : data.aspects)
            m.insert(a, value(out.aspects[a]));
        return m;
    };
    QVariantMap &d = out.description;
    d.insert(QStringLiteral("kind"), learn::aggregatorKindName(settings.aggregator.kind));
    d.insert(QStringLiteral("aspects"), aspectModels);
    d.insert(QStringLiteral("train_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.trainR); }));
    d.insert(QStringLiteral("cv_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.cvR); }));
    d.insert(QStringLiteral("test_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.testR); }));
    d.insert(QStringLiteral("test_rho"), perAspect([](const AspectFit &f) { return jsonNumber(f.testRho); }));
    // The test items behind every test figure: those with a stored score and a human score (the
    // Compare pane's items), those of them with an imputed node, and those left out for want of any
    // node score.
    d.insert(QStringLiteral("n_test_scored"), perAspect([](const AspectFit &f) { return QVariant(f.nTestScored); }));
    d.insert(QStringLiteral("n_test_imputed"), perAspect([](const AspectFit &f) { return QVariant(f.nTestImputed); }));
    d.insert(QStringLiteral("n_test_unscored"), unscoredTest);
    d.insert(QStringLiteral("cv_warning"), perAspect([](const AspectFit &f) { return QVariant(f.cvWarning); }));
    d.insert(QStringLiteral("cv"), learn::cvLabel(cv));
    d.insert(QStringLiteral("cv_by_group"), byGroup);
    if (!data.trainGroups.isEmpty()) {
        d.insert(QStringLiteral("n_train_groups"), learn::groupCount(data.trainGroups));
        // Whether the split keeps each group on one side (no test item's group among the train items).
        int shared = 0;
        QSet<QString> seen;
        for (const QString &g : data.testGroups)
            if (!g.isEmpty() && data.trainGroups.contains(g) && !seen.contains(g)) {
                seen.insert(g);
                ++shared;
            }
        d.insert(QStringLiteral("split_groups"),
                 shared == 0 ? QStringLiteral("group-disjoint") : QStringLiteral("shared"));
        d.insert(QStringLiteral("n_groups_both_sides"), shared);
    }
    d.insert(QStringLiteral("n_train"), nTrain);
    d.insert(QStringLiteral("n_test"), nTest);
    d.insert(QStringLiteral("features"), names);
    d.insert(QStringLiteral("layers"), settings.layers);
    d.insert(QStringLiteral("ablation"), ablationTags(settings.layers, settings.aggregator.kind));
    d.insert(QStringLiteral("seed"), qint64(settings.seed));
    d.insert(QStringLiteral("aspect_order"), data.aspects);
    if (groups.size() > 1) {
        QVariantList g;
        for (const QStringList &group : groups)
            g.append(group);
        d.insert(QStringLiteral("scale_groups"), g);
    }
    const AspectFit &own = out.aspects[data.aspects.first()];
    QVariantMap baselines{
            {QStringLiteral("direct_test_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.directR); })},
            {QStringLiteral("mean_test_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.meanR); })},
            {QStringLiteral("best_node"), own.bestNode},
            {QStringLiteral("best_node_by_aspect"), perAspect([](const AspectFit &f) { return QVariant(f.bestNode); })},
            {QStringLiteral("best_node_test_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.bestR); })},
            {QStringLiteral("best_node_train_r"),
             perAspect([](const AspectFit &f) { return jsonNumber(f.bestTrainR); })},
            {QStringLiteral("best_node_chosen_on"), QStringLiteral("train")},
            {QStringLiteral("direct_test_rho"), perAspect([](const AspectFit &f) { return jsonNumber(f.directRho); })},
            {QStringLiteral("mean_test_rho"), perAspect([](const AspectFit &f) { return jsonNumber(f.meanRho); })},
            {QStringLiteral("best_node_test_rho"), perAspect([](const AspectFit &f) { return jsonNumber(f.bestRho); })},
            {QStringLiteral("layer1_test_rho"),
             perAspect([](const AspectFit &f) { return jsonNumber(f.layer1TestRho); })},
            {QStringLiteral("node_test_r"), own.nodeTestR},
            {QStringLiteral("node_test_r_by_aspect"),
             perAspect([](const AspectFit &f) { return QVariant(f.nodeTestR); })},
            {QStringLiteral("layer1_features"), layerOneKeys},
            {QStringLiteral("layer1_train_r"),
             perAspect([](const AspectFit &f) { return jsonNumber(f.layer1TrainR); })},
            {QStringLiteral("layer1_cv_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.layer1CvR); })},
            {QStringLiteral("layer1_test_r"), perAspect([](const AspectFit &f) { return jsonNumber(f.layer1TestR); })}};
    if (!layerOneError.isEmpty())
        baselines.insert(QStringLiteral("layer1_error"), layerOneError);
    d.insert(QStringLiteral("baselines"), baselines);
    return out;
}

Result<void> storeFit(Rubric &tree, const FitResult &fit)
{
    const QStringList names = fit.description.value(QStringLiteral("features")).toStringList();
    const QStringList aspects = fit.description.value(QStringLiteral("aspect_order")).toStringList();
    for (Criterion &c : tree.criteria()) {
        if (!c.parentKey.isEmpty())
            continue;
        const QString a = rootAspect(tree, c);
        if (!fit.aspects.contains(a))
            return makeError(trc("the layer-1 node '%1' stands for aspect '%2', which the fit does not cover (%3)")
                                     .arg(c.key, a, aspects.join(QStringLiteral(", "))),
                             {}, 0, QStringLiteral("aspect"));
    }
    for (Criterion &c : tree.criteria()) {
        c.stats.insert(QStringLiteral("layer"), layerOf(tree, c));
        const int j = int(names.indexOf(c.key));
        if (j >= 0) {
            QVariantMap importance;
            for (const QString &a : aspects)
                importance.insert(a, jsonNumber(fit.aspects.value(a).importance[j]));
            c.stats.insert(QStringLiteral("importance"), importance);
        } else {
            c.stats.remove(QStringLiteral("importance")); // not a feature of this fit
        }
        if (c.parentKey.isEmpty()) {
            const QString a = rootAspect(tree, c);
            c.stats.insert(QStringLiteral("aspect"), a);
            c.stats.insert(QStringLiteral("aggregator"), fit.description);
            c.stats.insert(QStringLiteral("aggregator_model"), fit.aspects.value(a).model.toVariantMap());
        }
    }
    return {};
}

} // namespace rubric::hdeval
