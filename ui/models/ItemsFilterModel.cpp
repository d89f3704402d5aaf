#include "ItemsFilterModel.h"

#include "ItemsModel.h"

namespace rubric {

ItemsFilterModel::ItemsFilterModel(QObject *parent)
    : QIdentityProxyModel(parent)
{
}

void ItemsFilterModel::setItemsModel(ItemsModel *model)
{
    m_items = model;
    setSourceModel(model);
    if (m_items) {
        ItemView view = m_items->view();
        view.text = m_text;
        view.group = m_group;
        view.system = m_system;
        view.split = m_split;
        m_items->setView(view);
    }
}

void ItemsFilterModel::update(QString &field, const QString &value)
{
    if (field == value)
        return;
    field = value;
    if (!m_items)
        return;
    ItemView view = m_items->view();
    view.text = m_text;
    view.group = m_group;
    view.system = m_system;
    view.split = m_split;
    m_items->setView(view);
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

void ItemsFilterModel::sort(int column, Qt::SortOrder order)
{
    if (m_items)
        m_items->sort(column, order);
}

QString ItemsFilterModel::searchError() const
{
    return m_items ? m_items->loadError() : QString();
}

} // namespace rubric
