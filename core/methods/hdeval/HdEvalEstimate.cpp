// HD-Eval's estimate: decomposition calls do not depend on the item count; scoring is one call per
// (item, node). Exact once the tree is known (stored, or its decomposition answers are in the judge
// cache, and for layer 3 the scores the pruning fit needs are stored or cached); before that an
// upper bound from `children` (the most a decomposition keeps) and `top_k`.
#include "HdEvalMethod.h"
#include "HdEvalTree.h"
#include "methods/EstimateTally.h"
#include "methods/RunContext.h"

#include <QSet>

namespace rubric {

Result<RunEstimate> HdEvalMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    auto initial = initialTree(false);
    if (!initial)
        return initial.error();
    Rubric tree = *initial;
    if (auto r = loadStoredScores(); !r)
        return r.error();
    const RunSpec &spec = m_ctx->spec();
    RunEstimate e;
    EstimateTally tally(*m_ctx, e);       // identical requests are sent once
    std::optional<Error> cacheUnreadable; // a cache that cannot be read must not look empty
    const auto count = [&](JudgeRole role, const JudgeRequest &r, const QString &phase, int outTokens) {
        const auto counted = tally.add(role, r, outTokens);
        if (!counted.ok()) {
            cacheUnreadable = counted.error();
            return;
        }
        if (!*counted)
            return;
        ++e.calls;
        ++e.callsMin;
        e.perPhase.insert(phase, e.perPhase.value(phase).toInt() + 1);
    };
    // An unknown part: `calls` calls of about `in` tokens each, of which at least `min` are sent.
    const auto bound = [&](const QString &phase, int calls, int min, qint64 in, int outTokens, bool generator) {
        e.exact = false;
        e.calls += calls;
        e.callsMin += min;
        e.perPhase.insert(phase, e.perPhase.value(phase).toInt() + calls);
        e.tokensIn += in * calls;
        e.tokensOut += qint64(outTokens) * calls;
        e.cost += RunContext::estimatedCost(generator ? spec.generator : spec.evaluator, in * calls,
                                            qint64(outTokens) * calls);
    };
    // A decomposition known from the cache is replayed into the tree; true when it was.
    const auto replay = [&](const QVector<Criterion> &parents, int layer) -> Result<bool> {
        auto requests = decomposeRequests(parents);
        if (!requests)
            return requests.error();
        for (const JudgeRequest &r : std::as_const(*requests))
            count(JudgeRole::Generator, r, QStringLiteral("decompose-%1").arg(layer), m_params.decomposeMaxTokens / 2);
        QVector<JudgeResponse> answers;
        for (const JudgeRequest &r : std::as_const(*requests)) {
            auto cached = m_ctx->cached(JudgeRole::Generator, r);
            if (!cached)
                return cached.error();
            if (!*cached || hdeval::parseDecomposition((*cached)->text()).isEmpty())
                return false;
            answers.append(**cached);
        }
        auto added = addChildren(tree, parents, layer, answers);
        return added.ok();
    };
    // The score requests of a known layer; their parsed cached answers join m_scores (for the
    // pruning fit the estimate replays). Returns whether every train item has a score on the layer.
    const auto scoreKnown = [&](int layer) -> Result<bool> {
        bool complete = true;
        for (const Pair &p : missingPairs(tree, layer)) {
            auto r = scoreRequest(tree, *tree.find(p.key), m_items[p.item]);
            if (!r)
                return r.error();
            count(JudgeRole::Evaluator, *r, QStringLiteral("score-%1").arg(layer), m_params.maxTokens);
            const auto cached = m_ctx->cached(JudgeRole::Evaluator, *r);
            if (!cached)
                return cached.error();
            const auto score = *cached ? hdeval::firstScore((*cached)->text()) : std::nullopt;
            if (score)
                m_scores[m_items[p.item].id].insert(p.key, *score);
            else if (m_trainIds.contains(m_items[p.item].id))
                complete = false; // the pruning fit needs the train items' scores only
        }
        return complete;
    };
    // A typical score request's size, for the parts not known yet.
    qint64 scoreIn = 0;
    if (!m_items.isEmpty()) {
        auto r = scoreRequest(tree, tree.criteria().first(), m_items.first());
        if (!r)
            return r.error();
        scoreIn = RunContext::approxTokens(*r, m_ctx->spec().evaluator) + 20;
    }
    const int items = int(m_items.size());
    const int k = m_params.children;
    const bool apply = !m_params.applyFrom.isEmpty(); // the tree is known: its nodes are scored, nothing else
    if (!apply && m_params.layers >= 2 && hdeval::layerNodes(tree, 2).isEmpty()) {
        if (auto r = replay(hdeval::layerNodes(tree, 1), 2); !r.ok())
            return r.error();
    }
    bool scored = true, layer3Bounded = false;
    for (int layer = 1; layer <= m_params.layers; ++layer) {
        if (hdeval::layerNodes(tree, layer).isEmpty()) {
            if (layer == 3 && scored && !apply) {
                // Layers 1–2 are scored (stored or cached): the pruning fit says which nodes
                // layer 3 decomposes, and the cache may know their children.
                if (auto selected = selectForExpansion(tree)) {
                    auto r = replay(*selected, 3);
                    if (!r.ok())
                        return r.error();
                    if (*r) {
                        --layer; // layer 3 is known now: its scores are counted next
                        continue;
                    }
                    const int parents = int(selected->size());
                    bound(QStringLiteral("score-3"), items * parents * k, items * parents, scoreIn, m_params.maxTokens,
                          false);
                    layer3Bounded = true;
                }
            }
            break;
        }
        auto r = scoreKnown(layer);
        if (!r.ok())
            return r.error();
        scored = scored && *r;
    }
    // The rest of the tree is not known: bounds from children (the most a decomposition keeps) and top_k.
    const int layer2 = int(hdeval::layerNodes(tree, 2).size());
    int parents3 = std::min(m_params.topK, layer2);
    if (apply) {
        m_scores.clear();
        if (cacheUnreadable)
            return *cacheUnreadable;
        return e;
    }
    if (m_params.layers >= 2 && layer2 == 0) {
        // every layer-1 aspect gets between 1 and `children` children
        const int roots = std::max(1, int(hdeval::layerNodes(tree, 1).size()));
        bound(QStringLiteral("score-2"), items * k * roots, items * roots, scoreIn, m_params.maxTokens, false);
        parents3 = std::min(m_params.topK, k * roots);
    }
    if (m_params.layers >= 3 && hdeval::layerNodes(tree, 3).isEmpty() && !layer3Bounded) {
        bound(QStringLiteral("decompose-3"), m_params.batched ? 1 : parents3, 1, scoreIn,
              m_params.decomposeMaxTokens / 2, true);
        bound(QStringLiteral("score-3"), items * parents3 * k, items, scoreIn, m_params.maxTokens, false);
    }
    m_scores.clear(); // the cached answers replayed above are not stored scores
    if (cacheUnreadable)
        return *cacheUnreadable;
    return e;
}

} // namespace rubric
