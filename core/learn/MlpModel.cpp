#include "MlpModel.h"

#include "JsonArrays.h"
#include "util/Shuffle.h"

#include <cmath>

namespace rubric::learn {
namespace {

double uniform01(SeededRng &rng)
{
    return double(rng() >> 11) * (1.0 / 9007199254740992.0);
}

/// Adam state for one parameter block.
struct Adam
{
    Eigen::ArrayXXd m, v;
    void init(Eigen::Index r, Eigen::Index c)
    {
        m = Eigen::ArrayXXd::Zero(r, c);
        v = Eigen::ArrayXXd::Zero(r, c);
    }
    template <typename P, typename G> void step(P &param, const G &grad, double rate, int t)
    {
        constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
        m = b1 * m + (1 - b1) * grad.array();
        v = b2 * v + (1 - b2) * grad.array().square();
        const double c1 = 1 - std::pow(b1, t), c2 = 1 - std::pow(b2, t);
        param.array() -= rate * (m / c1) / ((v / c2).sqrt() + eps);
    }
};

} // namespace

MlpModel::MlpModel(int hidden, int epochs, double learningRate, double weightDecay)
    : m_hidden(hidden)
    , m_epochs(epochs)
    , m_rate(learningRate)
    , m_decay(weightDecay)
{
}

Eigen::MatrixXd MlpModel::standardise(const Eigen::MatrixXd &x) const
{
    return (x.rowwise() - m_xMean).array().rowwise() / m_xSd.array();
}

MlpModel::Gradient MlpModel::lossAndGradient(const Eigen::MatrixXd &xs, const Eigen::VectorXd &ys,
                                             const Eigen::MatrixXd &w1, const Eigen::VectorXd &b1,
                                             const Eigen::VectorXd &w2, double b2, double decay)
{
    const double n = double(xs.rows());
    const Eigen::MatrixXd z = (xs * w1.transpose()).rowwise() + b1.transpose(); // n × h
    const Eigen::MatrixXd a = z.cwiseMax(0.0);
    const Eigen::VectorXd out = (a * w2).array() + b2;
    const Eigen::VectorXd err = out - ys; // d(½·mean err²)/d out = err / n
    Gradient g;
    g.dataLoss = 0.5 * err.squaredNorm() / n;
    g.loss = g.dataLoss + 0.5 * decay * (w1.squaredNorm() + w2.squaredNorm());
    const Eigen::VectorXd dOut = err / n;
    g.w2 = a.transpose() * dOut + decay * w2;
    g.b2 = dOut.sum();
    const Eigen::MatrixXd dz = (dOut * w2.transpose()).array() * (z.array() > 0).cast<double>();
    g.w1 = dz.transpose() * xs + decay * w1;
    g.b1 = dz.colwise().sum().transpose();
    return g;
}

Result<void> MlpModel::fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64 seed)
{
    if (m_hidden < 1 || m_epochs < 1 || !(m_rate > 0) || m_decay < 0)
        return makeError(QStringLiteral("mlp: hidden and epochs must be ≥ 1, the learning rate > 0, the decay ≥ 0"));
    const Eigen::Index n = x.rows(), p = x.cols();
    m_xMean = x.colwise().mean();
    m_xSd = ((x.rowwise() - m_xMean).array().square().colwise().sum() / double(n)).sqrt();
    for (Eigen::Index j = 0; j < p; ++j)
        if (!(m_xSd[j] > 1e-12))
            m_xSd[j] = 1;
    m_yMean = y.mean();
    m_ySd = std::sqrt((y.array() - m_yMean).square().sum() / double(n));
    if (!(m_ySd > 1e-12))
        m_ySd = 1;
    const Eigen::MatrixXd xs = standardise(x);
    const Eigen::VectorXd ys = (y.array() - m_yMean) / m_ySd;

    SeededRng rng(seed);
    const double l1 = std::sqrt(6.0 / double(p + m_hidden)), l2 = std::sqrt(6.0 / double(m_hidden + 1));
    m_w1.resize(m_hidden, p);
    for (Eigen::Index h = 0; h < m_hidden; ++h)
        for (Eigen::Index j = 0; j < p; ++j)
            m_w1(h, j) = (2 * uniform01(rng) - 1) * l1;
    m_w2.resize(m_hidden);
    for (Eigen::Index h = 0; h < m_hidden; ++h)
        m_w2[h] = (2 * uniform01(rng) - 1) * l2;
    m_b1 = Eigen::VectorXd::Zero(m_hidden);
    m_b2 = 0;

    Adam aw1, ab1, aw2, ab2;
    aw1.init(m_hidden, p);
    ab1.init(m_hidden, 1);
    aw2.init(m_hidden, 1);
    ab2.init(1, 1);
    Eigen::Matrix<double, 1, 1> b2;
    for (int epoch = 1; epoch <= m_epochs; ++epoch) {
        const Gradient g = lossAndGradient(xs, ys, m_w1, m_b1, m_w2, m_b2, m_decay);
        m_finalLoss = g.dataLoss;
        aw1.step(m_w1, g.w1, m_rate, epoch);
        ab1.step(m_b1, g.b1, m_rate, epoch);
        aw2.step(m_w2, g.w2, m_rate, epoch);
        b2(0, 0) = m_b2;
        ab2.step(b2, Eigen::Matrix<double, 1, 1>::Constant(g.b2), m_rate, epoch);
        m_b2 = b2(0, 0);
    }
    if (!m_w1.allFinite() || !m_w2.allFinite() || !std::isfinite(m_b2))
        return makeError(QStringLiteral("mlp: training diverged (non-finite weights); lower the learning rate"));
    return {};
}

Result<Eigen::VectorXd> MlpModel::predict(const Eigen::MatrixXd &x) const
{
    const Eigen::MatrixXd a = ((standardise(x) * m_w1.transpose()).rowwise() + m_b1.transpose()).cwiseMax(0.0);
    return Eigen::VectorXd(((a * m_w2).array() + m_b2) * m_ySd + m_yMean);
}

Result<Contributions> MlpModel::contributions(const Eigen::MatrixXd &x) const
{
    const Eigen::MatrixXd xs = standardise(x); // the reference (training means) is 0 here
    const Eigen::MatrixXd z = (xs * m_w1.transpose()).rowwise() + m_b1.transpose();
    const Eigen::ArrayXd a0 = m_b1.array().max(0.0);
    Contributions c;
    c.values.resize(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        // multiplier per hidden unit: Δactivation / Δpre-activation (0 when the unit did not move)
        Eigen::VectorXd mult(m_hidden);
        for (Eigen::Index h = 0; h < m_hidden; ++h) {
            const double dz = z(i, h) - m_b1[h];
            mult[h] = std::abs(dz) > 1e-15 ? (std::max(z(i, h), 0.0) - a0[h]) / dz : 0.0;
        }
        const Eigen::VectorXd perInput = m_w1.transpose() * (m_w2.array() * mult.array()).matrix();
        c.values.row(i) = (perInput.array() * xs.row(i).transpose().array()).transpose() * m_ySd;
    }
    c.base = Eigen::VectorXd::Constant(x.rows(), ((a0.matrix().dot(m_w2)) + m_b2) * m_ySd + m_yMean);
    return c;
}

Result<Eigen::VectorXd> MlpModel::featureImportance() const
{
    return makeError(QStringLiteral("mlp: the network has no built-in feature importance; use permutation "
                                    "importance or the per-item contributions"));
}

QVariantMap MlpModel::describe(const QStringList &) const
{
    return {{QStringLiteral("architecture"),
             QStringLiteral("standardised inputs → %1 ReLU → 1 linear (standardised target)").arg(m_hidden)},
            {QStringLiteral("epochs"), m_epochs},
            {QStringLiteral("learning_rate"), m_rate},
            {QStringLiteral("weight_decay"), m_decay},
            {QStringLiteral("final_train_loss"), m_finalLoss}};
}

} // namespace rubric::learn

namespace rubric::learn {

QJsonObject MlpModel::toJson() const
{
    return {{QStringLiteral("hidden"), m_hidden},
            {QStringLiteral("x_mean"), toJsonArray(Eigen::VectorXd(m_xMean.transpose()))},
            {QStringLiteral("x_sd"), toJsonArray(Eigen::VectorXd(m_xSd.transpose()))},
            {QStringLiteral("y_mean"), m_yMean},
            {QStringLiteral("y_sd"), m_ySd},
            {QStringLiteral("w1"), toJsonArray(m_w1)},
            {QStringLiteral("b1"), toJsonArray(m_b1)},
            {QStringLiteral("w2"), toJsonArray(m_w2)},
            {QStringLiteral("b2"), m_b2}};
}

Result<void> MlpModel::fromJson(const QJsonObject &json)
{
    auto xMean = vectorFromJson(json, QStringLiteral("x_mean"));
    if (!xMean)
        return xMean.error();
    const Eigen::Index p = xMean->size();
    auto xSd = vectorFromJson(json, QStringLiteral("x_sd"), p);
    auto b1 = vectorFromJson(json, QStringLiteral("b1"), m_hidden);
    auto w2 = vectorFromJson(json, QStringLiteral("w2"), m_hidden);
    auto w1 = matrixFromJson(json, QStringLiteral("w1"), m_hidden, p);
    auto yMean = numberFromJson(json, QStringLiteral("y_mean"));
    auto ySd = numberFromJson(json, QStringLiteral("y_sd"));
    auto b2 = numberFromJson(json, QStringLiteral("b2"));
    for (const Error *e : {xSd ? nullptr : &xSd.error(), b1 ? nullptr : &b1.error(), w2 ? nullptr : &w2.error(),
                           w1 ? nullptr : &w1.error(), yMean ? nullptr : &yMean.error(), ySd ? nullptr : &ySd.error(),
                           b2 ? nullptr : &b2.error()})
        if (e)
            return *e;
    m_xMean = xMean->transpose();
    m_xSd = xSd->transpose();
    m_yMean = *yMean;
    m_ySd = *ySd;
    m_w1 = *w1;
    m_b1 = *b1;
    m_w2 = *w2;
    m_b2 = *b2;
    return {};
}

} // namespace rubric::learn
