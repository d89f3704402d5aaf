#pragma once

#include "rubric/Rubric.h"

#include <QTableWidget>

namespace rubric {

/// A checklist's questions per stage of CheckEval's pipeline, like the paper's Tables 17–18:
/// one row per sub-aspect and a total row; columns seeds, after diversification, after
/// elaboration (cumulative), removed by the filter and final (enabled). Counts come from
/// Checklist::stageCounts(); questions with no known stage are counted in "final" only.
class StageCountTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Column { Seeds, AfterDiversification, AfterElaboration, Removed, Final, ColumnCount };

    explicit StageCountTable(QWidget *parent = nullptr);

    /// Fills the table from `rubric` (a checklist; other rubrics leave it empty).
    void setRubric(const Rubric &rubric);
    QSize sizeHint() const override;
};

} // namespace rubric
