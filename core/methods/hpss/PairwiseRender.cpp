#include "methods/hpss/PairwiseRender.h"

namespace rubric::hpss {

Result<RenderedPrompt> renderPair(const PromptStrategy &strategy, const PreferencePair &pair,
                                  const PromptBuilder &builder, const Auxiliaries &aux,
                                  const QVector<PreferencePair> &pool, quint64 exampleSeed, const ItemLookup &item)
{
    const Item *a = item(pair.a);
    const Item *b = item(pair.b);
    if (!a || !b)
        return makeError(QStringLiteral("pair %1 / %2: no such item").arg(pair.a, pair.b), {}, 0,
                         QStringLiteral("item"));
    PairwiseInputs in;
    in.task = builder.task();
    in.aspect = builder.aspect().name;
    in.source = a->source;
    in.fact = itemFact(*a);
    in.outputA = a->output;
    in.outputB = b->output;
    in.criteria = builder.aspect().definition;
    // Per source, as the pointwise setting makes them: both items of a pair share theirs.
    in.reference = aux.references.value(a->id);
    in.metrics = aux.metrics.value(a->id);
    in.autocot = aux.autocot.value(Auxiliaries::autocotKey(strategy));
    for (int k : examplePairsFor(pool, strategy.exampleCount(), a->id, b->id, exampleSeed)) {
        const PreferencePair &e = pool[k];
        const Item *ea = item(e.a);
        const Item *eb = item(e.b);
        if (!ea || !eb)
            return makeError(QStringLiteral("example pair %1 / %2: no such item").arg(e.a, e.b), {}, 0,
                             QStringLiteral("item"));
        in.examples.append(PairExample{ea->source, itemFact(*ea), ea->output, eb->output, e.humanPrefersA});
    }
    auto prompt = renderPairwisePrompt(strategy, in);
    if (!prompt)
        return makeError(QStringLiteral("pair %1 / %2, strategy %3: %4")
                                 .arg(pair.a, pair.b, strategy.format(), prompt.errorString()),
                         {}, 0, prompt.error().field);
    return prompt;
}

Result<PairOptions> pairOptionsFromVariant(const QVariantMap &map)
{
    PairOptions o;
    const QString per = map.value(QStringLiteral("pairs_per_group"), QStringLiteral("size")).toString();
    bool ok = true;
    if (per == QLatin1String("all"))
        o.perGroup = PairOptions::kAllPairs;
    else if (per == QLatin1String("size"))
        o.perGroup = PairOptions::kGroupSize;
    else
        o.perGroup = per.toInt(&ok);
    if (!ok || (per != QLatin1String("all") && o.perGroup == 0))
        return makeError(QStringLiteral("'%1' is no pairs_per_group").arg(per), {}, 0,
                         QStringLiteral("pairs_per_group"));
    o.seed = map.value(QStringLiteral("pair_seed"), QStringLiteral("1")).toString().toULongLong(&ok);
    if (!ok)
        return makeError(QStringLiteral("'%1' is no pair_seed").arg(map.value(QStringLiteral("pair_seed")).toString()),
                         {}, 0, QStringLiteral("pair_seed"));
    return o;
}

} // namespace rubric::hpss
