#pragma once

#include <QAbstractScrollArea>
#include <QPersistentModelIndex>
#include <QPointer>
#include <QStringList>
#include <QVector>

class QAbstractItemModel;

namespace rubric {

/// A custom-painted, virtualised heatmap of a table model (ScoreModel or a proxy over it):
/// rows are items, columns are scores. Only the visible cells are painted, so the cost of a
/// repaint depends on the viewport, not on the size of the model.
///
/// Reads ScoreModel's roles: ScoreRole / ResidualRole for the colour, ScaleMinRole /
/// ScaleMaxRole (horizontal header) for the colour scale, SplitRoleRole for the row marker.
/// Does not own the model. Clicking a column header emits `headerClicked` (the owner sorts);
/// clicking a cell (or Enter on the current cell) emits `cellActivated`.
class HeatmapView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    enum class ColourMode { Score, Residual };

    explicit HeatmapView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model);
    QAbstractItemModel *model() const { return m_model; }

    void setColourMode(ColourMode mode);
    ColourMode colourMode() const { return m_mode; }
    /// Shows the sort indicator on `column` (-1: none).
    void setSortIndicator(int column, Qt::SortOrder order);

    void setCellSize(const QSize &size);
    QSize cellSize() const { return {m_cellW, m_cellH}; }

    QModelIndex currentIndex() const { return m_current; }
    void setCurrentIndex(const QModelIndex &index);
    /// The model index under a viewport position, invalid over headers or empty space.
    QModelIndex indexAt(const QPoint &pos) const;
    /// The viewport rectangle of a cell (whether visible or not).
    QRect visualRect(const QModelIndex &index) const;
    /// The column whose header is at `pos`, or -1.
    int headerColumnAt(const QPoint &pos) const;
    void scrollTo(const QModelIndex &index);

    /// The colour a value gets on a scale (exposed for the legend and for tests).
    static QColor scoreColour(double value, double min, double max);
    static QColor residualColour(double residual, double span);

    QSize sizeHint() const override;

    /// What the row header shows for `row`: the item's id, group and system, each elided to its
    /// part of the header (parts the model leaves empty everywhere take no room).
    QStringList rowHeaderTexts(int row) const;
    /// The row header's tooltip: the id, group and system in full.
    QString rowToolTip(int row) const;
    int rowHeaderWidth() const { return m_rowHeaderW; }

signals:
    void cellActivated(const QModelIndex &index);
    void currentChanged(const QModelIndex &index);
    void headerClicked(int column);
    /// A double-click on a row's cell or header, or the context menu on it (`globalPos` for the
    /// menu; null point for the double-click): the HD-Eval item explanation opens from it.
    void rowRequested(int row, const QPoint &globalPos);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void onModelChanged();
    void updateScrollBars();
    int rowAt(const QPoint &pos) const; ///< the row under a viewport point (cell or row header), -1: none
    void readScales();
    void measureRowHeaders();
    void paintColumnHeaders(QPainter &p, int firstCol, int lastCol);
    void paintRowHeaders(QPainter &p, int firstRow, int lastRow);
    void paintLegend(QPainter &p);

    QPointer<QAbstractItemModel> m_model;
    ColourMode m_mode = ColourMode::Score;
    QPersistentModelIndex m_current;
    QVector<double> m_min;
    QVector<double> m_max;
    QVector<QString> m_headers;
    int m_cellW = 44;
    int m_cellH = 20;
    int m_rowHeaderW = 120;
    int m_idW = 40; ///< widths of the row header's parts (id, group, system); 0 = not shown
    int m_groupW = 0;
    int m_systemW = 0;
    int m_colHeaderH = 110;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace rubric
