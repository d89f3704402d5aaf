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
/// importances the tree's bars show, the aggregator panel (its kind, layers and ablation, train /
/// cross-validated / test Pearson, one row per aspect, against the baselines "layer 1 only" (the
/// same aggregator on the layer-1 nodes), "direct scores" (the layer-1 node's score) and "mean" of
/// all nodes, and a warning when CV falls far below train) and the actions "Next layer", "Re-fit"
/// (on every layer of the tree) and the paper's ablations in one click each: without layer 3
/// (layers = 2), without layers 2–3 (layers = 1) and the mean instead of the aggregator. The actions
/// start runs through the run pane (runRequested); the cache answers every node score already
/// asked, so a re-fit or an ablation costs no call and saves a new rubric version whose aggregator
/// records its layers and ablation. Reads the tree from the model (not owned); keeps no copy.
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
    /// The layers of the tree shown (1…3): what "Re-fit" and the mean fit on.
    int treeLayers() const;
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
    QPushButton *m_withoutLayer3;
    QPushButton *m_withoutLayers23;
    QPushButton *m_meanAblation;
    QPushButton *m_efficiency; ///< opens EfficiencyDialog (the curves and contributions, 0 calls)
    QString m_currentKey;
    Project *m_project = nullptr;
    bool m_runnable = false;
};

} // namespace rubric
