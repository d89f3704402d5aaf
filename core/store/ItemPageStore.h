#pragma once

#include "data/Annotation.h"
#include "util/Result.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace rubric {

class Project;

/// How a paged list of items is filtered and ordered: every criterion is applied by the database.
struct ItemView
{
    enum class Sort { Position, Id, Group, System, Split, Source, Output, Human };

    QString text;   ///< in the id, group, system, source or output (ASCII letters in any case); empty: any
    QString group;  ///< exactly this group; empty: any
    QString system; ///< exactly this system; empty: any
    QString split;  ///< "train", "test", "none" (unassigned) or empty for all
    Sort sort = Sort::Position;
    QString sortAspect; ///< the aspect whose mean human score Sort::Human orders by
    bool descending = false;
};

/// One item as a page of a list shows it: labels, split, mean human scores and the beginnings of
/// its source and output.
struct ItemPageRow
{
    qint64 key = -1; ///< the item's row in the items table (ItemPageStore::order)
    QString id;
    QString group;
    QString system;
    SplitRole split = SplitRole::None;
    QVector<double> human; ///< per aspect asked for; NaN where the item has none
    QString source;        ///< the first characters of the source, as stored
    QString output;        ///< the first characters of the output, as stored
};

/// The reads of a list that pages through a million items: the order of the items a view shows
/// (their keys only, 8 bytes an item) and the rows of one page of it. Sorting and filtering,
/// text search included, are done by the database. Ids, groups and systems sort naturally
/// ("i2" before "i10", any case) on SQLite (a collation this store registers on the connection);
/// on PostgreSQL by the server's collation. Missing human scores sort last in both directions;
/// equal keys keep import order. A thin view over a Project (not owned; must outlive the store),
/// on the calling thread's connection. Errors carry the database's own message.
class ItemPageStore
{
public:
    explicit ItemPageStore(const Project *project);

    /// The keys of the items `view` lets through, in its order.
    Result<QVector<qint64>> order(const ItemView &view) const;
    /// The rows of the items with `keys`, in the order of `keys` (keys of no item are left out),
    /// with the mean human score of each of `aspects` and texts cut to `previewLength` characters.
    Result<QVector<ItemPageRow>> rows(const QVector<qint64> &keys, const QStringList &aspects, int previewLength) const;
    /// The key of the item with external id `id`; -1 when there is none.
    Result<qint64> keyOf(const QString &id) const;

    /// Natural order of UTF-8 texts as the collation compares them: digit runs as numbers, other
    /// ASCII letters in any case, other bytes as they are.
    static int naturalCompare(const QByteArray &a, const QByteArray &b);

private:
    const Project *m_project;
};

} // namespace rubric
