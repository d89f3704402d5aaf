#include "LinearModel.h"

#include "JsonArrays.h"

namespace rubric::learn {

Result<void> LinearModel::fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64)
{
    m_means = x.colwise().mean().transpose();
    const double yMean = y.mean();
    const Eigen::MatrixXd xc = x.rowwise() - m_means.transpose();
    const Eigen::VectorXd yc = y.array() - yMean;
    if (m_lambda > 0) {
        Eigen::MatrixXd gram = xc.transpose() * xc;
        gram.diagonal().array() += m_lambda;
        Eigen::LDLT<Eigen::MatrixXd> ldlt(gram);
        if (ldlt.info() != Eigen::Success)
            return makeError(QStringLiteral("ridge: the penalised normal equations could not be solved"));
        m_weights = ldlt.solve(xc.transpose() * yc);
    } else {
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(xc);
        m_weights = cod.solve(yc);
    }
    if (!m_weights.allFinite())
        return makeError(QStringLiteral("linear: the fit gave non-finite weights"));
    m_intercept = yMean - m_weights.dot(m_means);
    return {};
}

Result<Eigen::VectorXd> LinearModel::predict(const Eigen::MatrixXd &x) const
{
    return Eigen::VectorXd((x * m_weights).array() + m_intercept);
}

Result<Contributions> LinearModel::contributions(const Eigen::MatrixXd &x) const
{
    Contributions c;
    c.values = (x.rowwise() - m_means.transpose()).array().rowwise() * m_weights.transpose().array();
    c.base = Eigen::VectorXd::Constant(x.rows(), m_intercept + m_weights.dot(m_means));
    return c;
}

QVariantMap LinearModel::describe(const QStringList &features) const
{
    QVariantMap weights;
    for (int j = 0; j < m_weights.size(); ++j)
        weights.insert(features.value(j), m_weights[j]);
    return {{QStringLiteral("intercept"), m_intercept},
            {QStringLiteral("weights"), weights},
            {QStringLiteral("lambda"), m_lambda}};
}

Result<void> MeanModel::fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &, quint64)
{
    const int p = int(x.cols());
    m_weights = Eigen::VectorXd::Zero(p);
    QVector<int> cols = m_columns;
    if (cols.isEmpty())
        for (int j = 0; j < p; ++j)
            cols.append(j);
    for (int j : cols) {
        if (j < 0 || j >= p)
            return makeError(QStringLiteral("mean: column %1 is out of range (%2 features)").arg(j).arg(p));
        m_weights[j] += 1.0 / double(cols.size());
    }
    return {};
}

Result<Eigen::VectorXd> MeanModel::predict(const Eigen::MatrixXd &x) const
{
    return Eigen::VectorXd(x * m_weights);
}

Result<Contributions> MeanModel::contributions(const Eigen::MatrixXd &x) const
{
    Contributions c;
    c.values = x.array().rowwise() * m_weights.transpose().array();
    c.base = Eigen::VectorXd::Zero(x.rows());
    return c;
}

QVariantMap MeanModel::describe(const QStringList &features) const
{
    QVariantMap weights;
    for (int j = 0; j < m_weights.size(); ++j)
        if (m_weights[j] != 0)
            weights.insert(features.value(j), m_weights[j]);
    return {{QStringLiteral("intercept"), 0.0}, {QStringLiteral("weights"), weights}};
}

} // namespace rubric::learn

namespace rubric::learn {

QJsonObject LinearModel::toJson() const
{
    return {{QStringLiteral("lambda"), m_lambda},
            {QStringLiteral("intercept"), m_intercept},
            {QStringLiteral("weights"), toJsonArray(m_weights)},
            {QStringLiteral("means"), toJsonArray(m_means)}};
}

Result<void> LinearModel::fromJson(const QJsonObject &json)
{
    auto intercept = numberFromJson(json, QStringLiteral("intercept"));
    auto weights = vectorFromJson(json, QStringLiteral("weights"));
    if (!intercept)
        return intercept.error();
    if (!weights)
        return weights.error();
    auto means = vectorFromJson(json, QStringLiteral("means"), weights->size());
    if (!means)
        return means.error();
    m_intercept = *intercept;
    m_weights = *weights;
    m_means = *means;
    return {};
}

QJsonObject MeanModel::toJson() const
{
    return {{QStringLiteral("weights"), toJsonArray(m_weights)}};
}

Result<void> MeanModel::fromJson(const QJsonObject &json)
{
    auto weights = vectorFromJson(json, QStringLiteral("weights"));
    if (!weights)
        return weights.error();
    m_weights = *weights;
    return {};
}

} // namespace rubric::learn
