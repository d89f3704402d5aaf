#pragma once

#include "AspectModel.h"

namespace rubric::learn {

/// The paper's HD-EVAL-NN as a small network written with Eigen: inputs standardised on the
/// training mean and sd (sd 0 → 1), one hidden layer of `hidden` ReLU units, one linear output
/// predicting the standardised target. Weights start Glorot-uniform from the seeded generator
/// (raw 53-bit draws, so a seed gives the same network on every standard library), biases 0.
/// Training: full batch, Adam (β1 0.9, β2 0.999, ε 1e-8) on ½·mean squared error + ½·decay·‖W‖²
/// for `epochs` epochs (a fixed count; no early stop on held-out data, which n≈30 cannot spare).
/// Units: scikit-learn's MLPRegressor minimises ½·mean err² + alpha/(2n)·‖W‖², so decay = alpha / n
/// (sklearn's alpha = decay × n: the default 0.1 at n = 30 is alpha 3; tests/learn/model_reference.json).
/// Contributions: the DeepLIFT rescale rule against the training means as reference, exact for one
/// hidden layer: base = the prediction at the training means, and per hidden unit the change of
/// its activation is shared among the inputs in proportion to their change of its pre-activation,
/// so base + Σ contributions = prediction. No built-in feature importance (permutation importance).
class MlpModel : public AspectModel
{
public:
    /// The objective and its gradient at given weights (standardised inputs n × p and target n).
    struct Gradient
    {
        double dataLoss = 0; ///< ½·mean squared error
        double loss = 0;     ///< dataLoss + ½·decay·(‖W1‖² + ‖w2‖²)
        Eigen::MatrixXd w1;  ///< hidden × p
        Eigen::VectorXd b1, w2;
        double b2 = 0;
    };
    static Gradient lossAndGradient(const Eigen::MatrixXd &xs, const Eigen::VectorXd &ys, const Eigen::MatrixXd &w1,
                                    const Eigen::VectorXd &b1, const Eigen::VectorXd &w2, double b2, double decay);

    MlpModel(int hidden, int epochs, double learningRate, double weightDecay);
    Result<void> fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64 seed) override;
    Result<Eigen::VectorXd> predict(const Eigen::MatrixXd &x) const override;
    Result<Contributions> contributions(const Eigen::MatrixXd &x) const override;
    Result<Eigen::VectorXd> featureImportance() const override;
    QVariantMap describe(const QStringList &features) const override;
    QJsonObject toJson() const override;
    Result<void> fromJson(const QJsonObject &json) override;

private:
    Eigen::MatrixXd standardise(const Eigen::MatrixXd &x) const;

    int m_hidden;
    int m_epochs;
    double m_rate;
    double m_decay;
    Eigen::RowVectorXd m_xMean, m_xSd;
    double m_yMean = 0, m_ySd = 1;
    Eigen::MatrixXd m_w1; ///< hidden × p
    Eigen::VectorXd m_b1; ///< hidden
    Eigen::VectorXd m_w2; ///< hidden
    double m_b2 = 0;
    double m_finalLoss = 0;
};

} // namespace rubric::learn
