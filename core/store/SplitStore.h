#pragma once

#include "util/Result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rubric {

class Project;

/// The items a split draws from, as columns in import order: the items with a human score.
struct SplitCandidates
{
    std::vector<qint64> rows;       ///< the items' row ids
    std::vector<int> group, system; ///< indices into groups / systems; -1 for none
    QStringList groups, systems;    ///< in order of first appearance
    /// Each item's external id when asked for (withIds), otherwise only for an item without a group
    /// (a group-disjoint split makes it a group of its own, named by its id); empty elsewhere.
    QStringList ids;
};

/// The split's reads and writes by row id: no string per item beyond what the draw needs. A thin
/// view over a Project (not owned; must outlive the store), on the calling thread's connection.
class SplitStore
{
public:
    explicit SplitStore(Project *project);

    /// The items with a human score for `aspect` (any aspect when empty), in import order.
    Result<SplitCandidates> candidates(const QString &aspect, bool withIds) const;

    /// Replaces the split with `train` and `test` (row ids; other items unassigned) in one
    /// transaction with one prepared statement; emits Project::splitChanged.
    Result<void> write(const std::vector<qint64> &train, const std::vector<qint64> &test);

private:
    Project *m_project;
};

} // namespace rubric
