#include "EvaluatorGroupsView.h"

#include "PlainText.h"
#include "store/Project.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

QTableWidgetItem *readOnly(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QTableWidgetItem *figure(double v)
{
    auto *item = readOnly(std::isnan(v) ? EvaluatorGroupsView::tr("n/a") : QString::number(v, 'f', 3));
    item->setData(EvaluatorGroupsView::ValueRole, v);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString sizeName(const QString &size)
{
    if (size == QLatin1String("large"))
        return EvaluatorGroupsView::tr("large");
    if (size == QLatin1String("medium"))
        return EvaluatorGroupsView::tr("medium");
    if (size == QLatin1String("small"))
        return EvaluatorGroupsView::tr("small");
    return EvaluatorGroupsView::tr("unknown");
}

} // namespace

EvaluatorGroupsView::EvaluatorGroupsView(QWidget *parent)
    : QWidget(parent)
    , m_groups(new QTableWidget(this))
    , m_evaluators(new QTableWidget(this))
    , m_note(new QLabel(this))
{
    m_groups->setObjectName(QStringLiteral("agreementGroups"));
    m_groups->verticalHeader()->hide();
    m_groups->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_groups->setSelectionMode(QAbstractItemView::NoSelection);
    m_groups->setWordWrap(false);
    m_evaluators->setObjectName(QStringLiteral("agreementEvaluators"));
    m_evaluators->verticalHeader()->hide();
    m_evaluators->setColumnCount(EvaluatorColCount);
    m_evaluators->setHorizontalHeaderLabels(
            {tr("Judge"), tr("Dimension"), tr("Model"), tr("Answers by"), tr("Size"), tr("Family"), tr("Model's ρ")});
    m_evaluators->horizontalHeaderItem(ModelCol)->setToolTip(
            tr("The evaluator model; judges with the same model are one evaluator across the "
               "dimensions (Top-3 ranks models). Empty: the model of the judge's run"));
    m_evaluators->horizontalHeaderItem(SizeCol)->setToolTip(
            tr("Inferred from the model name unless set: a parameter count in the name (70B) decides, large "
               "from 60B, medium from 15B, small below; no count (GPT, Claude) is unknown"));
    m_evaluators->horizontalHeaderItem(FamilyCol)->setToolTip(
            tr("Inferred from the model name's first word unless set; empty the field to infer again"));
    m_evaluators->horizontalHeaderItem(RhoCol)->setToolTip(
            tr("Spearman's rho between the judge's item scores and the mean human score on the default split's "
               "items; Top-3 ranks the models by its mean over their dimensions"));
    m_evaluators->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_evaluators->setWordWrap(false);
    m_note->setObjectName(QStringLiteral("agreementGroupsNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_groups);
    split->addWidget(m_evaluators);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);
    layout->addWidget(m_note);

    connect(m_evaluators, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (m_filling || item->row() >= m_profiles.size())
            return;
        EvaluatorProfile p = m_profiles.at(item->row());
        const QString text = item->text().trimmed();
        if (item->column() == ModelCol) {
            p.modelSet = !text.isEmpty();
            p.model = text;
        } else if (item->column() == FamilyCol) {
            p.familySet = !text.isEmpty();
            p.family = text;
        } else {
            return;
        }
        store(p);
    });
}

void EvaluatorGroupsView::show(Project *project, const QVector<EvaluatorProfile> &evaluators, bool withPeople)
{
    m_project = project;
    m_profiles = evaluators;
    m_withPeople = withPeople;
    m_table = {};
    QString error;
    if (m_project && !m_profiles.isEmpty()) {
        auto t = EvaluatorGroups::compute(*m_project, m_profiles, withPeople);
        if (t)
            m_table = std::move(t).value();
        else
            error = t.errorString();
    }
    fillGroups();
    fillEvaluators();
    QStringList notes;
    if (!error.isEmpty())
        notes << tr("No groups: %1").arg(error);
    if (!m_table.top3.isEmpty()) {
        QStringList top;
        for (const QString &m : std::as_const(m_table.top3))
            top << tr("%1 (ρ %2)").arg(m).arg(m_table.modelRho.value(m), 0, 'f', 3);
        notes << tr("Top-3, the models with the highest mean correlation with people over their dimensions: %1")
                         .arg(top.join(QStringLiteral(", ")));
    } else if (!m_profiles.isEmpty()) {
        notes << tr("No Top-3: no judge's item scores correlate with human scores here (annotate items first)");
    }
    notes << (withPeople ? tr("Judges whose answers are people's are coders in every group and alone in "
                              "\"People\" (the paper's Table 4).")
                         : tr("LLM judges only: judges whose answers are people's are left out."));
    m_note->setText(notes.join(QLatin1Char('\n')));
}

int EvaluatorGroupsView::groupRow(const QString &id) const
{
    for (int r = 0; r < m_groups->rowCount(); ++r)
        if (m_groups->item(r, 0) && m_groups->item(r, 0)->data(GroupIdRole).toString() == id)
            return r;
    return -1;
}

int EvaluatorGroupsView::figureColumn(const QString &aspect, bool kappa) const
{
    const qsizetype i = aspect.isEmpty() ? m_table.aspects.size() : m_table.aspects.indexOf(aspect);
    if (i < 0)
        return -1;
    return 2 + 2 * int(i) + (kappa ? 1 : 0);
}

void EvaluatorGroupsView::fillGroups()
{
    QStringList headers{tr("Group"), tr("Models")};
    for (const QString &a : std::as_const(m_table.aspects))
        headers << tr("%1 α").arg(plain::elide(a, 30)) << tr("%1 κ").arg(plain::elide(a, 30));
    headers << tr("Average α") << tr("Average κ");
    m_groups->clear();
    m_groups->setColumnCount(int(headers.size()));
    m_groups->setHorizontalHeaderLabels(headers);
    m_groups->setRowCount(0);
    for (const GroupRow &g : std::as_const(m_table.rows)) {
        const int r = m_groups->rowCount();
        m_groups->insertRow(r);
        auto *name = readOnly(g.label);
        name->setData(GroupIdRole, g.id);
        m_groups->setItem(r, 0, name);
        m_groups->setItem(r, 1, readOnly(plain::elide(g.models.join(QStringLiteral(", ")), 120)));
        m_groups->item(r, 1)->setToolTip(plain::toolTip(g.models.join(QLatin1Char('\n'))));
        for (int i = 0; i < g.cells.size(); ++i) {
            const GroupCell &c = g.cells.at(i);
            auto *a = figure(c.figures.alpha);
            auto *k = figure(c.figures.kappa);
            const QString tip = c.error.isEmpty() ? tr("%1 judges: %2; %3 units, %4 κ units")
                                                            .arg(c.judges.size())
                                                            .arg(c.judges.join(QStringLiteral(", ")))
                                                            .arg(c.figures.pairs)
                                                            .arg(c.figures.kappaUnits)
                                                  : c.error;
            a->setToolTip(plain::toolTip(tip));
            k->setToolTip(plain::toolTip(tip));
            m_groups->setItem(r, 2 + 2 * i, a);
            m_groups->setItem(r, 3 + 2 * i, k);
        }
        const int avg = 2 + 2 * int(g.cells.size());
        auto *a = figure(g.alpha);
        auto *k = figure(g.kappa);
        const QString tip = tr("Mean over %1").arg(g.averaged.join(QStringLiteral(", ")));
        a->setToolTip(tip);
        k->setToolTip(tip);
        QFont bold = m_groups->font();
        bold.setBold(true);
        a->setFont(bold);
        k->setFont(bold);
        m_groups->setItem(r, avg, a);
        m_groups->setItem(r, avg + 1, k);
    }
    m_groups->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_groups->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
}

void EvaluatorGroupsView::fillEvaluators()
{
    m_filling = true;
    m_evaluators->setRowCount(0);
    for (int r = 0; r < m_profiles.size(); ++r) {
        const EvaluatorProfile &p = m_profiles.at(r);
        m_evaluators->insertRow(r);
        m_evaluators->setItem(r, JudgeCol, readOnly(plain::elide(p.judge, 60)));
        m_evaluators->setItem(r, DimensionCol, readOnly(plain::elide(p.aspect, 40)));
        auto *model = new QTableWidgetItem(p.model);
        QFont inferred = m_evaluators->font();
        inferred.setItalic(true);
        if (!p.modelSet) {
            model->setFont(inferred);
            model->setToolTip(tr("From the judge's run (or its name); type to set"));
        }
        m_evaluators->setItem(r, ModelCol, model);

        auto *kind = new QComboBox;
        kind->addItems({tr("an LLM"), tr("people")});
        kind->setCurrentIndex(p.person ? 1 : 0);
        connect(kind, &QComboBox::currentIndexChanged, this, [this, r](int index) {
            if (m_filling)
                return;
            EvaluatorProfile e = m_profiles.at(r);
            e.person = index == 1;
            e.personSet = true;
            store(e);
        });
        m_evaluators->setCellWidget(r, KindCol, kind);

        auto *size = new QComboBox;
        const EvaluatorProfile guess = EvaluatorGroups::infer(p.model);
        size->addItem(tr("inferred: %1").arg(sizeName(guess.size)));
        size->setItemData(0, guess.sizeWhy, Qt::ToolTipRole);
        for (const QString &s : {QStringLiteral("large"), QStringLiteral("medium"), QStringLiteral("small"), QString()})
            size->addItem(sizeName(s), s);
        size->setCurrentIndex(p.sizeSet ? size->findData(p.size) : 0);
        size->setToolTip(p.sizeWhy);
        connect(size, &QComboBox::currentIndexChanged, this, [this, r, size](int index) {
            if (m_filling)
                return;
            EvaluatorProfile e = m_profiles.at(r);
            e.sizeSet = index > 0;
            e.size = index > 0 ? size->itemData(index).toString() : QString();
            store(e);
        });
        m_evaluators->setCellWidget(r, SizeCol, size);

        auto *family = new QTableWidgetItem(p.family);
        if (!p.familySet) {
            family->setFont(inferred);
            family->setToolTip(tr("Inferred from the model name; type to set"));
        }
        m_evaluators->setItem(r, FamilyCol, family);
        const double rho = p.person ? std::nan("") : m_table.modelRho.value(p.model, std::nan(""));
        auto *rhoItem = figure(rho);
        m_evaluators->setItem(r, RhoCol, rhoItem);
    }
    m_filling = false;
}

void EvaluatorGroupsView::store(EvaluatorProfile profile)
{
    if (!m_project)
        return;
    if (auto r = EvaluatorGroups::write(*m_project, profile); !r.ok()) {
        QMessageBox::warning(this, tr("Evaluator not saved"), r.errorString());
        return;
    }
    emit profileChanged();
}

} // namespace rubric
