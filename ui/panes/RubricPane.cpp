#include "RubricPane.h"

#include "PlainText.h"
#include "commands/AddCriterionCommand.h"
#include "commands/DeleteCriterionCommand.h"
#include "commands/EditCriterionTextCommand.h"
#include "commands/MoveCriterionCommand.h"
#include "commands/SetCriterionEnabledCommand.h"
#include "methods/MethodViews.h"
#include "models/CriterionDetail.h"
#include "models/RubricTreeModel.h"
#include "store/RubricStore.h"
#include "store/ScoreGridStore.h"
#include "widgets/MessageBar.h"
#include "widgets/RubricVersionList.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace rubric {

RubricPane::RubricPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new RubricTreeModel(this))
    , m_stack(new QUndoStack(this))
    , m_message(new MessageBar(this))
    , m_judge(new QComboBox(this))
    , m_versions(new RubricVersionList(this))
    , m_toolbar(new QToolBar(this))
    , m_tree(new QTreeView(this))
    , m_status(new QLabel(this))
    , m_editBase(new QPushButton(this))
    , m_editor(new QPlainTextEdit(this))
    , m_apply(new QPushButton(this))
    , m_detail(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("rubricPane"));
    m_message->setObjectName(QStringLiteral("rubricMessage"));
    m_judge->setObjectName(QStringLiteral("rubricJudge"));
    m_toolbar->setObjectName(QStringLiteral("rubricToolBar"));
    m_tree->setObjectName(QStringLiteral("rubricTree"));
    m_status->setObjectName(QStringLiteral("rubricStatus"));
    m_editBase->setObjectName(QStringLiteral("rubricEditFromVersion"));
    m_editor->setObjectName(QStringLiteral("rubricTextEditor"));
    m_apply->setObjectName(QStringLiteral("rubricApplyText"));
    m_detail->setObjectName(QStringLiteral("rubricDetail"));

    m_model->setUndoStack(m_stack);
    m_message->hide();

    m_judge->setToolTip(tr("The judge whose rubric is shown (judges that have a saved rubric)"));
    m_showTest = new QCheckBox(tr("Show the test-split alignment"), this);
    m_showTest->setObjectName(QStringLiteral("rubricShowTestAlignment"));
    m_showTest->setToolTip(tr("The versions' alignment on the test split. Choosing between versions by it tunes "
                              "the rubric on the test labels: compare versions on the train figure."));
    connect(m_showTest, &QCheckBox::toggled, m_versions, &RubricVersionList::setTestShown);

    m_tree->setModel(m_model);
    // The methods' parts (CheckEval's actions and stage counts, HD-Eval's panel), in method order (after the
    // tree has its model: HD-Eval's panel follows its selection).
    const RubricPaneContext context{
            m_model,
            m_stack,
            m_tree,
            this,
            [this] { return confirmDiscard(); },
            [this](const QString &note) {
                // a part saves and records the version's figures itself:
                // no "re-score to measure" here
                auto saved = saveVersion(note);
                if (saved)
                    m_message->showMessage(tr("Saved version %1 of %2's rubric.").arg(*saved).arg(m_judgeName));
                return saved;
            },
            [this] {
                refillVersions();
                m_versions->selectVersion(m_shownVersion);
            }};
    for (const MethodViews *views : MethodViews::all())
        if (RubricPanePart *part = views->createRubricPart(context)) {
            m_parts.append({views->method(), part});
            connect(part, &RubricPanePart::runRequested, this, &RubricPane::runRequested);
            connect(part, &RubricPanePart::judgeCreated, this, [this](const QString &judge, const QString &message) {
                refillJudges();
                if (setJudge(judge))
                    m_message->showMessage(message);
            });
        }
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_tree->setWordWrap(false);
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(RubricTreeModel::TextColumn, QHeaderView::Stretch);
    for (int c = RubricTreeModel::KindColumn; c < RubricTreeModel::ColumnCount; ++c)
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_tree->setToolTip(tr("F2 edits the text, Space enables or disables, Del deletes, Alt+Up/Down reorders"));
    m_tree->header()->setSectionsClickable(true);
    connect(m_tree->header(), &QHeaderView::sectionClicked, this, &RubricPane::onHeaderClicked);

    m_editBase->setText(tr("Edit from this version"));
    m_editBase->setToolTip(tr("Take this older version as the base of the next edit (saved as a new version)"));
    m_editBase->hide();
    m_status->setTextFormat(Qt::PlainText);
    // wraps rather than widening the window (the bar also holds New checklist…, Export, Compare)
    m_status->setWordWrap(true);

    m_editor->setPlaceholderText(tr("The selected criterion's full text"));
    m_editor->setTabChangesFocus(true);
    m_editor->setMaximumHeight(140);
    m_apply->setText(tr("Apply text"));
    m_apply->setToolTip(tr("Replace the criterion's text with the edited one (Ctrl+Return); undoable"));
    auto *applyShortcut = new QAction(m_editor);
    applyShortcut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    applyShortcut->setShortcutContext(Qt::WidgetShortcut);
    m_editor->addAction(applyShortcut);
    connect(applyShortcut, &QAction::triggered, this, &RubricPane::applyEditorText);
    connect(m_apply, &QPushButton::clicked, this, &RubricPane::applyEditorText);
    m_detail->setOpenLinks(false);

    // Actions: the pane-wide ones fire anywhere in the pane; those that act on the selected
    // criterion only while the tree has the focus (Space and Del keep their meaning elsewhere).
    m_undo = m_stack->createUndoAction(this, tr("Undo"));
    m_undo->setObjectName(QStringLiteral("rubricUndo"));
    m_undo->setShortcuts({QKeySequence::Undo});
    m_undo->setToolTip(tr("Undo the last edit (Ctrl+Z)"));
    m_redo = m_stack->createRedoAction(this, tr("Redo"));
    m_redo->setObjectName(QStringLiteral("rubricRedo"));
    m_redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_redo->setToolTip(tr("Redo the undone edit (Ctrl+Shift+Z or Ctrl+Y)"));
    for (QAction *a : {m_undo, m_redo}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    m_add = makeAction(QStringLiteral("rubricAdd"), tr("Add"), tr("Add a criterion after the selected one (Ins)"),
                       {QKeySequence(Qt::Key_Insert)});
    m_addChild = makeAction(QStringLiteral("rubricAddChild"), tr("Add child"),
                            tr("Add a criterion under the selected one (Ctrl+Ins)"),
                            {QKeySequence(Qt::CTRL | Qt::Key_Insert)});
    m_delete = makeAction(QStringLiteral("rubricDelete"), tr("Delete"),
                          tr("Delete the selected criterion and what is under it (Del)"),
                          {QKeySequence(Qt::Key_Delete)});
    m_up = makeAction(QStringLiteral("rubricMoveUp"), tr("Move up"), tr("Move the selected criterion up (Alt+Up)"),
                      {QKeySequence(Qt::ALT | Qt::Key_Up)});
    m_down = makeAction(QStringLiteral("rubricMoveDown"), tr("Move down"),
                        tr("Move the selected criterion down (Alt+Down)"), {QKeySequence(Qt::ALT | Qt::Key_Down)});
    m_toggle = makeAction(QStringLiteral("rubricToggle"), tr("Enable / disable"),
                          tr("Enable or disable the selected criterion; disabled ones are not scored (Space)"),
                          {QKeySequence(Qt::Key_Space)});
    for (QAction *a : {m_add, m_addChild, m_delete, m_up, m_down, m_toggle}) {
        a->setShortcutContext(Qt::WidgetShortcut);
        m_tree->addAction(a);
    }
    m_save = makeAction(QStringLiteral("rubricSave"), tr("Save as new version…"),
                        tr("Save the edited rubric as a new version with a short note (Ctrl+S)"), {QKeySequence::Save});
    m_rescore = makeAction(QStringLiteral("rubricRescore"), tr("Re-score"),
                           tr("Run the judge again with its latest version; the cache answers what the edit did not "
                              "change (Ctrl+R)"),
                           {QKeySequence(Qt::CTRL | Qt::Key_R)});
    m_export = makeAction(QStringLiteral("rubricExport"), tr("Export rubric…"),
                          tr("Export the shown saved version as Markdown or JSON (Ctrl+Shift+E)"),
                          {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)});
    m_compare = makeAction(QStringLiteral("rubricCompare"), tr("Compare versions"),
                           tr("Compare the two versions selected in the version list (Ctrl+D)"),
                           {QKeySequence(Qt::CTRL | Qt::Key_D)});
    for (QAction *a : {m_save, m_rescore, m_export, m_compare}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_toolbar->addAction(m_undo);
    m_toolbar->addAction(m_redo);
    m_toolbar->addSeparator();
    for (QAction *a : {m_add, m_addChild, m_delete, m_up, m_down, m_toggle})
        m_toolbar->addAction(a);
    for (RubricPanePart *part : parts())
        m_toolbar->addActions(part->editActions());
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_save);
    m_toolbar->addAction(m_rescore);

    connect(m_add, &QAction::triggered, this, [this] { addCriterion(false); });
    connect(m_addChild, &QAction::triggered, this, [this] { addCriterion(true); });
    connect(m_delete, &QAction::triggered, this, &RubricPane::deleteCurrent);
    connect(m_up, &QAction::triggered, this, [this] { moveCurrent(-1); });
    connect(m_down, &QAction::triggered, this, [this] { moveCurrent(1); });
    connect(m_toggle, &QAction::triggered, this, &RubricPane::toggleCurrent);
    connect(m_save, &QAction::triggered, this, &RubricPane::saveWithNote);
    connect(m_rescore, &QAction::triggered, this, [this] {
        if (!m_judgeName.isEmpty() && !isModified())
            emit rescoreRequested(m_judgeName);
    });
    connect(m_export, &QAction::triggered, this, [this] {
        if (!m_judgeName.isEmpty() && m_shownVersion > 0)
            emit exportRequested(m_judgeName, m_shownVersion);
    });
    connect(m_compare, &QAction::triggered, this, [this] {
        const QList<int> v = selectedVersions();
        if (!m_judgeName.isEmpty() && v.size() == 2)
            emit diffRequested(m_judgeName, v.first(), v.last());
    });
    connect(m_editBase, &QPushButton::clicked, this, &RubricPane::editFromShownVersion);

    // layout: [judge] [status] / versions / toolbar / tree | detail
    auto *bar = new QHBoxLayout;
    auto *judgeLabel = new QLabel(tr("&Judge:"), this);
    judgeLabel->setBuddy(m_judge);
    bar->addWidget(judgeLabel);
    bar->addWidget(m_judge, 1);
    bar->addWidget(m_status, 2);
    bar->addWidget(m_editBase);
    // version-level actions sit with the version list, not in the (crowded) edit toolbar
    QList<QAction *> judgeActions;
    for (RubricPanePart *part : parts())
        judgeActions << part->judgeActions();
    for (QAction *a : judgeActions << m_export << m_compare) {
        auto *button = new QToolButton(this);
        button->setObjectName(a->objectName() + QStringLiteral("Button"));
        button->setDefaultAction(a);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        bar->addWidget(button);
    }

    auto *detail = new QWidget(this);
    detail->setObjectName(QStringLiteral("rubricDetailPanel"));
    auto *dl = new QVBoxLayout(detail);
    dl->setContentsMargins(0, 0, 0, 0);
    auto *textLabel = new QLabel(tr("&Text"), detail);
    textLabel->setBuddy(m_editor);
    dl->addWidget(textLabel);
    dl->addWidget(m_editor);
    auto *applyRow = new QHBoxLayout;
    applyRow->addStretch(1);
    applyRow->addWidget(m_apply);
    dl->addLayout(applyRow);
    dl->addWidget(m_detail, 1);
    detail->setMinimumWidth(300);

    auto *left = new QWidget(this);
    auto *ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(m_toolbar);
    ll->addWidget(m_tree, 1);
    for (RubricPanePart *part : parts())
        for (QWidget *panel : part->panels())
            ll->addWidget(panel);

    auto *inner = new QSplitter(Qt::Horizontal, this);
    inner->setObjectName(QStringLiteral("rubricSplitter"));
    inner->addWidget(left);
    inner->addWidget(detail);
    inner->setStretchFactor(0, 3);
    inner->setStretchFactor(1, 1);
    inner->setSizes({900, 400});

    auto *outer = new QSplitter(Qt::Vertical, this);
    auto *versionsBox = new QWidget(this);
    auto *versionsLayout = new QVBoxLayout(versionsBox);
    versionsLayout->setContentsMargins(0, 0, 0, 0);
    versionsLayout->addWidget(m_versions);
    versionsLayout->addWidget(m_showTest);
    outer->addWidget(versionsBox);
    outer->addWidget(inner);
    outer->setStretchFactor(0, 1);
    outer->setStretchFactor(1, 4);
    outer->setSizes({100, 700});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addLayout(bar);
    layout->addWidget(outer, 1);

    connect(m_judge, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = m_judge->currentData().toString();
        if (name == m_judgeName)
            return;
        if (!confirmDiscard()) {
            const QSignalBlocker block(m_judge);
            m_judge->setCurrentIndex(m_judge->findData(m_judgeName));
            return;
        }
        m_judgeName = name;
        refillVersions();
        loadVersion(m_latestVersion);
    });
    connect(m_versions, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        const int v = RubricVersionList::versionOf(item);
        if (v == m_shownVersion)
            return;
        if (!confirmDiscard()) {
            showVersion(m_shownVersion);
            return;
        }
        loadVersion(v);
    });
    connect(m_versions, &QTreeWidget::itemSelectionChanged, this, &RubricPane::updateActions);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &RubricPane::onCurrentChanged);
    connect(m_model, &RubricTreeModel::rubricEdited, this, [this] {
        if (m_model->sortColumn() < 0)
            m_tree->header()->setSortIndicatorShown(false);
        for (RubricPanePart *part : parts())
            part->rubricEdited();
        updateDetail();
        updateActions();
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &parent) { m_tree->expand(parent); });
    connect(m_stack, &QUndoStack::cleanChanged, this, &RubricPane::updateActions);
    connect(m_stack, &QUndoStack::indexChanged, this, &RubricPane::updateActions);
    updateActions();
}

RubricPane::~RubricPane()
{
    // children die in creation order: the stack's last indexChanged must not reach the deleted model
    disconnect(m_stack, nullptr, this, nullptr);
}

QList<RubricPanePart *> RubricPane::parts() const
{
    QList<RubricPanePart *> out;
    for (const auto &entry : m_parts)
        out << entry.second;
    return out;
}

QAction *RubricPane::makeAction(const QString &name, const QString &text, const QString &tip,
                                const QList<QKeySequence> &keys)
{
    auto *a = new QAction(text, this);
    a->setObjectName(name);
    a->setToolTip(tip);
    a->setStatusTip(tip);
    a->setShortcuts(keys);
    return a;
}

void RubricPane::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    for (RubricPanePart *part : parts())
        part->setProject(project);
    m_judgeName.clear();
    m_shownVersion = m_latestVersion = 0;
    m_stack->clear();
    m_model->setRubric(Rubric(), true);
    if (m_project)
        connect(m_project, &Project::judgesChanged, this, &RubricPane::onJudgesChanged);
    refillJudges();
    if (m_judge->count() > 0) {
        m_judgeName = m_judge->currentData().toString();
        refillVersions();
        loadVersion(m_latestVersion);
    } else {
        refillVersions();
        updateActions();
        updateDetail();
    }
}

bool RubricPane::setJudge(const QString &judge)
{
    const int i = m_judge->findData(judge);
    if (i < 0)
        return false;
    m_judge->setCurrentIndex(i);
    return m_judgeName == judge;
}

void RubricPane::onJudgesChanged(const QString &judge)
{
    if (m_saving)
        return;
    refillJudges();
    if (m_judgeName.isEmpty() && m_judge->count() > 0) {
        m_judgeName = m_judge->currentData().toString();
        refillVersions();
        loadVersion(m_latestVersion);
        return;
    }
    if (judge != m_judgeName)
        return;
    const int before = m_latestVersion;
    refillVersions();
    // A run saved a new version: follow it unless the user is in the middle of an edit.
    if (m_latestVersion != before && m_shownVersion == before && !isModified())
        loadVersion(m_latestVersion);
    else
        showVersion(m_shownVersion);
}

void RubricPane::refillJudges()
{
    const QSignalBlocker block(m_judge);
    m_judge->clear();
    if (!m_project)
        return;
    RubricStore store(m_project);
    const auto judges = ScoreGridStore(m_project).judges();
    if (!judges) {
        m_message->showError(judges.errorString());
        return;
    }
    for (const JudgeInfo &j : *judges) {
        const auto latest = store.readLatestVersion(j.name);
        if (!latest) {
            m_message->showError(latest.errorString());
            return;
        }
        if (*latest > 0)
            m_judge->addItem(tr("%1 (%2)").arg(j.name, j.method), j.name);
    }
    const int i = m_judge->findData(m_judgeName);
    m_judge->setCurrentIndex(i >= 0 ? i : 0);
}

void RubricPane::refillVersions()
{
    const auto latest = m_versions->fill(m_project, m_judgeName);
    if (!latest)
        m_message->showError(latest.errorString());
    m_latestVersion = latest ? *latest : 0;
}

bool RubricPane::showVersion(int version)
{
    for (int i = 0; i < m_versions->topLevelItemCount(); ++i) {
        if (RubricVersionList::versionOf(m_versions->topLevelItem(i)) == version) {
            if (version != m_shownVersion)
                loadVersion(version);
            m_versions->selectVersion(version);
            return true;
        }
    }
    return false;
}

void RubricPane::loadVersion(int version)
{
    m_stack->clear();
    m_shownVersion = 0;
    m_message->hide();
    if (m_project && !m_judgeName.isEmpty() && version > 0) {
        auto loaded = RubricStore(m_project).load(m_judgeName, version);
        if (loaded) {
            m_shownVersion = loaded->version();
            m_model->setRubric(*loaded, m_shownVersion != m_latestVersion);
        } else {
            m_model->setRubric(Rubric(), true);
            m_message->showError(loaded.errorString());
        }
    } else {
        m_model->setRubric(Rubric(), true);
    }
    showMethodColumns();
    m_tree->expandAll();
    if (m_model->rowCount() > 0) {
        const QModelIndex first = m_model->index(0, 0);
        m_tree->setCurrentIndex(m_model->rowCount(first) > 0 ? m_model->index(0, 0, first) : first);
    }
    m_versions->selectVersion(m_shownVersion);
    updateActions();
    updateDetail();
}

void RubricPane::editFromShownVersion()
{
    if (m_shownVersion <= 0)
        return;
    m_model->setReadOnly(false);
    updateActions();
}

bool RubricPane::confirmDiscard()
{
    if (!isModified())
        return true;
    // Save keeps the edits as a new version, Discard drops them, Cancel stays (the default:
    // Escape or a stray Enter loses nothing).
    QMessageBox box(QMessageBox::Warning, tr("Unsaved rubric changes"),
                    tr("The rubric of %1 has unsaved changes.").arg(plain::isolate(m_judgeName)),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedRubricBox"));
    box.setTextFormat(Qt::PlainText);
    box.setInformativeText(tr("Save them as version %1, discard them, or go back to them?").arg(m_latestVersion + 1));
    box.setDefaultButton(QMessageBox::Cancel);
    switch (box.exec()) {
    case QMessageBox::Save:
        if (auto saved = saveVersion(tr("Edited in the studio")); !saved) {
            m_message->showError(tr("The rubric could not be saved: %1").arg(saved.errorString()));
            return false;
        }
        return true;
    case QMessageBox::Discard:
        m_stack->clear(); // the edits are gone on purpose: asked no more
        return true;
    default:
        return false;
    }
}

QString RubricPane::currentKey() const
{
    return m_model->keyOf(m_tree->currentIndex());
}

void RubricPane::onCurrentChanged()
{
    updateActions();
    updateDetail();
}

void RubricPane::updateActions()
{
    const bool editable = !m_model->isReadOnly() && m_shownVersion > 0;
    const QString key = currentKey();
    const Criterion *c = key.isEmpty() ? nullptr : m_model->criterion(key);
    m_add->setEnabled(editable);
    m_addChild->setEnabled(editable && c);
    m_delete->setEnabled(editable && c);
    m_up->setEnabled(editable && c && m_model->canMove(key, -1));
    m_down->setEnabled(editable && c && m_model->canMove(key, 1));
    m_toggle->setEnabled(editable && c && c->kind != CriterionKind::Aspect);
    m_save->setEnabled(editable && (isModified() || m_shownVersion != m_latestVersion));
    m_rescore->setEnabled(!m_judgeName.isEmpty() && m_latestVersion > 0 && !isModified());
    m_rescore->setToolTip(
            isModified() ? tr("Save the edit as a new version first; the judge is re-scored with its latest version")
                         : tr("Run the judge again with its latest version; the cache answers what the edit "
                              "did not change (Ctrl+R)"));
    m_export->setEnabled(!m_judgeName.isEmpty() && m_shownVersion > 0);
    m_compare->setEnabled(!m_judgeName.isEmpty() && selectedVersions().size() == 2);
    m_editor->setReadOnly(!editable || !c);
    m_apply->setEnabled(editable && c);
    m_editBase->setVisible(m_shownVersion > 0 && m_shownVersion != m_latestVersion && m_model->isReadOnly());

    QString status;
    if (m_judgeName.isEmpty())
        status = tr("No judge with a rubric yet: run HypoEval or G-Eval in the Judge & run pane.");
    else if (m_model->isReadOnly())
        status = tr("Version %1 of %2 (read-only)").arg(m_shownVersion).arg(m_latestVersion);
    else if (m_shownVersion != m_latestVersion)
        status = tr("Editing from version %1; saving creates version %2").arg(m_shownVersion).arg(m_latestVersion + 1);
    else
        status = tr("Version %1 of %2").arg(m_shownVersion).arg(m_latestVersion);
    if (isModified())
        status += tr(" — unsaved changes (%n edit(s))", nullptr, m_stack->index());
    m_status->setText(status);
    const RubricPaneState state{m_judgeName, key, editable,
                                m_shownVersion == m_latestVersion && m_shownVersion > 0 && !isModified()};
    for (RubricPanePart *part : parts())
        part->updateActions(state);
}

void RubricPane::updateDetail()
{
    const QString key = currentKey();
    const Criterion *c = key.isEmpty() ? nullptr : m_model->criterion(key);
    if (!c) {
        m_editor->clear();
        m_detail->clear();
        return;
    }
    if (m_editor->toPlainText() != c->text)
        m_editor->setPlainText(c->text);
    QString html = CriterionDetail::html(*c, m_model->views());
    if (c->kind == CriterionKind::Aspect && m_project) {
        const auto config = RubricStore(m_project).readRunConfig(m_judgeName);
        if (config)
            html += CriterionDetail::runHtml(*config);
        else
            m_message->showError(config.errorString());
    }
    m_detail->setHtml(html);
}

void RubricPane::addCriterion(bool asChild)
{
    if (m_model->isReadOnly() || m_shownVersion <= 0)
        return;
    const auto [c, row] = AddCriterionCommand::handWritten(m_model, currentKey(), asChild);
    m_stack->push(new AddCriterionCommand(m_model, c, row));
    const QModelIndex index = m_model->indexOfKey(c.key);
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index);
    m_editor->setFocus();
    m_editor->selectAll();
}

void RubricPane::deleteCurrent()
{
    const QString key = currentKey();
    if (key.isEmpty() || m_model->isReadOnly())
        return;
    // keep a neighbour selected
    const QModelIndex at = m_model->indexOfKey(key);
    QModelIndex next = at.siblingAtRow(at.row() + 1);
    if (!next.isValid())
        next = at.row() > 0 ? at.siblingAtRow(at.row() - 1) : at.parent();
    const QString nextKey = m_model->keyOf(next);
    m_stack->push(new DeleteCriterionCommand(m_model, key));
    if (!nextKey.isEmpty())
        m_tree->setCurrentIndex(m_model->indexOfKey(nextKey));
    updateActions();
    updateDetail();
}

void RubricPane::moveCurrent(int delta)
{
    const QString key = currentKey();
    if (key.isEmpty() || m_model->isReadOnly() || !m_model->canMove(key, delta))
        return;
    m_stack->push(new MoveCriterionCommand(m_model, key, delta));
    m_tree->setCurrentIndex(m_model->indexOfKey(key));
    updateActions();
}

void RubricPane::toggleCurrent()
{
    const QString key = currentKey();
    const Criterion *c = key.isEmpty() ? nullptr : m_model->criterion(key);
    if (!c || m_model->isReadOnly() || c->kind == CriterionKind::Aspect)
        return;
    m_stack->push(new SetCriterionEnabledCommand(m_model, key, !c->enabled));
}

void RubricPane::onHeaderClicked(int column)
{
    QHeaderView *header = m_tree->header();
    static const QList<int> figures{RubricTreeModel::YesRateColumn, RubricTreeModel::DiscriminationColumn,
                                    RubricTreeModel::AnsweredColumn, RubricTreeModel::RewardColumn,
                                    RubricTreeModel::TrainPearsonColumn};
    if (figures.contains(column)) {
        // Highest first on the first click: the questions that carry the judge on top.
        const Qt::SortOrder order = (m_model->sortColumn() == column && m_model->sortOrder() == Qt::DescendingOrder)
                                            ? Qt::AscendingOrder
                                            : Qt::DescendingOrder;
        m_model->sort(column, order);
        header->setSortIndicatorShown(true);
        header->setSortIndicator(column, order);
    } else {
        m_model->sort(-1);
        header->setSortIndicatorShown(false);
    }
    m_tree->expandAll();
    updateActions();
}

void RubricPane::showMethodColumns()
{
    const QList<int> shown = RubricTreeModel::columnsFor(m_model->rubric().method());
    for (int c = 0; c < RubricTreeModel::ColumnCount; ++c)
        m_tree->setColumnHidden(c, !shown.contains(c));
    const bool checklist = shown.contains(RubricTreeModel::YesRateColumn);
    // A checklist's origin is a stage, or the file or preset of its aspect and sub-aspects (long):
    // a fixed width leaves the room to the questions (the tooltip has it in full).
    m_tree->header()->setSectionResizeMode(RubricTreeModel::OriginColumn,
                                           checklist ? QHeaderView::Interactive : QHeaderView::ResizeToContents);
    if (checklist)
        m_tree->header()->resizeSection(RubricTreeModel::OriginColumn, 110);
    for (const auto &[method, part] : std::as_const(m_parts))
        part->rubricShown(method == m_model->rubric().method());
    if (m_model->sortColumn() < 0)
        m_tree->header()->setSortIndicatorShown(false);
}

void RubricPane::applyEditorText()
{
    const QModelIndex index = m_model->indexOfKey(currentKey());
    if (index.isValid())
        m_model->setData(index, m_editor->toPlainText(), Qt::EditRole);
}

void RubricPane::saveWithNote()
{
    if (!m_save->isEnabled())
        return;
    bool ok = false;
    const QString note
            = QInputDialog::getText(this, tr("Save rubric version"),
                                    tr("A short note on what changed (saved as version %1):").arg(m_latestVersion + 1),
                                    QLineEdit::Normal, tr("Edited in the studio"), &ok);
    if (!ok)
        return;
    if (auto r = saveVersion(note.trimmed()); !r)
        m_message->showError(tr("The rubric could not be saved: %1").arg(r.errorString()));
}

Result<int> RubricPane::saveVersion(const QString &note)
{
    if (!m_project || m_judgeName.isEmpty() || m_shownVersion <= 0)
        return makeError(tr("no rubric is shown"), {}, 0, QStringLiteral("judge"));
    if (m_model->isReadOnly())
        return makeError(tr("version %1 is read-only; choose \"Edit from this version\" first").arg(m_shownVersion), {},
                         0, QStringLiteral("version"));
    m_saving = true;
    // The version shown is the one edited: the new version descends from it (a teammate may
    // have saved a later one meanwhile).
    Rubric edited = m_model->rubric();
    edited.setVersion(m_shownVersion);
    auto saved = RubricStore(m_project).saveVersion(m_judgeName, edited, note);
    m_saving = false;
    if (!saved)
        return saved.error();
    refillVersions();
    m_shownVersion = *saved;
    m_stack->setClean();
    m_versions->selectVersion(m_shownVersion);
    m_message->showMessage(
            tr("Saved version %1 of %2's rubric. Re-score to measure its alignment.").arg(*saved).arg(m_judgeName));
    updateActions();
    return saved;
}

} // namespace rubric
