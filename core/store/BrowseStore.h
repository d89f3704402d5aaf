#pragma once

#include "data/Annotation.h"
#include "util/Result.h"

#include <QHash>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

namespace rubric {

class Project;

/// An item's external id with its group and system.
struct ItemLabel
{
    QString id;
    QString group;
    QString system;
};

/// An item as a list shows it: its label and the beginnings of its texts.
struct ItemPreview : ItemLabel
{
    QString source; ///< the first characters of the source, as stored
    QString output; ///< the first characters of the output, as stored
};

/// An item as the Dataset pane lists it: labels, split and the mean human score per aspect.
struct ItemListRow
{
    QString id;
    QString group;
    QString system;
    SplitRole split = SplitRole::None;
    int position = 0;
    QVector<double> human; ///< per aspect asked for; NaN where the item has none
};

/// One stored judge score of an item.
struct ItemJudgeScore
{
    QString itemId;
    QString judge;
    QString aspect;
    double score = 0.0;
};

/// The items outside the test split, in import order, as the expected-gain ranking fits on them.
struct NonTestItems
{
    QVector<qint64> keys;  ///< the items' rows in the items table
    QStringList ids;       ///< external ids
    QVector<double> human; ///< the mean of the item's annotators on the aspect asked; NaN where none
};

/// The light reads the studio's views make of a project: previews instead of whole texts, one
/// item's scores, an annotator's progress. A thin view over a Project (not owned; must outlive the
/// store), used from the thread that created it. Errors carry the database's own message (no
/// file): the views say what they were reading.
class BrowseStore
{
public:
    explicit BrowseStore(const Project *project);

    /// The items from the `fromIndex`-th on (in import order), their texts cut to `length` characters.
    Result<QVector<ItemPreview>> itemPreviews(int length, int fromIndex = 0) const;
    /// The items with positions from `fromPosition` to `toPosition` (both included), in import
    /// order, their texts cut to `length` characters: the rows a view shows (items.position is
    /// indexed: a page costs the same at the millionth row as at the first).
    Result<QVector<ItemPreview>> itemPreviewsBetween(int length, int fromPosition, int toPosition) const;
    /// The ids of the items whose id, group, system, source or output contains `text` (ASCII
    /// letters in any case), found by the database (every text is read once, not per item).
    Result<QStringList> itemsContaining(const QString &text) const;
    /// Every item in import order with its split and its mean human score for each of `aspects`,
    /// in one pass over the items (no texts; equal groups and systems share one string).
    Result<QVector<ItemListRow>> itemList(const QStringList &aspects) const;
    /// Has the calling thread's connection read through a small page cache (8 MB) instead of
    /// mapping the file (256 MB) with a 64 MB cache: for a worker that scans a million items once,
    /// whose mapped pages would count in the studio's memory. Nothing to do on PostgreSQL.
    Result<void> useSmallCache() const;
    /// Every item's label, in import order.
    Result<QVector<ItemLabel>> itemLabels() const;
    /// The labels of the train split's items (`train`) or of every item, in import order; equal
    /// groups and systems share one string (a million labels, not three million strings).
    Result<QVector<ItemLabel>> itemLabels(bool train) const;
    /// The items outside the test split with their mean human score of `aspect`: three columns,
    /// no text (what labelNextByExpectedGain reads instead of every row and the split).
    Result<NonTestItems> nonTestItems(const QString &aspect) const;
    /// Whether `judge` has a score (not a missing one) of `aspect`: one row, not all of them.
    Result<bool> hasJudgeScore(const QString &judge, const QString &aspect) const;
    /// One judge's scores of `aspect` as (item row key, score), missing scores left out: a scan of
    /// the judge's rows of its primary key, no id strings.
    Result<QVector<QPair<qint64, double>>> judgeScoresByKey(const QString &judge, const QString &aspect) const;
    /// The mean human score of one item for one aspect; NaN when it has none.
    Result<double> humanScore(const QString &itemId, const QString &aspect) const;
    /// The annotations `annotator` gave one item (aspect, score and note; no time).
    Result<QVector<Annotation>> itemAnnotations(const QString &itemId, const QString &annotator) const;
    /// Per item: how many aspects `annotator` scored (items without a score are absent).
    Result<QHash<QString, int>> scoredAspectsPerItem(const QString &annotator) const;
    /// The scores every judge gave one item, judge by judge in the order they were made (missing
    /// scores left out).
    Result<QVector<ItemJudgeScore>> itemJudgeScores(const QString &itemId) const;
    /// Every stored judge score of every item (missing scores left out).
    Result<QVector<ItemJudgeScore>> judgeScores() const;

private:
    const Project *m_project;
};

} // namespace rubric
