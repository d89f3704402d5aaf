// HD-Eval's final fit as a plain function: the run's finish() and the studio's re-fit share it.
#include "HdEvalAggregate.h"

#include "HdEvalTree.h"
#include "learn/CrossValidation.h"
#include "learn/PermutationImportance.h"

#include <QCoreApplication>

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

/// "Layer 1 only" into every aspect of `out`: the same aggregator on the layer-1 columns alone
/// (the aspects' direct scores, scored in every run), fitted exactly as a fit with layers = 1
/// fits it. Empty, or the reason the baseline is undefined.
QString fitLayerOne(const FitData &data, const FitSettings &settings, FitResult &out, QStringList &keys)
{
    QVector<int> layerOne;
    for (int c = 0; c < data.nodes.size(); ++c)
        if (data.nodes[c].parentKey.isEmpty()) {
            layerOne.append(c);
            keys << data.nodes[c].key;
        }
    for (AspectFit &f : out.aspects)
        f.layer1TrainR = f.layer1CvR = f.layer1TestR = kNaN;
    if (layerOne.isEmpty())
        return trc("no layer-1 node among the features");
    if (layerOne.size() == data.nodes.size()) { // the fit is the layer-1 fit itself
        for (AspectFit &f : out.aspects) {
            f.layer1TrainR = f.trainR;
            f.layer1CvR = f.cvR;
            f.layer1TestR = f.testR;
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

Result<FitResult> fitAggregators(const FitData &data, const FitSettings &settings)
{
    const int p = int(data.nodes.size()), nTrain = int(data.xTrain.rows()), nTest = int(data.xTest.rows());
    if (data.aspects.isEmpty() || p == 0)
        return makeError(trc("nothing to fit: no aspect or no node"));
    QStringList names;
    for (const Criterion &c : data.nodes)
        names << c.key;
    learn::CvSettings cv;
    cv.seed = settings.seed;
    cv.leaveOneOut = settings.cvFolds == 0;
    cv.folds = std::min(settings.cvFolds, nTrain);
    learn::ImportanceSettings is;
    is.repeats = settings.importanceRepeats;
    is.seed = settings.seed;

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
        if (n > 0)
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
        learn::Aggregator aggregator(settings.aggregator);
        if (auto f = aggregator.fit(data.xTrain, yTrain, settings.seed); !f)
            return makeError(trc("the aggregator for %1 could not be fitted on %2 train items: %3")
                                     .arg(group.join(QStringLiteral(", ")))
                                     .arg(nTrain)
                                     .arg(f.errorString()),
                             {}, 0, QStringLiteral("fit"));
        auto cvResult = learn::crossValidate(settings.aggregator, data.xTrain, yTrain, cv);
        if (!cvResult)
            return makeError(trc("cross-validation of the aggregator: %1").arg(cvResult.errorString()), {}, 0,
                             QStringLiteral("fit"));
        auto predicted = aggregator.predict(data.xAll);
        if (!predicted)
            return predicted.error();
        auto importance = learn::permutationImportance(aggregator, data.xTrain, yTrain, is);
        if (!importance)
            return makeError(trc("permutation importance: %1").arg(importance.errorString()), {}, 0,
                             QStringLiteral("fit"));
        const QVariantMap described = aggregator.describe(names, group).value(QStringLiteral("aspects")).toMap();
        for (auto it = described.begin(); it != described.end(); ++it)
            aspectModels.insert(it.key(), it.value());
        for (int g = 0; g < group.size(); ++g) {
            const QString &a = group[g];
            AspectFit f;
            f.trainR = cvResult->trainR.value(g, kNaN);
            f.cvR = cvResult->cvR.value(g, kNaN);
            f.testR = f.directR = f.meanR = f.bestR = kNaN;
            f.cvWarning = cvResult->warning.value(g, false);
            f.importance = importance->mean.col(g);
            f.predicted = predicted->col(g);
            f.model = aggregator.toJson(g);
            if (nTest >= 3) {
                // The test rows are the first nTest rows of xAll when the caller says so; predict
                // them here to be independent of the row order.
                auto testPred = aggregator.predict(data.xTest);
                if (!testPred)
                    return testPred.error();
                f.testR = learn::pearsonPresent(testPred->col(g), yTest.col(g));
                f.meanR = learn::pearsonPresent(meanScore, yTest.col(g));
                for (int c = 0; c < p; ++c) {
                    const double r = learn::pearsonPresent(data.xTest.col(c), yTest.col(g));
                    f.nodeTestR.insert(names[c], jsonNumber(r));
                    if (std::isfinite(r) && (!std::isfinite(f.bestR) || r > f.bestR)) {
                        f.bestR = r;
                        f.bestNode = names[c];
                    }
                }
                // The direct score: the aspect's own layer-1 node.
                for (const Criterion &c : data.nodes)
                    if (c.parentKey.isEmpty() && c.stats.value(QStringLiteral("aspect"), data.aspects.first()) == a
                        && !f.nodeTestR.value(c.key).isNull())
                        f.directR = f.nodeTestR.value(c.key).toDouble();
            }
            out.aspects.insert(a, f);
        }
    }

    QStringList layerOneKeys;
    const QString layerOneError = fitLayerOne(data, settings, out, layerOneKeys);

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
    d.insert(QStringLiteral("cv_warning"), perAspect([](const AspectFit &f) { return QVariant(f.cvWarning); }));
    d.insert(QStringLiteral("cv"),
             cv.leaveOneOut ? QStringLiteral("leave-one-out") : QStringLiteral("%1-fold").arg(cv.folds));
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
