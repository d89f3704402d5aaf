#pragma once

#include "store/ItemPageStore.h"
#include "store/Project.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QVector>

namespace rubric {

/// The project's items as a table: id, group, system, split, source, output, then one column per
/// aspect with the item's mean human score.
///
/// Paged: holds a pointer to the Project (not owned), the keys of the items shown in their order
/// (8 bytes an item, read by the database with the filter and the sort applied: rowCount is their
/// number), and a small cache of pages of rows (labels, split, human means, the beginnings of the
/// texts) read for the rows a view asks for; at most kPagesKept × kPageRows rows are held, however
/// many items the project has. Filtering (setView) and sorting (sort) are done by the database,
/// text search in the whole texts included. Follows the project's change signals: appended items
/// become rowsInserted, a shortened list rowsRemoved, anything else a reset; annotation and split
/// changes become dataChanged (a row stays where it is until the next sort). GUI thread only.
class ItemsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IdColumn, GroupColumn, SystemColumn, SplitColumn, SourceColumn, OutputColumn, FirstAspectColumn };
    enum Role {
        ItemIdRole = Qt::UserRole + 1, ///< the item's id (any column)
    };

    /// One row as a page holds it.
    struct Row
    {
        QString id;
        QString group;
        QString system;
        QString split;         ///< "train", "test" or empty
        QVector<double> human; ///< per aspect (column order); NaN when unannotated
        QString source;        ///< the first previewLength characters, whitespace collapsed
        QString output;
    };
    static constexpr int previewLength = 300;
    static constexpr int kPageRows = 128;
    static constexpr int kPagesKept = 32;

    explicit ItemsModel(QObject *parent = nullptr);

    /// Binds to `project` (may be null) and loads it; the model follows it until rebound.
    void setProject(Project *project);
    Project *project() const { return m_project; }

    /// Shows the items `view` lets through in its order (its sort fields are replaced by sort()'s).
    void setView(const ItemView &view);
    ItemView view() const { return m_view; }
    /// Sorts by `column` (-1: import order); missing human scores last either way.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Row `r` (read with its page when not at hand; an empty row when it cannot be read).
    Row row(int r) const;
    /// The beginning of row `r`'s source or output, whitespace collapsed.
    QString preview(int r, Column column) const;
    /// Row of the item with `id` in what is shown, or -1 (not in the project, or filtered out).
    int rowOf(const QString &id) const;
    /// Whether the project has an item with `id` (shown or filtered out).
    bool contains(const QString &id) const;
    QStringList aspectNames() const { return m_aspects; }
    /// Rows held in the page cache now (at most kPagesKept × kPageRows).
    int cachedRows() const;
    /// Why the last read failed (the project could not be read), empty after a good read.
    QString loadError() const { return m_loadError; }

signals:
    /// Reading the project failed: what is shown is incomplete (no rows after a failed reset)
    /// and `message` says why.
    void loadFailed(const QString &message);

public slots:
    /// Re-reads the items and reports the difference as inserts, removals or a reset.
    void reloadItems();

private:
    void onAnnotationChanged(const QString &itemId, const QString &aspect);
    void dropPagesAndRepaint(int firstColumn, int lastColumn);
    void onSplitChanged();
    void resetAll();
    /// Reads the order again and resets the rows to it.
    void reorder();
    bool report(const Error &error);
    const QVector<Row> *page(int number) const;

    QPointer<Project> m_project;
    ItemView m_view;
    QStringList m_aspects;
    QVector<qint64> m_order; ///< the keys of the rows shown, in their order
    mutable QHash<int, QVector<Row>> m_pages;
    mutable QList<int> m_pageOrder; ///< least recently read first
    QString m_loadError;
};

} // namespace rubric
