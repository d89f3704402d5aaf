// hpss-shot OUTDIR [--budget N] [--size WxH]
//
// Screenshots of the HPSS pane for docs/screenshots: hpss-search.png (the live search view,
// grabbed while the search runs, two thirds through its budget), hpss-leaderboard.png and
// hpss-prompt.png (after the run: the leaderboard by validation ρ, the prompt inspector with the
// best strategy without examples for a validation item compared with the origin), and
// hpss-advantages.png (the per-factor A, N, M bars). The project is the SummEval coherence
// fixture of the tests (30 validation items, 10 test items) in a temporary folder, the judge the
// synthetic judge on an in-process loopback fake server; settings are isolated (test mode).
// Test tooling only.

#include "FakeLlmServer.h"
#include "MainWindow.h"
#include "SummEvalFixture.h"
#include "SyntheticJudge.h"
#include "methods/hpss/HpssAdvantageView.h"
#include "methods/hpss/HpssJudgeView.h"
#include "methods/hpss/HpssLeaderboard.h"
#include "methods/hpss/HpssLeaderboardModel.h"
#include "methods/hpss/HpssPane.h"
#include "methods/hpss/HpssPromptInspector.h"
#include "methods/hpss/HpssSearchView.h"
#include "models/RunController.h"
#include "panes/RunPane.h"
#include "runs/RunConfig.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace rubric;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("RubricStudioShots"));
    QApplication::setApplicationName(QStringLiteral("hpss-shot"));
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("outdir"), QStringLiteral("Folder for the PNGs."));
    parser.addOption({QStringLiteral("budget"), QStringLiteral("Strategies to evaluate."), QStringLiteral("n"),
                      QStringLiteral("71")});
    parser.addOption(
            {QStringLiteral("size"), QStringLiteral("WxH."), QStringLiteral("size"), QStringLiteral("1400x900")});
    parser.process(app);
    if (parser.positionalArguments().size() != 1) {
        std::fprintf(stderr, "usage: hpss-shot OUTDIR [--budget N] [--size WxH]\n");
        return 2;
    }
    const QDir out(parser.positionalArguments().first());
    const int budget = parser.value(QStringLiteral("budget")).toInt();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("summeval-hpss.rubric"));
    QHash<QString, double> human;
    {
        auto fx = test::makeSummEvalProject(path, 10, 3);
        if (!fx) {
            std::fprintf(stderr, "cannot make the project in %s\n", qPrintable(path));
            return 1;
        }
        human = fx->humanByOutput;
    }
    test::SyntheticJudge judge(human);
    test::FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    if (!server.listen()) {
        std::fprintf(stderr, "the fake server cannot listen\n");
        return 1;
    }

    MainWindow window;
    if (!window.openProject(path))
        return 1;
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (size.size() == 2)
        window.resize(size[0].toInt(), size[1].toInt());
    auto *runPane = window.findChild<RunPane *>(QStringLiteral("runPane"));
    auto *pane = window.findChild<HpssPane *>(QStringLiteral("hpssPane"));
    window.showPane(QStringLiteral("hpss"));
    window.show();

    RunSpec spec;
    spec.judge = QStringLiteral("hpss-coherence");
    spec.method = QStringLiteral("hpss");
    spec.aspect = QStringLiteral("coherence");
    spec.evaluator.name = QStringLiteral("fake-local");
    spec.evaluator.baseUrl = server.baseUrl();
    spec.evaluator.model = QStringLiteral("synthetic-judge");
    spec.evaluator.concurrency = 8;
    spec.evaluator.pricePerMillionIn = 0.15;
    spec.evaluator.pricePerMillionOut = 0.6;
    spec.settings.insert(QStringLiteral("budget"), QString::number(budget));

    const auto save = [&window, &out](const QString &name) {
        const QString file = out.filePath(name);
        if (!window.grab().save(file)) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(file));
            return false;
        }
        std::printf("wrote %s\n", qPrintable(file));
        return true;
    };
    bool ok = true;
    bool liveTaken = false;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &window, [&] {
        if (!liveTaken && pane->searchView()->evaluatedSeries()->count() * 3 >= budget * 2) {
            liveTaken = true;
            ok = save(QStringLiteral("hpss-search.png")) && ok;
        }
    });
    QObject::connect(runPane->controller(), &RunController::finished, &window,
                     [&](const QString &, bool done, const QString &error) {
                         poll.stop();
                         if (!done) {
                             std::fprintf(stderr, "the run failed: %s\n", qPrintable(error));
                             QApplication::exit(1);
                             return;
                         }
                         QTimer::singleShot(300, &window, [&] {
                             window.showPane(QStringLiteral("hpss"));
                             if (!liveTaken)
                                 ok = save(QStringLiteral("hpss-search.png")) && ok;
                             pane->tabs()->setCurrentWidget(pane->leaderboard());
                             pane->leaderboard()->selectStrategy(pane->leaderboard()->model()->strategy(
                                     pane->leaderboard()
                                             ->proxy()
                                             ->mapToSource(pane->leaderboard()->proxy()->index(0, 0))
                                             .row()));
                         });
                         QTimer::singleShot(600, &window, [&] {
                             ok = save(QStringLiteral("hpss-leaderboard.png")) && ok;
                             auto view = hpss::JudgeView::load(window.project(), spec.judge, &RunConfig::load);
                             if (!view) {
                                 std::fprintf(stderr, "%s\n", qPrintable(view.errorString()));
                                 QApplication::exit(1);
                                 return;
                             }
                             HpssPromptInspector *inspector = pane->promptInspector();
                             // The best strategy without in-context examples: a prompt that fits the window.
                             const hpss::SearchRecord *shown = view->search().best();
                             for (const hpss::SearchRecord &r : view->search().evaluated())
                                 if (r.proposal.strategy.exampleCount() == 0
                                     && (shown->proposal.strategy.exampleCount() > 0 || r.spearman > shown->spearman))
                                     shown = &r;
                             inspector->setStrategy(shown->proposal.strategy);
                             inspector->setCompareStrategy(view->search().evaluated().first().proposal.strategy);
                             inspector->setItem(view->builder().validation().at(2).id);
                             pane->tabs()->setCurrentWidget(inspector);
                         });
                         QTimer::singleShot(900, &window, [&] {
                             ok = save(QStringLiteral("hpss-prompt.png")) && ok;
                             pane->tabs()->setCurrentWidget(pane->advantageView());
                         });
                         QTimer::singleShot(1200, &window, [&] {
                             ok = save(QStringLiteral("hpss-advantages.png")) && ok;
                             QApplication::exit(ok ? 0 : 1);
                         });
                     });
    QTimer::singleShot(300, &window, [&] {
        window.showPane(QStringLiteral("hpss"));
        runPane->startRun(spec);
        window.showPane(QStringLiteral("hpss"));
        poll.start(20);
    });
    return app.exec();
}
