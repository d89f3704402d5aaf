#include "ImportAnswersDialog.h"

#include "PlainText.h"
#include "methods/checkeval/ChecklistIo.h"
#include "methods/checkeval/EvaluatorGroups.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

constexpr int JudgeData = 0;
constexpr int PresetData = 1;
constexpr int KindRole = Qt::UserRole + 1;

QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

} // namespace

ImportAnswersDialog::ImportAnswersDialog(Project *project, const QString &judge, QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_file(new QLineEdit(this))
    , m_judge(new QLineEdit(this))
    , m_checklist(new QComboBox(this))
    , m_by(new QComboBox(this))
    , m_model(new QLineEdit(this))
    , m_preview(new QTableWidget(this))
    , m_summary(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("importAnswersDialog"));
    setWindowTitle(tr("Import checklist answers"));
    m_file->setObjectName(QStringLiteral("importAnswersFile"));
    m_file->setPlaceholderText(tr("CSV with the columns item, question, answer"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    m_judge->setObjectName(QStringLiteral("importAnswersJudge"));
    m_judge->setPlaceholderText(tr("a new judge, or an existing checklist judge to fill"));
    m_checklist->setObjectName(QStringLiteral("importAnswersChecklist"));
    m_checklist->setToolTip(tr("The questions the answers are to: an existing judge's checklist or a published "
                               "one. An existing judge keeps its own (it must ask the same questions)"));
    m_by->setObjectName(QStringLiteral("importAnswersBy"));
    m_by->addItems({tr("an LLM"), tr("people")});
    m_by->setToolTip(tr("Stored as the judge's evaluator: the Judge agreement dialog counts people's answers as "
                        "coders only when asked to, and groups LLMs by their model"));
    m_model->setObjectName(QStringLiteral("importAnswersModel"));
    m_model->setPlaceholderText(tr("the model that answered (its size and family are inferred from it)"));
    m_preview->setObjectName(QStringLiteral("importAnswersPreview"));
    m_preview->setColumnCount(PreviewColCount);
    m_preview->setHorizontalHeaderLabels({tr("Line"), tr("Item"), tr("Question"), tr("Answer"), tr("Meets")});
    m_preview->horizontalHeaderItem(MeetsCol)->setToolTip(
            tr("Whether the answer meets the question's criterion (an inverted question's \"no\" does)"));
    m_preview->verticalHeader()->hide();
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_preview->horizontalHeader()->setSectionResizeMode(QuestionCol, QHeaderView::Stretch);
    m_summary->setObjectName(QStringLiteral("importAnswersSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_import = m_buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    m_import->setObjectName(QStringLiteral("importAnswersImport"));

    // the checklists on offer: the project's checklist judges, then the published presets
    if (m_project) {
        RubricStore store(m_project);
        for (const JudgeInfo &j : m_project->judges()) {
            if (j.method != QLatin1String("checkeval"))
                continue;
            const auto r = store.load(j.name);
            if (!r || r->ofKind(CriterionKind::Question).isEmpty())
                continue;
            m_checklist->addItem(tr("checklist of judge %1 (%2)").arg(plain::elide(j.name, 60), r->aspect()), j.name);
            m_checklist->setItemData(m_checklist->count() - 1, JudgeData, KindRole);
        }
    }
    for (const QString &name : ChecklistIo::presetNames()) {
        if (name.count(QLatin1Char('/')) != 1)
            continue; // the unions only
        m_checklist->addItem(tr("published: %1").arg(name), name);
        m_checklist->setItemData(m_checklist->count() - 1, PresetData, KindRole);
    }
    if (!judge.isEmpty()) {
        const int i = m_checklist->findData(judge);
        if (i >= 0)
            m_checklist->setCurrentIndex(i);
    }

    auto *form = new QFormLayout;
    form->addRow(tr("File:"), fileRow);
    form->addRow(tr("Judge:"), m_judge);
    form->addRow(tr("Checklist:"), m_checklist);
    form->addRow(tr("Answered by:"), m_by);
    form->addRow(tr("Model:"), m_model);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Per-question answers made elsewhere, one row per (item, question): item "
                                    "(an item id), question (a key such as q3, or the question's exact text), "
                                    "answer (yes/no, y/n, 1/0, true/false; empty = unanswered). All rows are "
                                    "checked first; nothing is written unless every row is good."),
                                 this));
    layout->itemAt(0)->widget()->setProperty("wordWrap", true);
    layout->addLayout(form);
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);
    connect(browse, &QPushButton::clicked, this, &ImportAnswersDialog::browse);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ImportAnswersDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_file, &QLineEdit::editingFinished, this, &ImportAnswersDialog::refresh);
    connect(m_judge, &QLineEdit::editingFinished, this, &ImportAnswersDialog::refresh);
    connect(m_checklist, &QComboBox::currentIndexChanged, this, &ImportAnswersDialog::refresh);
    connect(m_by, &QComboBox::currentIndexChanged, this, [this](int i) { m_model->setEnabled(i == 0); });
    resize(820, 560);
    refresh();
}

void ImportAnswersDialog::browse()
{
    const QString f = QFileDialog::getOpenFileName(this, tr("Checklist answers"), m_file->text(),
                                                   tr("CSV files (*.csv);;All files (*)"));
    if (f.isEmpty())
        return;
    m_file->setText(f);
    refresh();
}

std::optional<Rubric> ImportAnswersDialog::chosenChecklist(QString *error) const
{
    const QString judge = m_judge->text().trimmed();
    if (m_project && !judge.isEmpty() && m_project->judge(judge)) {
        // an existing judge keeps its own checklist
        const auto latest = RubricStore(m_project).loadLatest(judge);
        if (latest && *latest)
            return **latest;
    }
    const QString value = m_checklist->currentData().toString();
    if (value.isEmpty()) {
        *error = tr("choose a checklist");
        return std::nullopt;
    }
    if (m_checklist->currentData(KindRole).toInt() == PresetData) {
        auto r = ChecklistIo::preset(value);
        if (!r) {
            *error = r.errorString();
            return std::nullopt;
        }
        return *r;
    }
    auto r = RubricStore(m_project).load(value);
    if (!r) {
        *error = r.errorString();
        return std::nullopt;
    }
    return *r;
}

void ImportAnswersDialog::refresh()
{
    m_plan.reset();
    m_planChecklist.reset();
    m_preview->setRowCount(0);
    m_import->setEnabled(false);
    QString error;
    if (!m_project)
        error = tr("no project is open");
    else if (m_file->text().trimmed().isEmpty())
        error = tr("Choose a CSV file.");
    else if (m_judge->text().trimmed().isEmpty())
        error = tr("Name the judge the answers are stored as.");
    std::optional<Rubric> checklist;
    if (error.isEmpty())
        checklist = chosenChecklist(&error);
    if (checklist) {
        auto plan = AnswerImport::check(*m_project, m_file->text().trimmed(), m_judge->text().trimmed(), *checklist);
        if (!plan)
            error = plan.errorString();
        else {
            m_plan = std::move(plan).value();
            m_planChecklist = checklist;
        }
    }
    if (!m_plan) {
        m_summary->setText(error);
        return;
    }
    m_preview->setRowCount(int(m_plan->rows.size()));
    for (int r = 0; r < m_plan->rows.size(); ++r) {
        const CriterionScore &s = m_plan->rows.at(r);
        const Criterion *q = m_planChecklist->find(s.criterionKey);
        m_preview->setItem(r, LineCol, cell(QString::number(m_plan->lines.value(r))));
        m_preview->setItem(r, ItemCol, cell(plain::elide(s.itemId, 60)));
        auto *question = cell(plain::elide(q ? q->text : s.criterionKey, 120));
        question->setToolTip(s.criterionKey);
        m_preview->setItem(r, QuestionCol, question);
        const bool answered = !std::isnan(s.answer);
        m_preview->setItem(r, AnswerCol, cell(!answered ? tr("(none)") : s.answer > 0.5 ? tr("yes") : tr("no")));
        m_preview->setItem(r, MeetsCol, cell(!answered ? QString() : s.score > 0.5 ? tr("met") : tr("not met")));
    }
    const ImportedAnswers &c = m_plan->counts;
    m_summary->setText(tr("%1 answers and %2 unanswered on %3 items and %4 questions, stored as %5 judge '%6' "
                          "for %7.")
                               .arg(c.answers)
                               .arg(c.unanswered)
                               .arg(c.items)
                               .arg(c.questions)
                               .arg(m_plan->createsJudge ? tr("the new") : tr("the existing"), m_plan->judge,
                                    m_planChecklist->aspect()));
    m_import->setEnabled(true);
}

void ImportAnswersDialog::accept()
{
    refresh(); // the file may have changed since the preview
    if (!m_plan || !m_planChecklist || !m_project)
        return;
    auto written = AnswerImport::write(*m_project, *m_plan, *m_planChecklist);
    if (!written) {
        m_summary->setText(tr("Nothing imported: %1").arg(written.errorString()));
        return;
    }
    EvaluatorProfile profile;
    profile.judge = m_plan->judge;
    profile.person = m_by->currentIndex() == 1;
    profile.personSet = true;
    profile.model = m_model->text().trimmed();
    profile.modelSet = !profile.person && !profile.model.isEmpty();
    if (auto r = EvaluatorGroups::write(*m_project, profile); !r.ok())
        QMessageBox::warning(this, tr("Evaluator not saved"),
                             tr("The answers were imported; who answered was not saved: %1").arg(r.errorString()));
    m_imported = m_plan->judge;
    QDialog::accept();
}

} // namespace rubric
