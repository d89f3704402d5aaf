#pragma once

#include <QDialog>

class QLabel;
class QTabWidget;

namespace rubric {

class Project;

/// HD-Eval's efficiency curves and contribution summary for a finished judge, from its stored node
/// scores (0 calls): the data-efficiency curve (test r against the number of training items, mean
/// and ±1 sd over seeds), the criteria-efficiency curve (test r against the number of nodes kept,
/// ranked by cross-validated importance on the train split) and a SHAP-style summary (each node's
/// mean |contribution| over the test items, and a beeswarm of the items' contributions coloured by
/// the node's score). Tabs: "efficiencyData", "efficiencyCriteria", "efficiencyShap".
class EfficiencyDialog : public QDialog
{
    Q_OBJECT

public:
    EfficiencyDialog(Project *project, const QString &judge, QWidget *parent = nullptr);
    QTabWidget *tabs() const { return m_tabs; }

private:
    QTabWidget *m_tabs;
    QLabel *m_note;
};

} // namespace rubric
