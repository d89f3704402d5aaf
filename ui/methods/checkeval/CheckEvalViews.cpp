// CheckEval's views: a checklist question's flags in the Rubric pane's tree and detail, Invert /
// Restore / New checklist and the stage counts there (ChecklistActions), the sub-aspect columns of
// the scores, and the answer grid (question × judge) behind a heatmap cell.
#include "methods/checkeval/CheckEvalViews.h"

#include "PlainText.h"
#include "methods/MethodViews.h"
#include "methods/checkeval/AnswerGridModel.h"
#include "methods/checkeval/Checklist.h"
#include "methods/checkeval/ChecklistActions.h"
#include "models/CriterionScoreModel.h"
#include "models/RubricTreeModel.h"
#include "store/RubricStore.h"

#include <QApplication>
#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>

namespace rubric {
namespace {

/// A field of the rich-text detail title (as the Heatmap pane writes its own): escaped, cut and
/// isolated, so that its markup shows literally and a right-to-left override stays inside it.
QString field(const QString &text, int maxChars = 200)
{
    return plain::isolate(plain::elide(text, maxChars)).toHtmlEscaped();
}

/// A question whose "yes" reads as worse, not yet inverted: the reason, else empty.
QString polarityWarning(const Criterion &c)
{
    if (c.kind != CriterionKind::Question || Checklist::isInverted(c))
        return {};
    return Checklist::negativePolarity(c.text).value_or(QString());
}

/// The flags of a checklist question as short labels (constant, near-duplicate, polarity, removed
/// by the filter); the tree's tooltip explains each.
QStringList flagLabels(const Criterion &c)
{
    QStringList out;
    if (c.kind != CriterionKind::Question)
        return out;
    const QString filtered = c.origin.value(QStringLiteral("filtered")).toString();
    if (!c.enabled && !filtered.isEmpty())
        out << QCoreApplication::translate("rubric::RubricTreeModel", "removed by the filter");
    const QString constant = c.stats.value(QStringLiteral("constant")).toString();
    if (constant == QLatin1String("yes"))
        out << QCoreApplication::translate("rubric::RubricTreeModel", "always yes");
    else if (constant == QLatin1String("no"))
        out << QCoreApplication::translate("rubric::RubricTreeModel", "always no");
    const QString duplicate = c.stats.value(QStringLiteral("near_duplicate_of")).toString();
    if (!duplicate.isEmpty())
        out << QCoreApplication::translate("rubric::RubricTreeModel", "≈ %1").arg(duplicate);
    if (!polarityWarning(c).isEmpty())
        out << QCoreApplication::translate("rubric::RubricTreeModel", "“yes” = worse?");
    if (Checklist::isInverted(c))
        out << QCoreApplication::translate("rubric::RubricTreeModel", "inverted");
    return out;
}

/// The Flags column's tooltip: every flag explained.
QString flagsToolTip(const Rubric &rubric, const Criterion &c)
{
    QStringList lines;
    const QString filtered = c.origin.value(QStringLiteral("filtered")).toString();
    if (!c.enabled && !filtered.isEmpty())
        lines << QCoreApplication::translate("rubric::RubricTreeModel",
                                             "Removed by the filter: %1 (Restore brings it back)")
                         .arg(filtered);
    const QString constant = c.stats.value(QStringLiteral("constant")).toString();
    if (!constant.isEmpty())
        lines << QCoreApplication::translate("rubric::RubricTreeModel",
                                             "Constant: the judge answered \"%1\" on every item, so the question "
                                             "does not separate items")
                         .arg(constant);
    const QString duplicate = c.stats.value(QStringLiteral("near_duplicate_of")).toString();
    if (!duplicate.isEmpty()) {
        const Criterion *other = rubric.find(duplicate);
        lines << QCoreApplication::translate("rubric::RubricTreeModel", "Near-duplicate of %1: %2")
                         .arg(duplicate, other ? other->text : QString());
    }
    const QString polarity = polarityWarning(c);
    if (!polarity.isEmpty())
        lines << QCoreApplication::translate("rubric::RubricTreeModel",
                                             "\"Yes\" seems to mean worse (%1): invert its polarity if so")
                         .arg(polarity);
    if (Checklist::isInverted(c))
        lines << QCoreApplication::translate("rubric::RubricTreeModel",
                                             "Polarity inverted: \"no\" counts as meeting the criterion");
    return plain::toolTip(lines.join(QLatin1Char('\n')));
}

/// The Heatmap pane's CheckEval part: a clicked item's answers as a grid (AnswerGridModel):
/// question × every judge on the same checklist, the clicked grid cell's raw answer below.
class ChecklistGridPart : public HeatmapPanePart
{
public:
    explicit ChecklistGridPart(const HeatmapPaneContext &context)
        : HeatmapPanePart(context.pane)
        , m_context(context)
        , m_grid(new AnswerGridModel(this))
        , m_gridView(new QTableView(context.pane))
    {
        m_gridView->setObjectName(QStringLiteral("heatmapAnswerGrid"));
        m_gridView->setModel(m_grid);
        m_gridView->setSelectionMode(QAbstractItemView::SingleSelection);
        m_gridView->setSelectionBehavior(QAbstractItemView::SelectItems);
        m_gridView->setEditTriggers(QAbstractItemView::NoEditTriggers);
        m_gridView->setWordWrap(false);
        m_gridView->verticalHeader()->hide();
        m_gridView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        m_gridView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        m_gridView->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
        m_gridView->setToolTip(QCoreApplication::translate(
                "rubric::HeatmapPane",
                "The item's answers, question × judge; click a cell to read that judge's answer"));
        const int tab = m_context.detailTabs->addTab(
                m_gridView, QCoreApplication::translate("rubric::HeatmapPane", "Checklist grid"));
        m_context.detailTabs->setTabToolTip(
                tab, QCoreApplication::translate("rubric::HeatmapPane",
                                                 "A checklist judge's answers on the item, question × judge"));
        connect(m_gridView, &QTableView::clicked, this, &ChecklistGridPart::onGridCellClicked);
    }

    void setProject(Project *project) override { m_grid->setProject(project); }

    bool showCell(const HeatmapCell &cell) override
    {
        // A checklist's answers read best side by side with the other judges of the checklist.
        m_context.detailTitle->setText(
                QCoreApplication::translate("rubric::HeatmapPane",
                                            "<b>%1</b> · %2 %3 · click a cell of the grid for the judge's answer")
                        .arg(field(cell.itemId), field(cell.key), cell.shown));
        m_context.answers->setCell(cell.judge, cell.itemId);
        m_grid->setItem(cell.judge, cell.itemId);
        m_context.detailTabs->setCurrentWidget(m_gridView);
        if (!m_grid->error().isEmpty()) {
            m_context.reasoning->setPlainText(
                    QCoreApplication::translate("rubric::HeatmapPane", "Cannot read the checklist answers: %1")
                            .arg(m_grid->error()));
            return true;
        }
        const int row = m_grid->rowOfKey(cell.key);
        if (row >= 0) {
            const QModelIndex at = m_grid->index(row, 1);
            m_gridView->setCurrentIndex(at);
            m_gridView->scrollTo(at);
            onGridCellClicked(at);
        }
        return true;
    }

private:
    void onGridCellClicked(const QModelIndex &index)
    {
        if (!index.isValid() || index.column() < 1 || index.data(AnswerGridModel::GroupRowRole).toBool())
            return;
        const QString judge = m_grid->judges().value(index.column() - 1);
        const QString key = index.data(AnswerGridModel::CriterionKeyRole).toString();
        const QString status = index.data(AnswerGridModel::StatusRole).toString();
        const QString raw = index.data(AnswerGridModel::RawRole).toString();
        const QString reasoning = index.data(AnswerGridModel::ReasoningRole).toString();
        m_context.detailTitle->setText(
                QCoreApplication::translate("rubric::HeatmapPane", "<b>%1</b> · <b>%2</b> · %3: %4")
                        .arg(field(m_grid->itemId()), field(judge), field(key),
                             field(index.data(Qt::DisplayRole).toString())));
        m_context.reasoning->setPlainText(
                status.isEmpty()      ? QCoreApplication::translate("rubric::HeatmapPane",
                                                                    "The judge has no answer stored for this question.")
                : reasoning.isEmpty() ? QCoreApplication::translate("rubric::HeatmapPane", "(no reasoning given)")
                                      : reasoning);
        m_context.raw->setPlainText(raw);
    }

    HeatmapPaneContext m_context;
    AnswerGridModel *m_grid;
    QTableView *m_gridView;
};

class CheckEvalViews : public MethodViews
{
public:
    QVariant treeData(const Rubric &rubric, const Criterion &c, int column, int role, const QString &) const override
    {
        if (column != RubricTreeModel::FlagsColumn)
            return {};
        switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            return flagLabels(c).join(QStringLiteral(" · "));
        case Qt::ToolTipRole:
            return flagsToolTip(rubric, c);
        case Qt::DecorationRole: {
            QStyle *style = QApplication::style();
            if (c.kind != CriterionKind::Question || !style)
                return {};
            if (!polarityWarning(c).isEmpty() || !c.stats.value(QStringLiteral("constant")).toString().isEmpty())
                return style->standardIcon(QStyle::SP_MessageBoxWarning);
            if (!c.stats.value(QStringLiteral("near_duplicate_of")).toString().isEmpty()
                || (!c.enabled && c.origin.contains(QStringLiteral("filtered"))))
                return style->standardIcon(QStyle::SP_MessageBoxInformation);
            return {};
        }
        default:
            return {};
        }
    }
    QStringList criterionFlags(const Criterion &c) const override { return flagLabels(c); }
    QString criterionWarning(const Criterion &c) const override { return polarityWarning(c); }

    QStringList scoreColumnSets() const override
    {
        return {QCoreApplication::translate("rubric::HeatmapPane", "Columns: questions"),
                QCoreApplication::translate("rubric::HeatmapPane", "Columns: sub-aspects")};
    }
    QString scoreColumnSetsTip() const override
    {
        return QCoreApplication::translate("rubric::HeatmapPane",
                                           "A checklist's columns: its questions (1 = the answer meets the "
                                           "criterion, 0 = it does not: \"no\" meets an inverted question), or its "
                                           "sub-aspects (the share of the answered questions that are met)");
    }
    std::optional<Result<ScoreColumns>> readScoreColumns(const RubricStore &store, const QString &judge,
                                                         const Rubric &rubric, int set) const override
    {
        if (set != int(ChecklistColumns::SubAspects))
            return std::nullopt;
        const auto rows = store.readCriterionScores(judge);
        if (!rows)
            return Result<ScoreColumns>(rows.error());
        ScoreColumns out;
        for (const Criterion &s : rubric.ofKind(CriterionKind::SubAspect)) {
            out.keys << s.key;
            out.labels << s.text;
        }
        out.layers.fill(0, out.keys.size());
        out.scores = Checklist::subAspectShares(rubric, *rows);
        return Result<ScoreColumns>(std::move(out));
    }
    bool yesNoScores() const override { return true; }

    RubricPanePart *createRubricPart(const RubricPaneContext &context) const override
    {
        return new ChecklistActions(context);
    }
    HeatmapPanePart *createHeatmapPart(const HeatmapPaneContext &context) const override
    {
        return new ChecklistGridPart(context);
    }
};

} // namespace

std::unique_ptr<MethodViews> checkevalViews()
{
    return std::make_unique<CheckEvalViews>();
}

} // namespace rubric
