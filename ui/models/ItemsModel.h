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
/// Holds a pointer to the Project (not owned) and a light cache of each row (ids and the first
/// few hundred characters of the texts, so 100k rows stay small); full texts are read from the
/// project on demand. Follows the project's change signals: appended items become
/// rowsInserted, a shortened list rowsRemoved, anything else a reset; annotation and split
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
        QString split;  ///< "train", "test" or empty
        QString source; ///< preview: the first previewLength characters, whitespace collapsed
        QString output;
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

    QPointer<Project> m_project;
    QStringList m_aspects;
    QVector<Row> m_rows;
    QHash<QString, int> m_rowById;
    QString m_loadError;
};

} // namespace rubric
