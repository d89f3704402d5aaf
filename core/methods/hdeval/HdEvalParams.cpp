#include "HdEvalParams.h"

#include "methods/MethodRegistry.h"

#include <QCoreApplication>

namespace rubric {

MethodInfo hdevalDescriptor(); // HdEvalDescriptor.cpp

namespace {

// The method's parameters as its descriptor declares them (type, range, choices).
const MethodInfo &descriptor()
{
    static const MethodInfo info = hdevalDescriptor();
    return info;
}

} // namespace

learn::AggregatorSettings HdEvalParams::defaultAggregator()
{
    learn::AggregatorSettings s;
    s.kind = learn::AggregatorKind::Mlp;
    return s;
}

QStringList HdEvalParams::keys()
{
    QStringList k{QStringLiteral("layers"),
                  QStringLiteral("children"),
                  QStringLiteral("top_k"),
                  QStringLiteral("importance_repeats"),
                  QStringLiteral("importance_split"),
                  QStringLiteral("importance_metric"),
                  QStringLiteral("cv_groups"),
                  QStringLiteral("seed"),
                  QStringLiteral("decompose"),
                  QStringLiteral("temperature"),
                  QStringLiteral("max_tokens"),
                  QStringLiteral("decompose_temperature"),
                  QStringLiteral("decompose_max_tokens"),
                  QStringLiteral("cv_folds"),
                  QStringLiteral("tree_from"),
                  QStringLiteral("aspects"),
                  QStringLiteral("select"),
                  QStringLiteral("apply_from")};
    k += learn::aggregatorSettingKeys();
    return k;
}

QVariantMap HdEvalParams::toMap() const
{
    QVariantMap m{{QStringLiteral("layers"), layers},
                  {QStringLiteral("children"), children},
                  {QStringLiteral("top_k"), topK},
                  {QStringLiteral("importance_repeats"), importanceRepeats},
                  {QStringLiteral("importance_split"), importanceSplit == learn::ImportanceSplit::Train
                                                               ? QStringLiteral("in_sample")
                                                               : QStringLiteral("cross_validated")},
                  {QStringLiteral("cv_groups"), cvGroups == hdeval::GroupFolds::On    ? QStringLiteral("on")
                                                : cvGroups == hdeval::GroupFolds::Off ? QStringLiteral("off")
                                                                                      : QStringLiteral("auto")},
                  {QStringLiteral("importance_metric"),
                   importanceMetric == learn::ImportanceMetric::R2 ? QStringLiteral("r2") : QStringLiteral("pearson")},
                  {QStringLiteral("seed"), qint64(seed)},
                  {QStringLiteral("decompose"), batched ? QStringLiteral("batched") : QStringLiteral("per-node")},
                  {QStringLiteral("temperature"), temperature},
                  {QStringLiteral("max_tokens"), maxTokens},
                  {QStringLiteral("decompose_temperature"), decomposeTemperature},
                  {QStringLiteral("decompose_max_tokens"), decomposeMaxTokens},
                  {QStringLiteral("cv_folds"), cvFolds},
                  {QStringLiteral("tree_from"), treeFrom},
                  {QStringLiteral("aspects"), aspects.join(QLatin1Char(','))},
                  {QStringLiteral("select"), select.join(QLatin1Char(','))},
                  {QStringLiteral("apply_from"), applyFrom}};
    const QVariantMap agg = learn::aggregatorSettingsToMap(aggregator);
    for (auto it = agg.begin(); it != agg.end(); ++it)
        m.insert(it.key(), it.value());
    return m;
}

Result<HdEvalParams> HdEvalParams::fromSettings(const QVariantMap &settings)
{
    HdEvalParams p;
    const auto bad = [](const QString &key, const QString &why) {
        return makeError(QCoreApplication::translate("HdEvalParams", "HD-Eval parameter %1: %2").arg(key, why), {}, 0,
                         key);
    };
    QVariantMap aggregatorValues;
    const QStringList aggregatorKeys = learn::aggregatorSettingKeys();
    for (auto it = settings.begin(); it != settings.end(); ++it) {
        QString key = it.key();
        if (key.startsWith(QLatin1String("hdeval.")))
            key = key.mid(7);
        const QString text = it.value().toString().trimmed();
        bool ok = true;
        auto toInt = [&](int min, int max) {
            const int v = text.toInt(&ok);
            if (ok && (v < min || v > max))
                ok = false;
            return v;
        };
        auto toDouble = [&](double min, double max) {
            const double v = text.toDouble(&ok);
            if (ok && (v < min || v > max))
                ok = false;
            return v;
        };
        // A parameter the descriptor declares: its range is the descriptor's (MethodParam::accepts).
        const MethodParam *declared = descriptor().param(key);
        auto declaredInt = [&] {
            const int v = text.toInt(&ok);
            ok = ok && declared && declared->accepts(text);
            return v;
        };
        auto declaredDouble = [&] {
            const double v = text.toDouble(&ok);
            ok = ok && declared && declared->accepts(text);
            return v;
        };
        if (key == QLatin1String("layers"))
            p.layers = declaredInt();
        else if (key == QLatin1String("children"))
            p.children = declaredInt();
        else if (key == QLatin1String("top_k"))
            p.topK = declaredInt();
        else if (key == QLatin1String("importance_repeats"))
            p.importanceRepeats = declaredInt();
        else if (key == QLatin1String("importance_split")) {
            ok = declared && declared->accepts(text);
            p.importanceSplit = text == QLatin1String("in_sample") ? learn::ImportanceSplit::Train
                                                                   : learn::ImportanceSplit::CrossValidated;
        } else if (key == QLatin1String("importance_metric")) {
            ok = declared && declared->accepts(text);
            p.importanceMetric
                    = text == QLatin1String("r2") ? learn::ImportanceMetric::R2 : learn::ImportanceMetric::Pearson;
        } else if (key == QLatin1String("cv_groups")) {
            ok = declared && declared->accepts(text);
            p.cvGroups = text == QLatin1String("on")    ? hdeval::GroupFolds::On
                         : text == QLatin1String("off") ? hdeval::GroupFolds::Off
                                                        : hdeval::GroupFolds::Auto;
        } else if (key == QLatin1String("seed"))
            p.seed = text.toULongLong(&ok); // any 64-bit seed, wider than the form's field
        else if (key == QLatin1String("decompose")) {
            ok = declared && declared->accepts(text);
            p.batched = text == QLatin1String("batched");
        } else if (key == QLatin1String("temperature"))
            p.temperature = declaredDouble();
        else if (key == QLatin1String("max_tokens"))
            p.maxTokens = declaredInt();
        else if (key == QLatin1String("decompose_temperature"))
            p.decomposeTemperature = toDouble(0, 2);
        else if (key == QLatin1String("decompose_max_tokens"))
            p.decomposeMaxTokens = toInt(16, 100000);
        else if (key == QLatin1String("cv_folds")) {
            p.cvFolds = declaredInt();
            ok = ok && p.cvFolds != 1;
        } else if (key == QLatin1String("tree_from")) {
            p.treeFrom = text;
            ok = !text.isEmpty();
        } else if (key == QLatin1String("aspects") || key == QLatin1String("select")) {
            QStringList list;
            for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
                if (!list.contains(part.trimmed()))
                    list.append(part.trimmed());
            (key == QLatin1String("aspects") ? p.aspects : p.select) = list;
        } else if (key == QLatin1String("apply_from")) {
            p.applyFrom = text;
            ok = !text.isEmpty();
        } else if (aggregatorKeys.contains(key)) {
            aggregatorValues.insert(key, text);
            continue;
        } else
            return bad(it.key(), QCoreApplication::translate("HdEvalParams", "unknown (known: %1)")
                                         .arg(keys().join(QStringLiteral(", "))));
        if (!ok)
            return bad(it.key(), QCoreApplication::translate("HdEvalParams", "bad value '%1'").arg(text));
    }
    auto agg = learn::aggregatorSettingsFromMap(aggregatorValues, p.aggregator);
    if (!agg)
        return bad(agg.error().field.isEmpty() ? QStringLiteral("aggregator") : agg.error().field, agg.error().message);
    p.aggregator = *agg;
    if (!p.applyFrom.isEmpty() && !p.treeFrom.isEmpty())
        return bad(QStringLiteral("apply_from"),
                   QCoreApplication::translate("HdEvalParams", "apply_from and tree_from exclude each other"));
    return p;
}

} // namespace rubric
