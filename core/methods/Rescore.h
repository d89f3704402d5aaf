#pragma once

#include "methods/RunTypes.h"
#include "util/Result.h"

#include <QString>

#include <limits>

namespace rubric {

class RunContext;

/// What a re-score of an existing rubric version does after its last score is stored: the
/// agreement of the judge's aggregated scores with the human scores, and its record on the
/// rubric version that produced them.
namespace rescore {

struct Alignment
{
    double pearson = std::numeric_limits<double>::quiet_NaN();
    int n = 0;     ///< target items with both a judge and a human score
    QString basis; ///< e.g. "Pearson with the human scores on the test split, n = 40"
};

/// Pearson of the judge's aggregated scores with the human scores on the items of `split`
/// (Train or Test) that have both; an error when the project cannot be read.
Result<Alignment> alignment(RunContext &ctx, SplitFilter split);

/// Records the alignment of rubric `version` of the run's judge on one basis for every version:
/// the train split (a re-score scores the train items too, see RunContext::targetItems), unless
/// the version already has a train figure (HypoEval's first version keeps the one its selection
/// measured). The test-split figure is recorded apart (RubricStore::setTestAlignment), for
/// display on request only. A figure is recorded only when at least 3 items have both scores.
Result<void> recordAlignment(RunContext &ctx, int version);

} // namespace rescore
} // namespace rubric
