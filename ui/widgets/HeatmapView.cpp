#include "HeatmapView.h"

#include "PlainText.h"
#include "models/ScoreModel.h"

#include <QAbstractItemModel>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace rubric {
namespace {

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

bool isDark(const QColor &c)
{
    return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF() < 0.55;
}

constexpr int legendHeight = 12;

} // namespace

HeatmapView::HeatmapView(QWidget *parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    viewport()->setMouseTracking(true);
    horizontalScrollBar()->setObjectName(QStringLiteral("heatmapHScroll"));
    verticalScrollBar()->setObjectName(QStringLiteral("heatmapVScroll"));
}

QSize HeatmapView::sizeHint() const
{
    return {800, 600};
}

void HeatmapView::setModel(QAbstractItemModel *model)
{
    if (m_model == model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (m_model) {
        connect(m_model, &QAbstractItemModel::modelReset, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::layoutChanged, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::rowsInserted, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::rowsRemoved, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::columnsInserted, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::columnsRemoved, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::headerDataChanged, this, &HeatmapView::onModelChanged);
        connect(m_model, &QAbstractItemModel::dataChanged, viewport(), qOverload<>(&QWidget::update));
    }
    onModelChanged();
}

void HeatmapView::onModelChanged()
{
    readScales();
    measureRowHeaders();
    updateScrollBars();
    viewport()->update();
}

void HeatmapView::readScales()
{
    const int cols = m_model ? m_model->columnCount() : 0;
    m_min.resize(cols);
    m_max.resize(cols);
    m_headers.resize(cols);
    for (int c = 0; c < cols; ++c) {
        m_min[c] = m_model->headerData(c, Qt::Horizontal, ScoreModel::ScaleMinRole).toDouble();
        m_max[c] = m_model->headerData(c, Qt::Horizontal, ScoreModel::ScaleMaxRole).toDouble();
        if (!(m_max[c] > m_min[c]))
            m_max[c] = m_min[c] + 1;
        m_headers[c] = m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    }
}

void HeatmapView::measureRowHeaders()
{
    // Each part is as wide as its widest text up to a cap: SummEval's ids are short numbers, its
    // groups 50-character document hashes (elided; the tooltip has them in full).
    const QFontMetrics fm(font());
    int id = 0, group = 0, system = 0;
    // The first rows stand for the rest: a million labels are not measured (the widths are capped).
    const int rows = m_model ? std::min(m_model->rowCount(), 2000) : 0;
    for (int r = 0; r < rows; ++r) {
        const QModelIndex index = m_model->index(r, 0);
        id = std::max(id, fm.horizontalAdvance(index.data(ScoreModel::ItemIdRole).toString()));
        group = std::max(group, fm.horizontalAdvance(index.data(ScoreModel::GroupRole).toString()));
        system = std::max(system, fm.horizontalAdvance(index.data(ScoreModel::SystemRole).toString()));
    }
    const int em = fm.horizontalAdvance(QLatin1Char('M'));
    m_idW = std::clamp(id, 2 * em, 9 * em);
    m_groupW = group == 0 ? 0 : std::clamp(group, 2 * em, 11 * em);
    m_systemW = system == 0 ? 0 : std::clamp(system, 2 * em, 8 * em);
    const int gap = em / 2 + 4;
    m_rowHeaderW = 8 + m_idW + (m_groupW ? gap + m_groupW : 0) + (m_systemW ? gap + m_systemW : 0) + 6;
    m_rowHeaderW = std::max(m_rowHeaderW, 120); // the legend lives in the corner above
}

QStringList HeatmapView::rowHeaderTexts(int row) const
{
    if (!m_model || row < 0 || row >= m_model->rowCount())
        return {};
    const QFontMetrics fm(font());
    const QModelIndex index = m_model->index(row, 0);
    QStringList out{fm.elidedText(index.data(ScoreModel::ItemIdRole).toString(), Qt::ElideMiddle, m_idW)};
    if (m_groupW)
        out << fm.elidedText(index.data(ScoreModel::GroupRole).toString(), Qt::ElideRight, m_groupW);
    if (m_systemW)
        out << fm.elidedText(index.data(ScoreModel::SystemRole).toString(), Qt::ElideRight, m_systemW);
    return out;
}

QString HeatmapView::rowToolTip(int row) const
{
    if (!m_model || row < 0 || row >= m_model->rowCount())
        return {};
    const QModelIndex index = m_model->index(row, 0);
    QString tip = tr("Item %1").arg(index.data(ScoreModel::ItemIdRole).toString());
    if (const QString group = index.data(ScoreModel::GroupRole).toString(); !group.isEmpty())
        tip += QLatin1Char('\n') + tr("Group: %1").arg(group);
    if (const QString system = index.data(ScoreModel::SystemRole).toString(); !system.isEmpty())
        tip += QLatin1Char('\n') + tr("System: %1").arg(system);
    return tip;
}

void HeatmapView::setColourMode(ColourMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    viewport()->update();
}

void HeatmapView::setSortIndicator(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    viewport()->update();
}

void HeatmapView::setCellSize(const QSize &size)
{
    m_cellW = std::clamp(size.width(), 2, 200);
    m_cellH = std::clamp(size.height(), 2, 100);
    updateScrollBars();
    viewport()->update();
}

void HeatmapView::setCurrentIndex(const QModelIndex &index)
{
    if (index == m_current)
        return;
    const QRect old = visualRect(m_current);
    m_current = index;
    viewport()->update(old.adjusted(-2, -2, 2, 2));
    viewport()->update(visualRect(m_current).adjusted(-2, -2, 2, 2));
    emit currentChanged(m_current);
}

QModelIndex HeatmapView::indexAt(const QPoint &pos) const
{
    if (!m_model || pos.x() < m_rowHeaderW || pos.y() < m_colHeaderH)
        return {};
    const int col = (pos.x() - m_rowHeaderW + horizontalScrollBar()->value()) / m_cellW;
    const int row = (pos.y() - m_colHeaderH + verticalScrollBar()->value()) / m_cellH;
    if (row < 0 || col < 0 || row >= m_model->rowCount() || col >= m_model->columnCount())
        return {};
    return m_model->index(row, col);
}

QRect HeatmapView::visualRect(const QModelIndex &index) const
{
    if (!index.isValid())
        return {};
    return {m_rowHeaderW + index.column() * m_cellW - horizontalScrollBar()->value(),
            m_colHeaderH + index.row() * m_cellH - verticalScrollBar()->value(), m_cellW, m_cellH};
}

int HeatmapView::headerColumnAt(const QPoint &pos) const
{
    if (!m_model || pos.y() >= m_colHeaderH || pos.x() < m_rowHeaderW)
        return -1;
    const int col = (pos.x() - m_rowHeaderW + horizontalScrollBar()->value()) / m_cellW;
    return col < m_model->columnCount() ? col : -1;
}

void HeatmapView::scrollTo(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const QRect r = visualRect(index);
    const QRect area(m_rowHeaderW, m_colHeaderH, viewport()->width() - m_rowHeaderW,
                     viewport()->height() - m_colHeaderH);
    if (r.left() < area.left())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - (area.left() - r.left()));
    else if (r.right() > area.right())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + (r.right() - area.right()));
    if (r.top() < area.top())
        verticalScrollBar()->setValue(verticalScrollBar()->value() - (area.top() - r.top()));
    else if (r.bottom() > area.bottom())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + (r.bottom() - area.bottom()));
}

QColor HeatmapView::scoreColour(double value, double min, double max)
{
    // A perceptually ordered ramp (viridis stops) that stays readable for colour-blind readers.
    static const std::array<QColor, 5> stops
            = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
               QColor(0xfd, 0xe7, 0x25)};
    const double t = std::clamp((value - min) / (max - min), 0.0, 1.0) * double(stops.size() - 1);
    const int i = std::min(int(t), int(stops.size()) - 2);
    return mix(stops[size_t(i)], stops[size_t(i) + 1], t - i);
}

QColor HeatmapView::residualColour(double residual, double span)
{
    // Diverging: blue where the judge is below the human score, red where it is above.
    static const QColor below(0x21, 0x66, 0xac), zero(0xf7, 0xf7, 0xf7), above(0xb2, 0x18, 0x2b);
    const double t = std::clamp(residual / span, -1.0, 1.0);
    return t < 0 ? mix(zero, below, -t) : mix(zero, above, t);
}

void HeatmapView::updateScrollBars()
{
    const int rows = m_model ? m_model->rowCount() : 0;
    const int cols = m_model ? m_model->columnCount() : 0;
    const int w = viewport()->width() - m_rowHeaderW;
    const int h = viewport()->height() - m_colHeaderH;
    horizontalScrollBar()->setRange(0, std::max(0, cols * m_cellW - w));
    horizontalScrollBar()->setPageStep(std::max(1, w));
    horizontalScrollBar()->setSingleStep(m_cellW);
    verticalScrollBar()->setRange(0, std::max(0, rows * m_cellH - h));
    verticalScrollBar()->setPageStep(std::max(1, h));
    verticalScrollBar()->setSingleStep(m_cellH);
}

void HeatmapView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void HeatmapView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void HeatmapView::paintEvent(QPaintEvent *event)
{
    QPainter p(viewport());
    const QRect dirty = event->rect();
    p.fillRect(dirty, palette().base());
    if (!m_model)
        return;
    const int rows = m_model->rowCount();
    const int cols = m_model->columnCount();
    const int hs = horizontalScrollBar()->value();
    const int vs = verticalScrollBar()->value();

    // Only the cells that intersect the dirty rectangle are read and painted.
    const int left = std::max(dirty.left(), m_rowHeaderW);
    const int top = std::max(dirty.top(), m_colHeaderH);
    const int firstCol = std::max(0, (left - m_rowHeaderW + hs) / m_cellW);
    const int lastCol = std::min(cols - 1, (dirty.right() - m_rowHeaderW + hs) / m_cellW);
    const int firstRow = std::max(0, (top - m_colHeaderH + vs) / m_cellH);
    const int lastRow = std::min(rows - 1, (dirty.bottom() - m_colHeaderH + vs) / m_cellH);

    const bool text = m_cellW >= 30 && m_cellH >= 14;
    const int gap = (m_cellW >= 6 && m_cellH >= 6) ? 1 : 0;
    const QColor missing = palette().color(QPalette::Window);
    const int role = m_mode == ColourMode::Score ? int(ScoreModel::ScoreRole) : int(ScoreModel::ResidualRole);
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.85));
    p.setFont(small);

    p.save();
    p.setClipRect(QRect(m_rowHeaderW, m_colHeaderH, viewport()->width(), viewport()->height()) & dirty);
    for (int r = firstRow; r <= lastRow; ++r) {
        const int y = m_colHeaderH + r * m_cellH - vs;
        for (int c = firstCol; c <= lastCol; ++c) {
            const int x = m_rowHeaderW + c * m_cellW - hs;
            const QRect cell(x, y, m_cellW - gap, m_cellH - gap);
            // The human column has no residual: it keeps its score colours as the reference.
            const bool byScore = m_mode == ColourMode::Score || c == ScoreModel::HumanColumn;
            const QVariant v = m_model->index(r, c).data(byScore ? int(ScoreModel::ScoreRole) : role);
            if (!v.isValid()) {
                // Missing is hatched so that it never reads as a low score.
                p.fillRect(cell, missing);
                p.fillRect(cell, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
                continue;
            }
            const double value = v.toDouble();
            const QColor colour = byScore ? scoreColour(value, m_min.value(c), m_max.value(c))
                                          : residualColour(value, std::max(0.5, (m_max.value(c) - m_min.value(c)) / 2));
            p.fillRect(cell, colour);
            if (text) {
                p.setPen(isDark(colour) ? Qt::white : Qt::black);
                p.drawText(cell, Qt::AlignCenter, QString::number(value, 'f', 1));
            }
        }
    }
    // The separator between the human / judge columns and the criteria.
    const int sepX = m_rowHeaderW + ScoreModel::FirstCriterionColumn * m_cellW - hs - 1;
    if (cols > ScoreModel::FirstCriterionColumn)
        p.fillRect(QRect(sepX - 1, m_colHeaderH, 3, viewport()->height()), palette().color(QPalette::Base));
    if (m_current.isValid() && m_current.model() == m_model) {
        const QRect r = visualRect(m_current).adjusted(0, 0, -gap, -gap);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 3));
        p.drawRect(r.adjusted(1, 1, -2, -2));
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(r.adjusted(1, 1, -2, -2));
    }
    p.restore();

    if (dirty.top() < m_colHeaderH)
        paintColumnHeaders(p, std::max(0, hs / m_cellW),
                           std::min(cols - 1, (viewport()->width() - m_rowHeaderW + hs) / m_cellW));
    if (dirty.left() < m_rowHeaderW)
        paintRowHeaders(p, firstRow, lastRow);
    if (dirty.left() < m_rowHeaderW && dirty.top() < m_colHeaderH)
        paintLegend(p);
}

void HeatmapView::paintColumnHeaders(QPainter &p, int firstCol, int lastCol)
{
    const int hs = horizontalScrollBar()->value();
    p.save();
    p.setClipRect(QRect(m_rowHeaderW, 0, viewport()->width() - m_rowHeaderW, m_colHeaderH));
    p.fillRect(QRect(m_rowHeaderW, 0, viewport()->width(), m_colHeaderH), palette().window());
    const QFontMetrics fm(p.font());
    for (int c = firstCol; c <= lastCol; ++c) {
        const int x = m_rowHeaderW + c * m_cellW - hs;
        // an HD-Eval judge's columns are its nodes, grouped by layer: the layer colour behind the
        // label and a line where a layer starts
        if (const QVariant bg = m_model->headerData(c, Qt::Horizontal, Qt::BackgroundRole); bg.isValid()) {
            p.fillRect(QRect(x, 0, m_cellW, m_colHeaderH), bg.value<QColor>());
            const int group = m_model->headerData(c, Qt::Horizontal, ScoreModel::ColumnGroupRole).toInt();
            if (c > ScoreModel::FirstCriterionColumn
                && group != m_model->headerData(c - 1, Qt::Horizontal, ScoreModel::ColumnGroupRole).toInt()) {
                p.setPen(QPen(palette().color(QPalette::Dark), 2));
                p.drawLine(x, 0, x, m_colHeaderH);
            }
        }
        QString label = m_headers.value(c);
        if (c == m_sortColumn)
            label = (m_sortOrder == Qt::AscendingOrder ? QStringLiteral("▲ ") : QStringLiteral("▼ ")) + label;
        QFont f = p.font();
        f.setBold(c < ScoreModel::FirstCriterionColumn);
        p.setFont(f);
        p.setPen(palette().color(QPalette::WindowText));
        // Labels run bottom-up so long criterion keys fit in a narrow column.
        p.save();
        p.translate(x + m_cellW / 2 + fm.ascent() / 2 - 1, m_colHeaderH - 4);
        p.rotate(-90);
        p.drawText(0, 0, QFontMetrics(f).elidedText(label, Qt::ElideRight, m_colHeaderH - 8));
        p.restore();
        if (c == ScoreModel::FirstCriterionColumn - 1) {
            p.setPen(palette().color(QPalette::Mid));
            p.drawLine(x + m_cellW - 1, 0, x + m_cellW - 1, m_colHeaderH);
        }
    }
    p.restore();
}

void HeatmapView::paintRowHeaders(QPainter &p, int firstRow, int lastRow)
{
    const int vs = verticalScrollBar()->value();
    p.save();
    p.setClipRect(QRect(0, m_colHeaderH, m_rowHeaderW, viewport()->height() - m_colHeaderH));
    p.fillRect(QRect(0, m_colHeaderH, m_rowHeaderW, viewport()->height()), palette().window());
    const bool text = m_cellH >= 10;
    const QFontMetrics fm(p.font());
    static const QColor train(0xe6, 0x9f, 0x00), test(0x56, 0xb4, 0xe9);
    for (int r = firstRow; r <= lastRow; ++r) {
        const int y = m_colHeaderH + r * m_cellH - vs;
        const auto role = SplitRole(m_model->index(r, 0).data(ScoreModel::SplitRoleRole).toInt());
        if (role != SplitRole::None)
            p.fillRect(QRect(0, y, 4, m_cellH - (m_cellH >= 6 ? 1 : 0)), role == SplitRole::Train ? train : test);
        if (text) {
            const QStringList parts = rowHeaderTexts(r);
            const int gap = fm.horizontalAdvance(QLatin1Char('M')) / 2 + 4;
            int x = 8;
            for (qsizetype k = 0; k < parts.size(); ++k) {
                const int w = k == 0 ? m_idW : (k == 1 && m_groupW ? m_groupW : m_systemW);
                // The id reads first; group and system are context, a shade lighter.
                p.setPen(palette().color(k == 0 ? QPalette::WindowText : QPalette::PlaceholderText));
                p.drawText(QRect(x, y, w, m_cellH), Qt::AlignVCenter | Qt::AlignLeft, parts.at(k));
                x += w + gap;
            }
        }
    }
    p.restore();
}

void HeatmapView::paintLegend(QPainter &p)
{
    const QRect corner(0, 0, m_rowHeaderW, m_colHeaderH);
    p.fillRect(corner, palette().window());
    const QRect bar(8, m_colHeaderH - legendHeight - 24, m_rowHeaderW - 16, legendHeight);
    for (int x = 0; x < bar.width(); ++x) {
        const double t = double(x) / std::max(1, bar.width() - 1);
        const QColor c = m_mode == ColourMode::Score ? scoreColour(t, 0, 1) : residualColour(2 * t - 1, 1);
        p.fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()), c);
    }
    p.setPen(palette().color(QPalette::WindowText));
    const QRect labels(bar.left(), bar.bottom() + 2, bar.width(), 18);
    if (m_mode == ColourMode::Score) {
        p.drawText(labels, Qt::AlignLeft | Qt::AlignTop, tr("low"));
        p.drawText(labels, Qt::AlignRight | Qt::AlignTop, tr("high"));
    } else {
        p.drawText(labels, Qt::AlignLeft | Qt::AlignTop, tr("below"));
        p.drawText(labels, Qt::AlignRight | Qt::AlignTop, tr("above"));
    }
    p.drawText(QRect(bar.left(), 4, bar.width(), bar.top() - 6), Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap,
               m_mode == ColourMode::Score ? tr("Score") : tr("Judge − human"));
}

void HeatmapView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mousePressEvent(event);
    const QPoint pos = event->position().toPoint();
    if (const int col = headerColumnAt(pos); col >= 0) {
        emit headerClicked(col);
        return;
    }
    const QModelIndex index = indexAt(pos);
    if (index.isValid()) {
        setCurrentIndex(index);
        emit cellActivated(index);
    }
}

int HeatmapView::rowAt(const QPoint &pos) const
{
    if (!m_model || pos.y() < m_colHeaderH || m_cellH <= 0)
        return -1;
    const int row = (pos.y() - m_colHeaderH + verticalScrollBar()->value()) / m_cellH;
    return row < m_model->rowCount() ? row : -1;
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (const int row = rowAt(event->position().toPoint()); row >= 0 && event->button() == Qt::LeftButton)
        emit rowRequested(row, QPoint());
    else
        QAbstractScrollArea::mouseDoubleClickEvent(event);
}

void HeatmapView::contextMenuEvent(QContextMenuEvent *event)
{
    if (const int row = rowAt(event->pos()); row >= 0)
        emit rowRequested(row, event->globalPos());
    else
        QAbstractScrollArea::contextMenuEvent(event);
}

void HeatmapView::keyPressEvent(QKeyEvent *event)
{
    if (!m_model || m_model->rowCount() == 0 || m_model->columnCount() == 0)
        return QAbstractScrollArea::keyPressEvent(event);
    int row = m_current.isValid() ? m_current.row() : 0;
    int col = m_current.isValid() ? m_current.column() : 0;
    const int pageRows = std::max(1, (viewport()->height() - m_colHeaderH) / m_cellH - 1);
    switch (event->key()) {
    case Qt::Key_Up:
        --row;
        break;
    case Qt::Key_Down:
        ++row;
        break;
    case Qt::Key_Left:
        --col;
        break;
    case Qt::Key_Right:
        ++col;
        break;
    case Qt::Key_PageUp:
        row -= pageRows;
        break;
    case Qt::Key_PageDown:
        row += pageRows;
        break;
    case Qt::Key_Home:
        row = 0;
        break;
    case Qt::Key_End:
        row = m_model->rowCount() - 1;
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (m_current.isValid())
            emit cellActivated(m_current);
        return;
    default:
        return QAbstractScrollArea::keyPressEvent(event);
    }
    const QModelIndex next = m_model->index(std::clamp(row, 0, m_model->rowCount() - 1),
                                            std::clamp(col, 0, m_model->columnCount() - 1));
    setCurrentIndex(next);
    scrollTo(next);
}

void HeatmapView::wheelEvent(QWheelEvent *event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        // Ctrl+wheel zooms: cells shrink down to pixels for an overview of thousands of items.
        const double f = event->angleDelta().y() > 0 ? 1.25 : 0.8;
        setCellSize(QSize(int(std::lround(m_cellW * f)), int(std::lround(m_cellH * f))));
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

bool HeatmapView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_model) {
        auto *help = static_cast<QHelpEvent *>(event);
        QString tip;
        const QPoint pos = help->pos();
        if (const int col = headerColumnAt(pos); col >= 0)
            tip = plain::toolTip(m_model->headerData(col, Qt::Horizontal, Qt::ToolTipRole).toString());
        else if (pos.x() < m_rowHeaderW && pos.y() >= m_colHeaderH && m_cellH > 0)
            tip = plain::toolTip(rowToolTip((pos.y() - m_colHeaderH + verticalScrollBar()->value()) / m_cellH));
        else if (const QModelIndex index = indexAt(help->pos()); index.isValid())
            tip = index.data(Qt::ToolTipRole).toString();
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace rubric
