#include "JudgeAgreementDialog.h"

#include "EvaluatorGroupsView.h"
#include "PlainText.h"
#include "runs/RunConfig.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

constexpr int JudgeNameRole = Qt::UserRole;
constexpr int AspectRole = Qt::UserRole + 1;

QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QTableWidgetItem *figure(double v)
{
    auto *item = cell(std::isnan(v) ? JudgeAgreementDialog::tr("n/a") : QString::number(v, 'f', 3));
    item->setData(JudgeAgreementDialog::ValueRole, v);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem *count(int n)
{
    auto *item = cell(QString::number(n));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

void setHeaders(QTableWidget *table, const QString &first)
{
    table->setColumnCount(JudgeAgreementDialog::ColumnCount);
    table->setHorizontalHeaderLabels({first, JudgeAgreementDialog::tr("Judges"), JudgeAgreementDialog::tr("α"),
                                      JudgeAgreementDialog::tr("κ"), JudgeAgreementDialog::tr("Units"),
                                      JudgeAgreementDialog::tr("κ units")});
    table->horizontalHeaderItem(JudgeAgreementDialog::AlphaColumn)
            ->setToolTip(JudgeAgreementDialog::tr("Krippendorff's alpha, nominal, on whether each answer meets the "
                                                  "criterion; units with a missing answer count where two judges "
                                                  "answered"));
    table->horizontalHeaderItem(JudgeAgreementDialog::KappaColumn)
            ->setToolTip(JudgeAgreementDialog::tr("Fleiss' kappa on the (item, question) units every chosen judge "
                                                  "answered"));
    table->horizontalHeaderItem(JudgeAgreementDialog::PairsColumn)
            ->setToolTip(JudgeAgreementDialog::tr("(item, question) units with answers from at least two judges"));
    table->horizontalHeaderItem(JudgeAgreementDialog::KappaUnitsColumn)
            ->setToolTip(JudgeAgreementDialog::tr("(item, question) units every chosen judge answered"));
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(JudgeAgreementDialog::JudgesColumn, QHeaderView::Stretch);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(false);
}

} // namespace

JudgeAgreementDialog::JudgeAgreementDialog(Project *project, const QString &judge, QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_judges(new QListWidget(this))
    , m_dimensions(new QTableWidget(this))
    , m_subAspects(new QTableWidget(this))
    , m_message(new QLabel(this))
    , m_coders(new QComboBox(this))
    , m_tabs(new QTabWidget(this))
    , m_groups(new EvaluatorGroupsView(this))
{
    setObjectName(QStringLiteral("judgeAgreementDialog"));
    setWindowTitle(tr("Agreement between checklist judges"));
    m_judges->setObjectName(QStringLiteral("agreementJudges"));
    m_judges->setToolTip(tr("The checklist judges to compare; judges are compared with the others of the same "
                            "dimension (the aspect their checklist scores)"));
    m_dimensions->setObjectName(QStringLiteral("agreementDimensions"));
    m_dimensions->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_dimensions->setSelectionMode(QAbstractItemView::SingleSelection);
    setHeaders(m_dimensions, tr("Dimension"));
    m_subAspects->setObjectName(QStringLiteral("agreementSubAspects"));
    m_subAspects->setSelectionMode(QAbstractItemView::NoSelection);
    setHeaders(m_subAspects, tr("Sub-aspect"));
    m_subAspects->setColumnHidden(JudgesColumn, true); // the dimension's judges, shown above
    m_subAspects->horizontalHeader()->setSectionResizeMode(DimensionColumn, QHeaderView::Stretch);
    m_message->setObjectName(QStringLiteral("agreementMessage"));
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);

    auto *intro = new QLabel(tr("Inter-evaluator agreement as the CheckEval paper reports it: units are (item, "
                                "question) pairs, coders the chosen judges of a dimension, values whether the "
                                "answer meets the criterion. Every item is counted."),
                             this);
    intro->setWordWrap(true);
    m_coders->setObjectName(QStringLiteral("agreementCoders"));
    m_coders->addItems({tr("LLM judges only"), tr("LLM judges and people")});
    m_coders->setToolTip(tr("Whether judges whose answers are people's (imported, marked in the Groups tab) count "
                            "as coders"));
    auto *codersRow = new QHBoxLayout;
    codersRow->addWidget(new QLabel(tr("Coders:"), this));
    codersRow->addWidget(m_coders);
    codersRow->addStretch(1);
    auto *subTitle = new QLabel(tr("Per sub-aspect of the selected dimension"), this);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_dimensions, 1);
    rightLayout->addWidget(m_message);
    rightLayout->addWidget(subTitle);
    rightLayout->addWidget(m_subAspects, 2);
    auto *split = new QSplitter(Qt::Horizontal, this);
    m_tabs->setObjectName(QStringLiteral("agreementTabs"));
    m_tabs->addTab(right, tr("Chosen judges"));
    m_tabs->addTab(m_groups, tr("Groups"));
    m_tabs->setTabToolTip(1, tr("The paper's table: all, large, medium, small, each family and the Top-3 "
                                "evaluators, per dimension and on average"));
    split->addWidget(m_judges);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(codersRow);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_judges, &QListWidget::itemChanged, this, [this] {
        if (!m_updating)
            recompute();
    });
    connect(m_dimensions, &QTableWidget::itemSelectionChanged, this, &JudgeAgreementDialog::showSubAspects);
    connect(m_coders, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    connect(m_groups, &EvaluatorGroupsView::profileChanged, this, [this] {
        readProfiles();
        recompute();
    });
    resize(1100, 640);
    listJudges(judge);
    recompute();
}

void JudgeAgreementDialog::listJudges(const QString &judge)
{
    m_updating = true;
    m_judges->clear();
    if (!m_project) {
        m_updating = false;
        return;
    }
    RubricStore store(m_project);
    QString chosenAspect;
    struct Listed
    {
        QString name, aspect;
    };
    QVector<Listed> listed;
    for (const JudgeInfo &j : m_project->judges()) {
        if (j.method != QLatin1String("checkeval"))
            continue;
        const auto rubric = store.load(j.name);
        if (!rubric || rubric->ofKind(CriterionKind::Question).isEmpty())
            continue; // no checklist yet: nothing to compare
        listed.append({j.name, rubric->aspect()});
        if (j.name == judge)
            chosenAspect = rubric->aspect();
    }
    for (const Listed &l : std::as_const(listed)) {
        auto *item = new QListWidgetItem(tr("%1 · %2").arg(plain::elide(l.name, 80), plain::elide(l.aspect, 40)));
        item->setData(JudgeNameRole, l.name);
        item->setData(AspectRole, l.aspect);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(chosenAspect.isEmpty() || l.aspect == chosenAspect ? Qt::Checked : Qt::Unchecked);
        m_judges->addItem(item);
    }
    m_updating = false;
    readProfiles();
}

void JudgeAgreementDialog::readProfiles()
{
    m_profiles.clear();
    m_profileProblems.clear();
    const bool wasUpdating = m_updating;
    m_updating = true; // the texts change, not the choice
    for (int i = 0; m_project && i < m_judges->count(); ++i) {
        QListWidgetItem *item = m_judges->item(i);
        const QString name = item->data(JudgeNameRole).toString();
        const auto spec = RunConfig::load(m_project, name); // none for an imported judge: no model then
        auto p = EvaluatorGroups::read(*m_project, name, item->data(AspectRole).toString(),
                                       spec ? spec->evaluator.model : QString());
        if (!p) {
            m_profileProblems << p.errorString();
            continue;
        }
        m_profiles.insert(name, *p);
        item->setText(p->person ? tr("%1 · %2 · people").arg(plain::elide(name, 80), plain::elide(p->aspect, 40))
                                : tr("%1 · %2").arg(plain::elide(name, 80), plain::elide(p->aspect, 40)));
    }
    m_updating = wasUpdating;
}

void JudgeAgreementDialog::setWithPeople(bool withPeople)
{
    m_coders->setCurrentIndex(withPeople ? 1 : 0);
}

void JudgeAgreementDialog::setChosen(const QStringList &judges)
{
    m_updating = true;
    for (int i = 0; i < m_judges->count(); ++i) {
        QListWidgetItem *item = m_judges->item(i);
        item->setCheckState(judges.contains(item->data(JudgeNameRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
    m_updating = false;
    recompute();
}

void JudgeAgreementDialog::recompute()
{
    m_shown.clear();
    const bool withPeople = m_coders->currentIndex() == 1;
    QStringList aspects;
    QHash<QString, QStringList> chosen;
    QVector<EvaluatorProfile> grouped;
    QStringList leftOut;
    for (int i = 0; i < m_judges->count(); ++i) {
        const QListWidgetItem *item = m_judges->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        const QString name = item->data(JudgeNameRole).toString();
        const auto profile = m_profiles.constFind(name);
        if (profile == m_profiles.cend())
            continue; // its profile could not be read: said in the message
        grouped.append(*profile);
        if (profile->person && !withPeople) {
            leftOut << name;
            continue;
        }
        const QString aspect = item->data(AspectRole).toString();
        if (!aspects.contains(aspect))
            aspects << aspect;
        chosen[aspect] << item->data(JudgeNameRole).toString();
    }
    QStringList messages;
    for (const QString &aspect : std::as_const(aspects)) {
        Dimension d{aspect, chosen.value(aspect), std::nullopt, {}};
        if (d.judges.size() < 2) {
            messages << tr("%1: choose a second judge of this dimension to compare %2 with")
                                .arg(aspect, d.judges.value(0));
            continue;
        }
        auto a = m_project ? QuestionAgreement::fromProject(*m_project, aspect, d.judges)
                           : Result<ChecklistAgreement>(makeError(tr("no project is open")));
        if (!a)
            d.error = a.errorString();
        else if (a->overall.pairs == 0)
            d.error = tr("no (item, question) unit has answers from two of the judges");
        else
            d.result = std::move(a).value();
        if (!d.error.isEmpty())
            messages << tr("%1: no figures: %2").arg(aspect, d.error);
        m_shown.append(d);
    }
    if (aspects.isEmpty())
        messages << tr("Choose at least two checklist judges of one dimension.");
    messages << m_profileProblems;
    if (!leftOut.isEmpty())
        messages << tr("Left out, their answers are people's: %1 (choose \"LLM judges and people\" to count them)")
                            .arg(leftOut.join(QStringLiteral(", ")));
    m_groups->show(m_project, grouped, withPeople);

    m_dimensions->setRowCount(0);
    double alphaSum = 0, kappaSum = 0;
    int alphaN = 0, kappaN = 0;
    const double nan = std::nan("");
    for (const Dimension &d : std::as_const(m_shown)) {
        const int row = m_dimensions->rowCount();
        m_dimensions->insertRow(row);
        m_dimensions->setItem(row, DimensionColumn, cell(d.aspect));
        m_dimensions->setItem(row, JudgesColumn, cell(d.judges.join(QStringLiteral(", "))));
        const ChecklistAgreementFigures f = d.result ? d.result->overall : ChecklistAgreementFigures{};
        m_dimensions->setItem(row, AlphaColumn, figure(f.alpha));
        m_dimensions->setItem(row, KappaColumn, figure(f.kappa));
        m_dimensions->setItem(row, PairsColumn, count(f.pairs));
        m_dimensions->setItem(row, KappaUnitsColumn, count(f.kappaUnits));
        if (!d.error.isEmpty())
            for (int c = 0; c < ColumnCount; ++c)
                m_dimensions->item(row, c)->setToolTip(plain::toolTip(d.error));
        if (!std::isnan(f.alpha)) {
            alphaSum += f.alpha;
            ++alphaN;
        }
        if (!std::isnan(f.kappa)) {
            kappaSum += f.kappa;
            ++kappaN;
        }
    }
    if (!m_shown.isEmpty()) {
        const int row = m_dimensions->rowCount();
        m_dimensions->insertRow(row);
        QStringList averaged;
        for (const Dimension &d : std::as_const(m_shown))
            if (d.result)
                averaged << d.aspect;
        m_dimensions->setItem(row, DimensionColumn, cell(tr("Average")));
        m_dimensions->setItem(row, JudgesColumn, cell(tr("over %1").arg(averaged.join(QStringLiteral(", ")))));
        m_dimensions->setItem(row, AlphaColumn, figure(alphaN ? alphaSum / alphaN : nan));
        m_dimensions->setItem(row, KappaColumn, figure(kappaN ? kappaSum / kappaN : nan));
        m_dimensions->setItem(row, PairsColumn, cell(QString()));
        m_dimensions->setItem(row, KappaUnitsColumn, cell(QString()));
        QFont bold = m_dimensions->font();
        bold.setBold(true);
        for (int c = 0; c < ColumnCount; ++c) {
            m_dimensions->item(row, c)->setFont(bold);
            m_dimensions->item(row, c)->setToolTip(
                    tr("The mean over the dimensions with a figure, as the paper averages its four dimensions"));
        }
    }
    m_message->setText(messages.join(QLatin1Char('\n')));
    m_message->setVisible(!messages.isEmpty());
    if (!m_shown.isEmpty())
        m_dimensions->selectRow(0);
    showSubAspects();
}

void JudgeAgreementDialog::showSubAspects()
{
    m_subAspects->setRowCount(0);
    const int row = m_dimensions->currentRow();
    if (row < 0 || row >= m_shown.size() || !m_shown.at(row).result)
        return;
    const ChecklistAgreement &a = *m_shown.at(row).result;
    for (const SubAspectAgreement &s : a.perSubAspect) {
        const int r = m_subAspects->rowCount();
        m_subAspects->insertRow(r);
        m_subAspects->setItem(r, DimensionColumn, cell(plain::elide(s.name, 120)));
        m_subAspects->setItem(r, JudgesColumn, cell(a.judges.join(QStringLiteral(", "))));
        m_subAspects->setItem(r, AlphaColumn, figure(s.figures.alpha));
        m_subAspects->setItem(r, KappaColumn, figure(s.figures.kappa));
        m_subAspects->setItem(r, PairsColumn, count(s.figures.pairs));
        m_subAspects->setItem(r, KappaUnitsColumn, count(s.figures.kappaUnits));
    }
}

} // namespace rubric
