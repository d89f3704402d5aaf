#include "HeatmapPane.h"

#include "PlainText.h"
#include "methods/MethodViews.h"
#include "models/CriterionScoreModel.h"
#include "models/ScoreFilterModel.h"
#include "models/ScoreModel.h"
#include "store/Project.h"
#include "store/ScoreGridStore.h"
#include "widgets/HeatmapView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace rubric {

namespace {

/// A field of the rich-text detail title: escaped, cut (a 1 MB criterion is no title) and
/// isolated, so that its markup shows literally and a right-to-left override stays inside it.
QString field(const QString &text, int maxChars = 200)
{
    return plain::isolate(plain::elide(text, maxChars)).toHtmlEscaped();
}

} // namespace

HeatmapPane::HeatmapPane(QWidget *parent)
    : QWidget(parent)
    , m_filter(new ScoreFilterModel(this))
    , m_answers(new CriterionScoreModel(this))
    , m_detailTabs(new QTabWidget(this))
    , m_columnSets(new QComboBox(this))
    , m_view(new HeatmapView(this))
    , m_judge(new QComboBox(this))
    , m_aspect(new QComboBox(this))
    , m_colour(new QComboBox(this))
    , m_split(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_detailTitle(new QLabel(this))
    , m_answerTable(new QTableView(this))
    , m_reasoning(new QTextBrowser(this))
    , m_raw(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("heatmapPane"));
    m_view->setObjectName(QStringLiteral("heatmapView"));
    m_judge->setObjectName(QStringLiteral("heatmapJudge"));
    m_aspect->setObjectName(QStringLiteral("heatmapAspect"));
    m_colour->setObjectName(QStringLiteral("heatmapColour"));
    m_split->setObjectName(QStringLiteral("heatmapSplit"));
    m_summary->setObjectName(QStringLiteral("heatmapSummary"));
    m_detailTitle->setObjectName(QStringLiteral("heatmapDetailTitle"));
    m_answerTable->setObjectName(QStringLiteral("heatmapAnswers"));
    m_reasoning->setObjectName(QStringLiteral("heatmapReasoning"));
    m_raw->setObjectName(QStringLiteral("heatmapRaw"));
    m_detailTabs->setObjectName(QStringLiteral("heatmapDetailTabs"));
    m_columnSets->setObjectName(QStringLiteral("heatmapColumnSets"));
    m_columnSets->hide();

    m_judge->setToolTip(tr("The judge (run or imported scores) whose criteria are shown"));
    m_aspect->setToolTip(tr("The aspect whose human and judge scores are shown"));
    m_colour->addItem(tr("Colour by score"), int(HeatmapView::ColourMode::Score));
    m_colour->addItem(tr("Colour by residual (judge − human)"), int(HeatmapView::ColourMode::Residual));
    m_split->addItem(tr("All items"), int(SplitFilter::All));
    m_split->addItem(tr("Train split"), int(SplitFilter::Train));
    m_split->addItem(tr("Test split"), int(SplitFilter::Test));
    m_split->setToolTip(tr("Show only the items of one side of the train/test split"));
    m_view->setToolTip(tr("Click a cell to read the judge's answer; click a column header to sort"));

    m_filter->setSourceModel(nullptr);
    m_view->setModel(m_filter);
    m_answerTable->setModel(m_answers);
    m_answerTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_answerTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_answerTable->horizontalHeader()->setStretchLastSection(true);
    m_answerTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_answerTable->verticalHeader()->hide();
    m_reasoning->setPlaceholderText(tr("The judge's reasoning for the selected answer"));
    m_raw->setReadOnly(true);
    m_raw->setPlaceholderText(tr("The raw answer as the judge returned it"));
    m_detailTitle->setWordWrap(true);
    m_detailTitle->setText(tr("Click a cell to read the judge's answer."));

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Judge:"), this));
    bar->addWidget(m_judge, 1);
    bar->addWidget(new QLabel(tr("Aspect:"), this));
    bar->addWidget(m_aspect, 1);
    bar->addWidget(m_colour);
    bar->addWidget(m_split);
    bar->addWidget(m_columnSets);
    bar->addWidget(m_summary, 1);

    auto *detail = new QWidget(this);
    detail->setObjectName(QStringLiteral("heatmapDetail"));
    auto *dl = new QVBoxLayout(detail);
    dl->setContentsMargins(0, 0, 0, 0);
    dl->addWidget(m_detailTitle);
    m_detailTabs->addTab(m_answerTable, tr("Answers"));
    // The methods' parts: their detail tabs (CheckEval's answer grid) and item actions.
    const HeatmapPaneContext context{this, m_detailTabs, m_detailTitle, m_reasoning, m_raw, m_answers};
    for (const MethodViews *views : MethodViews::all())
        if (HeatmapPanePart *part = views->createHeatmapPart(context))
            m_parts.insert(views->method(), part);
    dl->addWidget(m_detailTabs, 5);
    dl->addWidget(new QLabel(tr("Reasoning"), detail));
    dl->addWidget(m_reasoning, 1);
    dl->addWidget(new QLabel(tr("Raw answer"), detail));
    dl->addWidget(m_raw, 2);

    auto *split = new QSplitter(this);
    split->setObjectName(QStringLiteral("heatmapSplitter"));
    split->addWidget(m_view);
    split->addWidget(detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({900, 380});
    detail->setMinimumWidth(280);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_judge, &QComboBox::currentIndexChanged, this, [this] {
        if (m_scores)
            m_scores->setJudge(m_judge->currentData().toString());
    });
    connect(m_aspect, &QComboBox::currentIndexChanged, this, [this] {
        if (m_scores)
            m_scores->setAspect(m_aspect->currentText());
    });
    connect(m_colour, &QComboBox::currentIndexChanged, this,
            [this] { m_view->setColourMode(HeatmapView::ColourMode(m_colour->currentData().toInt())); });
    connect(m_split, &QComboBox::currentIndexChanged, this, [this] {
        m_filter->setSplitFilter(SplitFilter(m_split->currentData().toInt()));
        updateSummary();
    });
    connect(m_columnSets, &QComboBox::currentIndexChanged, this, [this] {
        if (m_scores && m_columnSets->currentIndex() >= 0)
            m_scores->setColumnSet(m_columnSets->currentIndex());
    });
    connect(m_view, &HeatmapView::headerClicked, this, &HeatmapPane::onHeaderClicked);
    connect(m_view, &HeatmapView::cellActivated, this, &HeatmapPane::onCellActivated);
    connect(m_view, &HeatmapView::rowRequested, this, &HeatmapPane::onRowRequested);
    connect(m_answerTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &HeatmapPane::onAnswerSelected);
    connect(m_answers, &QAbstractItemModel::modelReset, this, [this] {
        if (m_answers->rowCount() > 0)
            m_answerTable->selectRow(0);
        onAnswerSelected();
    });
}

HeatmapPane::~HeatmapPane() = default;

void HeatmapPane::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    if (m_scores)
        disconnect(m_scores, nullptr, this, nullptr);
    m_project = project;
    m_scores = ScoreModel::of(project);
    m_filter->setSourceModel(m_scores);
    m_answers->setProject(project);
    for (HeatmapPanePart *part : std::as_const(m_parts))
        part->setProject(project);
    m_sortColumn = -1;
    m_view->setSortIndicator(-1, Qt::AscendingOrder);
    if (m_project) {
        connect(m_project, &Project::judgesChanged, this, &HeatmapPane::refillJudges);
        connect(m_project, &Project::aspectsChanged, this, &HeatmapPane::refillAspects);
        connect(m_scores, &ScoreModel::judgeChanged, this, &HeatmapPane::refillJudges);
        connect(m_scores, &ScoreModel::aspectChanged, this, &HeatmapPane::refillAspects);
        connect(m_scores, &ScoreModel::refreshed, this, &HeatmapPane::updateSummary);
        connect(m_scores, &ScoreModel::refreshed, this, &HeatmapPane::updateColumnSets);
    }
    updateColumnSets();
    refillAspects();
    refillJudges();
    updateSummary();
}

void HeatmapPane::refillJudges()
{
    const QSignalBlocker block(m_judge);
    m_judge->clear();
    if (!m_project)
        return;
    const auto judges = ScoreGridStore(m_project).judges();
    if (!judges) {
        m_summary->setText(tr("Cannot read the project: %1").arg(judges.errorString()));
        return;
    }
    for (const JudgeInfo &j : *judges)
        m_judge->addItem(tr("%1 (%2)").arg(j.name, j.method), j.name);
    m_judge->setCurrentIndex(m_judge->findData(m_scores ? m_scores->judge() : QString()));
}

void HeatmapPane::refillAspects()
{
    const QSignalBlocker block(m_aspect);
    m_aspect->clear();
    if (!m_project)
        return;
    const auto aspects = m_project->readAspects();
    if (!aspects) {
        m_summary->setText(tr("Cannot read the project: %1").arg(aspects.errorString()));
        return;
    }
    for (const Aspect &a : *aspects)
        m_aspect->addItem(a.name);
    m_aspect->setCurrentIndex(m_aspect->findText(m_scores ? m_scores->aspect() : QString()));
}

void HeatmapPane::updateSummary()
{
    if (!m_scores) {
        m_summary->clear();
        return;
    }
    m_summary->setText(tr("%n item(s)", nullptr, m_filter->rowCount()) + QStringLiteral(" · ")
                       + tr("%n criterion column(s)", nullptr, int(m_scores->criterionKeys().size())));
}

QWidget *HeatmapPane::chartWidget() const
{
    return m_scores && !m_scores->judge().isEmpty() ? m_view : nullptr;
}

QString HeatmapPane::chartTitle() const
{
    if (!m_scores || m_scores->judge().isEmpty())
        return {};
    return tr("%1 on %2 · %3 · %4 · %5")
            .arg(m_scores->judge(), m_scores->aspect(), m_colour->currentText(), m_split->currentText(),
                 m_summary->text());
}

QString HeatmapPane::chartFileStem() const
{
    return m_scores ? QStringLiteral("heatmap-%1-%2").arg(m_scores->judge(), m_scores->aspect())
                    : QStringLiteral("heatmap");
}

void HeatmapPane::onHeaderClicked(int column)
{
    // First click sorts ascending, the next one descending.
    m_sortOrder
            = (column == m_sortColumn && m_sortOrder == Qt::AscendingOrder) ? Qt::DescendingOrder : Qt::AscendingOrder;
    m_sortColumn = column;
    m_filter->sort(column, m_sortOrder);
    m_view->setSortIndicator(column, m_sortOrder);
}

HeatmapPanePart *HeatmapPane::partOfShownJudge() const
{
    if (!m_project || !m_scores || m_scores->judge().isEmpty())
        return nullptr;
    const auto judge = m_project->judge(m_scores->judge());
    return judge ? m_parts.value(judge->method) : nullptr;
}

QDialog *HeatmapPane::openItem(const QString &itemId)
{
    HeatmapPanePart *part = partOfShownJudge();
    return part ? part->openItem(m_scores->judge(), itemId) : nullptr;
}

void HeatmapPane::onRowRequested(int row, const QPoint &globalPos)
{
    const QString item = m_filter->index(row, 0).data(ScoreModel::ItemIdRole).toString();
    HeatmapPanePart *part = item.isEmpty() ? nullptr : partOfShownJudge();
    if (!part)
        return;
    if (globalPos.isNull()) {
        part->openItem(m_scores->judge(), item);
        return;
    }
    auto *menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("heatmapRowMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const QList<QAction *> actions = part->itemActions(m_scores->judge(), item, menu);
    if (actions.isEmpty()) {
        delete menu;
        return;
    }
    menu->addActions(actions);
    menu->popup(globalPos);
}

void HeatmapPane::onCellActivated(const QModelIndex &index)
{
    if (!index.isValid() || !m_scores)
        return;
    const QString item = index.data(ScoreModel::ItemIdRole).toString();
    const auto kind = ScoreModel::ColumnKind(
            m_filter->headerData(index.column(), Qt::Horizontal, ScoreModel::ColumnKindRole).toInt());
    const QString key = m_filter->headerData(index.column(), Qt::Horizontal, ScoreModel::ColumnKeyRole).toString();
    const QString value = index.data(Qt::DisplayRole).toString();
    const QString shown = value.isEmpty() ? tr("no score") : value;
    switch (kind) {
    case ScoreModel::ColumnKind::Human: {
        m_detailTabs->setCurrentWidget(m_answerTable);
        QStringList lines;
        const auto annotations = m_project->readAnnotations(m_scores->aspect());
        if (!annotations)
            lines << tr("Cannot read the human scores: %1").arg(annotations.errorString());
        for (const Annotation &a : annotations ? *annotations : QVector<Annotation>())
            if (a.itemId == item)
                lines << tr("%1: %2%3")
                                 .arg(a.annotator, QString::number(a.score),
                                      a.note.isEmpty() ? QString() : QStringLiteral(" — ") + a.note);
        m_detailTitle->setText(tr("<b>%1</b> · human score %2").arg(field(item), shown));
        m_answers->setCell({}, {});
        m_reasoning->setPlainText(lines.isEmpty() ? tr("No human annotations.") : lines.join(QLatin1Char('\n')));
        return;
    }
    case ScoreModel::ColumnKind::Judge:
    case ScoreModel::ColumnKind::Criterion:
        if (HeatmapPanePart *part = partOfShownJudge();
            part && part->showCell(HeatmapCell{m_scores->judge(), item, key, shown}))
            return;
        break;
    }
    switch (kind) {
    case ScoreModel::ColumnKind::Human:
        break;
    case ScoreModel::ColumnKind::Judge:
        m_detailTitle->setText(tr("<b>%1</b> · judge score %2 (all criteria)").arg(field(item), shown));
        m_answers->setCell(m_scores->judge(), item);
        return;
    case ScoreModel::ColumnKind::Criterion:
        m_detailTitle->setText(
                tr("<b>%1</b> · <b>%2</b> · %3<br>%4")
                        .arg(field(item), field(key), shown,
                             field(m_filter->headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole).toString(),
                                   500)));
        m_answers->setCell(m_scores->judge(), item, key);
        return;
    }
}

void HeatmapPane::updateColumnSets()
{
    const QStringList sets = m_scores ? m_scores->columnSets() : QStringList();
    m_columnSets->setVisible(!sets.isEmpty());
    const QSignalBlocker block(m_columnSets);
    m_columnSets->clear();
    if (sets.isEmpty())
        return;
    for (int i = 0; i < sets.size(); ++i)
        m_columnSets->addItem(sets[i], i);
    m_columnSets->setToolTip(m_scores->columnSetsTip());
    m_columnSets->setCurrentIndex(m_scores->columnSet());
}

void HeatmapPane::onAnswerSelected()
{
    const QModelIndex current = m_answerTable->currentIndex();
    if (!current.isValid()) {
        if (!m_answers->loadError().isEmpty())
            m_reasoning->setPlainText(tr("The answers cannot be read: %1").arg(m_answers->loadError()));
        else if (m_answers->rowCount() == 0 && !m_answers->itemId().isEmpty())
            m_reasoning->setPlainText(tr("The judge has no answer stored for this cell."));
        m_raw->clear();
        return;
    }
    const QString reasoning = current.data(CriterionScoreModel::ReasoningRole).toString();
    m_reasoning->setPlainText(reasoning.isEmpty() ? tr("(no reasoning given)") : reasoning);
    m_raw->setPlainText(current.data(CriterionScoreModel::RawRole).toString());
}

} // namespace rubric
