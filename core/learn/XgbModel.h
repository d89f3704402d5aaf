#pragma once

#include "AspectModel.h"

#include <QByteArray>
#include <QList>
#include <QPair>

namespace rubric::learn {

/// Tree ensembles from libxgboost (booster gbtree, objective reg:squarederror, tree_method exact,
/// nthread 1, seed = the fit seed, base_score = the training mean of y): deterministic for a seed.
/// The three kinds differ only in their parameters (see Aggregator.h for the defaults):
///  - tree:    one round, one tree, eta 1, lambda 0 (leaves are plain means), depth settable;
///  - forest:  one round of num_parallel_tree trees, eta 1, lambda 0, row subsample and
///             per-split column sampling < 1 (xgboost averages the parallel trees);
///  - boosted: the usual rounds with eta and lambda.
/// Contributions are xgboost's exact TreeSHAP (prediction type "contribs"); the base is its bias
/// column. featureImportance() is xgboost's average gain per feature (0 for unused features).
/// Owns its booster handle.
class XgbModel : public AspectModel
{
public:
    /// params: xgboost parameter names and values; rounds: boosting rounds.
    XgbModel(QList<QPair<QByteArray, QByteArray>> params, int rounds, QString kind);
    ~XgbModel() override;
    XgbModel(const XgbModel &) = delete;
    XgbModel &operator=(const XgbModel &) = delete;

    Result<void> fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64 seed) override;
    Result<Eigen::VectorXd> predict(const Eigen::MatrixXd &x) const override;
    Result<Contributions> contributions(const Eigen::MatrixXd &x) const override;
    Result<Eigen::VectorXd> featureImportance() const override;
    QVariantMap describe(const QStringList &features) const override;
    QJsonObject toJson() const override;
    Result<void> fromJson(const QJsonObject &json) override;

private:
    Result<Eigen::MatrixXd> predictType(const Eigen::MatrixXd &x, int type, int columns) const;

    QList<QPair<QByteArray, QByteArray>> m_params;
    int m_rounds = 1;
    QString m_kind;
    int m_features = 0;
    void *m_booster = nullptr;
};

} // namespace rubric::learn
