#pragma once

#include "data/Annotation.h"
#include "util/Result.h"

#include <QHash>
#include <QString>

namespace rubric {

class Project;

/// How the training items are spread: round-robin over groups, over systems, or plain.
enum class Stratify { None, Group, System };

struct SplitOptions
{
    int train = 0; ///< how many items go to the training side
    quint64 seed = 0;
    QString aspect; ///< empty: items with a human score for any aspect are eligible
    Stratify stratify = Stratify::Group;
};

struct SplitSummary
{
    int train = 0;
    int test = 0;
    int unassigned = 0; ///< items without the human scores asked for
};

/// Draws a seeded, reproducible train/test split of the items that have human scores.
///
/// The eligible items (those with a human score for `aspect`, or for any aspect) are bucketed by
/// group or system; each bucket is shuffled with a Mersenne Twister (std::mt19937_64, fully
/// specified, so the same seed gives the same split on every platform) and the buckets, in a
/// shuffled order, give up one item each in turn until `train` items are drawn. The other
/// eligible items form the test side; items without scores stay unassigned. Stateless.
class Splitter
{
public:
    static Result<Stratify> parseStratify(const QString &name);
    static QString stratifyName(Stratify s);

    /// The roles for `options` (nothing is written). Refuses train < 1 or more than are eligible.
    static Result<QHash<QString, SplitRole>> draw(const Project &project, const SplitOptions &options);

    /// draw(), then stores the split and its parameters (meta keys split.seed, split.params).
    static Result<SplitSummary> apply(Project &project, const SplitOptions &options);
};

} // namespace rubric
