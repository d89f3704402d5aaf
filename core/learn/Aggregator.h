#pragma once

#include "AspectModel.h"

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <memory>
#include <vector>

namespace rubric::learn {

/// The aggregator families (HD-Eval §3.4 and its "w/o aggregator" ablation).
enum class AggregatorKind { Mean, Linear, Ridge, Tree, Forest, Boosted, Mlp };

QString aggregatorKindName(AggregatorKind kind);
/// "mean", "linear", "ridge", "tree", "forest", "boosted", "mlp"; an error naming the choices otherwise.
Result<AggregatorKind> parseAggregatorKind(const QString &name);
QStringList aggregatorKindNames();

/// Every setting of every kind, with its default. A kind reads only its own fields.
struct AggregatorSettings
{
    AggregatorKind kind = AggregatorKind::Linear;
    /// mean: per aspect, the feature columns averaged; a missing or empty entry means all columns.
    QVector<QVector<int>> meanFeatures;
    /// ridge: L2 penalty λ on the weights (sklearn's alpha, default 1.0); the intercept is not
    /// penalised and the features are centred, not standardised, so λ acts in node-score units.
    double ridgeLambda = 1.0;
    /// tree (one xgboost tree, eta 1, no leaf penalty): maximum depth (6 ≈ unlimited at n≈30).
    int treeDepth = 6;
    /// forest (xgboost random forest, one round of num_parallel_tree trees, eta 1).
    int forestTrees = 100;
    int forestDepth = 6;
    double forestSubsample = 0.8; ///< rows drawn per tree, without replacement
    double forestColsample = 0.8; ///< features drawn per split (colsample_bynode)
    /// boosted (xgboost gradient boosting).
    int boostRounds = 100;
    int boostDepth = 3;
    double boostEta = 0.1;
    double boostLambda = 1.0; ///< L2 penalty on leaf weights
    /// mlp: one hidden layer of mlpHidden ReLU units, full-batch Adam for mlpEpochs epochs.
    int mlpHidden = 16;
    int mlpEpochs = 200; ///< sklearn MLPRegressor's max_iter
    double mlpLearningRate = 0.01;
    /// L2 on the weights (not the biases): the loss is ½·mean squared error + ½·decay·‖W‖² on the
    /// standardised data. Units: scikit-learn's MLPRegressor penalises alpha/(2n)·‖W‖², so decay =
    /// alpha / n and sklearn's alpha = decay × n (0.1 at n = 30 is alpha 3, at n = 300 alpha 30; far
    /// stronger than sklearn's default alpha 1e-4). Chosen because at n≈30 with 40 nodes the network
    /// otherwise memorises the items (rubric bench aggregators, 4 aspects × 40 nodes, 5-fold CV r:
    /// n=30 −0.12 → 0.15, n=300 0.53 → 0.88). TestModelReference checks the units against sklearn.
    double mlpWeightDecay = 0.1;
};

/// The keys aggregatorSettingsFromMap() reads, with their meaning (for --set and a method's parameter list):
/// "aggregator" (a kind name), "ridge_lambda", "tree_depth", "forest_trees", "forest_depth",
/// "forest_subsample", "forest_colsample", "boost_rounds", "boost_depth", "boost_eta", "boost_lambda",
/// "mlp_hidden", "mlp_epochs", "mlp_learning_rate", "mlp_weight_decay".
QStringList aggregatorSettingKeys();
/// Settings from a key → value map (values as strings or numbers); keys it does not know are left for
/// the caller, keys it knows and cannot read give an error naming the key (Error::field) and the value.
/// Starts from `base` (the defaults unless given).
Result<AggregatorSettings> aggregatorSettingsFromMap(const QVariantMap &values, AggregatorSettings base = {});
/// The inverse: every key of aggregatorSettingKeys() with the settings' value (meanFeatures excluded).
QVariantMap aggregatorSettingsToMap(const AggregatorSettings &settings);

/// Maps node scores (n × p, NaN = missing) to human scores per aspect (n × q, NaN = missing):
/// one AspectModel per aspect, fitted on the rows where that aspect's target is present.
/// Missing features are imputed with the training column mean, which the aggregator keeps and uses
/// again in predict() (so applying it needs no training data). Fitting is deterministic for a seed.
/// Owns its models; movable, not copyable. Not thread-safe.
class Aggregator
{
public:
    explicit Aggregator(AggregatorSettings settings = {});

    /// Fails when the shapes disagree, a feature has no value in the training rows, an aspect has
    /// fewer than 2 rows with a target, a mean mask names a column out of range, or the library fails.
    Result<void> fit(const Eigen::MatrixXd &x, const Eigen::MatrixXd &y, quint64 seed);
    bool isFitted() const { return !m_models.empty(); }
    int featureCount() const { return int(m_means.size()); }
    int aspectCount() const { return int(m_models.size()); }
    const AggregatorSettings &settings() const { return m_settings; }
    /// The training column means used for imputation (p).
    const Eigen::VectorXd &featureMeans() const { return m_means; }

    /// n × q predictions. Fails when not fitted or the column count differs from fit().
    Result<Eigen::MatrixXd> predict(const Eigen::MatrixXd &x) const;
    /// Per-item contributions for one aspect (base + Σ values = prediction; NaN features imputed).
    Result<Contributions> contributions(const Eigen::MatrixXd &x, int aspect) const;
    /// The model's own importance for one aspect: linear/ridge weights, tree gain per feature
    /// (0 where unused), mean 1/m on its columns; mlp has none (an error says to use permutation importance).
    Result<Eigen::VectorXd> featureImportance(int aspect) const;
    /// {"kind", "aspects": {aspect: model description}} for show-rubric. Names must match the shapes.
    QVariantMap describe(const QStringList &featureNames, const QStringList &aspectNames) const;

    /// The fitted aggregator as JSON ({"format": "rubric-aggregator", "version": 1, "settings",
    /// "feature_means", "aspects": [per-model JSON]}): enough to predict new items without the
    /// training data. fromJson() restores it; a malformed object gives an error naming the field.
    QJsonObject toJson() const;
    /// The same, holding aspect `aspect` alone (its model, its mean mask, the shared feature means):
    /// a one-output aggregator that predicts that aspect exactly as this one does. Empty when out of range.
    QJsonObject toJson(int aspect) const;
    static Result<Aggregator> fromJson(const QJsonObject &json);

private:
    Eigen::MatrixXd imputed(const Eigen::MatrixXd &x) const;

    AggregatorSettings m_settings;
    Eigen::VectorXd m_means;
    std::vector<std::unique_ptr<AspectModel>> m_models;
};

/// Pearson r over the rows where both values are present (NaN when fewer than 2 or constant).
double pearsonPresent(const Eigen::VectorXd &a, const Eigen::VectorXd &b);

} // namespace rubric::learn
