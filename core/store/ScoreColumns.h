#pragma once

#include "data/Annotation.h"
#include "store/Project.h"
#include "util/Result.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <utility>
#include <vector>

namespace rubric {

class Project;

/// The columns a correlation, a bootstrap or a comparison reads, as flat arrays (no ids, no texts,
/// no string per item): one entry per item of the split that has a human score for the aspect, in
/// import order.
struct StatsColumns
{
    std::vector<double> human;               ///< the mean of the item's annotators
    std::vector<std::vector<double>> judges; ///< judges[k][i]: judge k's score of item i, NaN for none
    std::vector<int> group, system;          ///< indices into groups / systems; -1 for none
    QStringList groups, systems;             ///< in order of first appearance
    std::vector<qint64> rows;                ///< the items' row ids (ItemPageStore's keys)
    size_t size() const { return human.size(); }
};

/// Every item's row id, group and system in import order (what a split draws from).
struct ItemColumns
{
    std::vector<qint64> rows;       ///< the items' row ids
    std::vector<int> group, system; ///< indices into groups / systems; -1 for none
    QStringList groups, systems;    ///< in order of first appearance
    QStringList ids;                ///< external ids when asked for (see ScoreColumnStore::items)
    size_t size() const { return rows.size(); }
};

/// A judge as the statistics choose it, without counting its items (Project::readJudges counts
/// them, a pass over every score with the score read from each row: seconds at a million items).
struct JudgeName
{
    QString name, method;
    bool scoredAspect = false; ///< has a score row for the aspect asked about
};

/// The statistics' column reads. A thin view over a Project (not owned; must outlive the store),
/// on the calling thread's connection.
class ScoreColumnStore
{
public:
    explicit ScoreColumnStore(const Project *project);

    /// The columns of `aspect` for `judges` (any number, in that order) over the items of
    /// `filter`, in one query. An unknown aspect or judge gives no scores (check the names
    /// first). Errors name what could not be read.
    Result<StatsColumns> read(const QString &aspect, const QStringList &judges, SplitFilter filter) const;

    /// Which external ids items() reads.
    enum class Ids { None, WithoutGroup, All };
    /// Every item in import order, from one scan of the items table; `ids` says which items carry
    /// their external id (WithoutGroup: those with no group, the others an empty string).
    Result<ItemColumns> items(Ids ids) const;

    /// Every judge in project order, with whether it scored `aspect` (one indexed look-up each).
    Result<QVector<JudgeName>> judgesFor(const QString &aspect) const;
    /// Whether a judge of that name exists.
    Result<bool> judgeExists(const QString &name) const;
    /// The distinct items a judge scored (any aspect), as Project::readJudges counts them.
    Result<int> itemsScored(const QString &judge) const;

    /// What Project::readJudges returns (project order; aspects in aspect order; distinct items
    /// with a score), its item counts from one scan of the scores instead of a key look-up and a
    /// row read per score and judge: what `rubric info` prints.
    Result<QVector<JudgeInfo>> judges() const;
    /// The mean human score of each annotated item for `aspect` (item order unspecified).
    Result<std::vector<double>> humanMeans(const QString &aspect) const;
    /// Items on the train and on the test side.
    Result<std::pair<int, int>> splitCounts() const;

    /// Whether any item is on the train or the test side (one row, not the whole split).
    Result<bool> hasSplit() const;

    /// For a worker's connection that scans the file once (openForWorker): no memory-mapped
    /// reads and a small page cache on the calling thread's connection (SQLite only).
    Result<void> readWithoutMapping() const;

private:
    const Project *m_project;
};

} // namespace rubric
