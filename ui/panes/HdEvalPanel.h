#pragma once

#include <QVariantMap>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace rubric {

class RubricTreeModel;

/// The Rubric pane's HD-Eval part, shown while an HD-Eval criteria tree is shown: the aspect whose
/// importances the tree's bars show, the aggregator panel (its kind, train / cross-validated / test
/// Pearson per aspect against the baselines "layer 1 only", "direct scores" (the layer-1 node's
/// score) and "mean" of all nodes, and a warning when CV falls far below train) and the actions
/// "Next layer" and "Re-fit". The actions start runs through the run pane
/// (runRequested); the cache answers every node score already asked, so a re-fit costs no call.
/// Reads the tree from the model (not owned); keeps no copy.
class HdEvalPanel : public QWidget
{
    Q_OBJECT
public:
    /// CV this far below train (Pearson) is flagged as overfitting.
    static constexpr double kOverfitGap = 0.2;

    explicit HdEvalPanel(RubricTreeModel *model, QWidget *parent = nullptr);

    /// Refills from the model's rubric (after a load or an edit); `judge` is the judge shown and
    /// `editable` whether the shown version is the latest without unsaved edits (runs need that).
    void refresh(const QString &judge, bool runnable);

signals:
    /// Run `judge` again with `settings` over its stored ones (wired to RunPane::rescoreWith).
    void runRequested(const QString &judge, const QVariantMap &settings);

private:
    void fillTable();
    void request(const QVariantMap &settings);

    RubricTreeModel *m_model;
    QString m_judge;
    QComboBox *m_aspect;
    QComboBox *m_aggregator;
    QTableWidget *m_table;
    QLabel *m_warning;
    QLabel *m_summary;
    QPushButton *m_nextLayer;
    QPushButton *m_refit;
};

} // namespace rubric
