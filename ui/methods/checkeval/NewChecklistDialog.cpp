#include "NewChecklistDialog.h"

#include "methods/checkeval/ChecklistIo.h"
#include "store/RubricStore.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace rubric {
namespace {

const QString kMethod = QStringLiteral("checkeval");

} // namespace

NewChecklistDialog::NewChecklistDialog(Project *project, QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_aspect(new QComboBox(this))
    , m_judge(new QLineEdit(this))
    , m_fromPreset(new QRadioButton(tr("A published &checklist:"), this))
    , m_fromFile(new QRadioButton(tr("A &file:"), this))
    , m_empty(new QRadioButton(tr("&Empty, typed here; first sub-aspect:"), this))
    , m_preset(new QComboBox(this))
    , m_presetNote(new QLabel(this))
    , m_path(new QLineEdit(this))
    , m_browse(new QPushButton(tr("Browse…"), this))
    , m_subAspect(new QLineEdit(this))
    , m_error(new QLabel(this))
{
    setObjectName(QStringLiteral("newChecklistDialog"));
    setWindowTitle(tr("New checklist"));
    m_aspect->setObjectName(QStringLiteral("newChecklistAspect"));
    m_judge->setObjectName(QStringLiteral("newChecklistJudge"));
    m_fromPreset->setObjectName(QStringLiteral("newChecklistFromPreset"));
    m_fromFile->setObjectName(QStringLiteral("newChecklistFromFile"));
    m_empty->setObjectName(QStringLiteral("newChecklistEmpty"));
    m_preset->setObjectName(QStringLiteral("newChecklistPreset"));
    m_path->setObjectName(QStringLiteral("newChecklistPath"));
    m_browse->setObjectName(QStringLiteral("newChecklistBrowse"));
    m_subAspect->setObjectName(QStringLiteral("newChecklistSubAspect"));
    m_error->setObjectName(QStringLiteral("newChecklistError"));
    m_error->setTextFormat(Qt::PlainText); // quotes the checklist file

    if (m_project) {
        const auto aspects = m_project->readAspects();
        if (aspects)
            for (const Aspect &a : *aspects)
                m_aspect->addItem(a.name);
        else
            m_error->setText(tr("Cannot read the project: %1").arg(aspects.errorString()));
    }
    m_aspect->setToolTip(tr("The aspect the checklist judges (an aspect of the project)"));
    m_judge->setPlaceholderText(tr("e.g. checkeval-coherence"));
    m_judge->setToolTip(tr("The new judge's name; the checklist is saved as its rubric version 1"));
    for (const QString &name : ChecklistIo::presetNames()) {
        m_preset->addItem(name, name);
        m_preset->setItemData(m_preset->count() - 1, ChecklistIo::presetDescription(name), Qt::ToolTipRole);
    }
    m_preset->setToolTip(tr("CheckEval's published checklists (MIT): dataset/aspect is the unfiltered union of the "
                            "seed, diversification and elaboration files, not the paper's final (filtered) "
                            "checklist; a /stage suffix is one file"));
    m_presetNote->setObjectName(QStringLiteral("newChecklistPresetNote"));
    m_presetNote->setWordWrap(true);
    m_presetNote->setTextFormat(Qt::PlainText);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &NewChecklistDialog::updateState);
    m_path->setPlaceholderText(tr("CheckEval YAML, or a rubric exported as JSON or Markdown"));
    m_subAspect->setText(tr("General"));
    m_subAspect->setToolTip(tr("The checklist starts with this sub-aspect; add questions (and more sub-aspects) "
                               "with Add / Add child in the Rubric pane"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();
    m_fromPreset->setChecked(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Aspect:"), m_aspect);
    form->addRow(tr("&Judge name:"), m_judge);
    auto *sources = new QGridLayout;
    sources->addWidget(m_fromPreset, 0, 0);
    sources->addWidget(m_preset, 0, 1, 1, 2);
    sources->addWidget(m_presetNote, 1, 1, 1, 2);
    sources->addWidget(m_fromFile, 2, 0);
    sources->addWidget(m_path, 2, 1);
    sources->addWidget(m_browse, 2, 2);
    sources->addWidget(m_empty, 3, 0);
    sources->addWidget(m_subAspect, 3, 1, 1, 2);
    sources->setColumnStretch(1, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("newChecklistOk"));
    m_ok->setText(tr("Create"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Questions from:"), this));
    layout->addLayout(sources);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(560, sizeHint().height());

    connect(buttons, &QDialogButtonBox::accepted, this, &NewChecklistDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_aspect, &QComboBox::currentIndexChanged, this, &NewChecklistDialog::onAspectChanged);
    connect(m_browse, &QPushButton::clicked, this, &NewChecklistDialog::browse);
    for (QRadioButton *r : {m_fromPreset, m_fromFile, m_empty})
        connect(r, &QRadioButton::toggled, this, &NewChecklistDialog::updateState);
    connect(m_judge, &QLineEdit::textChanged, this, &NewChecklistDialog::updateState);
    connect(m_path, &QLineEdit::textChanged, this, &NewChecklistDialog::updateState);
    onAspectChanged();
}

NewChecklistDialog::Source NewChecklistDialog::source() const
{
    return m_fromFile->isChecked() ? Source::File : m_empty->isChecked() ? Source::Empty : Source::Preset;
}

void NewChecklistDialog::onAspectChanged()
{
    // The published checklist of the aspect, when there is one, and a judge name to match.
    const QString aspect = m_aspect->currentText();
    for (int i = 0; i < m_preset->count(); ++i)
        if (m_preset->itemData(i).toString().endsWith(QLatin1Char('/') + aspect)) {
            m_preset->setCurrentIndex(i);
            break;
        }
    if (m_judge->text().isEmpty() || m_judge->text().startsWith(QStringLiteral("checkeval-")))
        m_judge->setText(QStringLiteral("checkeval-") + aspect);
    updateState();
}

void NewChecklistDialog::updateState()
{
    m_preset->setEnabled(m_fromPreset->isChecked());
    m_presetNote->setEnabled(m_fromPreset->isChecked());
    m_presetNote->setText(ChecklistIo::presetDescription(m_preset->currentData().toString()));
    m_path->setEnabled(m_fromFile->isChecked());
    m_browse->setEnabled(m_fromFile->isChecked());
    m_subAspect->setEnabled(m_empty->isChecked());
    m_ok->setEnabled(!m_aspect->currentText().isEmpty() && !m_judge->text().trimmed().isEmpty()
                     && (source() != Source::File || !m_path->text().trimmed().isEmpty()));
}

void NewChecklistDialog::browse()
{
    const QString path
            = QFileDialog::getOpenFileName(this, tr("Checklist file"), m_path->text(),
                                           tr("Checklists (*.yaml *.yml *.json *.md *.markdown);;All files (*)"));
    if (!path.isEmpty())
        m_path->setText(path);
}

Result<Rubric> NewChecklistDialog::checklist() const
{
    const QString aspect = m_aspect->currentText();
    if (aspect.isEmpty())
        return makeError(tr("the project has no aspect to judge"), {}, 0, QStringLiteral("aspect"));
    std::optional<Aspect> info;
    if (m_project) {
        auto read = m_project->readAspect(aspect);
        if (!read)
            return read.error();
        info = std::move(read).value();
    }
    Rubric rubric;
    switch (source()) {
    case Source::Preset: {
        auto loaded = ChecklistIo::preset(m_preset->currentData().toString());
        if (!loaded)
            return loaded.error();
        rubric = std::move(loaded).value();
        break;
    }
    case Source::File: {
        auto loaded = ChecklistIo::readFile(m_path->text().trimmed(), aspect);
        if (!loaded)
            return loaded.error();
        if (loaded->method() != kMethod && !loaded->method().isEmpty()) {
            const QString file = QFileInfo(m_path->text().trimmed()).fileName();
            return makeError(tr("the file holds a %1 rubric, not a checklist").arg(loaded->method()), file, 0,
                             QStringLiteral("method"));
        }
        rubric = std::move(loaded).value();
        break;
    }
    case Source::Empty: {
        const QString name = m_subAspect->text().trimmed();
        if (name.isEmpty())
            return makeError(tr("name the first sub-aspect"), {}, 0, QStringLiteral("sub-aspect"));
        Criterion root;
        root.key = QStringLiteral("aspect");
        root.kind = CriterionKind::Aspect;
        root.text = aspect;
        root.definition = info ? info->definition : QString();
        root.origin = {{QStringLiteral("method"), kMethod}, {QStringLiteral("source"), QStringLiteral("typed")}};
        Criterion sub;
        sub.key = QStringLiteral("s1");
        sub.parentKey = root.key;
        sub.kind = CriterionKind::SubAspect;
        sub.text = name;
        sub.origin = root.origin;
        rubric = Rubric(kMethod, aspect, {root, sub});
        return rubric;
    }
    }
    // The checklist judges the aspect chosen here, whatever its file called it.
    Rubric out(kMethod, aspect, rubric.criteria());
    for (Criterion &c : out.criteria())
        if (c.kind == CriterionKind::Aspect && c.parentKey.isEmpty()) {
            c.text = aspect;
            if (c.definition.isEmpty() && info)
                c.definition = info->definition;
        }
    return out;
}

Result<QString> NewChecklistDialog::create()
{
    if (!m_project)
        return makeError(tr("no project is open"));
    const QString judge = m_judge->text().trimmed();
    if (judge.isEmpty())
        return makeError(tr("a judge needs a name"), {}, 0, QStringLiteral("judge"));
    const auto existing = m_project->readJudge(judge);
    if (!existing)
        return existing.error();
    if (*existing)
        return makeError(tr("a judge named '%1' exists already; choose another name").arg(judge), {}, 0,
                         QStringLiteral("judge"));
    // Read everything first: a file that cannot be read creates nothing.
    auto rubric = checklist();
    if (!rubric)
        return rubric.error();
    if (auto made = m_project->ensureJudge(judge, kMethod); !made)
        return made.error();
    const QString note = source() == Source::Preset ? tr("Checklist from the preset %1").arg(m_preset->currentText())
                         : source() == Source::File
                                 ? tr("Checklist imported from %1").arg(QFileInfo(m_path->text().trimmed()).fileName())
                                 : tr("Checklist typed in the studio");
    auto saved = RubricStore(m_project).saveVersion(judge, *rubric, note);
    if (!saved) {
        // No judge without its checklist.
        (void)m_project->removeJudge(judge);
        return saved.error();
    }
    m_created = judge;
    return judge;
}

void NewChecklistDialog::accept()
{
    auto made = create();
    if (!made) {
        m_error->setText(tr("Nothing was created: %1").arg(made.errorString()));
        m_error->show();
        return;
    }
    m_error->hide();
    QDialog::accept();
}

} // namespace rubric
