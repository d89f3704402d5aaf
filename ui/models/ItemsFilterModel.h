#pragma once

#include <QSortFilterProxyModel>

namespace rubric {

class ItemsModel;

/// Filters an ItemsModel by free text (id, group, system, source and output, ASCII letters in any
/// case, searched by the database in the whole texts) and by exact group, system and split; sorts
/// ids and scores naturally (2 before 10).
/// An empty criterion lets everything through. GUI thread only.
class ItemsFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ItemsFilterModel(QObject *parent = nullptr);

    void setItemsModel(ItemsModel *model);

    void setText(const QString &text);
    void setGroup(const QString &group);
    void setSystem(const QString &system);
    /// "train", "test", "none" (unassigned) or empty for all.
    void setSplit(const QString &split);

    QString text() const { return m_text; }
    /// Why the last text search failed (the rows then match on id, group and system only); empty
    /// after a good one.
    QString searchError() const { return m_searchError; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

public:
    /// Natural order: digit runs compare as numbers ("i2" < "i10"), the rest case-insensitively.
    static int naturalCompare(const QString &a, const QString &b);

private:
    void update(QString &field, const QString &value);

    /// The rows whose texts contain m_text, searched once per text and model state.
    bool textMatches(int sourceRow) const;

    ItemsModel *m_items = nullptr;
    QString m_text, m_group, m_system, m_split;
    mutable QVector<bool> m_matches;
    mutable QString m_matchesFor;
    mutable bool m_matchesStale = true;
    mutable QString m_searchError;
};

} // namespace rubric
