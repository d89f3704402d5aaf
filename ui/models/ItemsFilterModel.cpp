#include "ItemsFilterModel.h"

#include "ItemsModel.h"

namespace rubric {

ItemsFilterModel::ItemsFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    m_collator.setNumericMode(true);
    m_collator.setCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(ItemsModel::SortRole);
}

void ItemsFilterModel::setItemsModel(ItemsModel *model)
{
    m_items = model;
    setSourceModel(model);
}

void ItemsFilterModel::update(QString &field, const QString &value)
{
    if (field == value)
        return;
    field = value;
    invalidateRowsFilter();
}

void ItemsFilterModel::setText(const QString &text)
{
    update(m_text, text.trimmed());
}

void ItemsFilterModel::setGroup(const QString &group)
{
    update(m_group, group);
}

void ItemsFilterModel::setSystem(const QString &system)
{
    update(m_system, system);
}

void ItemsFilterModel::setSplit(const QString &split)
{
    update(m_split, split);
}

bool ItemsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    if (!m_items)
        return true;
    const ItemsModel::Row &r = m_items->row(sourceRow);
    if (!m_group.isEmpty() && r.group != m_group)
        return false;
    if (!m_system.isEmpty() && r.system != m_system)
        return false;
    if (!m_split.isEmpty()) {
        if (m_split == QLatin1String("none") ? !r.split.isEmpty() : r.split != m_split)
            return false;
    }
    if (m_text.isEmpty())
        return true;
    for (const QString *s : {&r.id, &r.group, &r.system, &r.output, &r.source})
        if (s->contains(m_text, Qt::CaseInsensitive))
            return true;
    return false;
}

bool ItemsFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(sortRole());
    const QVariant r = right.data(sortRole());
    if (l.typeId() == QMetaType::Double && r.typeId() == QMetaType::Double)
        return l.toDouble() < r.toDouble();
    return m_collator.compare(l.toString(), r.toString()) < 0;
}

} // namespace rubric
