#include "ImportanceBarDelegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

#include <algorithm>

namespace rubric {

ImportanceBarDelegate::ImportanceBarDelegate(int shareRole, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_role(shareRole)
{
}

void ImportanceBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    // background (the layer colour, the selection) first, the bar over it, the text last
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    // the style draws what initStyleOption filled (paint() would fill the text in again)
    QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const QVariant share = index.data(m_role);
    if (share.isValid()) {
        const double s = std::clamp(share.toDouble(), 0.0, 1.0);
        QRect bar = option.rect.adjusted(3, 4, -3, -4);
        bar.setWidth(std::max(s > 0 ? 2 : 0, int(bar.width() * s)));
        painter->save();
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(70, 130, 180, 170));
        painter->drawRect(bar);
        painter->restore();
    }
    painter->save();
    painter->setPen(option.palette.color(QPalette::Text));
    painter->drawText(option.rect.adjusted(4, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

QSize ImportanceBarDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(std::max(s.width(), 120));
    return s;
}

} // namespace rubric
