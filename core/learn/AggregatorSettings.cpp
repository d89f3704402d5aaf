#include "Aggregator.h"

#include <cmath>
#include <variant>

namespace rubric::learn {
namespace {

/// One numeric setting: its key and where it lives in AggregatorSettings.
struct NumericKey
{
    const char *key;
    std::variant<int AggregatorSettings::*, double AggregatorSettings::*> field;
};

const NumericKey kNumeric[] = {
        {"ridge_lambda", &AggregatorSettings::ridgeLambda},
        {"tree_depth", &AggregatorSettings::treeDepth},
        {"forest_trees", &AggregatorSettings::forestTrees},
        {"forest_depth", &AggregatorSettings::forestDepth},
        {"forest_subsample", &AggregatorSettings::forestSubsample},
        {"forest_colsample", &AggregatorSettings::forestColsample},
        {"boost_rounds", &AggregatorSettings::boostRounds},
        {"boost_depth", &AggregatorSettings::boostDepth},
        {"boost_eta", &AggregatorSettings::boostEta},
        {"boost_lambda", &AggregatorSettings::boostLambda},
        {"mlp_hidden", &AggregatorSettings::mlpHidden},
        {"mlp_epochs", &AggregatorSettings::mlpEpochs},
        {"mlp_learning_rate", &AggregatorSettings::mlpLearningRate},
        {"mlp_weight_decay", &AggregatorSettings::mlpWeightDecay},
};

} // namespace

QStringList aggregatorSettingKeys()
{
    QStringList keys{QStringLiteral("aggregator")};
    for (const auto &k : kNumeric)
        keys.append(QString::fromLatin1(k.key));
    return keys;
}

Result<AggregatorSettings> aggregatorSettingsFromMap(const QVariantMap &values, AggregatorSettings base)
{
    if (values.contains(QStringLiteral("aggregator"))) {
        auto kind = parseAggregatorKind(values.value(QStringLiteral("aggregator")).toString());
        if (!kind)
            return kind.error();
        base.kind = *kind;
    }
    for (const auto &k : kNumeric) {
        const QString key = QString::fromLatin1(k.key);
        if (!values.contains(key))
            continue;
        const QString text = values.value(key).toString().trimmed();
        bool ok = false;
        if (std::holds_alternative<int AggregatorSettings::*>(k.field)) {
            const int v = text.toInt(&ok);
            if (!ok || v < 1)
                return makeError(QStringLiteral("'%1' is not a whole number ≥ 1").arg(text), {}, 0, key);
            base.*std::get<int AggregatorSettings::*>(k.field) = v;
        } else {
            const double v = text.toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < 0)
                return makeError(QStringLiteral("'%1' is not a number ≥ 0").arg(text), {}, 0, key);
            base.*std::get<double AggregatorSettings::*>(k.field) = v;
        }
    }
    return base;
}

QVariantMap aggregatorSettingsToMap(const AggregatorSettings &settings)
{
    QVariantMap out{{QStringLiteral("aggregator"), aggregatorKindName(settings.kind)}};
    for (const auto &k : kNumeric) {
        if (std::holds_alternative<int AggregatorSettings::*>(k.field))
            out.insert(QString::fromLatin1(k.key), settings.*std::get<int AggregatorSettings::*>(k.field));
        else
            out.insert(QString::fromLatin1(k.key), settings.*std::get<double AggregatorSettings::*>(k.field));
    }
    return out;
}

} // namespace rubric::learn
