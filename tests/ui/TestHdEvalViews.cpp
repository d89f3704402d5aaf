// HD-Eval's studio views on a project with a real HD-Eval run against the fake endpoint: the
// criteria tree in the Rubric pane (layers, importance bars, the expansion mark, undoable), the
// aggregator panel over one and two aspects, its "Re-fit" and the ablations, each one click
// through the run pane (0 calls), and the per-item explanation opened from the heatmap.

#include "HdEvalFixture.h"
#include "UiTestProject.h"
#include "methods/hdeval/DecomposeDialog.h"
#include "methods/hdeval/ExplainDialog.h"
#include "methods/hdeval/HdEvalColumns.h"
#include "methods/hdeval/HdEvalPanel.h"
#include "methods/hdeval/HdEvalTree.h"
#include "models/RubricTreeModel.h"
#include "models/ScoreModel.h"
#include "panes/HeatmapPane.h"
#include "panes/RubricPane.h"
#include "panes/RunPane.h"
#include "store/RubricStore.h"
#include "widgets/HeatmapView.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestHdEvalViews : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void treeShowsLayersImportanceAndSelection();
    void expansionMarkIsUndoableAndSaved();
    void aggregatorPanelShowsTheFigures();
    void refitRunsWithNoCall();
    void twoAspectsOneRowEach();
    void ablationIsOneClickWithNoCall_data();
    void ablationIsOneClickWithNoCall();
    void heatmapColumnsAreGroupedByLayer();
    void explanationFromTheHeatmap();
    void decomposeAddsTheAcceptedChildren();

private:
    template <typename T> T *child(QWidget *w, const char *name)
    {
        T *found = w->findChild<T *>(QString::fromLatin1(name));
        if (!found)
            qFatal("no child %s", name);
        return found;
    }
    QTemporaryDir m_dir;
    HdEvalProject m_p;
};

void TestHdEvalViews::initTestCase()
{
    testing::isolateSettings();
    QVERIFY(m_dir.isValid());
    m_p = makeHdEvalProject(m_dir.filePath(QStringLiteral("hd.rubricproj")));
    QVERIFY2(m_p.error.isEmpty(), qPrintable(m_p.error));
    const QString twoAspects = addTwoAspectJudge(m_p, QStringLiteral("hd2"));
    QVERIFY2(twoAspects.isEmpty(), qPrintable(twoAspects));
}

void TestHdEvalViews::treeShowsLayersImportanceAndSelection()
{
    RubricPane pane;
    pane.setProject(m_p.project());
    QVERIFY(pane.setJudge(QStringLiteral("hd")));
    pane.show();
    RubricTreeModel *model = pane.model();
    QTreeView *tree = pane.view();
    for (int c : {RubricTreeModel::LayerColumn, RubricTreeModel::ImportanceColumn, RubricTreeModel::SelectedColumn})
        QVERIFY(!tree->isColumnHidden(c));
    QVERIFY(tree->isColumnHidden(RubricTreeModel::YesRateColumn));
    QVERIFY(child<QWidget>(&pane, "hdevalPanel")->isVisibleTo(&pane));

    const Rubric &r = model->rubric();
    QCOMPARE(hdeval::layerNodes(r, 2).size(), 4);
    QCOMPARE(hdeval::layerNodes(r, 3).size(), 8);
    int selected = 0;
    for (const Criterion &c : hdeval::layerNodes(r, 2)) {
        const QModelIndex text = model->indexOfKey(c.key);
        QCOMPARE(model->data(text.siblingAtColumn(RubricTreeModel::LayerColumn)).toInt(), 2);
        QCOMPARE(model->data(text, Qt::BackgroundRole).value<QColor>(), HdEvalColumns::layerColour(2));
        // key · name — definition
        QCOMPARE(model->data(text).toString(),
                 c.key + QStringLiteral(" · ") + c.text + QStringLiteral(" — ") + c.definition);
        const double stored
                = c.stats.value(QStringLiteral("importance")).toMap().value(QStringLiteral("coherence")).toDouble();
        const QModelIndex imp = text.siblingAtColumn(RubricTreeModel::ImportanceColumn);
        QCOMPARE(model->data(imp).toString(), QString::number(stored, 'f', 3));
        const double share = model->data(imp, RubricTreeModel::ShareRole).toDouble();
        QVERIFY(share >= 0 && share <= 1);
        const QModelIndex mark = text.siblingAtColumn(RubricTreeModel::SelectedColumn);
        QVERIFY(model->flags(mark) & Qt::ItemIsUserCheckable);
        const bool on = c.stats.value(QStringLiteral("selected")).toBool();
        QCOMPARE(model->data(mark, Qt::CheckStateRole).toInt(), on ? int(Qt::Checked) : int(Qt::Unchecked));
        QCOMPARE(model->data(text, Qt::FontRole).value<QFont>().underline(), on);
        selected += on;
    }
    QCOMPARE(selected, 2); // top_k = 2
    // The largest importance has the full bar.
    double best = 0;
    for (const Criterion &c : r.criteria())
        best = std::max(best, model->data(model->indexOfKey(c.key, RubricTreeModel::ImportanceColumn),
                                          RubricTreeModel::ShareRole)
                                      .toDouble());
    QCOMPARE(best, 1.0);
    // The aspect (layer 1) carries no expansion mark.
    const QString root = model->childKeys(QString()).first();
    QVERIFY(!(model->flags(model->indexOfKey(root, RubricTreeModel::SelectedColumn)) & Qt::ItemIsUserCheckable));
    QCOMPARE(model->data(model->indexOfKey(root, RubricTreeModel::LayerColumn)).toInt(), 1);
}

void TestHdEvalViews::expansionMarkIsUndoableAndSaved()
{
    RubricPane pane;
    pane.setProject(m_p.project());
    QVERIFY(pane.setJudge(QStringLiteral("hd")));
    pane.show();
    RubricTreeModel *model = pane.model();
    QString unmarked;
    for (const Criterion &c : hdeval::layerNodes(model->rubric(), 2))
        if (!HdEvalColumns::isSelected(c))
            unmarked = c.key;
    QVERIFY(!unmarked.isEmpty());
    auto *refit = child<QPushButton>(&pane, "hdevalRefit");
    QVERIFY(refit->isEnabled());

    // a click on the check box, as the user does
    QTreeView *tree = pane.view();
    const QModelIndex mark = model->indexOfKey(unmarked, RubricTreeModel::SelectedColumn);
    tree->scrollTo(mark);
    const QRect rect = tree->visualRect(mark);
    QVERIFY(rect.isValid());
    QStyleOptionViewItem opt;
    opt.initFrom(tree);
    opt.rect = rect;
    opt.features = QStyleOptionViewItem::HasCheckIndicator;
    const QRect box = tree->style()->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &opt, tree);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, box.center());
    QVERIFY(HdEvalColumns::isSelected(*model->criterion(unmarked)));
    QVERIFY(pane.isModified());
    QVERIFY(!refit->isEnabled()); // a run needs the edit saved
    pane.undoStack()->undo();
    QVERIFY(!HdEvalColumns::isSelected(*model->criterion(unmarked)));
    pane.undoStack()->redo();
    QVERIFY(HdEvalColumns::isSelected(*model->criterion(unmarked)));

    const int before = *RubricStore(m_p.project()).readLatestVersion(QStringLiteral("hd"));
    auto saved = pane.saveVersion(QStringLiteral("expand one more"));
    QVERIFY2(saved, qPrintable(saved.errorString()));
    QCOMPARE(*saved, before + 1);
    auto reloaded = RubricStore(m_p.project()).load(QStringLiteral("hd"));
    QVERIFY(reloaded);
    QVERIFY(reloaded->find(unmarked)->stats.value(QStringLiteral("selected")).toBool());
    QVERIFY(refit->isEnabled());
}

void TestHdEvalViews::aggregatorPanelShowsTheFigures()
{
    RubricPane pane;
    pane.setProject(m_p.project());
    QVERIFY(pane.setJudge(QStringLiteral("hd")));
    const QVariantMap agg = HdEvalColumns::aggregator(pane.model()->rubric());
    QCOMPARE(agg.value(QStringLiteral("kind")).toString(), QStringLiteral("linear"));
    QCOMPARE(child<QComboBox>(&pane, "hdevalAggregator")->currentData().toString(), QStringLiteral("linear"));
    auto *table = child<QTableWidget>(&pane, "hdevalAggregatorTable");
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->verticalHeaderItem(0)->text(), QStringLiteral("coherence"));
    const auto shown = [&](int column) { return table->item(0, column)->text().toDouble(); };
    const auto stored = [&](const QVariant &v) { return v.toMap().value(QStringLiteral("coherence")).toDouble(); };
    QCOMPARE(shown(0), std::round(stored(agg.value(QStringLiteral("train_r"))) * 1000) / 1000);
    QCOMPARE(shown(1), std::round(stored(agg.value(QStringLiteral("cv_r"))) * 1000) / 1000);
    QCOMPARE(shown(2), std::round(stored(agg.value(QStringLiteral("test_r"))) * 1000) / 1000);
    const QVariantMap baselines = agg.value(QStringLiteral("baselines")).toMap();
    QCOMPARE(shown(3), std::round(stored(agg.value(QStringLiteral("test_rho"))) * 1000) / 1000);
    QCOMPARE(shown(5), std::round(stored(baselines.value(QStringLiteral("direct_test_r"))) * 1000) / 1000);
    QCOMPARE(shown(6), std::round(stored(baselines.value(QStringLiteral("mean_test_r"))) * 1000) / 1000);
    QCOMPARE(shown(7), std::round(stored(baselines.value(QStringLiteral("best_node_test_r"))) * 1000) / 1000);
    // "Layer 1 only": the core's figure, not a placeholder.
    QVERIFY(std::isfinite(stored(baselines.value(QStringLiteral("layer1_test_r")))));
    QCOMPARE(shown(4), std::round(stored(baselines.value(QStringLiteral("layer1_test_r"))) * 1000) / 1000);
    // The items behind the test figures are named.
    const QString summary = child<QLabel>(&pane, "hdevalAggregatorSummary")->text();
    QVERIFY2(summary.contains(QString::number(
                     agg.value(QStringLiteral("n_test_scored")).toMap().value(QStringLiteral("coherence")).toInt())),
             qPrintable(summary));
    // the overfitting warning follows the stored flag / the gap
    const double gap = stored(agg.value(QStringLiteral("train_r"))) - stored(agg.value(QStringLiteral("cv_r")));
    const bool flagged = agg.value(QStringLiteral("cv_warning")).toMap().value(QStringLiteral("coherence")).toBool();
    QCOMPARE(child<QLabel>(&pane, "hdevalOverfitWarning")->isVisibleTo(&pane),
             flagged || gap > HdEvalPanel::kOverfitGap);
}

void TestHdEvalViews::refitRunsWithNoCall()
{
    RubricPane pane;
    pane.setProject(m_p.project());
    QVERIFY(pane.setJudge(QStringLiteral("hd")));
    QSignalSpy requested(&pane, &RubricPane::runRequested);
    auto *kind = child<QComboBox>(&pane, "hdevalAggregator");
    kind->setCurrentIndex(kind->findData(QStringLiteral("ridge")));
    QTest::mouseClick(child<QPushButton>(&pane, "hdevalRefit"), Qt::LeftButton);
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.first().at(0).toString(), QStringLiteral("hd"));
    const QVariantMap settings = requested.first().at(1).toMap();
    QCOMPARE(settings.value(QStringLiteral("aggregator")).toString(), QStringLiteral("ridge"));

    // what the run pane does with it: the judge's stored run with the settings laid over
    m_p.server->resetCounts();
    RunSpec s = m_p.spec(QStringLiteral("hd"), {{QStringLiteral("top_k"), QStringLiteral("2")}});
    for (auto it = settings.cbegin(); it != settings.cend(); ++it)
        s.settings.insert(it.key(), it.value());
    s.resume = true;
    const QString error = m_p.run(s);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(m_p.server->requestCount(), 0);
    QVERIFY(pane.setJudge(QStringLiteral("hd")));
    QTRY_COMPARE(HdEvalColumns::aggregator(pane.model()->rubric()).value(QStringLiteral("kind")).toString(),
                 QStringLiteral("ridge"));
    QCOMPARE(kind->currentData().toString(), QStringLiteral("ridge"));

    // The tree has HD-Eval's three layers: "Next layer" is off (a run with layers = 4 would be refused)
    // and says why; clicking it asks for nothing.
    QCOMPARE(hdeval::layerNodes(pane.model()->rubric(), 3).isEmpty(), false);
    auto *next = child<QPushButton>(&pane, "hdevalNextLayer");
    QVERIFY(!next->isEnabled());
    QVERIFY2(next->toolTip().contains(QStringLiteral("three layers")), qPrintable(next->toolTip()));
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(requested.size(), 1);
}

void TestHdEvalViews::twoAspectsOneRowEach()
{
    RubricPane pane;
    pane.setProject(m_p.project());
    QVERIFY(pane.setJudge(QStringLiteral("hd2")));
    pane.show();
    QCOMPARE(hdeval::layerNodes(pane.model()->rubric(), 1).size(), 2);
    const QVariantMap agg = HdEvalColumns::aggregator(pane.model()->rubric());
    const QVariantMap baselines = agg.value(QStringLiteral("baselines")).toMap();
    auto *table = child<QTableWidget>(&pane, "hdevalAggregatorTable");
    QCOMPARE(table->rowCount(), 2);
    const QStringList aspects{QStringLiteral("coherence"), QStringLiteral("relevance")};
    for (int row = 0; row < 2; ++row) {
        const QString &a = aspects[row];
        QCOMPARE(table->verticalHeaderItem(row)->text(), a); // the judge's own aspect first
        const auto stored = [&a](const QVariant &v) { return std::round(v.toMap().value(a).toDouble() * 1000) / 1000; };
        QCOMPARE(table->item(row, 2)->text().toDouble(), stored(agg.value(QStringLiteral("test_r"))));
        QCOMPARE(table->item(row, 3)->text().toDouble(), stored(agg.value(QStringLiteral("test_rho"))));
        QCOMPARE(table->item(row, 4)->text().toDouble(), stored(baselines.value(QStringLiteral("layer1_test_r"))));
        QCOMPARE(table->item(row, 5)->text().toDouble(), stored(baselines.value(QStringLiteral("direct_test_r"))));
        for (int c = 0; c < table->columnCount(); ++c)
            QVERIFY2(table->item(row, c)->text() != QStringLiteral("—"),
                     qPrintable(QStringLiteral("%1, %2").arg(a).arg(c)));
        qInfo("%s: test r %s, rho %s, layer 1 only %s, direct %s, mean %s, best node %s", qPrintable(a),
              qPrintable(table->item(row, 2)->text()), qPrintable(table->item(row, 3)->text()),
              qPrintable(table->item(row, 4)->text()), qPrintable(table->item(row, 5)->text()),
              qPrintable(table->item(row, 6)->text()), qPrintable(table->item(row, 7)->text()));
    }
    // Both rows in view, none scrolled away.
    QVERIFY(table->visualItemRect(table->item(1, 0)).bottom() <= table->viewport()->height());
    // The tree's bars follow the aspect chosen.
    auto *aspect = child<QComboBox>(&pane, "hdevalAspect");
    QCOMPARE(aspect->count(), 2);
}

void TestHdEvalViews::ablationIsOneClickWithNoCall_data()
{
    QTest::addColumn<QString>("button");
    QTest::addColumn<int>("layers");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("tag");
    QTest::addColumn<QString>("shown");
    QTest::newRow("without layer 3") << QStringLiteral("hdevalAblationLayers2") << 2 << QStringLiteral("linear")
                                     << QStringLiteral("without_layer_3")
                                     << QStringLiteral("Ablation: without layer 3");
    QTest::newRow("without layers 2-3") << QStringLiteral("hdevalAblationLayers1") << 1 << QStringLiteral("linear")
                                        << QStringLiteral("without_layers_2_3")
                                        << QStringLiteral("Ablation: without layers 2–3");
    QTest::newRow("mean instead of the aggregator")
            << QStringLiteral("hdevalAblationMean") << 3 << QStringLiteral("mean")
            << QStringLiteral("without_aggregator") << QStringLiteral("Ablation: the mean instead of the aggregator");
}

void TestHdEvalViews::ablationIsOneClickWithNoCall()
{
    QFETCH(QString, button);
    QFETCH(int, layers);
    QFETCH(QString, kind);
    QFETCH(QString, tag);
    QFETCH(QString, shown);
    const QString judge = QStringLiteral("hd2");
    // The studio's wiring: the Rubric pane's requests go to the run pane's rescoreWith.
    RunPane run;
    run.setProfileSettingsFile(m_dir.filePath(QStringLiteral("profiles.ini")));
    run.setProject(m_p.project());
    RubricPane pane;
    pane.setProject(m_p.project());
    QVERIFY(pane.setJudge(judge));
    pane.show();
    connect(&pane, &RubricPane::runRequested, &run, &RunPane::rescoreWith);
    auto *aggregator = child<QComboBox>(&pane, "hdevalAggregator");
    aggregator->setCurrentIndex(aggregator->findData(QStringLiteral("linear")));
    const int before = *RubricStore(m_p.project()).readLatestVersion(judge);
    m_p.server->resetCounts();
    QSignalSpy finished(&run, &RunPane::runFinished);
    auto *click = child<QPushButton>(&pane, qPrintable(button));
    QVERIFY(click->isEnabled());
    QTest::mouseClick(click, Qt::LeftButton);
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    QCOMPARE(m_p.server->requestCount(), 0);

    // A new version whose aggregator records the ablation, fitted on the nodes of its layers.
    auto tree = RubricStore(m_p.project()).load(judge);
    QVERIFY(tree);
    QVERIFY(tree->version() > before);
    const QVariantMap agg = HdEvalColumns::aggregator(*tree);
    QCOMPARE(agg.value(QStringLiteral("layers")).toInt(), layers);
    QCOMPARE(agg.value(QStringLiteral("kind")).toString(), kind);
    QCOMPARE(agg.value(QStringLiteral("ablation")).toStringList(), QStringList{tag});
    int nodes = 0;
    for (const Criterion &c : hdeval::featureNodes(*tree))
        nodes += hdeval::layerOf(*tree, c) <= layers ? 1 : 0;
    QCOMPARE(agg.value(QStringLiteral("features")).toStringList().size(), nodes);

    // The pane follows the new version; the panel names the ablation, one row per aspect.
    QTRY_COMPARE(pane.model()->rubric().version(), tree->version());
    auto *summary = child<QLabel>(&pane, "hdevalAggregatorSummary");
    QVERIFY2(summary->text().contains(shown), qPrintable(summary->text()));
    QVERIFY(summary->text().contains(QStringLiteral("layers ≤ %1").arg(layers)));
    QCOMPARE(child<QTableWidget>(&pane, "hdevalAggregatorTable")->rowCount(), 2);
    QCOMPARE(aggregator->currentData().toString(), kind);
}

void TestHdEvalViews::heatmapColumnsAreGroupedByLayer()
{
    ScoreModel *scores = ScoreModel::of(m_p.project());
    scores->setJudge(QStringLiteral("hd"));
    scores->setAspect(QStringLiteral("coherence"));
    QTRY_VERIFY(scores->columnCount() > ScoreModel::FirstCriterionColumn);
    QCOMPARE(scores->columnCount() - ScoreModel::FirstCriterionColumn, 13);
    QVector<int> layers;
    for (int c = ScoreModel::FirstCriterionColumn; c < scores->columnCount(); ++c) {
        layers << scores->headerData(c, Qt::Horizontal, ScoreModel::ColumnGroupRole).toInt();
        QCOMPARE(scores->headerData(c, Qt::Horizontal, Qt::BackgroundRole).value<QColor>(),
                 HdEvalColumns::layerColour(layers.last()));
    }
    QCOMPARE(layers, (QVector<int>{1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3}));
    QVERIFY(scores->headerData(ScoreModel::FirstCriterionColumn + 1, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("layer 2")));
}

void TestHdEvalViews::explanationFromTheHeatmap()
{
    HeatmapPane pane;
    pane.resize(1000, 700);
    pane.setProject(m_p.project());
    ScoreModel::of(m_p.project())->setJudge(QStringLiteral("hd"));
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    HeatmapView *view = pane.view();
    QTRY_VERIFY(view->model()->rowCount() > 0);
    const QModelIndex cell = view->model()->index(0, ScoreModel::FirstCriterionColumn);
    const QString item = cell.data(ScoreModel::ItemIdRole).toString();
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
    ExplainDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = pane.findChild<ExplainDialog *>()) != nullptr);
    QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
    const hdeval::Explanation &e = dialog->explanation();
    QCOMPARE(e.item, item);
    QCOMPARE(e.nodes.size(), 13);
    double sum = 0;
    for (const hdeval::NodeContribution &n : e.nodes)
        sum += n.contribution;
    QVERIFY(std::abs(e.base + sum - e.prediction) < 1e-9);
    // the chart: one bar set per layer, every node once, the values the contributions
    const auto series = dialog->chart()->series();
    QCOMPARE(series.size(), 1);
    auto *bars = qobject_cast<QAbstractBarSeries *>(series.first());
    QVERIFY(bars);
    QCOMPARE(bars->count(), 3);
    double charted = 0;
    int nonzero = 0;
    for (QBarSet *set : bars->barSets()) {
        QCOMPARE(set->count(), 13);
        for (int i = 0; i < set->count(); ++i) {
            charted += set->at(i);
            nonzero += set->at(i) != 0;
        }
    }
    QVERIFY(std::abs(charted - sum) < 1e-9);
    QVERIFY(nonzero >= 10);
    dialog->close();

    // an item the judge never scored: the dialog says why instead of a chart
    auto *missing = qobject_cast<ExplainDialog *>(pane.openItem(QStringLiteral("no-such-item")));
    QVERIFY(missing);
    QVERIFY(!missing->errorText().isEmpty());
    QVERIFY(missing->findChild<QLabel *>(QStringLiteral("explainHeader"))
                    ->text()
                    .contains(QStringLiteral("no-such-item")));
    missing->close();
}

void TestHdEvalViews::decomposeAddsTheAcceptedChildren()
{
    RubricPane pane;
    pane.setProject(m_p.project());
    QVERIFY(pane.setJudge(QStringLiteral("hd")));
    pane.show();
    auto *decompose = child<QPushButton>(&pane, "hdevalDecompose");
    // A layer-2 node pruning did not expand: no children yet, so every proposal is new.
    Criterion node;
    for (const Criterion &c : hdeval::layerNodes(pane.model()->rubric(), 2))
        if (!c.stats.value(QStringLiteral("selected")).toBool())
            node = c;
    QVERIFY(!node.key.isEmpty());
    const auto childrenOf = [&node](const Rubric &r) {
        return std::count_if(r.criteria().cbegin(), r.criteria().cend(),
                             [&node](const Criterion &c) { return c.parentKey == node.key; });
    };
    const auto childrenBefore = childrenOf(pane.model()->rubric());
    pane.view()->setCurrentIndex(pane.model()->indexOfKey(node.key));
    QVERIFY(decompose->isEnabled());

    auto *panel = child<HdEvalPanel>(&pane, "hdevalPanel");
    QSignalSpy opened(panel, &HdEvalPanel::decomposeOpened);
    const int before = m_p.server->requestCount();
    decompose->click();
    QCOMPARE(opened.size(), 1);
    auto *dialog = qobject_cast<DecomposeDialog *>(opened.first().first().value<QDialog *>());
    QVERIFY(dialog);
    QSignalSpy ready(dialog, &DecomposeDialog::proposalsReady);
    QVERIFY2(ready.wait(10000), qPrintable(QStringLiteral("%1 proposals, error '%2'")
                                                   .arg(dialog->proposals().size())
                                                   .arg(dialog->errorText())));
    QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
    // One generator call for the node, or none where the run already decomposed it (cached).
    const int afterFirst = m_p.server->requestCount();
    QVERIFY(afterFirst - before <= 1);
    auto *list = child<QListWidget>(dialog, "decomposeProposals");
    const int proposed = list->count();
    QVERIFY(proposed >= 2);
    QCOMPARE(proposed, int(dialog->proposals().size()));
    QCOMPARE(childrenBefore, 0);
    for (int i = 0; i < proposed; ++i)
        QCOMPARE(list->item(i)->checkState(), Qt::Checked); // new: accepted unless rejected
    list->item(0)->setCheckState(Qt::Unchecked);            // rejected
    child<QDialogButtonBox>(dialog, "")->button(QDialogButtonBox::Ok)->click();
    // The dialog closes (and is deleted) once the accepted ones are added.
    const QStringList added = dialog->addedKeys();
    const auto proposals = dialog->proposals().size();
    QCOMPARE(added.size(), proposed - 1);

    // Saved as new versions, which the pane follows: the accepted children sit under the node.
    const Rubric &shown = pane.model()->rubric();
    QTRY_COMPARE(childrenOf(shown), childrenBefore + proposed - 1);
    for (const QString &key : added) {
        const Criterion *c = shown.find(key);
        QVERIFY2(c, qPrintable(key));
        QCOMPARE(c->parentKey, node.key);
    }
    // The same proposal again comes from the project's cache: no call.
    pane.view()->setCurrentIndex(pane.model()->indexOfKey(node.key));
    decompose->click();
    QCOMPARE(opened.size(), 2);
    auto *again = qobject_cast<DecomposeDialog *>(opened.last().first().value<QDialog *>());
    QSignalSpy readyAgain(again, &DecomposeDialog::proposalsReady);
    QVERIFY(readyAgain.wait(10000));
    QCOMPARE(again->proposals().size(), proposals);
    // Those now under the node start rejected, the rejected one is offered again.
    auto *againList = child<QListWidget>(again, "decomposeProposals");
    QCOMPARE(againList->item(0)->checkState(), Qt::Checked);
    for (int i = 1; i < againList->count(); ++i)
        QCOMPARE(againList->item(i)->checkState(), Qt::Unchecked);
    QCOMPARE(m_p.server->requestCount(), afterFirst);
    again->reject();
}

QTEST_MAIN(TestHdEvalViews)
#include "TestHdEvalViews.moc"
