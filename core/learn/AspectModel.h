#pragma once

#include "util/Result.h"

#include <QJsonObject>
#include <QStringList>
#include <QVariantMap>
#include <QtGlobal>

#include <Eigen/Dense>

namespace rubric::learn {

/// Per-item additive explanation of one aspect's prediction: for every item i,
/// base(i) + Σ_j values(i, j) equals the prediction for item i.
struct Contributions
{
    Eigen::MatrixXd values; ///< n × p, one column per feature
    Eigen::VectorXd base;   ///< n; the part no feature accounts for
};

/// One aspect's fitted regressor, the unit an Aggregator holds per aspect. It only ever sees
/// complete data: the Aggregator drops rows whose target is missing and imputes missing features
/// before calling it. Not thread-safe while fitting; const members may be called from one thread
/// at a time (xgboost's prediction buffers are per booster).
class AspectModel
{
public:
    virtual ~AspectModel() = default;
    /// Fits on n × p features and n targets (no NaN). Fails with a message on a library error.
    virtual Result<void> fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64 seed) = 0;
    virtual Result<Eigen::VectorXd> predict(const Eigen::MatrixXd &x) const = 0;
    /// Additive contributions that sum with the base to predict(x) (see each model for the method).
    virtual Result<Contributions> contributions(const Eigen::MatrixXd &x) const = 0;
    /// The model's own per-feature importance (weights, gain, share); an error where it has none.
    virtual Result<Eigen::VectorXd> featureImportance() const = 0;
    /// JSON-able description (linear forms: "intercept" and "weights" keyed by feature name).
    virtual QVariantMap describe(const QStringList &features) const = 0;
    /// Everything predict() needs, as JSON; fromJson() on a model built with the same settings
    /// restores it (predictions bit for bit). fromJson() fails with a message on a malformed object.
    virtual QJsonObject toJson() const = 0;
    virtual Result<void> fromJson(const QJsonObject &json) = 0;
};

} // namespace rubric::learn
