#pragma once

#include "AspectModel.h"

#include <QVector>

namespace rubric::learn {

/// score = intercept + Σ w·x, fitted by least squares (λ = 0) or ridge (λ > 0).
/// Both centre x and y on the training means and solve for w on the centred data, then set
/// intercept = ȳ − w·x̄, so the intercept is never penalised (sklearn's LinearRegression and Ridge
/// conventions). Least squares uses Eigen's complete orthogonal decomposition, which gives the
/// minimum-norm w when the centred design is rank deficient (more nodes than items, duplicated or
/// constant nodes), as numpy's lstsq does. Ridge solves (XcᵀXc + λI) w = Xcᵀyc by Cholesky (LDLᵀ);
/// features are not standardised, so w is in node-score units already.
/// Contributions: w_j·(x_j − x̄_j) with base = intercept + w·x̄ (the prediction at the training means).
class LinearModel : public AspectModel
{
public:
    explicit LinearModel(double lambda)
        : m_lambda(lambda)
    {
    }
    Result<void> fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64 seed) override;
    Result<Eigen::VectorXd> predict(const Eigen::MatrixXd &x) const override;
    Result<Contributions> contributions(const Eigen::MatrixXd &x) const override;
    Result<Eigen::VectorXd> featureImportance() const override { return m_weights; }
    QVariantMap describe(const QStringList &features) const override;
    QJsonObject toJson() const override;
    Result<void> fromJson(const QJsonObject &json) override;

    double intercept() const { return m_intercept; }
    const Eigen::VectorXd &weights() const { return m_weights; }

private:
    double m_lambda = 0;
    double m_intercept = 0;
    Eigen::VectorXd m_weights;
    Eigen::VectorXd m_means;
};

/// The paper's "w/o aggregator": the plain mean of the chosen columns, nothing learned from the
/// targets (so its scale is the node scale). Described as intercept 0 and weight 1/m per column.
/// Contributions: x_j / m for each chosen column, base 0.
class MeanModel : public AspectModel
{
public:
    explicit MeanModel(QVector<int> columns)
        : m_columns(std::move(columns))
    {
    }
    Result<void> fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64 seed) override;
    Result<Eigen::VectorXd> predict(const Eigen::MatrixXd &x) const override;
    Result<Contributions> contributions(const Eigen::MatrixXd &x) const override;
    Result<Eigen::VectorXd> featureImportance() const override { return m_weights; }
    QVariantMap describe(const QStringList &features) const override;
    QJsonObject toJson() const override;
    Result<void> fromJson(const QJsonObject &json) override;

private:
    QVector<int> m_columns; ///< empty = all
    Eigen::VectorXd m_weights;
};

} // namespace rubric::learn
