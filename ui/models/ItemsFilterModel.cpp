#include "ItemsFilterModel.h"

#include "ItemsModel.h"

namespace rubric {

ItemsFilterModel::ItemsFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ItemsModel::SortRole);
}

void ItemsFilterModel::setItemsModel(ItemsModel *model)
{
    if (m_items)
        disconnect(m_items, nullptr, this, nullptr);
    m_items = model;
    m_matchesStale = true;
    // The rows change: the search is made again for them. Connected before the proxy's own
    // handlers, which filter the new rows.
    if (m_items) {
        const auto stale = [this] { m_matchesStale = true; };
        connect(m_items, &QAbstractItemModel::modelAboutToBeReset, this, stale);
        connect(m_items, &QAbstractItemModel::rowsAboutToBeInserted, this, stale);
        connect(m_items, &QAbstractItemModel::rowsAboutToBeRemoved, this, stale);
    }
    setSourceModel(model);
}

bool ItemsFilterModel::textMatches(int sourceRow) const
{
    if (m_matchesStale || m_matchesFor != m_text || m_matches.size() != m_items->rowCount()) {
        m_matchesStale = false;
        m_matchesFor = m_text;
        auto found = m_items->rowsContaining(m_text);
        m_searchError = found ? QString() : found.errorString();
        m_matches = found ? std::move(found).value() : QVector<bool>(m_items->rowCount(), false);
    }
    if (sourceRow < m_matches.size() && m_matches.at(sourceRow))
        return true;
    if (!m_searchError.isEmpty()) { // the texts could not be searched: the labels still can
        const ItemsModel::Row &r = m_items->row(sourceRow);
        for (const QString *s : {&r.id, &r.group, &r.system})
            if (s->contains(m_text, Qt::CaseInsensitive))
                return true;
    }
    return false;
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
    return m_text.isEmpty() || textMatches(sourceRow);
}

bool ItemsFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(sortRole());
    const QVariant r = right.data(sortRole());
    if (l.typeId() == QMetaType::Double && r.typeId() == QMetaType::Double)
        return l.toDouble() < r.toDouble();
    return naturalCompare(l.toString(), r.toString()) < 0;
}

// QCollator's numeric mode depends on ICU and the locale (it is off under the C locale), so
// the order is done here.
int ItemsFilterModel::naturalCompare(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            // Compare digit runs by value: strip leading zeros, then length, then digits.
            qsizetype si = i, sj = j;
            while (si + 1 < ei && a[si] == QLatin1Char('0'))
                ++si;
            while (sj + 1 < ej && b[sj] == QLatin1Char('0'))
                ++sj;
            if (ei - si != ej - sj)
                return ei - si < ej - sj ? -1 : 1;
            if (const int c = QStringView(a).mid(si, ei - si).compare(QStringView(b).mid(sj, ej - sj)); c != 0)
                return c;
            i = ei;
            j = ej;
            continue;
        }
        const QChar ca = a[i].toCaseFolded(), cb = b[j].toCaseFolded();
        if (ca != cb)
            return ca < cb ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size())
        return 1;
    if (j < b.size())
        return -1;
    return 0;
}

} // namespace rubric
