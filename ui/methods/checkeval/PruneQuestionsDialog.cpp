#include "PruneQuestionsDialog.h"

#include "PlainText.h"
#include "methods/checkeval/Checklist.h"
#include "models/RubricTreeModel.h"
#include "store/Project.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

QString figure(double v)
{
    return std::isnan(v) ? PruneQuestionsDialog::tr("n/a") : QString::number(v, 'f', 3);
}

} // namespace

PruneQuestionsCommand::PruneQuestionsCommand(RubricTreeModel *model, const QVector<PruneCandidate> &questions,
                                             QUndoCommand *parent)
    : QUndoCommand(parent)
    , m_model(model)
{
    QStringList keys;
    for (const PruneCandidate &q : questions) {
        const Criterion *c = model->criterion(q.key);
        if (!c)
            continue;
        State s{q.key, c->enabled, c->origin, c->origin};
        s.newOrigin.insert(QStringLiteral("pruned"),
                           q.constant.isEmpty()
                                   ? QStringLiteral("discrimination %1").arg(QString::number(q.discrimination, 'f', 3))
                                   : QStringLiteral("always %1").arg(q.constant));
        m_states.append(s);
        keys << q.key;
    }
    setText(QCoreApplication::translate("RubricCommands", "Prune %1").arg(keys.join(QStringLiteral(", "))));
}

void PruneQuestionsCommand::undo()
{
    for (const State &s : std::as_const(m_states))
        m_model->setState(s.key, s.enabled, s.oldOrigin);
}

void PruneQuestionsCommand::redo()
{
    for (const State &s : std::as_const(m_states))
        m_model->setState(s.key, false, s.newOrigin);
}

PruneQuestionsDialog::PruneQuestionsDialog(Project *project, const QString &judge, RubricTreeModel *model,
                                           QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_judge(judge)
    , m_model(model)
    , m_count(new QSpinBox(this))
    , m_questions(new QListWidget(this))
    , m_alignment(new QLabel(this))
    , m_save(new QCheckBox(tr("Save as a new version now"), this))
{
    setObjectName(QStringLiteral("pruneQuestionsDialog"));
    setWindowTitle(tr("Prune by discrimination"));
    const int asked = int(Checklist::askedQuestions(model->rubric()).size());
    m_count->setObjectName(QStringLiteral("pruneCount"));
    m_count->setRange(1, std::max(1, asked - 1));
    m_count->setValue(std::min(3, std::max(1, asked - 1)));
    m_count->setToolTip(tr("How many of the asked questions to disable: constant ones first, then the lowest "
                           "discrimination (point-biserial r with the human score)"));
    m_questions->setObjectName(QStringLiteral("pruneQuestions"));
    m_alignment->setObjectName(QStringLiteral("pruneAlignment"));
    m_alignment->setWordWrap(true);
    m_alignment->setTextFormat(Qt::PlainText);
    auto *form = new QFormLayout;
    form->addRow(tr("Questions to disable:"), m_count);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Disables the questions that separate items least, by the figures of the judge's "
                                "last run, as one edit (undoable); save it as a new version to keep it."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_questions, 1);
    layout->addWidget(m_alignment);
    m_save->setObjectName(QStringLiteral("pruneSaveVersion"));
    m_save->setChecked(true);
    m_save->setToolTip(tr("Save the pruned checklist as a new version at once and record its alignment on the test "
                          "(and train) split from the stored answers beside the old version's; the edit stays "
                          "undoable"));
    layout->addWidget(m_save);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_count, &QSpinBox::valueChanged, this, &PruneQuestionsDialog::update);
    resize(640, 420);
    update();
}

void PruneQuestionsDialog::update()
{
    m_questions->clear();
    m_chosen.clear();
    m_figures = PruneAlignment{};
    const Rubric &before = m_model->rubric();
    const auto chosen = QuestionPrune::leastDiscriminating(before, m_count->value());
    if (!chosen) {
        m_alignment->setText(tr("Cannot prune: %1").arg(chosen.errorString()));
        m_ok->setEnabled(false);
        return;
    }
    m_chosen = *chosen;
    Rubric after = before;
    for (const PruneCandidate &q : std::as_const(m_chosen)) {
        if (Criterion *c = after.find(q.key))
            c->enabled = false;
        m_questions->addItem(
                q.constant.isEmpty()
                        ? tr("%1 · r = %2 · %3").arg(q.key, figure(q.discrimination), plain::elide(q.text, 160))
                        : tr("%1 · always %2 · %3").arg(q.key, q.constant, plain::elide(q.text, 160)));
    }
    m_ok->setEnabled(true);
    if (!m_project) {
        m_alignment->setText(tr("No project: the alignment cannot be measured."));
        return;
    }
    const auto figures = QuestionPrune::compare(*m_project, m_judge, before, after);
    if (!figures) {
        m_alignment->setText(tr("Cannot measure the alignment: %1").arg(figures.errorString()));
        return;
    }
    m_figures = *figures;
    const QString where = m_figures.split == QLatin1String("test")
                                  ? tr("on %1 items of the test split").arg(m_figures.items)
                                  : tr("on %1 items (every item: the project has no test split)").arg(m_figures.items);
    m_alignment->setText(tr("Alignment (Pearson r of the share of met answers with the human score) %1: %2 now, "
                            "%3 after pruning — from the stored answers, no calls.")
                                 .arg(where, figure(m_figures.before), figure(m_figures.after)));
}

} // namespace rubric
