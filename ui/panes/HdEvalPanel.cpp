#include "HdEvalPanel.h"

#include "dialogs/DecomposeDialog.h"
#include "learn/Aggregator.h"
#include "models/CriterionDetail.h"
#include "models/HdEvalColumns.h"
#include "models/RubricTreeModel.h"
#include "widgets/ImportanceBarDelegate.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rubric {
namespace {

enum Column { Train, Cv, Test, LayerOne, Direct, Mean, ColumnCount };

/// A Pearson figure of the description: map[aspect], NaN when absent or null.
double figure(const QVariant &map, const QString &aspect)
{
    const QVariant v = map.toMap().value(aspect);
    bool ok = false;
    const double x = v.toDouble(&ok);
    return ok && !v.isNull() ? x : std::nan("");
}

int maxLayer(const Rubric &rubric)
{
    int deepest = 0;
    for (const Criterion &c : rubric.criteria())
        if (c.enabled)
            deepest = std::max(deepest, HdEvalColumns::layer(rubric, c));
    return deepest;
}

} // namespace

HdEvalPanel::HdEvalPanel(RubricTreeModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_aspect(new QComboBox(this))
    , m_aggregator(new QComboBox(this))
    , m_table(new QTableWidget(0, ColumnCount, this))
    , m_warning(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_nextLayer(new QPushButton(tr("Next layer"), this))
    , m_refit(new QPushButton(tr("Re-fit"), this))
    , m_decompose(new QPushButton(tr("Decompose…"), this))
{
    setObjectName(QStringLiteral("hdevalPanel"));
    m_aspect->setObjectName(QStringLiteral("hdevalAspect"));
    m_aggregator->setObjectName(QStringLiteral("hdevalAggregator"));
    m_table->setObjectName(QStringLiteral("hdevalAggregatorTable"));
    m_warning->setObjectName(QStringLiteral("hdevalOverfitWarning"));
    m_summary->setObjectName(QStringLiteral("hdevalAggregatorSummary"));
    m_nextLayer->setObjectName(QStringLiteral("hdevalNextLayer"));
    m_refit->setObjectName(QStringLiteral("hdevalRefit"));
    m_decompose->setObjectName(QStringLiteral("hdevalDecompose"));

    m_aspect->setToolTip(tr("The aspect whose permutation importances the tree's bars show"));
    const QList<std::pair<QString, QString>> kinds{{QStringLiteral("linear"), tr("Linear regression")},
                                                   {QStringLiteral("ridge"), tr("Ridge regression")},
                                                   {QStringLiteral("tree"), tr("Decision tree")},
                                                   {QStringLiteral("forest"), tr("Random forest")},
                                                   {QStringLiteral("boosted"), tr("Gradient-boosted trees")},
                                                   {QStringLiteral("mlp"), tr("Neural network (MLP)")},
                                                   {QStringLiteral("mean"), tr("Mean of the nodes (no aggregator)")}};
    for (const auto &[key, text] : kinds)
        m_aggregator->addItem(text, key);
    m_aggregator->setToolTip(tr("The model that turns the node scores into the aspect score; \"Re-fit\" fits it "
                                "on the same node scores (no call: the cache answers them)"));

    m_table->setHorizontalHeaderLabels(
            {tr("Train r"), tr("CV r"), tr("Test r"), tr("Layer 1 only"), tr("Direct scores"), tr("Mean")});
    m_table->horizontalHeaderItem(LayerOne)->setToolTip(
            tr("Test r of the same aggregator on the layer-1 node alone (the paper's \"w/o layers 2–3\"); run "
               "with layers = 1 to measure it"));
    m_table->horizontalHeaderItem(Direct)->setToolTip(
            tr("Test r of the judge's direct score of the aspect (the layer-1 node's score)"));
    m_table->horizontalHeaderItem(Mean)->setToolTip(tr("Test r of the plain mean of all node scores"));
    m_table->horizontalHeaderItem(Cv)->setToolTip(tr("Cross-validated on the train split"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setMaximumHeight(110);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #a04000;"));
    m_warning->hide();
    m_summary->setWordWrap(true);

    m_nextLayer->setToolTip(tr("Add one layer: the marked nodes of the newest layer are decomposed, the new nodes "
                               "scored and the aggregator fitted again"));
    m_refit->setToolTip(tr("Fit the chosen aggregator on the node scores already asked (0 calls)"));
    m_decompose->setToolTip(tr("Ask the generator for sub-criteria of the current node (one call) and accept or "
                               "reject each; the accepted ones are scored by the judge's next run"));

    auto *form = new QFormLayout;
    form->addRow(tr("Importance for:"), m_aspect);
    form->addRow(tr("Aggregator:"), m_aggregator);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_nextLayer);
    buttons->addWidget(m_refit);
    buttons->addWidget(m_decompose);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_table);
    layout->addWidget(m_warning);
    layout->addLayout(buttons);

    connect(m_aspect, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setImportanceAspect(m_aspect->currentText()); });
    connect(m_refit, &QPushButton::clicked, this, [this] {
        request({{QStringLiteral("aggregator"), m_aggregator->currentData().toString()}});
    });
    connect(m_decompose, &QPushButton::clicked, this, [this] {
        if (!m_project || m_judge.isEmpty() || m_currentKey.isEmpty())
            return;
        auto *dialog = new DecomposeDialog(m_project, m_judge, m_currentKey, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
        emit decomposeOpened(dialog, m_currentKey);
    });
    connect(m_nextLayer, &QPushButton::clicked, this, [this] {
        request({{QStringLiteral("layers"), maxLayer(m_model->rubric()) + 1},
                 {QStringLiteral("aggregator"), m_aggregator->currentData().toString()}});
    });
}

void HdEvalPanel::request(const QVariantMap &settings)
{
    if (!m_judge.isEmpty())
        emit runRequested(m_judge, settings);
}

void HdEvalPanel::refresh(const QString &judge, bool runnable)
{
    m_judge = judge;
    const Rubric &rubric = m_model->rubric();
    {
        const QSignalBlocker block(m_aspect);
        const QString was = m_aspect->currentText();
        m_aspect->clear();
        m_aspect->addItems(HdEvalColumns::aspects(rubric));
        if (const int i = m_aspect->findText(was); i >= 0)
            m_aspect->setCurrentIndex(i);
    }
    m_model->setImportanceAspect(m_aspect->currentText());
    const QVariantMap agg = HdEvalColumns::aggregator(rubric);
    if (const int i = m_aggregator->findData(agg.value(QStringLiteral("kind")).toString()); i >= 0)
        m_aggregator->setCurrentIndex(i);
    fillTable();
    m_nextLayer->setEnabled(runnable && !agg.isEmpty());
    m_refit->setEnabled(runnable && !agg.isEmpty());
    m_runnable = runnable;
    updateDecompose();
}

void HdEvalPanel::attach(QTreeView *tree)
{
    tree->setItemDelegateForColumn(RubricTreeModel::ImportanceColumn,
                                   new ImportanceBarDelegate(RubricTreeModel::ShareRole, tree));
    connect(tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) { setCurrentNode(m_model->keyOf(current)); });
}

void HdEvalPanel::setCurrentNode(const QString &key)
{
    m_currentKey = key;
    updateDecompose();
}

void HdEvalPanel::updateDecompose()
{
    // Any node of the tree can be decomposed further, on the latest version without unsaved edits.
    m_decompose->setEnabled(m_runnable && !m_currentKey.isEmpty() && m_model->criterion(m_currentKey));
}

void HdEvalPanel::fillTable()
{
    const QVariantMap agg = HdEvalColumns::aggregator(m_model->rubric());
    m_table->setRowCount(0);
    m_warning->hide();
    if (agg.isEmpty()) {
        m_summary->setText(tr("Not fitted yet: run HD-Eval to score the nodes and fit the aggregator."));
        return;
    }
    m_summary->setText(tr("%1 on %2 nodes, %3 train / %4 test items, %5 cross-validation")
                               .arg(agg.value(QStringLiteral("kind")).toString())
                               .arg(agg.value(QStringLiteral("features")).toList().size())
                               .arg(agg.value(QStringLiteral("n_train")).toInt())
                               .arg(agg.value(QStringLiteral("n_test")).toInt())
                               .arg(agg.value(QStringLiteral("cv")).toString()));
    const QVariantMap baselines = agg.value(QStringLiteral("baselines")).toMap();
    QStringList aspects = agg.value(QStringLiteral("test_r")).toMap().keys();
    QStringList warnings;
    for (const QString &aspect : aspects) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setVerticalHeaderItem(row, new QTableWidgetItem(aspect));
        const double values[ColumnCount]{figure(agg.value(QStringLiteral("train_r")), aspect),
                                         figure(agg.value(QStringLiteral("cv_r")), aspect),
                                         figure(agg.value(QStringLiteral("test_r")), aspect),
                                         figure(baselines.value(QStringLiteral("layer1_test_r")), aspect),
                                         figure(baselines.value(QStringLiteral("direct_test_r")), aspect),
                                         figure(baselines.value(QStringLiteral("mean_test_r")), aspect)};
        for (int c = 0; c < ColumnCount; ++c) {
            auto *item = new QTableWidgetItem(std::isfinite(values[c]) ? CriterionDetail::number(values[c]) : tr("—"));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == Test && std::isfinite(values[Test])) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            m_table->setItem(row, c, item);
        }
        const bool stored = agg.value(QStringLiteral("cv_warning")).toMap().value(aspect).toBool();
        if (stored
            || (std::isfinite(values[Train]) && std::isfinite(values[Cv])
                && values[Cv] < values[Train] - kOverfitGap)) {
            m_table->item(row, Cv)->setBackground(QColor(255, 221, 187));
            warnings << tr("%1: CV r %2 is far below train r %3 — the aggregator overfits the %4 train items; "
                           "try ridge, the mean, or fewer layers")
                                .arg(aspect, CriterionDetail::number(values[Cv]),
                                     CriterionDetail::number(values[Train]))
                                .arg(agg.value(QStringLiteral("n_train")).toInt());
        }
    }
    if (!warnings.isEmpty()) {
        m_warning->setText(warnings.join(QLatin1Char('\n')));
        m_warning->show();
    }
}

} // namespace rubric
