#pragma once

#include "learn/Aggregator.h"
#include "rubric/Rubric.h"
#include "util/Result.h"

#include <QHash>
#include <QJsonObject>
#include <QPair>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <Eigen/Dense>

namespace rubric::hdeval {

/// What the final HD-Eval fit reads: node scores and human scores of the train and test items
/// (NaN where none), the feature nodes in column order, the aspects in target column order.
struct FitData
{
    QStringList aspects;                                ///< layer 1; the judge's own first
    QHash<QString, QPair<double, double>> scales;       ///< aspect → (min, max)
    QVector<Criterion> nodes;                           ///< one per column
    Eigen::MatrixXd xTrain, yTrain, xTest, yTest, xAll; ///< y: one column per aspect
    /// Per test row: whether the judge stores a score for it (at least one node score; an item
    /// without any has none, and the Compare pane never sees it). Empty = computed from xTest.
    /// Every test figure is computed on these rows (with a human score) alone.
    QVector<bool> testScored;
    /// Per train / test row, the item's group (SummEval's article; empty = none): group folds and
    /// the split's check use them. Empty lists = no group column.
    QStringList trainGroups, testGroups;
};

/// Cross-validation folds by group: auto = by group when some group has two or more train items.
enum class GroupFolds { Auto, On, Off };

/// Whether folds go by group for these train groups under `mode` (auto: a group repeats).
bool useGroupFolds(GroupFolds mode, const QStringList &trainGroups);

struct FitSettings
{
    learn::AggregatorSettings aggregator;
    quint64 seed = 1;
    int cvFolds = 5; ///< 0 = leave-one-out
    int importanceRepeats = 5;
    int layers = 3; ///< recorded in the description (with the ablation it stands for)
    GroupFolds groupFolds = GroupFolds::Auto;
};

/// One aspect's part of the fit.
struct AspectFit
{
    double trainR = 0, cvR = 0, testR = 0, directR = 0, meanR = 0, bestR = 0; ///< NaN when undefined
    /// Spearman's rho beside the Pearson figures on the same test rows (the paper reports both).
    double testRho = 0, directRho = 0, meanRho = 0, bestRho = 0, layer1TestRho = 0;
    /// "Layer 1 only": the same aggregator fitted on the layer-1 columns alone (NaN when undefined).
    double layer1TrainR = 0, layer1CvR = 0, layer1TestR = 0;
    bool cvWarning = false;
    /// The best single node, chosen by its Pearson on the train split (never by its test r): its
    /// train r here, its test r in bestR.
    QString bestNode;
    double bestTrainR = 0;
    QVariantMap nodeTestR;
    /// The test items every test figure of this aspect is computed on (a stored score and a human
    /// score), those of them with an imputed node, and the test items left out for want of any
    /// node score.
    int nTestScored = 0, nTestImputed = 0, nTestUnscored = 0;
    Eigen::VectorXd testPredicted; ///< one per row of xTest (NaN on the rows without a stored score)
    Eigen::VectorXd importance;    ///< p: permutation importance on the train split
    Eigen::VectorXd predicted;     ///< one per row of xAll
    QJsonObject model;             ///< this aspect's one-output aggregator (learn::Aggregator::toJson(int))
};

struct FitResult
{
    /// show-rubric's top-level "aggregator": kind, aspects {aspect: model description}, train_r,
    /// cv_r, test_r, cv_warning ({aspect: …}), cv ("5-fold", "5-fold by group"), cv_by_group,
    /// n_train_groups, split_groups ("group-disjoint" / "shared": a group on both sides), n_train, n_test, features,
    /// layers, ablation (ablationTags), seed, aspect_order, scale_groups (when the scales differ), baselines (among
    /// them layer1_train_r / layer1_cv_r / layer1_test_r {aspect: r} and layer1_features, or
    /// layer1_error when that fit failed).
    QVariantMap description;
    QHash<QString, AspectFit> aspects;
};

/// The aspects grouped by scale: one multi-output aggregator per group (an aspect on another
/// scale, like Topical-Chat's groundedness, gets its own).
QVector<QStringList> scaleGroups(const QStringList &aspects, const QHash<QString, QPair<double, double>> &scales);

/// The paper's ablations (Table 4) a fit stands for: "without_layer_3" (layers = 2),
/// "without_layers_2_3" (layers = 1), "without_aggregator" (the mean); empty for the full method.
QStringList ablationTags(int layers, learn::AggregatorKind kind);

/// Fits the aggregators on the train rows, cross-validates them there, predicts every row of
/// xAll, scores the test rows against the baselines (the aspect's own layer-1 node, the mean of
/// all nodes, the best single node, and "layer 1 only": the same aggregator fitted on the layer-1
/// columns alone, which is what a fit with layers = 1 gives) and measures permutation importance
/// on the train rows. Sends nothing; deterministic for the seed. A failed layer-1 baseline leaves
/// its figures undefined and its reason in baselines.layer1_error; it does not fail the fit.
Result<FitResult> fitAggregators(const FitData &data, const FitSettings &settings);

/// Writes a fit into the tree: every node's "layer", the feature nodes' "importance" {aspect: x},
/// and on each layer-1 node "aspect", "aggregator" (the description) and "aggregator_model" (its
/// aspect's model). A layer-1 node of an aspect the fit does not cover is an error.
Result<void> storeFit(Rubric &tree, const FitResult &fit);

/// The aspect a layer-1 node stands for: stats["aspect"], else (a tree from before several
/// aspects) the rubric's aspect.
QString rootAspect(const Rubric &tree, const Criterion &root);

} // namespace rubric::hdeval
