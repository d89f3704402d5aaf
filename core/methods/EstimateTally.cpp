#include "methods/EstimateTally.h"

#include "methods/RunContext.h"

namespace rubric {

EstimateTally::EstimateTally(RunContext &context, RunEstimate &estimate)
    : m_ctx(context)
    , m_estimate(estimate)
{
}

Result<bool> EstimateTally::add(JudgeRole role, const JudgeRequest &request, qint64 outTokens, bool lookInCache)
{
    const QString key = m_ctx.cacheKey(role, request);
    if (m_keys.contains(key)) {
        ++m_estimate.cached; // sent once; the run answers the copy from the cache
        return false;
    }
    m_keys.insert(key);
    if (lookInCache) {
        const auto inCache = m_ctx.isCached(role, request);
        if (!inCache.ok())
            return inCache.error();
        if (*inCache) {
            ++m_estimate.cached;
            return false;
        }
    }
    const RunSpec &spec = m_ctx.spec();
    const ProviderProfile &profile = role == JudgeRole::Generator ? spec.generator
                                     : role == JudgeRole::Refiner ? spec.refiner
                                                                  : spec.evaluator;
    const qint64 in = RunContext::approxTokens(request, profile);
    m_estimate.tokensIn += in;
    m_estimate.tokensOut += outTokens;
    m_estimate.cost += RunContext::estimatedCost(profile, in, outTokens);
    ++m_calls;
    return true;
}

} // namespace rubric
