#pragma once

#include "methods/RunTypes.h"
#include "util/Result.h"

#include <QSet>
#include <QString>

namespace rubric {

class RunContext;

/// The tally every method's estimate keeps of the requests it would send: each request counted
/// once per cache key (a request the run repeats is answered from the cache), as cached when the
/// judge cache holds it, else as a call with its tokens (the request as the role's endpoint gets
/// it, and the answer's expected tokens) and its cost at the role's prices. The method adds the
/// calls to RunEstimate::calls and its phases as it counts them (`calls()`).
class EstimateTally
{
public:
    EstimateTally(RunContext &context, RunEstimate &estimate);

    /// Counts `request` under `role`: true when it is a call, false when it is answered from the
    /// cache; an error when the cache cannot be read (it must not look empty). `lookInCache`
    /// false: its prompt holds a placeholder (what an earlier step answers), so no cache has it.
    Result<bool> add(JudgeRole role, const JudgeRequest &request, qint64 outTokens, bool lookInCache = true);
    /// The calls counted so far.
    int calls() const { return m_calls; }

private:
    RunContext &m_ctx;
    RunEstimate &m_estimate;
    QSet<QString> m_keys;
    int m_calls = 0;
};

} // namespace rubric
