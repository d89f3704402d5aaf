#pragma once

#include <QStyledItemDelegate>

namespace rubric {

/// Paints a horizontal bar behind a cell's text whose length is the index's `shareRole` value
/// (0…1; no value: no bar): the HD-Eval tree's permutation importance beside each node.
class ImportanceBarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    ImportanceBarDelegate(int shareRole, QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    int m_role;
};

} // namespace rubric
