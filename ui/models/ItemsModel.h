#pragma once

#include "store/ItemPageStore.h"
#include "store/Project.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
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
/// text search in the whole texts included, on the thread pool (seconds at a million items): the
/// rows of the previous order stay shown, busy() is true meanwhile, and requests that come while
/// one is read are answered by one more read once it is done (the latest filter and sort). A
/// project bound or unbound waits for a read in flight. Follows the project's change signals: appended items
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
    ~ItemsModel() override;

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
    /// Whether a sort or filter is being read (the rows shown are those of the one before).
    bool busy() const { return m_reading; }

signals:
    /// Reading the project failed: what is shown is incomplete (no rows after a failed reset)
    /// and `message` says why.
    void loadFailed(const QString &message);
    /// A sort or filter started being read (true), or its rows are shown (false).
    void busyChanged(bool busy);

public slots:
    /// Re-reads the items and reports the difference as inserts, removals or a reset.
    void reloadItems();

private:
    void onAnnotationChanged(const QString &itemId, const QString &aspect);
    void dropPagesAndRepaint(int firstColumn, int lastColumn);
    void onSplitChanged();
    void resetAll();
    /// What a read of the order answers: a filter resets the rows, a sort moves them.
    enum class Change { Sort, Filter };
    /// Reads the order of m_view on the thread pool (or once the read in flight is done).
    void reorder(Change change = Change::Filter);
    void startRead();
    void onOrderRead();
    void applySort(QVector<qint64> order);
    void applyFilter(QVector<qint64> order);
    /// Waits for a read in flight and drops its result (before the project goes).
    void dropRead();
    void setReading(bool reading);
    bool report(const Error &error);
    const QVector<Row> *page(int number) const;

    QPointer<Project> m_project;
    ItemView m_view;
    QStringList m_aspects;
    QVector<qint64> m_order; ///< the keys of the rows shown, in their order
    mutable QHash<int, QVector<Row>> m_pages;
    mutable QList<int> m_pageOrder; ///< least recently read first
    QString m_loadError;
    QFutureWatcher<Result<QVector<qint64>>> m_read;
    quint64 m_generation = 0;     ///< bumped when the rows are replaced without m_read (a read of before is dropped)
    bool m_reading = false;       ///< busy(): a read is in flight
    bool m_readAgain = false;     ///< m_view changed while a read was in flight
    bool m_filterPending = false; ///< a filter change waits for the next read
    bool m_readFilter = false;    ///< the read in flight answers a filter change
};

} // namespace rubric
