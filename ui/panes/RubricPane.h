#pragma once

#include "models/RubricTreeModel.h"
#include "store/Project.h"
#include "util/Result.h"
#include "widgets/RubricVersionList.h"

#include <QPointer>
#include <QUndoStack>
#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;
class QToolBar;
class QTreeView;

namespace rubric {

class MessageBar;
class RubricPanePart;

/// The rubric of a judge: its saved versions (date, note, alignment), the criteria tree of
/// the selected version (HypoEval hypotheses with origin, reward and train correlation;
/// G-Eval's evaluation steps) and a detail panel. The latest version (or an older one taken as
/// the base) is edited with undo / redo: text, enable / disable, delete, add, reorder; "Save as
/// new version" stores the edit as version n + 1; "Re-score" asks the run pane (through
/// rescoreRequested) to run the judge again, which costs calls only for what the edit changed.
/// A CheckEval checklist shows its figures (yes-rate, discrimination, answered; click a header
/// to sort the questions of each sub-aspect by it). What a method adds to the pane (CheckEval's
/// flags, stage counts, "Invert polarity", "Restore" and "New checklist…", HD-Eval's panel) comes
/// from its views (MethodViews: the tree's columns and data, a RubricPanePart).
class RubricPane : public QWidget
{
    Q_OBJECT
public:
    explicit RubricPane(QWidget *parent = nullptr);
    ~RubricPane() override;

    /// Binds the pane to `project` (not owned; null unbinds).
    void setProject(Project *project);

    QString judge() const { return m_judgeName; }
    /// Shows the latest version of `judge`'s rubric; false when it has none.
    bool setJudge(const QString &judge);
    /// The version shown in the tree (0 when none).
    int shownVersion() const { return m_shownVersion; }
    /// The saved versions selected in the version list (ascending; two of them can be compared).
    QList<int> selectedVersions() const { return m_versions->selectedVersions(); }
    /// Shows one saved version (the latest editable, older ones read-only); false if unknown.
    bool showVersion(int version);
    /// Takes the shown (older) version as the base of the next edit.
    void editFromShownVersion();
    bool isModified() const { return !m_stack->isClean(); }
    /// Before unsaved edits would be lost (another judge, version or project, the window
    /// closing): asks to save them as a new version, discard them or stay. True when the caller
    /// may go on (nothing unsaved, saved, or discarded).
    bool confirmDiscard();
    bool isReadOnly() const { return m_model->isReadOnly(); }

    RubricTreeModel *model() const { return m_model; }
    QUndoStack *undoStack() const { return m_stack; }
    QTreeView *view() const { return m_tree; }

public slots:
    /// Saves the edited rubric as a new version with `note`; returns its number.
    Result<int> saveVersion(const QString &note);

signals:
    /// The user asked to score the judge's latest rubric version again (wired to the run pane).
    void rescoreRequested(const QString &judge);
    /// The user asked to export saved version `version` of `judge`'s rubric (Markdown / JSON).
    void exportRequested(const QString &judge, int version);
    /// The user asked to compare two saved versions of `judge`'s rubric (fromVersion < toVersion).
    void diffRequested(const QString &judge, int fromVersion, int toVersion);
    /// A method's part asked to run `judge` again with `settings` over its stored ones (HD-Eval's
    /// "Next layer" / "Re-fit").
    void runRequested(const QString &judge, const QVariantMap &settings);

private:
    void onJudgesChanged(const QString &judge);
    void refillJudges();
    void refillVersions();
    void loadVersion(int version);
    void onCurrentChanged();
    void updateActions();
    void updateDetail();
    void addCriterion(bool asChild);
    void deleteCurrent();
    void moveCurrent(int delta);
    void toggleCurrent();
    void onHeaderClicked(int column);
    void showMethodColumns();
    void applyEditorText();
    void saveWithNote();
    QString currentKey() const;
    /// The methods' parts, in method order.
    QList<RubricPanePart *> parts() const;
    QAction *makeAction(const QString &name, const QString &text, const QString &tip, const QList<QKeySequence> &keys);

    QPointer<Project> m_project;
    QString m_judgeName;
    int m_shownVersion = 0;
    int m_latestVersion = 0;
    bool m_saving = false;
    RubricTreeModel *m_model = nullptr;
    QUndoStack *m_stack = nullptr;
    MessageBar *m_message = nullptr;
    QComboBox *m_judge = nullptr;
    RubricVersionList *m_versions = nullptr;
    QCheckBox *m_showTest = nullptr;
    QToolBar *m_toolbar = nullptr;
    QTreeView *m_tree = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_editBase = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QPushButton *m_apply = nullptr;
    QTextBrowser *m_detail = nullptr;
    /// The methods' parts of the pane with their method's name, in method order
    /// (MethodViews::createRubricPart).
    QList<std::pair<QString, RubricPanePart *>> m_parts;
    QAction *m_undo = nullptr, *m_redo = nullptr, *m_add = nullptr, *m_addChild = nullptr, *m_delete = nullptr,
            *m_up = nullptr, *m_down = nullptr, *m_toggle = nullptr, *m_save = nullptr, *m_rescore = nullptr,
            *m_export = nullptr, *m_compare = nullptr;
};

} // namespace rubric
