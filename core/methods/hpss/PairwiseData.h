#pragma once

#include "methods/hpss/HpssSearch.h"

#include <QHash>
#include <QString>
#include <QVector>

namespace rubric::hpss {

/// The paper's pairwise setting (App. I, E.2) on the project's own pointwise data, without a
/// schema change: two outputs of the same source (the same item group) whose human scores for the
/// aspect differ form a pair, the higher-scored one is the human preference, and equal scores
/// (ties) are dropped, as the paper filters the tied cases out of its pairwise benchmarks.
/// `rubric run --method hpss --set setting=pairwise` searches with them (HpssMethodPairwise.cpp).

/// One scored item as the pair construction sees it.
struct PairSourceItem
{
    QString id;
    QString group;
    double human = 0; ///< NaN: no human score, never in a pair
};

/// A pair as the judge sees it: output A first, output B second.
struct PreferencePair
{
    QString group;
    QString a; ///< the item shown as "Assistant A"
    QString b; ///< the item shown as "Assistant B"
    bool humanPrefersA = false;
};

/// Which pairs: every within-group pair (perGroup = kAllPairs), at most perGroup of them drawn
/// per group (seeded), or as many as the group has scored items (kGroupSize, the default: a
/// pairwise evaluation then costs about what a pointwise one costs on the same split).
struct PairOptions
{
    static constexpr int kAllPairs = 0;
    static constexpr int kGroupSize = -1;
    int perGroup = kGroupSize;
    quint64 seed = 1;
};

/// The pairs of one split's items (so both items of a pair are always in the same split).
/// Deterministic in the options, independent of the input order: groups in ascending name order,
/// a group's items in ascending id order, candidate pairs (i < j, scores differ) in that order;
/// one splitmix64 stream seeded with `seed` draws, group after group, a partial Fisher–Yates
/// sample (index t + next() mod (n − t)) when the group has more candidates than its cap (the
/// sample is put back in candidate order), then one coin per kept pair (next() & 1: B first),
/// so the human winner is not always A.
QVector<PreferencePair> buildPairs(const QVector<PairSourceItem> &items, const PairOptions &options);

/// The in-context example pairs shown when the judge compares a and b: the pool's indices in one
/// seeded order (a splitmix64 Fisher–Yates shuffle, t from size−1 down to 1 swapping t with
/// next() mod (t + 1), seeded with `seed`: the example seed, not the search's), the first n of
/// them that share no item with a or b, in that order. Fewer when the pool has fewer.
QVector<int> examplePairsFor(const QVector<PreferencePair> &pool, int n, const QString &a, const QString &b,
                             quint64 seed);

/// A judge's verdict on a pair.
enum class Verdict { A, B, Tie, Unparsed };

/// Reads a pairwise answer as MT-Bench prints its verdict: "[[A]]", "[[B]]", "[[C]]" (a tie),
/// after the shared reader removed its reasoning blocks (AnswerParser::withoutReasoning). Where
/// several verdicts stand, the last one counts (the shared reader's rule: a text that revises
/// itself means its last word; MT-Bench's own check takes A before B before C). None: Unparsed.
Verdict readVerdict(const QString &answer);

/// The paper's accuracy (Eq. 10) of verdicts against the human preferences, one per pair. A
/// judge's tie never equals a human preference (human ties were dropped). An unparsed verdict
/// (or a refused request, given as Unparsed) is a wrong answer under the fallback and reask
/// policies (as the pointwise path counts it at 2.51 in the correlation) and left out under
/// drop. NaN when no pair counts. `counted` (optional): the pairs in the denominator.
double pairAccuracy(const QVector<Verdict> &verdicts, const QVector<PreferencePair> &pairs, UnparsedPolicy policy,
                    int *counted = nullptr);

} // namespace rubric::hpss
