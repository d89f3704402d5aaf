#pragma once

#include <QVariantMap>
#include <QWidget>

class QDialog;

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTreeView;

namespace rubric {

class Project;
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
    /// The node current in the tree (its key; empty for none): "Decompose…" proposes its children.
    void setCurrentNode(const QString &key);
    /// Draws the importance bars in `tree` (showing this panel's model) and follows its current node.
    void attach(QTreeView *tree);
    /// The project "Decompose…" asks and adds to (not owned).
    void setProject(Project *project) { m_project = project; }

signals:
    /// Run `judge` again with `settings` over its stored ones (wired to RunPane::rescoreWith).
    void runRequested(const QString &judge, const QVariantMap &settings);
    /// "Decompose…" opened its dialog for `nodeKey` (DecomposeDialog: the generator's proposals,
    /// accepted or rejected one by one; adding saves versions, which the Rubric pane follows).
    void decomposeOpened(QDialog *dialog, const QString &nodeKey);

private:
    void fillTable();
    void request(const QVariantMap &settings);
    void updateDecompose();

    RubricTreeModel *m_model;
    QString m_judge;
    QComboBox *m_aspect;
    QComboBox *m_aggregator;
    QTableWidget *m_table;
    QLabel *m_warning;
    QLabel *m_summary;
    QPushButton *m_nextLayer;
    QPushButton *m_refit;
    QPushButton *m_decompose;
    QString m_currentKey;
    Project *m_project = nullptr;
    bool m_runnable = false;
};

} // namespace rubric
