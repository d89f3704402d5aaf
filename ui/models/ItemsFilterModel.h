#pragma once

#include <QIdentityProxyModel>

namespace rubric {

class ItemsModel;

/// The Dataset pane's face of an ItemsModel: the filter by free text (id, group, system, source
/// and output, ASCII letters in any case, in the whole texts) and by exact group, system and split,
/// and the sort by any column (ids and scores naturally: 2 before 10), all handed to the model,
/// which has the database do them (a million rows are never sorted or filtered in memory).
/// An empty criterion lets everything through. GUI thread only.
class ItemsFilterModel : public QIdentityProxyModel
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
    /// Sorts by `column` (-1: import order), in the database.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    QString text() const { return m_text; }
    /// Why the last filtered read failed (then no rows are shown); empty after a good one.
    QString searchError() const;

private:
    void update(QString &field, const QString &value);

    ItemsModel *m_items = nullptr;
    QString m_text, m_group, m_system, m_split;
};

} // namespace rubric
