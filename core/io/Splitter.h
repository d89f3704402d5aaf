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
    /// Group-disjoint: whole groups (sources) are drawn, so no group of the training side has an
    /// item on the test side; `stratify` does not apply then.
    bool byGroup = false;
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
/// eligible items form the test side; items without scores stay unassigned.
///
/// With `byGroup` the groups (an item without a group is a group of its own) are shuffled the
/// same way and drawn whole until the training side has at least `train` items (it overshoots by
/// less than one group); at least one group is left for the test side. Stateless.
class Splitter
{
public:
    static Result<Stratify> parseStratify(const QString &name);
    static QString stratifyName(Stratify s);

    /// The roles for `options` (nothing is written). Refuses train < 1 or more than are eligible.
    static Result<QHash<QString, SplitRole>> draw(const Project &project, const SplitOptions &options);

    /// draw(), then stores the split and its parameters (meta keys split.seed, split.params).
    static Result<SplitSummary> apply(Project &project, const SplitOptions &options);

    /// A group-disjoint split from items in order of preference (the studio's suggestions): each
    /// item in turn brings its whole group (an item without a group only itself) to the training
    /// side until it has at least `train` items; the other items of `order` are the test side.
    /// Refuses when no group would be left for the test side, or the items cannot be read.
    static Result<QHash<QString, SplitRole>> wholeGroupsFrom(const Project &project, const QStringList &order,
                                                             int train);
};

} // namespace rubric
