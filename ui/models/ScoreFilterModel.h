#pragma once

#include "data/Annotation.h"

#include <QSortFilterProxyModel>

namespace rubric {

/// Sorts and filters a ScoreModel for display: split filter (all / train / test) and sort by
/// any column's score, items lacking a score kept last in either direction. Owns nothing; GUI thread.
class ScoreFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ScoreFilterModel(QObject *parent = nullptr);

    void setSplitFilter(SplitFilter filter);
    SplitFilter splitFilter() const { return m_split; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    SplitFilter m_split = SplitFilter::All;
};

} // namespace rubric
