#include "HpssMethod.h"
#include "methods/RunContext.h"

#include <QSet>

#include <utility>

namespace rubric {

using namespace hpss;

Result<RunEstimate> HpssMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    if (auto r = restore(false); !r)
        return r.error();
    if (m_ape)
        return estimateApe();
    RunEstimate e;
    const RunSpec &spec = m_ctx->spec();
    const QVector<Item> &validation = m_builder->validation();
    QVector<Item> targets;
    for (const Item &item : m_ctx->targetItems())
        if (!m_ctx->skipsFailed(item.id))
            targets.append(item);
    std::optional<Error> cacheUnreadable; // a cache that cannot be read must not look empty
    const int validationUnits = int(m_pairwise ? m_validationPairs.size() : validation.size());
    // The pairwise setting asks per pair (the validation pairs, or the test pairs of `items`).
    const QVector<PreferencePair> testPairs = m_pairwise ? testPairsOf(targets) : QVector<PreferencePair>();
    QVector<Item> auxTargets; // the items the winner's auxiliary texts are made for (pairwise: those in a test pair)
    QSet<QString> inPair;
    for (const PreferencePair &p : testPairs)
        inPair << p.a << p.b;
    for (const Item &item : std::as_const(targets))
        if (!m_pairwise || inPair.contains(item.id))
            auxTargets.append(item);
    const auto uncached = [this, &cacheUnreadable, &validation, &testPairs](const PromptStrategy &s,
                                                                            const QVector<Item> &items, int *hits) {
        int calls = 0;
        QSet<QString> keys;
        const bool isValidation = &items == &validation;
        const qsizetype units = !m_pairwise ? items.size() : isValidation ? m_validationPairs.size() : testPairs.size();
        for (qsizetype u = 0; u < units; ++u) {
            auto r = !m_pairwise    ? scoreRequest(s, items[u])
                     : isValidation ? pairRequest(s, m_validationPairs[u])
                                    : pairRequest(s, testPairs[u]);
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
    // Auxiliary: a search not finished yet first makes every text the enabled values can need on
    // the validation items (start()); replayed through the cache, so the count is exact.
    const AuxNeed spaceNeed = [this](const Auxiliaries &aux) { return searchNeeds(aux); };
    Auxiliaries aux = m_aux; // with the cached auxiliary answers the run will read
    int auxCalls = 0;
    auto pending = m_transfer ? std::nullopt : m_search->next(); // none: the search is finished
    const bool finishedBefore = m_transfer || m_search->finished();
    if (!finishedBefore) {
        auto calls = this->auxCalls(spaceNeed, validation, &aux, &e.cached);
        if (!calls)
            return calls.error();
        auxCalls = *calls;
    }
    // Search: replayed through the judge cache while every answer of an evaluation is there (a
    // resumed run's pending one, another judge's identical search): its Spearman is then known
    // and the search goes on as the run's will. From the first evaluation that lacks answers,
    // that one costs its uncached prompts and every further one a call per validation item, up
    // to the search's planned evaluations. A transfer (--set strategy / transfer_from) searches nothing.
    const Auxiliaries kept = std::exchange(m_aux, aux); // scoreRequest renders with m_aux
    const auto cachedSpearman = [this, &validation](const PromptStrategy &s) -> Result<std::optional<double>> {
        if (m_pairwise)
            return cachedPairAccuracy(s);
        QVector<double> x, y;
        QStringList groups;
        for (int i = 0; i < validation.size(); ++i) {
            auto request = scoreRequest(s, validation[i]);
            if (!request)
                return std::optional<double>();
            auto answer = m_ctx->cached(JudgeRole::Evaluator, *request);
            if (!answer)
                return answer.error();
            if (!*answer)
                return std::optional<double>();
            const ScoreReading reading = readScore((*answer)->text(), 1, s.scaleMax());
            if (!reading.parsed && m_params.unparsed == UnparsedPolicy::Reask)
                return std::optional<double>(); // the run asks it again: not replayed
            const double score = reading.parsed ? reading.score : unparsedScore();
            if (std::isnan(score))
                continue;
            x.append(score);
            y.append(m_validationHuman[i]);
            groups.append(m_validationGroups[i]);
        }
        return std::optional<double>(levelSpearman(x, y, groups, m_params.level));
    };
    for (;;) {
        if (!m_transfer && m_search->awaitingProposal()) { // OPRO-style: a cached proposal is replayed too
            auto request = oproRequest();
            if (!request) {
                m_aux = kept;
                return request.error();
            }
            auto answer = m_ctx->cached(JudgeRole::Evaluator, *request);
            if (!answer) {
                m_aux = kept;
                return answer.error();
            }
            if (!*answer)
                break;
            ++e.cached;
            if (auto r = m_search->acceptProposal((*answer)->text()); !r) {
                m_aux = kept;
                return r.error();
            }
            pending = m_search->next();
            continue;
        }
        if (!pending || !missingAux(pending->strategy, validation, m_aux).empty())
            break;
        auto rho = cachedSpearman(pending->strategy);
        if (!rho) {
            m_aux = kept;
            return rho.error();
        }
        if (!*rho)
            break;
        e.cached += validationUnits;
        if (auto r = m_search->report(pending->strategy, **rho); !r) {
            m_aux = kept;
            return r.error();
        }
        pending = m_search->next();
    }
    const bool finished = m_transfer || m_search->finished();
    int searchCalls = 0;
    int remaining = finished ? 0 : m_search->plannedEvaluations() - int(m_search->evaluated().size());
    if (!m_transfer && m_params.algorithm == SearchAlgorithm::Opro && !finished) {
        // At most one evaluation per iteration left, each after its proposal call (an upper bound:
        // a repeat or an unreadable proposal evaluates nothing).
        remaining = (pending ? 1 : 0) + m_search->oproIterationsLeft();
        searchCalls += m_search->oproIterationsLeft();
    }
    if (pending && remaining > 0 && missingAux(pending->strategy, validation, m_aux).empty()) {
        searchCalls += uncached(pending->strategy, validation, &e.cached);
        --remaining;
    }
    m_aux = kept;
    // OPRO-style: at the least each iteration's proposal, when each repeats an evaluated strategy.
    const int searchCallsMin = !m_transfer && m_params.algorithm == SearchAlgorithm::Opro && !finished
                                       ? searchCalls
                                       : searchCalls + remaining * validationUnits;
    searchCalls += remaining * validationUnits;
    // Evaluate: exact once the winner is known (its auxiliaries for the run's items, then its
    // scores; a search of one evaluation can only end with its origin); before, the winner's
    // reference and questions for the run's sources that no validation item shares are 0 or 1
    // each, depending on its reference and metrics values.
    QVariant evaluatePhase;
    int evaluateMin = 0, evaluateMax = 0;
    int winnerAuxCalls = 0; // a transfer's: known before the run, made as its "auxiliary" phase
    std::optional<PromptStrategy> winner = m_transfer;
    if (!m_transfer && finished) {
        const SearchRecord *best = m_search->best();
        if (!best)
            return makeError(tr("the HPSS search of judge '%1' ended without a strategy").arg(spec.judge));
        winner = best->proposal.strategy;
    } else if (!m_transfer && m_search->plannedEvaluations() <= 1) {
        winner = m_params.origin;
    }
    if (winner) {
        const PromptStrategy w = *winner;
        auto winnerAux
                = this->auxCalls([&w, &auxTargets](const Auxiliaries &a) { return missingAux(w, auxTargets, a); },
                                 auxTargets, &aux, &e.cached);
        if (!winnerAux)
            return winnerAux.error();
        int scoring = int(m_pairwise ? testPairs.size() : targets.size());
        if (missingAux(w, auxTargets, aux).empty()) { // every prompt known: its cached answers too
            const Auxiliaries kept = std::exchange(m_aux, aux);
            scoring = uncached(w, targets, &e.cached);
            m_aux = kept;
        }
        if (m_samples > 1) // HPSS†: every sample a call (cached samples not looked up: an upper bound)
            scoring = int(targets.size()) * m_samples;
        if (m_transfer)
            winnerAuxCalls = *winnerAux;
        evaluateMin = evaluateMax = (m_transfer ? 0 : *winnerAux) + scoring;
        evaluatePhase = evaluateMax;
    } else {
        // The validation split's texts (made or about to be) serve the run's items of the same source.
        Auxiliaries all = aux;
        shareBySource(all, auxTargets);
        const MissingAux m = missingAux(m_params.space, auxTargets, all);
        QSet<QString> refSources, metricSources;
        for (const QString &id : m.references)
            refSources.insert(m_ctx->item(id)->source);
        for (const QString &id : m.metrics)
            metricSources.insert(m_ctx->item(id)->source);
        evaluateMin = int(m_pairwise ? testPairs.size() : targets.size()) * m_samples;
        evaluateMax = evaluateMin + int(refSources.size() + metricSources.size());
        evaluatePhase = evaluateMin == evaluateMax ? QVariant(evaluateMax)
                                                   : QVariant(QVariantMap{{QStringLiteral("min"), evaluateMin},
                                                                          {QStringLiteral("max"), evaluateMax}});
    }
    auxCalls += winnerAuxCalls;
    e.calls = auxCalls + searchCalls + evaluateMax;
    e.callsMin = auxCalls + searchCallsMin + evaluateMin;
    e.exact = winner.has_value() && m_samples <= 1;
    e.exactPhases = {kPhaseAuxiliary};
    if (m_transfer || m_params.algorithm != SearchAlgorithm::Opro || finished)
        e.exactPhases.append(kPhaseSearch);
    if (e.exact)
        e.exactPhases.append(kPhaseEvaluate);
    if (cacheUnreadable)
        return *cacheUnreadable;
    e.perPhase.insert(kPhaseAuxiliary, auxCalls);
    e.perPhase.insert(kPhaseSearch, searchCallsMin == searchCalls
                                            ? QVariant(searchCalls)
                                            : QVariant(QVariantMap{{QStringLiteral("min"), searchCallsMin},
                                                                   {QStringLiteral("max"), searchCalls}}));
    e.perPhase.insert(kPhaseEvaluate, evaluatePhase);
    // Tokens: the origin prompt of the first validation item stands for a typical prompt.
    qint64 perCall = 1000;
    if (auto r = m_pairwise ? pairRequest(m_params.origin, m_validationPairs.first())
                            : scoreRequest(m_transfer ? *m_transfer : m_params.origin,
                                           validation.isEmpty() ? targets.value(0) : validation.first());
        r)
        perCall = RunContext::approxTokens(*r, m_ctx->spec().evaluator);
    const qint64 outPerCall = 150;
    e.tokensIn = perCall * e.calls;
    e.tokensOut = outPerCall * e.calls;
    e.cost = RunContext::estimatedCost(spec.evaluator, e.tokensIn, e.tokensOut);
    return e;
}

} // namespace rubric
