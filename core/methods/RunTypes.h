#pragma once

#include "data/Annotation.h"
#include "data/BatchTypes.h"
#include "data/JudgeTypes.h"

#include <QMetaType>
#include <QString>
#include <QVariantMap>

namespace rubric {

/// The three LLM roles of a method (HypoEval's M_G, M_R, M_E); G-Eval uses the generator for
/// its evaluation steps and the evaluator for scores. They may be one endpoint or three.
enum class JudgeRole { Generator, Refiner, Evaluator };

/// Everything that defines a run. Saved (without keys) in runs.config so a resume can check
/// that it continues the same run.
struct RunSpec
{
    QString judge;  ///< the run's (judge's) name in the project
    QString method; ///< a MethodInfo::name ("geval", "hypoeval", …)
    QString aspect;
    ProviderProfile evaluator;
    ProviderProfile generator;             ///< defaults to the evaluator
    ProviderProfile refiner;               ///< defaults to the generator
    SplitFilter items = SplitFilter::Test; ///< which items get a judge score
    /// The method's parameters (MethodInfo::params): --set KEY=VALUE pairs, the method's run
    /// options (G-Eval's --logprobs and --samples, HypoEval's --literature) and the run pane's form.
    QVariantMap settings;
    double budget = 0; ///< cost cap of this attempt in the profiles' currency; 0 = none
    /// Ask again the items an earlier attempt recorded as refused by the endpoint (otherwise they
    /// are skipped and counted as failed). Not stored: it is about one attempt.
    bool retryFailed = false;
    /// Continue the stored configuration (`--resume`, the studio's "Resume"): never refused for
    /// differing from it. Not stored.
    bool resume = false;
    /// Start afresh under the name: the judge's scores, rubric versions and run record are
    /// deleted first (the judge cache stays: paid answers are never thrown away). Not stored.
    bool replace = false;
    /// Send the calls through the provider's batch interface (`--batch`, the run pane's "Provider
    /// batches"): a step of at least `batch.threshold` uncached calls goes as one batch, at the
    /// batch price. Not stored: an execution mode of one attempt (a batch already submitted is
    /// picked up by any later attempt).
    BatchOptions batch;
};

/// What a run will cost before it starts: calls that are not in the cache yet, approximate
/// tokens (characters / 4) and cost from the profiles' prices. `exact` is false where the
/// number of calls depends on the answers (HypoEval's preparation: then `calls` is the upper
/// bound and `callsMin` the lower one). Where the evaluator's endpoint is known to be a reasoning
/// model, every call counts its thinking budget as output too (Run::estimate).
struct RunEstimate
{
    int calls = 0;
    int callsMin = 0;
    int cached = 0; ///< calls answered from the cache: stored answers, and copies of a request the run repeats
    qint64 tokensIn = 0;
    qint64 tokensOut = 0;
    double cost = 0;
    bool exact = true;
    QVariantMap perPhase; ///< phase → calls (upper bound where not exact)
    /// Where `exact` is false: the phases whose figure is exact all the same (HPSS: "auxiliary"
    /// and "search" before the winner is known). Empty when the method does not say.
    QStringList exactPhases;
};

/// A progress report for displays (emitted by Run, about every batch).
struct RunProgress
{
    QString phase;
    int done = 0;  ///< answered judge calls (cache hits included)
    int total = 0; ///< calls known so far
    int sent = 0;  ///< HTTP requests made
    int cacheHits = 0;
    qint64 tokens = 0;
    qint64 tokensReasoning = 0; ///< of `tokens`, output a reasoning model spent thinking
    double cost = 0;
    /// Where the method can tell: the most HTTP requests this attempt makes in all (those sent so
    /// far plus the most it still needs; answers it finds in the cache send fewer). -1: unknown.
    int sendMax = -1;
    /// The provider batches of this attempt (submitted or picked up), and the calls waiting for one.
    QVector<BatchStatus> batches;
    int batchWaiting = 0;
};

} // namespace rubric

Q_DECLARE_METATYPE(rubric::RunProgress)
Q_DECLARE_METATYPE(rubric::RunEstimate)
Q_DECLARE_METATYPE(rubric::RunSpec)
