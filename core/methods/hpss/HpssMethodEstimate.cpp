#include "HpssMethod.h"
#include "runs/RunContext.h"

#include <QSet>

namespace rubric {

using namespace hpss;

Result<RunEstimate> HpssMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    if (auto r = restore(false); !r)
        return r.error();
    RunEstimate e;
    const RunSpec &spec = m_ctx->spec();
    const QVector<Item> &validation = m_builder->validation();
    QVector<Item> targets;
    for (const Item &item : m_ctx->targetItems())
        if (spec.retryFailed || !m_ctx->failedBefore().contains(item.id))
            targets.append(item);
    std::optional<Error> cacheUnreadable; // a cache that cannot be read must not look empty
    const auto uncached = [this, &cacheUnreadable](const PromptStrategy &s, const QVector<Item> &items, int *hits) {
        int calls = 0;
        QSet<QString> keys;
        for (const Item &item : items) {
            auto r = scoreRequest(s, item);
            const QString key = r ? m_ctx->cacheKey(JudgeRole::Evaluator, *r) : QString();
            bool cached = r && keys.contains(key);
            if (r && !cached) {
                const auto inCache = m_ctx->isCached(JudgeRole::Evaluator, *r);
                if (!inCache.ok())
                    cacheUnreadable = inCache.error();
                else
                    cached = *inCache;
            }
            if (cached) {
                ++*hits;
                continue;
            }
            keys.insert(key);
            ++calls;
        }
        return calls;
    };
    // Search: the pending evaluation counted exactly where its prompts are known; every further
    // one costs one call per validation item (the budget is reached unless the space runs out).
    // A transfer (--set strategy / transfer_from) searches nothing: its strategy is the winner.
    int searchCalls = 0;
    const auto pending = m_transfer ? std::nullopt : m_search->next(); // none: the search is finished
    const bool finished = m_transfer || m_search->finished();
    int remaining = finished ? 0 : m_params.budget - int(m_search->evaluated().size());
    if (pending && remaining > 0) {
        if (missingAux(pending->strategy, validation, m_aux).empty()) {
            searchCalls += uncached(pending->strategy, validation, &e.cached);
            --remaining;
        }
    }
    searchCalls += remaining * int(validation.size());
    // Auxiliaries: exact for a finished search (the winner's needs on the run's items); before,
    // the most the remaining strategies could need: the criteria, every AutoCoT variant, and a
    // reference and questions per distinct source of the validation and run items.
    int auxMax = 0, auxMin = 0, evaluateCalls = 0;
    if (finished) {
        const SearchRecord *best = m_transfer ? nullptr : m_search->best();
        if (!m_transfer && !best)
            return makeError(tr("the HPSS search of judge '%1' ended without a strategy").arg(spec.judge));
        const PromptStrategy winner = m_transfer ? *m_transfer : best->proposal.strategy;
        const MissingAux m = missingAux(winner, targets, m_aux);
        QSet<QString> refSources, metricSources;
        for (const QString &id : m.references)
            refSources.insert(m_ctx->item(id)->source);
        for (const QString &id : m.metrics)
            metricSources.insert(m_ctx->item(id)->source);
        auxMax = auxMin
                = int(refSources.size() + metricSources.size()) + (m.autocot.isEmpty() ? 0 : 1) + (m.criteria ? 1 : 0);
        evaluateCalls = auxMax == 0 ? uncached(winner, targets, &e.cached) : int(targets.size());
    } else {
        QSet<QString> sources, refDone, metricsDone;
        for (const Item &item : validation + targets) {
            sources.insert(item.source);
            if (m_aux.references.contains(item.id))
                refDone.insert(item.source);
            if (m_aux.metrics.contains(item.id))
                metricsDone.insert(item.source);
        }
        const auto enabled = [this](Factor f, const char *value) {
            return m_params.space.isEnabled(f, int(factorValues(f).indexOf(QLatin1String(value))));
        };
        if (enabled(Factor::Reference, "self"))
            auxMax += int(sources.size() - refDone.size());
        if (enabled(Factor::Metrics, "on"))
            auxMax += int(sources.size() - metricsDone.size());
        const bool selfCriteria = enabled(Factor::Criteria, "self");
        if (selfCriteria && m_aux.criteria.isEmpty())
            ++auxMax;
        if (enabled(Factor::AutoCot, "on"))
            for (int j : m_params.space.enabledValues(Factor::Scale))
                for (const char *variant : {"human", "self"})
                    if ((selfCriteria || QLatin1String(variant) == QLatin1String("human"))
                        && !m_aux.autocot.contains(
                                QStringLiteral("%1/%2").arg(factorValues(Factor::Scale)[j], QLatin1String(variant))))
                        ++auxMax;
        evaluateCalls = int(targets.size());
    }
    e.calls = searchCalls + auxMax + evaluateCalls;
    e.callsMin = searchCalls + auxMin + evaluateCalls;
    e.exact = finished;
    if (cacheUnreadable)
        return *cacheUnreadable;
    e.perPhase.insert(QStringLiteral("auxiliary"), auxMax);
    e.perPhase.insert(QStringLiteral("search"), searchCalls);
    e.perPhase.insert(QStringLiteral("evaluate"), evaluateCalls);
    // Tokens: the origin prompt of the first validation item stands for a typical prompt.
    qint64 perCall = 1000;
    if (auto r = scoreRequest(m_transfer ? *m_transfer : m_params.origin,
                              validation.isEmpty() ? targets.value(0) : validation.first());
        r)
        perCall = RunContext::approxTokens(*r);
    const qint64 outPerCall = 150;
    e.tokensIn = perCall * e.calls;
    e.tokensOut = outPerCall * e.calls;
    e.cost = spec.evaluator.cost(double(e.tokensIn), double(e.tokensOut));
    return e;
}

} // namespace rubric
