#pragma once

#include "methods/hpss/HpssAuxiliary.h"
#include "methods/hpss/PairwiseData.h"
#include "methods/hpss/PairwisePrompt.h"

#include <functional>

namespace rubric::hpss {

/// Finds an item by id (nullptr: none).
using ItemLookup = std::function<const Item *(const QString &id)>;

/// The pairwise prompt of `pair` under `strategy` as a pairwise run sends it (HpssMethod's pairwise
/// setting; the studio's prompt inspector shows the same): the task wording and aspect of `builder`,
/// the aspect's definition as the human criteria (on the human scale: a pair has no scale), item a's
/// source and fact, the reference / metrics questions made for item a's source and the AutoCoT steps
/// of the strategy from `aux`, and n example pairs of `pool` (examplePairsFor with `exampleSeed`:
/// none holds an item of the pair), each with its human verdict. Errors name the pair and what is missing.
Result<RenderedPrompt> renderPair(const PromptStrategy &strategy, const PreferencePair &pair,
                                  const PromptBuilder &builder, const Auxiliaries &aux,
                                  const QVector<PreferencePair> &pool, quint64 exampleSeed, const ItemLookup &item);

/// The pair options a pairwise judge's state keeps ({"pairs_per_group": "size"|"all"|N, "pair_seed"}).
Result<PairOptions> pairOptionsFromVariant(const QVariantMap &map);

} // namespace rubric::hpss
