#pragma once

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
/// Holds a pointer to the Project (not owned) and a compact row per item (id, labels, split, human
/// means: no text). The beginnings of the texts are read for the rows a view shows, a page of
/// rows at a time, and a few hundred pages are kept; a million rows stay small. Follows the project's change signals:
/// appended items become rowsInserted, a shortened list rowsRemoved, anything else a reset; annotation and split
/// changes become dataChanged. GUI thread only.
class ItemsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { IdColumn, GroupColumn, SystemColumn, SplitColumn, SourceColumn, OutputColumn, FirstAspectColumn };
    enum Role {
        ItemIdRole = Qt::UserRole + 1, ///< the item's id (any column)
        SortRole,                      ///< numbers as numbers, missing scores last
    };

    /// One cached row.
    struct Row
    {
        QString id;
        QString group;
        QString system;
        QString split;         ///< "train", "test" or empty
        int position = 0;      ///< the item's position in the project (pages of texts are read by it)
        QVector<double> human; ///< per aspect (column order); NaN when unannotated
    };
    static constexpr int previewLength = 300;

    explicit ItemsModel(QObject *parent = nullptr);

    /// Binds to `project` (may be null) and loads it; the model follows it until rebound.
    void setProject(Project *project);
    Project *project() const { return m_project; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const Row &row(int r) const { return m_rows.at(r); }
    /// The first previewLength characters of row `r`'s source or output, whitespace collapsed
    /// (read with its page of rows when not at hand).
    QString preview(int r, Column column) const;
    /// Per row: whether its id, group, system, source or output contains `text` (any case), as
    /// the database finds it in the whole texts; an empty text matches every row. The error says
    /// why the texts could not be searched.
    Result<QVector<bool>> rowsContaining(const QString &text) const;
    /// Row of the item with `id`, or -1.
    int rowOf(const QString &id) const { return m_rowById.value(id, -1); }
    QStringList aspectNames() const { return m_aspects; }
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
    void reloadHumanScores();
    void reloadSplit();
    Result<QVector<Row>> readRows(int fromPosition) const;
    void reindex();
    void resetAll();
    /// Records a failed read and reports it (loadFailed); true when `r` failed.
    template <typename T> bool failed(const Result<T> &r) { return !r.ok() && report(r.error()); }
    bool report(const Error &error);

    /// A page of previews: rows [page * kPageRows, …) → (source, output).
    static constexpr int kPageRows = 256;
    static constexpr int kPagesKept = 256;
    const QVector<QPair<QString, QString>> *page(int page) const;

    QPointer<Project> m_project;
    mutable QHash<int, QVector<QPair<QString, QString>>> m_pages;
    mutable QList<int> m_pageOrder; ///< least recently read first
    QStringList m_aspects;
    QVector<Row> m_rows;
    QHash<QString, int> m_rowById;
    QString m_loadError;
};

} // namespace rubric
