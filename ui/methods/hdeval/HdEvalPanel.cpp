#include "HdEvalPanel.h"

#include "learn/Aggregator.h"
#include "methods/hdeval/DecomposeDialog.h"
#include "methods/hdeval/EfficiencyDialog.h"
#include "methods/hdeval/HdEvalColumns.h"
#include "models/CriterionDetail.h"
#include "models/RubricTreeModel.h"
#include "widgets/ImportanceBarDelegate.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rubric {
namespace {

enum Column { Train, Cv, Test, TestRho, LayerOne, Direct, Mean, Best, ColumnCount };

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
    , m_withoutLayer3(new QPushButton(tr("Without layer 3"), this))
    , m_withoutLayers23(new QPushButton(tr("Without layers 2–3"), this))
    , m_meanAblation(new QPushButton(tr("Mean instead of the aggregator"), this))
    , m_efficiency(new QPushButton(tr("Efficiency and contributions…"), this))
{
    m_efficiency->setObjectName(QStringLiteral("hdevalEfficiency"));
    m_efficiency->setToolTip(tr("The paper's data- and criteria-efficiency curves over seeds and each node's "
                                "contribution over the test items, from the stored node scores (0 calls)"));
    setObjectName(QStringLiteral("hdevalPanel"));
    m_aspect->setObjectName(QStringLiteral("hdevalAspect"));
    m_aggregator->setObjectName(QStringLiteral("hdevalAggregator"));
    m_table->setObjectName(QStringLiteral("hdevalAggregatorTable"));
    m_warning->setObjectName(QStringLiteral("hdevalOverfitWarning"));
    m_summary->setObjectName(QStringLiteral("hdevalAggregatorSummary"));
    m_nextLayer->setObjectName(QStringLiteral("hdevalNextLayer"));
    m_refit->setObjectName(QStringLiteral("hdevalRefit"));
    m_decompose->setObjectName(QStringLiteral("hdevalDecompose"));
    m_withoutLayer3->setObjectName(QStringLiteral("hdevalAblationLayers2"));
    m_withoutLayers23->setObjectName(QStringLiteral("hdevalAblationLayers1"));
    m_meanAblation->setObjectName(QStringLiteral("hdevalAblationMean"));

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

    m_table->setHorizontalHeaderLabels({tr("Train r"), tr("CV r"), tr("Test r"), tr("Test ρ"), tr("Layer 1 only"),
                                        tr("Direct scores"), tr("Mean"), tr("Best node")});
    m_table->horizontalHeaderItem(Test)->setToolTip(
            tr("Pearson with the human scores on the test items with a score: the items the Compare pane "
               "correlates (a test item without any node score is left out)"));
    m_table->horizontalHeaderItem(TestRho)->setToolTip(tr("Spearman's rho on the same test items"));
    m_table->horizontalHeaderItem(Best)->setToolTip(
            tr("Test r of the single node with the best train r (chosen on the train split, not on the test items)"));
    m_table->horizontalHeaderItem(LayerOne)->setToolTip(
            tr("Test r of the same aggregator fitted on the layer-1 nodes alone (the aspects' direct scores; the "
               "paper's \"w/o layers 2–3\"): what \"Without layers 2–3\" gives, computed with every fit"));
    m_table->horizontalHeaderItem(Direct)->setToolTip(
            tr("Test r of the judge's direct score of the aspect (the layer-1 node's score)"));
    m_table->horizontalHeaderItem(Mean)->setToolTip(tr("Test r of the plain mean of all node scores"));
    m_table->horizontalHeaderItem(Cv)->setToolTip(tr("Cross-validated on the train split"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(QStringLiteral("color: #a04000;"));
    m_warning->hide();
    m_summary->setWordWrap(true);

    m_refit->setToolTip(tr("Fit the chosen aggregator on every layer of the tree, from the node scores already "
                           "asked (0 calls)"));
    m_withoutLayer3->setToolTip(tr("Ablation: the chosen aggregator on layers 1 and 2 only (layers = 2), from the "
                                   "node scores already asked (0 calls); saved as a new version"));
    m_withoutLayers23->setToolTip(tr("Ablation: the chosen aggregator on the layer-1 nodes only (layers = 1), from "
                                     "the node scores already asked (0 calls); saved as a new version"));
    m_meanAblation->setToolTip(tr("Ablation: the plain mean of every node's score instead of a learned aggregator "
                                  "(0 calls); saved as a new version"));
    m_decompose->setToolTip(tr("Ask the generator for sub-criteria of the current node (one call) and accept or "
                               "reject each; the accepted ones are scored by the judge's next run"));

    auto *form = new QFormLayout;
    form->addRow(tr("Importance for:"), m_aspect);
    form->addRow(tr("Aggregator:"), m_aggregator);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_nextLayer);
    buttons->addWidget(m_refit);
    buttons->addWidget(m_decompose);
    buttons->addWidget(m_efficiency);
    buttons->addStretch(1);
    auto *ablations = new QHBoxLayout;
    ablations->addWidget(new QLabel(tr("Ablations:"), this));
    ablations->addWidget(m_withoutLayer3);
    ablations->addWidget(m_withoutLayers23);
    ablations->addWidget(m_meanAblation);
    ablations->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_table);
    layout->addWidget(m_warning);
    layout->addLayout(buttons);
    layout->addLayout(ablations);

    connect(m_aspect, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setImportanceAspect(m_aspect->currentText()); });
    // Each names its layers: the judge's stored settings keep the last run's, an ablation's too.
    connect(m_refit, &QPushButton::clicked, this, [this] {
        request({{QStringLiteral("layers"), treeLayers()},
                 {QStringLiteral("aggregator"), m_aggregator->currentData().toString()}});
    });
    connect(m_withoutLayer3, &QPushButton::clicked, this, [this] {
        request({{QStringLiteral("layers"), 2},
                 {QStringLiteral("aggregator"), m_aggregator->currentData().toString()}});
    });
    connect(m_withoutLayers23, &QPushButton::clicked, this, [this] {
        request({{QStringLiteral("layers"), 1},
                 {QStringLiteral("aggregator"), m_aggregator->currentData().toString()}});
    });
    connect(m_meanAblation, &QPushButton::clicked, this, [this] {
        request({{QStringLiteral("layers"), treeLayers()}, {QStringLiteral("aggregator"), QStringLiteral("mean")}});
    });
    connect(m_decompose, &QPushButton::clicked, this, [this] {
        if (!m_project || m_judge.isEmpty() || m_currentKey.isEmpty())
            return;
        auto *dialog = new DecomposeDialog(m_project, m_judge, m_currentKey, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
        emit decomposeOpened(dialog, m_currentKey);
    });
    connect(m_efficiency, &QPushButton::clicked, this, [this] {
        if (!m_project || m_judge.isEmpty())
            return;
        auto *dialog = new EfficiencyDialog(m_project, m_judge, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
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

int HdEvalPanel::treeLayers() const
{
    return std::clamp(maxLayer(m_model->rubric()), 1, 3);
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
    // HD-Eval's hierarchy goes to three layers (the run refuses layers = 4).
    const bool full = maxLayer(rubric) >= 3;
    m_nextLayer->setEnabled(runnable && !agg.isEmpty() && !full);
    m_nextLayer->setToolTip(full ? tr("The tree has all three layers HD-Eval builds; split single nodes further "
                                      "with Decompose… instead")
                                 : tr("Add one layer: the marked nodes of the newest layer are decomposed, the new "
                                      "nodes scored and the aggregator fitted again"));
    m_refit->setEnabled(runnable && !agg.isEmpty());
    // An ablation leaves out layers the tree has.
    m_withoutLayer3->setEnabled(runnable && !agg.isEmpty() && maxLayer(rubric) >= 3);
    m_withoutLayers23->setEnabled(runnable && !agg.isEmpty() && maxLayer(rubric) >= 2);
    m_meanAblation->setEnabled(runnable && !agg.isEmpty());
    m_efficiency->setEnabled(!agg.isEmpty());
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
    QString summary = tr("%1 on %2 nodes (layers ≤ %3), %4 train / %5 test items, %6 cross-validation")
                              .arg(agg.value(QStringLiteral("kind")).toString())
                              .arg(agg.value(QStringLiteral("features")).toList().size())
                              .arg(agg.value(QStringLiteral("layers")).toInt())
                              .arg(agg.value(QStringLiteral("n_train")).toInt())
                              .arg(agg.value(QStringLiteral("n_test")).toInt())
                              .arg(agg.value(QStringLiteral("cv")).toString());
    const QString own = agg.value(QStringLiteral("aspect_order")).toStringList().value(0);
    if (agg.contains(QStringLiteral("n_test_scored")))
        summary += QLatin1Char('\n')
                   + tr("Test figures on %1 test items with a score (as in Compare); %2 of them with an imputed node; "
                        "%3 without any node score left out")
                             .arg(agg.value(QStringLiteral("n_test_scored")).toMap().value(own).toInt())
                             .arg(agg.value(QStringLiteral("n_test_imputed")).toMap().value(own).toInt())
                             .arg(agg.value(QStringLiteral("n_test_unscored")).toInt());
    QStringList ablations;
    for (const QString &tag : agg.value(QStringLiteral("ablation")).toStringList()) {
        if (tag == QLatin1String("without_layer_3"))
            ablations << tr("without layer 3");
        else if (tag == QLatin1String("without_layers_2_3"))
            ablations << tr("without layers 2–3");
        else if (tag == QLatin1String("without_aggregator"))
            ablations << tr("the mean instead of the aggregator");
        else
            ablations << tag;
    }
    if (const QString split = agg.value(QStringLiteral("split_groups")).toString(); !split.isEmpty())
        summary += QLatin1Char('\n')
                   + (split == QLatin1String("group-disjoint")
                              ? tr("The split keeps each group (e.g. an article) on one side")
                              : tr("%n group(s) have items on both sides of the split: the test figures are not "
                                   "on unseen groups (draw the split by group)",
                                   nullptr, agg.value(QStringLiteral("n_groups_both_sides")).toInt()));
    if (!ablations.isEmpty())
        summary += QLatin1Char('\n') + tr("Ablation: %1").arg(ablations.join(QStringLiteral(", ")));
    m_summary->setText(summary);
    const QVariantMap baselines = agg.value(QStringLiteral("baselines")).toMap();
    // One row per aspect, the judge's own first (the fit's order).
    QStringList aspects = agg.value(QStringLiteral("aspect_order")).toStringList();
    for (const QString &a : agg.value(QStringLiteral("test_r")).toMap().keys())
        if (!aspects.contains(a))
            aspects << a;
    QStringList warnings;
    for (const QString &aspect : aspects) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setVerticalHeaderItem(row, new QTableWidgetItem(aspect));
        const double values[ColumnCount]{figure(agg.value(QStringLiteral("train_r")), aspect),
                                         figure(agg.value(QStringLiteral("cv_r")), aspect),
                                         figure(agg.value(QStringLiteral("test_r")), aspect),
                                         figure(agg.value(QStringLiteral("test_rho")), aspect),
                                         figure(baselines.value(QStringLiteral("layer1_test_r")), aspect),
                                         figure(baselines.value(QStringLiteral("direct_test_r")), aspect),
                                         figure(baselines.value(QStringLiteral("mean_test_r")), aspect),
                                         figure(baselines.value(QStringLiteral("best_node_test_r")), aspect)};
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
        if (const QString best
            = baselines.value(QStringLiteral("best_node_by_aspect")).toMap().value(aspect).toString();
            !best.isEmpty() && baselines.contains(QStringLiteral("best_node_train_r")))
            m_table->item(row, Best)->setToolTip(
                    tr("Node %1, chosen by its train r %2")
                            .arg(best, CriterionDetail::number(
                                               figure(baselines.value(QStringLiteral("best_node_train_r")), aspect))));
        if (std::isfinite(values[LayerOne]))
            m_table->item(row, LayerOne)
                    ->setToolTip(tr("The aggregator on %1: train r %2, CV r %3")
                                         .arg(baselines.value(QStringLiteral("layer1_features"))
                                                      .toStringList()
                                                      .join(QStringLiteral(", ")),
                                              CriterionDetail::number(figure(
                                                      baselines.value(QStringLiteral("layer1_train_r")), aspect)),
                                              CriterionDetail::number(
                                                      figure(baselines.value(QStringLiteral("layer1_cv_r")), aspect))));
        else if (const QString why = baselines.value(QStringLiteral("layer1_error")).toString(); !why.isEmpty())
            m_table->item(row, LayerOne)->setToolTip(why);
        else if (!baselines.contains(QStringLiteral("layer1_test_r")))
            m_table->item(row, LayerOne)
                    ->setToolTip(tr("Fitted before this figure was stored: \"Re-fit\" computes it (0 calls)"));
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
    // Every aspect's row visible (up to six; more scroll), no empty space below them.
    m_table->resizeRowsToContents();
    int body = 0;
    for (int r = 0; r < std::min(m_table->rowCount(), 6); ++r)
        body += m_table->rowHeight(r);
    // Room for a horizontal scroll bar too: eight columns may be wider than the panel.
    // Fixed, not only a maximum: the summary's lines above must not squeeze the rows out of view.
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() + body + 2 * m_table->frameWidth()
                            + m_table->horizontalScrollBar()->sizeHint().height());
    if (!warnings.isEmpty()) {
        m_warning->setText(warnings.join(QLatin1Char('\n')));
        m_warning->show();
    }
}

} // namespace rubric
