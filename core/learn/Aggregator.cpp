#include "Aggregator.h"

#include "JsonArrays.h"
#include "LinearModel.h"
#include "MlpModel.h"
#include "XgbModel.h"
#include "stats/Correlation.h"

#include <cmath>

namespace rubric::learn {
namespace {

struct KindName
{
    AggregatorKind kind;
    const char *name;
};
constexpr KindName kKinds[] = {
        {AggregatorKind::Mean, "mean"}, {AggregatorKind::Linear, "linear"}, {AggregatorKind::Ridge, "ridge"},
        {AggregatorKind::Tree, "tree"}, {AggregatorKind::Forest, "forest"}, {AggregatorKind::Boosted, "boosted"},
        {AggregatorKind::Mlp, "mlp"},
};

QByteArray num(double v)
{
    return QByteArray::number(v, 'g', 17);
}

Result<std::unique_ptr<AspectModel>> makeModel(const AggregatorSettings &s, int aspect)
{
    using P = QList<QPair<QByteArray, QByteArray>>;
    switch (s.kind) {
    case AggregatorKind::Mean:
        return std::unique_ptr<AspectModel>(std::make_unique<MeanModel>(s.meanFeatures.value(aspect)));
    case AggregatorKind::Linear:
        return std::unique_ptr<AspectModel>(std::make_unique<LinearModel>(0.0));
    case AggregatorKind::Ridge:
        if (!(s.ridgeLambda > 0))
            return makeError(QStringLiteral("ridge: lambda must be > 0 (it is %1)").arg(s.ridgeLambda));
        return std::unique_ptr<AspectModel>(std::make_unique<LinearModel>(s.ridgeLambda));
    case AggregatorKind::Tree:
        if (s.treeDepth < 1)
            return makeError(QStringLiteral("tree: depth must be ≥ 1"));
        return std::unique_ptr<AspectModel>(std::make_unique<XgbModel>(
                P{{"eta", "1"}, {"lambda", "0"}, {"max_depth", QByteArray::number(s.treeDepth)}}, 1,
                QStringLiteral("tree")));
    case AggregatorKind::Forest:
        if (s.forestTrees < 1 || s.forestDepth < 1 || !(s.forestSubsample > 0 && s.forestSubsample <= 1)
            || !(s.forestColsample > 0 && s.forestColsample <= 1))
            return makeError(QStringLiteral("forest: trees and depth must be ≥ 1, subsample and colsample in (0, 1]"));
        return std::unique_ptr<AspectModel>(
                std::make_unique<XgbModel>(P{{"eta", "1"},
                                             {"lambda", "0"},
                                             {"max_depth", QByteArray::number(s.forestDepth)},
                                             {"num_parallel_tree", QByteArray::number(s.forestTrees)},
                                             {"subsample", num(s.forestSubsample)},
                                             {"colsample_bynode", num(s.forestColsample)}},
                                           1, QStringLiteral("forest")));
    case AggregatorKind::Boosted:
        if (s.boostRounds < 1 || s.boostDepth < 1 || !(s.boostEta > 0) || s.boostLambda < 0)
            return makeError(QStringLiteral("boosted: rounds and depth must be ≥ 1, eta > 0, lambda ≥ 0"));
        return std::unique_ptr<AspectModel>(
                std::make_unique<XgbModel>(P{{"eta", num(s.boostEta)},
                                             {"lambda", num(s.boostLambda)},
                                             {"max_depth", QByteArray::number(s.boostDepth)}},
                                           s.boostRounds, QStringLiteral("boosted")));
    case AggregatorKind::Mlp:
        return std::unique_ptr<AspectModel>(
                std::make_unique<MlpModel>(s.mlpHidden, s.mlpEpochs, s.mlpLearningRate, s.mlpWeightDecay));
    }
    return makeError(QStringLiteral("unknown aggregator kind"));
}

} // namespace

QString aggregatorKindName(AggregatorKind kind)
{
    for (const auto &k : kKinds)
        if (k.kind == kind)
            return QString::fromLatin1(k.name);
    return {};
}

Result<AggregatorKind> parseAggregatorKind(const QString &name)
{
    for (const auto &k : kKinds)
        if (name == QLatin1String(k.name))
            return k.kind;
    return makeError(QStringLiteral("unknown aggregator '%1' (choose one of %2)")
                             .arg(name, aggregatorKindNames().join(QStringLiteral(", "))),
                     {}, 0, QStringLiteral("aggregator"));
}

QStringList aggregatorKindNames()
{
    QStringList out;
    for (const auto &k : kKinds)
        out.append(QString::fromLatin1(k.name));
    return out;
}

double pearsonPresent(const Eigen::VectorXd &a, const Eigen::VectorXd &b)
{
    std::vector<double> x, y;
    for (Eigen::Index i = 0; i < std::min(a.size(), b.size()); ++i)
        if (!std::isnan(a[i]) && !std::isnan(b[i])) {
            x.push_back(a[i]);
            y.push_back(b[i]);
        }
    return stats::pearson(x, y);
}

Aggregator::Aggregator(AggregatorSettings settings)
    : m_settings(std::move(settings))
{
}

Result<void> Aggregator::fit(const Eigen::MatrixXd &x, const Eigen::MatrixXd &y, quint64 seed)
{
    m_models.clear();
    m_means.resize(0);
    if (x.rows() != y.rows())
        return makeError(
                QStringLiteral("the node scores have %1 rows but the human scores %2").arg(x.rows()).arg(y.rows()));
    if (x.cols() < 1 || y.cols() < 1)
        return makeError(QStringLiteral("an aggregator needs at least one node and one aspect"));
    Eigen::VectorXd means(x.cols());
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        double sum = 0;
        int count = 0;
        for (Eigen::Index i = 0; i < x.rows(); ++i)
            if (!std::isnan(x(i, j))) {
                sum += x(i, j);
                ++count;
            }
        if (count == 0)
            return makeError(QStringLiteral("node column %1 has no score in the training items").arg(j), {}, 0,
                             QStringLiteral("column %1").arg(j));
        means[j] = sum / count;
    }
    m_means = means;
    const Eigen::MatrixXd full = imputed(x);
    std::vector<std::unique_ptr<AspectModel>> models;
    for (Eigen::Index a = 0; a < y.cols(); ++a) {
        std::vector<Eigen::Index> rows;
        for (Eigen::Index i = 0; i < y.rows(); ++i)
            if (!std::isnan(y(i, a)))
                rows.push_back(i);
        if (rows.size() < 2) {
            m_means.resize(0);
            return makeError(QStringLiteral("aspect %1 has %2 item(s) with a human score; at least 2 are needed")
                                     .arg(a)
                                     .arg(rows.size()));
        }
        Eigen::MatrixXd xa(Eigen::Index(rows.size()), x.cols());
        Eigen::VectorXd ya(Eigen::Index(rows.size()));
        for (size_t r = 0; r < rows.size(); ++r) {
            xa.row(Eigen::Index(r)) = full.row(rows[r]);
            ya[Eigen::Index(r)] = y(rows[r], a);
        }
        auto model = makeModel(m_settings, int(a));
        if (!model) {
            m_means.resize(0);
            return model.error();
        }
        if (auto ok = (*model)->fit(xa, ya, seed); !ok) {
            m_means.resize(0);
            return makeError(QStringLiteral("aspect %1: %2").arg(a).arg(ok.errorString()));
        }
        models.push_back(std::move(*model));
    }
    m_models = std::move(models);
    return {};
}

Eigen::MatrixXd Aggregator::imputed(const Eigen::MatrixXd &x) const
{
    Eigen::MatrixXd out = x;
    for (Eigen::Index i = 0; i < out.rows(); ++i)
        for (Eigen::Index j = 0; j < out.cols(); ++j)
            if (std::isnan(out(i, j)))
                out(i, j) = m_means[j];
    return out;
}

Result<Eigen::MatrixXd> Aggregator::predict(const Eigen::MatrixXd &x) const
{
    if (!isFitted())
        return makeError(QStringLiteral("the aggregator is not fitted"));
    if (x.cols() != m_means.size())
        return makeError(
                QStringLiteral("the aggregator was fitted on %1 nodes but got %2").arg(m_means.size()).arg(x.cols()));
    const Eigen::MatrixXd full = imputed(x);
    Eigen::MatrixXd out(x.rows(), Eigen::Index(m_models.size()));
    for (size_t a = 0; a < m_models.size(); ++a) {
        auto p = m_models[a]->predict(full);
        if (!p)
            return p.error();
        out.col(Eigen::Index(a)) = *p;
    }
    return out;
}

Result<Contributions> Aggregator::contributions(const Eigen::MatrixXd &x, int aspect) const
{
    if (!isFitted())
        return makeError(QStringLiteral("the aggregator is not fitted"));
    if (aspect < 0 || aspect >= aspectCount())
        return makeError(QStringLiteral("aspect %1 is out of range (%2 aspects)").arg(aspect).arg(aspectCount()));
    if (x.cols() != m_means.size())
        return makeError(
                QStringLiteral("the aggregator was fitted on %1 nodes but got %2").arg(m_means.size()).arg(x.cols()));
    return m_models[size_t(aspect)]->contributions(imputed(x));
}

Result<Eigen::VectorXd> Aggregator::featureImportance(int aspect) const
{
    if (aspect < 0 || aspect >= aspectCount())
        return makeError(QStringLiteral("aspect %1 is out of range (%2 aspects)").arg(aspect).arg(aspectCount()));
    return m_models[size_t(aspect)]->featureImportance();
}

QVariantMap Aggregator::describe(const QStringList &featureNames, const QStringList &aspectNames) const
{
    // Columns or aspects without a given name are called by their 0-based number.
    QStringList names = featureNames;
    for (qsizetype j = names.size(); j < m_means.size(); ++j)
        names.append(QString::number(j));
    QVariantMap aspects;
    for (size_t a = 0; a < m_models.size(); ++a)
        aspects.insert(aspectNames.value(int(a), QString::number(a)), m_models[a]->describe(names));
    return {{QStringLiteral("kind"), aggregatorKindName(m_settings.kind)}, {QStringLiteral("aspects"), aspects}};
}

} // namespace rubric::learn

namespace rubric::learn {

QJsonObject Aggregator::toJson() const
{
    QJsonArray aspects;
    for (const auto &m : m_models)
        aspects.append(m->toJson());
    QJsonArray mean;
    for (const auto &cols : m_settings.meanFeatures) {
        QJsonArray c;
        for (int j : cols)
            c.append(j);
        mean.append(c);
    }
    QJsonObject settings = QJsonObject::fromVariantMap(aggregatorSettingsToMap(m_settings));
    settings.insert(QStringLiteral("mean_features"), mean);
    return {{QStringLiteral("format"), QStringLiteral("rubric-aggregator")},
            {QStringLiteral("version"), 1},
            {QStringLiteral("settings"), settings},
            {QStringLiteral("feature_means"), toJsonArray(m_means)},
            {QStringLiteral("aspects"), aspects}};
}

QJsonObject Aggregator::toJson(int aspect) const
{
    if (aspect < 0 || aspect >= aspectCount())
        return {};
    QJsonObject json = toJson();
    json.insert(QStringLiteral("aspects"), QJsonArray{json.value(QStringLiteral("aspects")).toArray().at(aspect)});
    QJsonObject settings = json.value(QStringLiteral("settings")).toObject();
    const QJsonArray mean = settings.value(QStringLiteral("mean_features")).toArray();
    settings.insert(QStringLiteral("mean_features"), aspect < mean.size() ? QJsonArray{mean.at(aspect)} : QJsonArray{});
    json.insert(QStringLiteral("settings"), settings);
    return json;
}

Result<Aggregator> Aggregator::fromJson(const QJsonObject &json)
{
    if (json.value(QStringLiteral("format")).toString() != QLatin1String("rubric-aggregator")
        || json.value(QStringLiteral("version")).toInt() != 1)
        return makeError(QStringLiteral("not a saved aggregator (format rubric-aggregator, version 1)"), {}, 0,
                         QStringLiteral("format"));
    const QJsonObject saved = json.value(QStringLiteral("settings")).toObject();
    auto settings = aggregatorSettingsFromMap(saved.toVariantMap());
    if (!settings)
        return makeError(settings.error().message, {}, 0, QStringLiteral("settings.") + settings.error().field);
    for (const QJsonValue &cols : saved.value(QStringLiteral("mean_features")).toArray()) {
        QVector<int> c;
        for (const QJsonValue &j : cols.toArray())
            c.append(j.toInt());
        settings->meanFeatures.append(c);
    }
    auto means = vectorFromJson(json, QStringLiteral("feature_means"));
    if (!means)
        return means.error();
    const QJsonArray aspects = json.value(QStringLiteral("aspects")).toArray();
    if (aspects.isEmpty() || means->size() == 0)
        return makeError(QStringLiteral("the saved aggregator has no aspects or no features"), {}, 0,
                         QStringLiteral("aspects"));
    Aggregator out(*settings);
    for (qsizetype a = 0; a < aspects.size(); ++a) {
        auto model = makeModel(*settings, int(a));
        if (!model)
            return model.error();
        if (auto ok = (*model)->fromJson(aspects[a].toObject()); !ok)
            return makeError(QStringLiteral("aspect %1: %2").arg(a).arg(ok.error().message), {}, 0,
                             QStringLiteral("aspects[%1].%2").arg(a).arg(ok.error().field));
        out.m_models.push_back(std::move(*model));
    }
    out.m_means = *means;
    return out;
}

} // namespace rubric::learn
