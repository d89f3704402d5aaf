// hdeval-shot OUT_DIR [--size WxH]
//
// Screenshots of HD-Eval's studio views, for docs/screenshots: builds the SummEval coherence
// project in a temporary folder and runs HD-Eval on it against the loopback fake endpoint (the
// synthetic judge of tests/support: SIGNAL and NOISE criteria scored by a known rule; three
// layers, the linear aggregator, two layer-2 nodes selected), then grabs
//   OUT_DIR/hdeval-tree.png        the Rubric pane: the tree coloured by layer with importance bars;
//   OUT_DIR/hdeval-aggregator.png  the aggregator panel of a second judge over coherence and
//                                  relevance (train / CV / test r per aspect against the baselines,
//                                  "layer 1 only" among them; the ablation buttons);
//   OUT_DIR/hdeval-explain.png     one item's explanation, opened from the heatmap;
//   OUT_DIR/hdeval-decompose.png   "Decompose…" on a layer-2 node: the generator's proposals to accept.
// With --efficiency instead: the efficiency dialog's three tabs (0 calls, from the stored node scores)
//   OUT_DIR/hdeval-data-eff.png, hdeval-criteria-eff.png, hdeval-shap.png.
// Test tooling only: every answer comes from the synthetic judge.

#include "HdEvalFixture.h"
#include "MainWindow.h"
#include "methods/hdeval/DecomposeDialog.h"
#include "methods/hdeval/EfficiencyDialog.h"
#include "methods/hdeval/ExplainDialog.h"
#include "methods/hdeval/HdEvalTree.h"
#include "models/RubricTreeModel.h"
#include "models/ScoreModel.h"
#include "panes/HeatmapPane.h"
#include "panes/RubricPane.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <cstdio>

using namespace rubric;

namespace {

int fail(const QString &what)
{
    std::fprintf(stderr, "hdeval-shot: %s\n", qPrintable(what));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("out"), QStringLiteral("output folder"));
    parser.addOption(
            {QStringLiteral("size"), QStringLiteral("window size"), QStringLiteral("WxH"), QStringLiteral("1500x900")});
    parser.addOption({QStringLiteral("efficiency"), QStringLiteral("only the efficiency dialog's tabs")});
    parser.process(app);
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("usage: hdeval-shot OUT_DIR [--size WxH]"));
    const QDir out(parser.positionalArguments().first());
    if (!out.exists() && !QDir().mkpath(out.path()))
        return fail(QStringLiteral("cannot create %1").arg(out.path()));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hdeval.rubricproj"));
    // Kept alive: its fake endpoint answers the Decompose dialog's generator call.
    auto made = test::makeHdEvalProject(path);
    if (!made.error.isEmpty())
        return fail(made.error);
    if (const QString e = test::addTwoAspectJudge(made, QStringLiteral("hd2")); !e.isEmpty())
        return fail(e);
    if (parser.isSet(QStringLiteral("efficiency"))) {
        EfficiencyDialog dialog(made.project(), QStringLiteral("hd"));
        dialog.resize(1000, 620);
        dialog.show();
        const char *files[3]{"hdeval-data-eff.png", "hdeval-criteria-eff.png", "hdeval-shap.png"};
        for (int t = 0; t < 3 && t < dialog.tabs()->count(); ++t) {
            dialog.tabs()->setCurrentIndex(t);
            QEventLoop wait;
            QTimer::singleShot(400, &wait, &QEventLoop::quit);
            wait.exec();
            if (!dialog.grab().save(out.filePath(QString::fromLatin1(files[t]))))
                return fail(QStringLiteral("cannot write %1").arg(QString::fromLatin1(files[t])));
        }
        return dialog.tabs()->count() == 3 ? 0
                                           : fail(QStringLiteral("the dialog has %1 tabs").arg(dialog.tabs()->count()));
    }

    MainWindow window;
    if (!window.openProject(path))
        return fail(QStringLiteral("cannot open the project"));
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (size.size() == 2)
        window.resize(size[0].toInt(), size[1].toInt());
    window.show();
    window.showPane(QStringLiteral("rubric"));
    auto *rubricPane = window.findChild<RubricPane *>(QStringLiteral("rubricPane"));
    rubricPane->setJudge(QStringLiteral("hd"));
    if (auto *split = rubricPane->findChild<QSplitter *>(QStringLiteral("rubricSplitter")))
        split->setSizes({1100, 400});
    QTimer::singleShot(300, &window, [&] {
        QTreeView *tree = rubricPane->view();
        tree->setCurrentIndex(rubricPane->model()->index(0, 0));
        if (!window.grab().save(out.filePath(QStringLiteral("hdeval-tree.png"))))
            QApplication::exit(fail(QStringLiteral("cannot write hdeval-tree.png")));
        rubricPane->setJudge(QStringLiteral("hd2"));
    });
    QTimer::singleShot(700, &window, [&] {
        QWidget *panel = rubricPane->findChild<QWidget *>(QStringLiteral("hdevalPanel"));
        if (!panel || !panel->grab().save(out.filePath(QStringLiteral("hdeval-aggregator.png"))))
            QApplication::exit(fail(QStringLiteral("cannot write hdeval-aggregator.png")));
        rubricPane->setJudge(QStringLiteral("hd"));
        window.showPane(QStringLiteral("heatmap"));
        auto *heatmap = window.findChild<HeatmapPane *>();
        ScoreModel::of(window.project())->setJudge(QStringLiteral("hd"));
        QTimer::singleShot(300, &window, [&, heatmap] {
            const QString item = ScoreModel::of(window.project())->itemId(0);
            auto *dialog = qobject_cast<ExplainDialog *>(heatmap->openItem(item));
            if (!dialog)
                QApplication::exit(fail(QStringLiteral("no explanation for %1").arg(item)));
            dialog->resize(820, 560);
            QTimer::singleShot(300, &window, [&, dialog] {
                if (!dialog->grab().save(out.filePath(QStringLiteral("hdeval-explain.png"))))
                    QApplication::exit(fail(QStringLiteral("cannot write hdeval-explain.png")));
                dialog->close();
                window.showPane(QStringLiteral("rubric"));
                Criterion node; // a layer-2 node pruning left unexpanded: its proposals are new
                for (const Criterion &c : hdeval::layerNodes(rubricPane->model()->rubric(), 2))
                    if (!c.stats.value(QStringLiteral("selected")).toBool())
                        node = c;
                rubricPane->view()->setCurrentIndex(rubricPane->model()->indexOfKey(node.key));
                auto *decompose = rubricPane->findChild<QPushButton *>(QStringLiteral("hdevalDecompose"));
                if (!decompose || !decompose->isEnabled())
                    QApplication::exit(fail(QStringLiteral("Decompose is not available on %1").arg(node.key)));
                decompose->click();
                QTimer::singleShot(1500, &window, [&] {
                    auto *proposals = window.findChild<DecomposeDialog *>(QStringLiteral("decomposeDialog"));
                    if (proposals && !proposals->proposals().isEmpty())
                        proposals->findChild<QListWidget *>()->item(0)->setCheckState(Qt::Unchecked);
                    const bool ok = proposals && !proposals->proposals().isEmpty()
                                    && proposals->grab().save(out.filePath(QStringLiteral("hdeval-decompose.png")));
                    QApplication::exit(
                            ok ? 0
                               : fail(QStringLiteral("no proposals to grab: %1")
                                              .arg(proposals ? proposals->errorText() : QStringLiteral("no dialog"))));
                });
            });
        });
    });
    return app.exec();
}
