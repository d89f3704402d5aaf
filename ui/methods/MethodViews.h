#pragma once

#include "rubric/Rubric.h"
#include "util/Result.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>
#include <QVariant>
#include <QVector>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QAction;
class QDialog;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTextBrowser;
class QTreeView;
class QUndoCommand;
class QUndoStack;
class QWidget;

namespace rubric {

class CriterionScoreModel;
struct MethodInfo;
class Project;
class RubricStore;
class RubricTreeModel;
class RunController;
struct RunSpec;

/// The criterion columns of a judge's scores as the score model shows them (ScoreModel): keys in
/// column order, their labels (the header tooltips), an HD-Eval node's layer per key (0: none) and
/// the per-item scores.
struct ScoreColumns
{
    QStringList keys;
    QStringList labels;
    QVector<int> layers;                           ///< per key (0: no layer)
    QHash<QString, QHash<QString, double>> scores; ///< item id → criterion key → mean score
};

/// What the Rubric pane hands a method's part of it. The model, the stack and the tree belong to
/// the pane; `confirmDiscard` asks the user before unsaved edits are dropped (false: keep them).
struct RubricPaneContext
{
    RubricTreeModel *model = nullptr;
    QUndoStack *stack = nullptr;
    QTreeView *tree = nullptr;
    QWidget *pane = nullptr;
    std::function<bool()> confirmDiscard;
    /// Saves the shown rubric, edits included, as a new version with `note` (the pane's "Save as
    /// new version"); returns the new version's number.
    std::function<Result<int>(const QString &note)> saveVersion;
    /// Reads the version list again (after a part changed a version's figures).
    std::function<void()> refreshVersions;
};

/// The state of the Rubric pane a part's actions follow (RubricPanePart::updateActions).
struct RubricPaneState
{
    QString judge;         ///< the judge shown (empty: none)
    QString currentKey;    ///< the criterion current in the tree (empty: none)
    bool editable = false; ///< the shown version can be edited
    bool runnable = false; ///< the shown version is the latest one, saved (runs need that)
};

/// A method's part of the Rubric pane (CheckEval's Invert / Restore actions and stage counts,
/// HD-Eval's aggregator panel): actions and panels the pane places, told what the pane shows.
/// Created by MethodViews::createRubricPart() as a child of the pane, one per method with views.
class RubricPanePart : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    /// Actions on the current criterion, in the pane's edit toolbar after the generic ones.
    virtual QList<QAction *> editActions() const { return {}; }
    /// Actions on the judges (a new judge of the method), as buttons beside the judge list.
    virtual QList<QAction *> judgeActions() const { return {}; }
    /// Widgets under the tree; the part shows them while a rubric of its method is shown.
    virtual QList<QWidget *> panels() const { return {}; }
    /// The project (not owned; null unbinds).
    virtual void setProject(Project *project) { Q_UNUSED(project) }
    /// A rubric was loaded into the tree: `own` says whether it is of the part's method.
    virtual void rubricShown(bool own) { Q_UNUSED(own) }
    /// The shown rubric was edited (an edit, undo or redo).
    virtual void rubricEdited() {}
    /// The pane's selection or state changed.
    virtual void updateActions(const RubricPaneState &state) { Q_UNUSED(state) }

signals:
    /// Run `judge` again with `settings` over its stored ones (the run pane does it).
    void runRequested(const QString &judge, const QVariantMap &settings);
    /// The part made a new judge: the pane selects it and shows `message`.
    void judgeCreated(const QString &judge, const QString &message);
};

/// What the Heatmap pane hands a method's part of it: the detail panel's widgets (the part adds
/// tabs and writes the title, reasoning and raw answer of what it shows).
struct HeatmapPaneContext
{
    QWidget *pane = nullptr;
    QTabWidget *detailTabs = nullptr;
    QLabel *detailTitle = nullptr;
    QTextBrowser *reasoning = nullptr;
    QPlainTextEdit *raw = nullptr;
    CriterionScoreModel *answers = nullptr;
};

/// One activated cell of the heatmap (a judge or criterion column): the judge, the item, the
/// column's key ("judge" or a criterion key) and the value shown ("no score" when missing).
struct HeatmapCell
{
    QString judge;
    QString itemId;
    QString key;
    QString shown;
};

/// A method's part of the Heatmap pane (CheckEval's answer grid, HD-Eval's node-by-node
/// explanation). Created by MethodViews::createHeatmapPart() as a child of the pane.
class HeatmapPanePart : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    /// The project (not owned; null unbinds).
    virtual void setProject(Project *project) { Q_UNUSED(project) }
    /// A judge or criterion cell of a judge of the part's method was activated: shows it in the
    /// detail panel and returns true, or false for the pane's own detail.
    virtual bool showCell(const HeatmapCell &cell)
    {
        Q_UNUSED(cell)
        return false;
    }
    /// Actions on an item of a judge of the part's method (the row header's context menu),
    /// created as children of `parent`.
    virtual QList<QAction *> itemActions(const QString &judge, const QString &itemId, QObject *parent)
    {
        Q_UNUSED(judge)
        Q_UNUSED(itemId)
        Q_UNUSED(parent)
        return {};
    }
    /// The item's first action at once (the keyboard's row request): the dialog it opened, or null.
    virtual QDialog *openItem(const QString &judge, const QString &itemId)
    {
        Q_UNUSED(judge)
        Q_UNUSED(itemId)
        return nullptr;
    }
};

/// What the main window hands the panes a method adds: the run pane's controller, and a way to
/// start a run there (showing the run pane).
struct WindowContext
{
    RunController *runs = nullptr;
    std::function<void(const RunSpec &)> startRun;
};

/// A pane a method adds to the main window (HPSS's search, leaderboard and prompt inspector):
/// the widget (a child of the window), its title and key (MainWindow::addPane) and how it binds a
/// project.
struct MethodPane
{
    QWidget *widget = nullptr;
    QString title;
    QString key;
    std::function<void(Project *)> bind;
};

/// A method's views: what the studio's generic panes and models ask a method instead of comparing
/// its name. A method with views subclasses this in ui/methods/<method>/ and defines
/// `std::unique_ptr<MethodViews> <method>Views()`; ui/CMakeLists.txt registers every method of
/// RUBRIC_METHODS that has such a folder (generated RegisteredMethodViews.cpp). forMethod() finds
/// them; a method without views gets the default, which adds nothing and shows the generic columns.
/// Stateless and const: the parts the methods add to panes hold the state.
class MethodViews
{
public:
    virtual ~MethodViews();

    /// The views of `method`; the default views for a method without its own (or an empty name).
    static const MethodViews &forMethod(const QString &method);
    /// The views of the methods that have their own, in RUBRIC_METHODS order.
    static QList<const MethodViews *> all();
    /// The method's name ("" for the default views).
    QString method() const { return m_method; }

    // --- the Rubric pane's tree (RubricTreeModel)

    /// The tree columns (RubricTreeModel::Column) that mean something for a rubric of the method
    /// (`info`: its descriptor, null when it is not registered). The default: the text, on and
    /// origin columns, the kind column but for questions, whose levels say it, HypoEval's figures
    /// for hypotheses, a criterion's weight otherwise, the checklist figures for questions.
    virtual QList<int> treeColumns(const MethodInfo *info) const;
    /// The tree's data for a node of the method's rubric, or invalid where the model's own applies.
    virtual QVariant treeData(const Rubric &rubric, const Criterion &c, int column, int role,
                              const QString &aspect) const;
    /// Whether `column` of the node is a check box of the method's (besides the generic On column).
    virtual bool isTreeCheckable(const Rubric &rubric, const Criterion &c, int column) const;
    /// The undoable edit that sets the method's check box `column` of `c` to `on` (null: none).
    virtual QUndoCommand *treeCheckCommand(RubricTreeModel *model, const Criterion &c, int column, bool on) const;
    /// A criterion's flags as short labels (the criterion detail lists them).
    virtual QStringList criterionFlags(const Criterion &c) const;
    /// Why a criterion may read the wrong way round (CheckEval: "yes" reads as worse), else empty.
    virtual QString criterionWarning(const Criterion &c) const;

    // --- the score columns of the heatmap and the correlation chart (ScoreModel)

    /// Alternative sets of criterion columns (their labels; the first is the criteria), empty
    /// for one set: CheckEval's questions or sub-aspects.
    virtual QStringList scoreColumnSets() const;
    /// The tooltip of the switch between the column sets.
    virtual QString scoreColumnSetsTip() const;
    /// The criterion columns of column set `set` (> 0), or nullopt for the generic columns.
    virtual std::optional<Result<ScoreColumns>> readScoreColumns(const RubricStore &store, const QString &judge,
                                                                 const Rubric &rubric, int set) const;
    /// The layer of a criterion (0: none): the columns go layer by layer, labelled with it.
    virtual int scoreLayer(const Rubric &rubric, const Criterion &c) const;
    /// The header colour of a column of `layer` (> 0); invalid: none.
    virtual QVariant layerColour(int layer) const;
    /// Whether the criterion scores are yes / no answers (1 / 0; coloured on 0…1).
    virtual bool yesNoScores() const;

    // --- parts of panes

    /// The method's part of the Rubric pane (a child of `context.pane`), or null.
    virtual RubricPanePart *createRubricPart(const RubricPaneContext &context) const;
    /// The method's part of the Heatmap pane (a child of `context.pane`), or null.
    virtual HeatmapPanePart *createHeatmapPart(const HeatmapPaneContext &context) const;
    /// The panes the method adds to the main window (children of `window`).
    virtual QList<MethodPane> createPanes(const WindowContext &context, QWidget *window) const;

private:
    friend struct MethodViewsRegistry;
    QString m_method;
};

/// The views of the methods with a folder ui/methods/<name>/, in RUBRIC_METHODS order: generated
/// by ui/CMakeLists.txt, it calls each folder's `std::unique_ptr<MethodViews> <name>Views()`.
std::vector<std::pair<QString, std::unique_ptr<MethodViews>>> registeredMethodViews();

} // namespace rubric
