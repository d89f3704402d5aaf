#pragma once

#include <QVector>
#include <QWidget>

class QChart;
class QLabel;

namespace rubric {

namespace hpss {
class JudgeView;
}

/// The per-factor statistics of an HPSS search (spec hpss.md §6): one QtCharts bar chart per
/// factor with, for each of its values, the advantage A (Spearman × 100 over the factor's mean),
/// the exploration count N and the appearance count M. GUI thread only.
class HpssAdvantageView : public QWidget
{
    Q_OBJECT
public:
    explicit HpssAdvantageView(QWidget *parent = nullptr);

    /// Shows `view`'s tables (nullptr: empty). The view is read during the call only.
    void setView(const hpss::JudgeView *view);

    /// The chart of factor `i` (Table 1 order).
    QChart *chart(int i) const { return m_charts.at(i); }

private:
    /// What the bars are: Spearman × 100, or accuracy × 100 in the pairwise setting.
    static QString noteText(bool pairwise);

    QVector<QChart *> m_charts;
    QLabel *m_note;
};

} // namespace rubric
