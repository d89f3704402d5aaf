#include "StageCountTable.h"

#include "methods/checkeval/Checklist.h"

#include <QFont>
#include <QHeaderView>

#include <algorithm>

namespace rubric {

StageCountTable::StageCountTable(QWidget *parent)
    : QTableWidget(parent)
{
    setColumnCount(ColumnCount);
    setHorizontalHeaderLabels({tr("Seeds"), tr("After diversification"), tr("After elaboration"),
                               tr("Removed by the filter"), tr("Final")});
    horizontalHeaderItem(Seeds)->setToolTip(tr("Questions written as seeds (by people or the paper)"));
    horizontalHeaderItem(AfterDiversification)->setToolTip(tr("Seeds plus the questions diversification added"));
    horizontalHeaderItem(AfterElaboration)->setToolTip(tr("Seeds, diversification and elaboration questions"));
    horizontalHeaderItem(Removed)->setToolTip(tr("Questions the filter removed (kept disabled, with the reason)"));
    horizontalHeaderItem(Final)->setToolTip(tr("The questions the judge asks (enabled)"));
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setToolTip(tr("Questions per stage of the checklist's construction (as in the CheckEval paper's Tables 17–18)"));
}

void StageCountTable::setRubric(const Rubric &rubric)
{
    setRowCount(0);
    const QVector<Criterion> subAspects = rubric.ofKind(CriterionKind::SubAspect);
    if (subAspects.isEmpty() && rubric.ofKind(CriterionKind::Question).isEmpty())
        return;
    // One row per sub-aspect: the rubric restricted to it, so the counts follow the same rule.
    QVector<QPair<QString, StageCounts>> rows;
    for (const Criterion &s : subAspects) {
        Rubric part(rubric.method(), rubric.aspect());
        for (const Criterion &c : rubric.criteria())
            if (c.kind == CriterionKind::Question && c.parentKey == s.key)
                part.add(c);
        rows.append({s.text, Checklist::stageCounts(part)});
    }
    rows.append({tr("All sub-aspects"), Checklist::stageCounts(rubric)});
    setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        const StageCounts &n = rows[r].second;
        auto *header = new QTableWidgetItem(rows[r].first);
        header->setToolTip(rows[r].first);
        setVerticalHeaderItem(r, header);
        const int values[ColumnCount] = {n.seeds, n.seeds + n.diversification,
                                         n.seeds + n.diversification + n.elaboration, n.removed, n.final};
        for (int c = 0; c < ColumnCount; ++c) {
            auto *item = new QTableWidgetItem(QString::number(values[c]));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (r == rows.size() - 1) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            setItem(r, c, item);
        }
    }
}

QSize StageCountTable::sizeHint() const
{
    const int rows = std::min(rowCount(), 6);
    int h = horizontalHeader()->height() + 2 * frameWidth();
    for (int r = 0; r < rows; ++r)
        h += rowHeight(r);
    return {QTableWidget::sizeHint().width(), h};
}

} // namespace rubric
