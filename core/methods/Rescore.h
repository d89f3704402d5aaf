#pragma once

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

/// Pearson of the judge's aggregated scores with the human scores on the run's target items
/// (the split the run scored) that have both.
Alignment alignment(RunContext &ctx);

/// Records `alignment(ctx)` on rubric `version` of the run's judge unless the version already
/// has a figure (HypoEval's first version keeps its train-split figure). Nothing is recorded
/// when fewer than 3 items have both scores.
Result<void> recordAlignment(RunContext &ctx, int version);

} // namespace rescore
} // namespace rubric
