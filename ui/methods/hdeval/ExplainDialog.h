#pragma once

#include "methods/hdeval/HdEvalExplain.h"

#include <QDialog>

class QChart;
class QChartView;
class QLabel;

namespace rubric {

class Project;

/// One item's HD-Eval score node by node (hdeval::explainItem): the prediction as the base plus
/// each node's contribution, drawn as horizontal bars (positive right, negative left; coloured by
/// the node's layer), largest first. Opened from the heatmap on an HD-Eval judge's item row.
/// Sends nothing; a failure (not a fitted HD-Eval judge, an item without node scores) is shown
/// in the dialog's text.
class ExplainDialog : public QDialog
{
    Q_OBJECT
public:
    ExplainDialog(Project *project, const QString &judge, const QString &itemId, QWidget *parent = nullptr);

    /// The explanation shown (empty nodes when it failed).
    const hdeval::Explanation &explanation() const { return m_explanation; }
    QChart *chart() const { return m_chart; }
    /// The failure shown instead of the chart (empty when the explanation was made).
    QString errorText() const { return m_error; }

private:
    void fillChart();

    hdeval::Explanation m_explanation;
    QString m_error;
    QLabel *m_header;
    QChart *m_chart;
    QChartView *m_view;
};

} // namespace rubric
