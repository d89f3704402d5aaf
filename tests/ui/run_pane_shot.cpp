// run-pane-shot PROJECT BASE_URL OUT.png [--judge NAME] [--method NAME] [--at idle|running|done] [--size WxH]
//
// Screenshots of the "Judge & Run" pane in the main window, for docs/screenshots: settings are
// isolated (test mode) and a provider profile "fake-local" for BASE_URL is written to a
// temporary file, the form is filled for a G-Eval (or HypoEval) run of the project's first aspect, and the
// window is grabbed before the start (idle), once a third of the estimated calls are answered
// (running; use a slow fake-llm-server) or after the run (done). Test tooling only.

#include "MainWindow.h"
#include "judge/ProviderProfiles.h"
#include "models/RunController.h"
#include "panes/RunPane.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCommandLineParser>
#include <QLineEdit>
#include <QListWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace rubric;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("RubricStudioShots"));
    QApplication::setApplicationName(QStringLiteral("run-pane-shot"));
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("Project file."));
    parser.addPositionalArgument(QStringLiteral("base-url"),
                                 QStringLiteral("Endpoint, e.g. http://127.0.0.1:18602/v1."));
    parser.addPositionalArgument(QStringLiteral("out"), QStringLiteral("PNG to write."));
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Judge name."), QStringLiteral("name"),
                      QStringLiteral("geval-local")});
    parser.addOption({QStringLiteral("method"),
                      QStringLiteral("A method of the registry (geval, hypoeval, checkeval, hdeval, hpss)."),
                      QStringLiteral("method"), QStringLiteral("geval")});
    parser.addOption({QStringLiteral("at"), QStringLiteral("idle, running or done."), QStringLiteral("when"),
                      QStringLiteral("idle")});
    parser.addOption(
            {QStringLiteral("size"), QStringLiteral("WxH."), QStringLiteral("size"), QStringLiteral("1400x900")});
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: run-pane-shot PROJECT BASE_URL OUT.png [--judge NAME] [--at idle|running|done]\n");
        return 2;
    }
    QTemporaryDir settingsDir;
    const QString profilesFile = settingsDir.filePath(QStringLiteral("profiles.ini"));
    {
        ProviderProfiles profiles(profilesFile);
        ProviderProfile p;
        p.name = QStringLiteral("fake-local");
        p.baseUrl = args[1];
        p.model = QStringLiteral("synthetic-judge");
        p.concurrency = 8;
        p.pricePerMillionIn = 0.15;
        p.pricePerMillionOut = 0.6;
        if (!profiles.save(p)) {
            std::fprintf(stderr, "cannot write the profile\n");
            return 1;
        }
        profiles.sync();
    }

    MainWindow window;
    if (!window.openProject(args[0]))
        return 1;
    window.showPane(QStringLiteral("run"));
    auto *pane = window.findChild<RunPane *>(QStringLiteral("runPane"));
    pane->setProfileSettingsFile(profilesFile);
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (size.size() == 2)
        window.resize(size[0].toInt(), size[1].toInt());
    pane->findChild<QLineEdit *>(QStringLiteral("judgeName"))->setText(parser.value(QStringLiteral("judge")));
    auto *evaluator = pane->findChild<QComboBox *>(QStringLiteral("evaluatorProfile"));
    evaluator->setCurrentIndex(evaluator->findData(QStringLiteral("fake-local")));
    auto *method = pane->findChild<QComboBox *>(QStringLiteral("method"));
    method->setCurrentIndex(method->findData(parser.value(QStringLiteral("method"))));
    if (method->currentIndex() < 0) {
        std::fprintf(stderr, "unknown method %s\n", qPrintable(parser.value(QStringLiteral("method"))));
        return 2;
    }
    pane->findChild<QCheckBox *>(QStringLiteral("param_logprobs"))->setChecked(true);
    auto *list = pane->findChild<QListWidget *>(QStringLiteral("profileList"));
    if (list && list->count() > 0)
        list->setCurrentRow(0);
    window.show();

    const QString out = args[2];
    const QString at = parser.value(QStringLiteral("at"));
    const auto grab = [&window, out] {
        const bool ok = window.grab().save(out);
        if (!ok)
            std::fprintf(stderr, "cannot write %s\n", qPrintable(out));
        QApplication::exit(ok ? 0 : 1);
    };
    if (at == QLatin1String("idle")) {
        QTimer::singleShot(300, pane, &RunPane::estimate);
        QObject::connect(pane, &RunPane::estimateShown, &window, [grab] { QTimer::singleShot(200, grab); });
        QTimer::singleShot(5000, &window, grab); // an estimate the pane refuses shows its message instead
    } else {
        QTimer::singleShot(300, pane, &RunPane::start);
        if (at == QLatin1String("running")) {
            // A third of the run's calls: of its estimate (the run itself knows only the calls
            // submitted so far, a chunk at a time).
            QObject::connect(pane->controller(), &RunController::progressed, &window,
                             [grab, pane](const RunProgress &p) {
                                 static bool taken = false;
                                 const RunEstimate e = pane->lastEstimate();
                                 const int total = qMax(p.total, e.calls + e.cached);
                                 if (!taken && total > 3 && p.done * 3 >= total) {
                                     taken = true;
                                     QTimer::singleShot(50, grab);
                                 }
                             });
        } else {
            QObject::connect(pane, &RunPane::runFinished, &window, [grab] { QTimer::singleShot(300, grab); });
        }
    }
    return app.exec();
}
