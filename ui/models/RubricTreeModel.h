#pragma once

#include "rubric/Rubric.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QStringList>

class QUndoCommand;
class QUndoStack;

namespace rubric {

class MethodViews;

/// The criteria tree of one rubric version (HypoEval hypotheses under their aspect, G-Eval's
/// evaluation steps, CheckEval's aspect → sub-aspect → question …) as an editable tree.
///
/// Holds its own copy of the rubric: edits change the copy, never the store, until the pane
/// saves it as a new version. Edits made through setData() are pushed as QUndoCommands on the
/// undo stack given with setUndoStack() (applied directly without one). The raw mutators
/// (setText(), setEnabled(), takeSubtree(), insertSubtree(), move()) are what the commands call.
///
/// Columns: text (editable; full text and definition in the tool tip), kind, enabled
/// (checkable), origin, reward, train Pearson, selected rank / weight (HypoEval), and a
/// checklist's yes-rate, discrimination, answered count and flags (constant, near-duplicate,
/// "yes" reads as worse, removed by the filter). Which of them mean something for a method, and
/// the method's own data (HD-Eval's layers, CheckEval's flags), its views say (MethodViews). sort() orders siblings by
/// a figure for display only (the rubric's positions stay); a structural edit goes back to the tree order first.
class RubricTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        TextColumn,
        KindColumn,
        EnabledColumn,
        OriginColumn,
        RewardColumn,
        TrainPearsonColumn,
        RankColumn,
        YesRateColumn,
        DiscriminationColumn,
        AnsweredColumn,
        FlagsColumn,
        LayerColumn,      ///< HD-Eval: the node's layer
        ImportanceColumn, ///< HD-Eval: permutation importance for importanceAspect(), with a bar
        SelectedColumn,   ///< HD-Eval: marked for expansion (checkable below layer 1)
        ColumnCount
    };
    enum Role {
        KeyRole = Qt::UserRole + 1,
        SortRole,  ///< the number a figure column sorts by (invalid when there is none)
        ShareRole, ///< HD-Eval importance as a share of the largest (0…1), for the bar
    };

    /// The columns that mean something for a rubric of `method`: its views say
    /// (MethodViews::treeColumns; the text, on and origin columns always).
    static QList<int> columnsFor(const QString &method);
    /// Why a criterion of the shown rubric may read the wrong way round (a checklist question whose
    /// "yes" reads as worse, not yet inverted: MethodViews::criterionWarning), else empty.
    QString polarityWarning(const Criterion &c) const;
    /// The views of the shown rubric's method (the default views for none).
    const MethodViews &views() const { return *m_views; }

    explicit RubricTreeModel(QObject *parent = nullptr);

    /// Shows `rubric` (copied); resets the model. Read-only models refuse every edit.
    void setRubric(const Rubric &rubric, bool readOnly = false);
    const Rubric &rubric() const { return m_rubric; }
    bool isReadOnly() const { return m_readOnly; }
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    /// Where setData() pushes its commands (not owned; null applies edits directly).
    void setUndoStack(QUndoStack *stack) { m_stack = stack; }
    QUndoStack *undoStack() const { return m_stack; }
    /// The aspect whose importances an HD-Eval tree shows (empty: the first one stored).
    void setImportanceAspect(const QString &aspect);
    QString importanceAspect() const { return m_aspect; }

    QModelIndex indexOfKey(const QString &key, int column = TextColumn) const;
    QString keyOf(const QModelIndex &index) const;
    const Criterion *criterion(const QString &key) const { return m_rubric.find(key); }
    /// Children keys of `parentKey` ("" = roots) in display order.
    QStringList childKeys(const QString &parentKey) const { return m_children.value(parentKey); }
    /// A key not used in the rubric ("<prefix><n>").
    QString freshKey(const QString &prefix) const;

    // --- raw mutators (no undo; used by the commands)
    void setText(const QString &key, const QString &text, const QVariantMap &origin);
    void setEnabled(const QString &key, bool enabled);
    /// Replaces the enabled flag and origin of `key` in one change (restore, invert polarity).
    void setState(const QString &key, bool enabled, const QVariantMap &origin);
    /// Replaces the stats of `key` (an HD-Eval node's expansion mark).
    void setStats(const QString &key, const QVariantMap &stats);
    /// Removes `key` and its descendants; returns them (pre-order) with the row it had.
    QVector<Criterion> takeSubtree(const QString &key, int *row);
    /// Inserts a subtree (pre-order, first = its root) under the root's parentKey at `row`.
    void insertSubtree(const QVector<Criterion> &subtree, int row);
    /// Moves `key` one row up (delta -1) or down (+1) among its siblings; false at the ends.
    bool move(const QString &key, int delta);
    /// Whether move(key, delta) would succeed.
    bool canMove(const QString &key, int delta) const;

    /// The figure column siblings are sorted by (-1: the tree order) and its order.
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    // --- QAbstractItemModel
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// Sorts every list of siblings by a figure column (missing figures last); any other
    /// column (or -1) restores the tree order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    /// A short description of where a criterion came from ("initial", "wrong-bank refine 3",
    /// "literature", "auto-CoT step", "edited", "added").
    static QString originLabel(const Criterion &c);

signals:
    /// Any change of the copy (edit, undo, redo, structure).
    void rubricEdited();

private:
    void rebuild(); ///< children lists and positions from m_rubric (pre-order)
    quintptr idOf(const QString &key) const;
    QString keyOfId(quintptr id) const;
    int rowOf(const QString &key) const;
    void push(QUndoCommand *command); ///< on the undo stack, or applied and dropped without one
    void applySort();                 ///< orders m_children by m_sortColumn (no signals)
    void unsort();                    ///< back to the tree order before a structural edit
    /// Applies `change` to the node `key` (if it exists), then signals its row and the edit.
    template <typename Change> void changeNode(const QString &key, Change change);

    Rubric m_rubric;
    const MethodViews *m_views;
    bool m_readOnly = false;
    QUndoStack *m_stack = nullptr;
    QString m_aspect;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    QHash<QString, QStringList> m_children;
    mutable QHash<QString, quintptr> m_ids;
    mutable QHash<quintptr, QString> m_keys;
};

} // namespace rubric
