#include "XgbModel.h"

#include <cmath>
#include <limits>
#include <omp.h>
#include <vector>
#include <xgboost/c_api.h>

namespace rubric::learn {
namespace {

Error xgbError(const QString &what)
{
    return makeError(QStringLiteral("xgboost: %1: %2").arg(what, QString::fromUtf8(XGBGetLastError())));
}

/// A DMatrix from a dense Eigen matrix (row-major floats), freed on scope exit.
struct Matrix
{
    DMatrixHandle handle = nullptr;
    ~Matrix()
    {
        if (handle)
            XGDMatrixFree(handle);
    }
    int create(const Eigen::MatrixXd &x)
    {
        std::vector<float> data(size_t(x.rows() * x.cols()));
        for (Eigen::Index i = 0; i < x.rows(); ++i)
            for (Eigen::Index j = 0; j < x.cols(); ++j)
                data[size_t(i * x.cols() + j)] = float(x(i, j));
        return XGDMatrixCreateFromMat(data.data(), bst_ulong(x.rows()), bst_ulong(x.cols()),
                                      std::numeric_limits<float>::quiet_NaN(), &handle);
    }
};

} // namespace

XgbModel::XgbModel(QList<QPair<QByteArray, QByteArray>> params, int rounds, QString kind)
    : m_params(std::move(params))
    , m_rounds(rounds)
    , m_kind(std::move(kind))
{
}

XgbModel::~XgbModel()
{
    if (m_booster)
        XGBoosterFree(m_booster);
}

Result<void> XgbModel::fit(const Eigen::MatrixXd &x, const Eigen::VectorXd &y, quint64 seed)
{
    if (m_booster) {
        XGBoosterFree(m_booster);
        m_booster = nullptr;
    }
    m_features = int(x.cols());
    Matrix d;
    if (d.create(x) != 0)
        return xgbError(QStringLiteral("creating the training matrix"));
    std::vector<float> labels(size_t(y.size()));
    for (Eigen::Index i = 0; i < y.size(); ++i)
        labels[size_t(i)] = float(y[i]);
    if (XGDMatrixSetFloatInfo(d.handle, "label", labels.data(), bst_ulong(labels.size())) != 0)
        return xgbError(QStringLiteral("setting the labels"));
    if (XGBoosterCreate(&d.handle, 1, &m_booster) != 0)
        return xgbError(QStringLiteral("creating the booster"));
    QList<QPair<QByteArray, QByteArray>> params = m_params;
    params.emplaceBack("booster", "gbtree");
    params.emplaceBack("objective", "reg:squarederror");
    params.emplaceBack("tree_method", "exact");
    params.emplaceBack("nthread", "1");
    params.emplaceBack("verbosity", "0");
    // xgboost's seed parameter is an int; fold larger seeds into its range deterministically.
    params.emplaceBack("seed", QByteArray::number(qint64(seed % 2147483647ULL)));
    params.emplaceBack("base_score", QByteArray::number(y.mean(), 'g', 17));
    for (const auto &[name, value] : params)
        if (XGBoosterSetParam(m_booster, name.constData(), value.constData()) != 0)
            return xgbError(QStringLiteral("setting %1 = %2").arg(QString::fromUtf8(name), QString::fromUtf8(value)));
    for (int i = 0; i < m_rounds; ++i)
        if (XGBoosterUpdateOneIter(m_booster, i, d.handle) != 0)
            return xgbError(QStringLiteral("boosting round %1").arg(i + 1));
    return {};
}

Result<Eigen::MatrixXd> XgbModel::predictType(const Eigen::MatrixXd &x, int type, int columns) const
{
    if (!m_booster)
        return makeError(QStringLiteral("%1: the model is not fitted").arg(m_kind));
    Matrix d;
    if (d.create(x) != 0)
        return xgbError(QStringLiteral("creating the prediction matrix"));
    const QByteArray config
            = QByteArrayLiteral("{\"type\": ") + QByteArray::number(type)
              + QByteArrayLiteral(", \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, "
                                  "\"strict_shape\": false}");
    const bst_ulong *shape = nullptr;
    bst_ulong dim = 0;
    const float *result = nullptr;
    if (XGBoosterPredictFromDMatrix(m_booster, d.handle, config.constData(), &shape, &dim, &result) != 0)
        return xgbError(QStringLiteral("predicting"));
    bst_ulong total = 1;
    for (bst_ulong k = 0; k < dim; ++k)
        total *= shape[k];
    if (total != bst_ulong(x.rows()) * bst_ulong(columns))
        return makeError(QStringLiteral("xgboost: prediction of type %1 has %2 values, expected %3")
                                 .arg(type)
                                 .arg(total)
                                 .arg(x.rows() * columns));
    Eigen::MatrixXd out(x.rows(), columns);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        for (int j = 0; j < columns; ++j)
            out(i, j) = double(result[size_t(i * columns + j)]);
    return out;
}

Result<Eigen::VectorXd> XgbModel::predict(const Eigen::MatrixXd &x) const
{
    auto r = predictType(x, 0, 1);
    if (!r)
        return r.error();
    return Eigen::VectorXd(r->col(0));
}

Result<Contributions> XgbModel::contributions(const Eigen::MatrixXd &x) const
{
    auto r = predictType(x, 2, m_features + 1);
    if (!r)
        return r.error();
    Contributions c;
    c.values = r->leftCols(m_features);
    c.base = r->col(m_features);
    return c;
}

Result<Eigen::VectorXd> XgbModel::featureImportance() const
{
    if (!m_booster)
        return makeError(QStringLiteral("%1: the model is not fitted").arg(m_kind));
    bst_ulong nFeatures = 0, dim = 0;
    const char **names = nullptr;
    const bst_ulong *shape = nullptr;
    const float *scores = nullptr;
    if (XGBoosterFeatureScore(m_booster, "{\"importance_type\": \"gain\"}", &nFeatures, &names, &dim, &shape, &scores)
        != 0)
        return xgbError(QStringLiteral("feature importance"));
    Eigen::VectorXd gain = Eigen::VectorXd::Zero(m_features);
    for (bst_ulong k = 0; k < nFeatures; ++k) {
        // Without feature names xgboost calls column j "f<j>".
        const QString name = QString::fromUtf8(names[k]);
        bool ok = false;
        const int j = name.mid(1).toInt(&ok);
        if (!name.startsWith(QLatin1Char('f')) || !ok || j < 0 || j >= m_features)
            return makeError(QStringLiteral("xgboost: unexpected feature name '%1' in the importance").arg(name));
        gain[j] = double(scores[k]);
    }
    return gain;
}

QVariantMap XgbModel::describe(const QStringList &features) const
{
    QVariantMap gain;
    const auto g = featureImportance();
    if (!g)
        return {{QStringLiteral("error"), g.errorString()}};
    for (int j = 0; j < g->size(); ++j)
        if ((*g)[j] > 0)
            gain.insert(features.value(j), (*g)[j]);
    QVariantMap params;
    for (const auto &[name, value] : m_params)
        params.insert(QString::fromUtf8(name), QString::fromUtf8(value));
    params.insert(QStringLiteral("rounds"), m_rounds);
    return {{QStringLiteral("gain"), gain}, {QStringLiteral("params"), params}};
}

} // namespace rubric::learn

namespace rubric::learn {

QJsonObject XgbModel::toJson() const
{
    // xgboost's own JSON model format, kept as text: it is xgboost's to read back.
    bst_ulong length = 0;
    const char *data = nullptr;
    QJsonObject out{{QStringLiteral("features"), m_features}};
    if (!m_booster || XGBoosterSaveModelToBuffer(m_booster, "{\"format\": \"json\"}", &length, &data) != 0)
        out.insert(QStringLiteral("error"),
                   m_booster ? QString::fromUtf8(XGBGetLastError()) : QStringLiteral("not fitted"));
    else
        out.insert(QStringLiteral("xgboost"), QString::fromUtf8(data, qsizetype(length)));
    return out;
}

Result<void> XgbModel::fromJson(const QJsonObject &json)
{
    if (json.contains(QStringLiteral("error")))
        return makeError(
                QStringLiteral("the saved model has no trees: %1").arg(json.value(QStringLiteral("error")).toString()),
                {}, 0, QStringLiteral("xgboost"));
    const QByteArray model = json.value(QStringLiteral("xgboost")).toString().toUtf8();
    const int features = json.value(QStringLiteral("features")).toInt(-1);
    if (model.isEmpty() || features < 1)
        return makeError(QStringLiteral("missing xgboost model or feature count"), {}, 0, QStringLiteral("xgboost"));
    if (m_booster)
        XGBoosterFree(m_booster);
    m_booster = nullptr;
    if (XGBoosterCreate(nullptr, 0, &m_booster) != 0)
        return xgbError(QStringLiteral("creating the booster"));
    // Loading reads the trees in an OpenMP loop before the booster's own "nthread" applies; its width
    // is this thread's OpenMP setting, by default one thread per core. One is enough (a model is a few
    // trees, and our callers already run boosters in parallel); the extra threads' hand-offs happen in
    // libgomp, where ThreadSanitizer cannot see them.
    omp_set_num_threads(1);
    if (XGBoosterLoadModelFromBuffer(m_booster, model.constData(), bst_ulong(model.size())) != 0)
        return xgbError(QStringLiteral("loading the saved model"));
    XGBoosterSetParam(m_booster, "nthread", "1");
    m_features = features;
    return {};
}

} // namespace rubric::learn
