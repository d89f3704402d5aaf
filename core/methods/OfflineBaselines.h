#pragma once

#include "util/Result.h"

#include <QStringList>

namespace rubric {

class Project;

/// Judges that need no endpoint: ROUGE-1/2/L F1 of the output against the item's reference,
/// and the output's length in tokens. Each variant is stored as a judge named like its method
/// ("rouge-1", "rouge-2", "rouge-l", "length") with the same score for every requested aspect,
/// so correlations, heatmaps and exports treat them like any other judge. Items without a
/// reference get no ROUGE score (stored as missing, never as zero).
class OfflineBaselines
{
public:
    static QStringList variants();
    /// The score of one variant for one output/reference pair (NaN when undefined).
    static double score(const QString &variant, const QString &output, const QString &reference);
    /// Computes every variant for every item and stores them for `aspects` (one transaction
    /// per judge and aspect). Returns the judges written.
    static Result<QStringList> computeAndStore(Project *project, const QStringList &aspects);
};

} // namespace rubric
