#include "ScoreFilterModel.h"

#include "ScoreModel.h"

namespace rubric {

ScoreFilterModel::ScoreFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ScoreModel::ScoreRole);
    setDynamicSortFilter(true);
}

void ScoreFilterModel::setSplitFilter(SplitFilter filter)
{
    if (filter == m_split)
        return;
    m_split = filter;
    invalidateRowsFilter();
}

bool ScoreFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_split == SplitFilter::All)
        return true;
    const auto role
            = SplitRole(sourceModel()->index(sourceRow, 0, sourceParent).data(ScoreModel::SplitRoleRole).toInt());
    return m_split == SplitFilter::Train ? role == SplitRole::Train : role == SplitRole::Test;
}

bool ScoreFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(sortRole());
    const QVariant r = right.data(sortRole());
    // Missing scores stay at the bottom whichever way the column is sorted.
    if (!l.isValid() || !r.isValid()) {
        if (l.isValid() == r.isValid())
            return false;
        return (sortOrder() == Qt::AscendingOrder) ? l.isValid() : r.isValid();
    }
    return l.toDouble() < r.toDouble();
}

} // namespace rubric
