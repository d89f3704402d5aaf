// rubric-studio [PROJECT | --example] [--pane NAME] [--screenshot FILE] [--export-chart FILE.png|FILE.svg]
#include "MainWindow.h"
#include "ScrollBench.h"
#include "Settings.h"
#include "store/ExampleProject.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include <cstdio>

namespace {

/// Loads the studio's and Qt's translations for the chosen language (or the system locale). A
/// language the studio has no translation for gets the English one, which only holds the plural
/// forms ("1 item", "2 items") of the source texts' "%n item(s)".
void installTranslations(QApplication &app)
{
    const QString language = rubric::Settings::string(rubric::Settings::Key::Language);
    const QLocale locale = language.isEmpty() ? QLocale() : QLocale(language);
    auto *ours = new QTranslator(&app);
    if (ours->load(locale, QStringLiteral("rubric"), QStringLiteral("_"), QStringLiteral(":/i18n"))
        || ours->load(QStringLiteral(":/i18n/rubric_en.qm")))
        QApplication::installTranslator(ours);
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
}

} // namespace

int main(int argc, char **argv)
{
    QElapsedTimer sinceStart; // --bench-scroll times the first pane from here
    sinceStart.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Rubric Studio"));
    QApplication::setOrganizationName(QStringLiteral("RubricStudio"));
    installTranslations(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Build LLM judges that agree with people."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("project"), QApplication::translate("main", "Project file to open."));
    const QCommandLineOption paneOption(
            QStringLiteral("pane"),
            QApplication::translate("main", "Pane to show first (dataset, annotate, issues, …)."),
            QStringLiteral("name"));
    const QCommandLineOption shotOption(
            QStringLiteral("screenshot"),
            QApplication::translate("main", "Save a PNG of the window to FILE once it is shown, then quit."),
            QStringLiteral("file"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QApplication::translate("main", "Window size for --screenshot, WxH."),
                                        QStringLiteral("size"), QStringLiteral("1400x900"));
    const QCommandLineOption annotatorOption(QStringLiteral("annotator"),
                                             QApplication::translate("main", "Annotate under NAME (remembered)."),
                                             QStringLiteral("name"));
    const QCommandLineOption chartOption(
            QStringLiteral("export-chart"),
            QApplication::translate("main", "Save the chart of the shown pane (heatmap, correlation) to FILE "
                                            "(.png or .svg) once it is drawn, then quit."),
            QStringLiteral("file"));
    const QCommandLineOption judgeOption(
            QStringLiteral("judge"),
            QApplication::translate("main", "Judge the heatmap and correlation panes show first."),
            QStringLiteral("name"));
    const QCommandLineOption delayOption(
            QStringLiteral("delay"),
            QApplication::translate("main", "Milliseconds to wait before --screenshot or --export-chart."),
            QStringLiteral("ms"), QStringLiteral("1500"));
    const QCommandLineOption exampleOption(
            QStringLiteral("example"),
            QApplication::translate("main", "Open your copy of the example project (%1), made from the built "
                                            "template the first time and never replaced. The first start without "
                                            "a PROJECT does the same.")
                    .arg(rubric::ExampleProject::copyPath()));
    // Hidden: what `rubric bench scale` runs offscreen (ui/ScrollBench.h).
    QCommandLineOption benchOption(QStringLiteral("bench-scroll"), QStringLiteral("Time the first pane and scrolling."),
                                   QStringLiteral("file"));
    benchOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({paneOption, shotOption, sizeOption, annotatorOption, chartOption, judgeOption, delayOption,
                       exampleOption, benchOption});
    parser.process(app);

    if (parser.isSet(annotatorOption))
        rubric::Settings::setValue(rubric::Settings::Key::AnnotatorName, parser.value(annotatorOption));
    // The first start (nothing opened before) opens the example, like --example.
    const bool firstStart = rubric::Settings::recentProjects().isEmpty();
    rubric::MainWindow window;
    if (!parser.positionalArguments().isEmpty())
        window.openProject(parser.positionalArguments().constFirst());
    else if (parser.isSet(exampleOption) || firstStart)
        window.openExample(rubric::ExampleProject::sourcePath(), rubric::ExampleProject::copyPath());
    if (parser.isSet(judgeOption) && !window.showJudge(parser.value(judgeOption))) {
        std::fprintf(stderr, "%s\n",
                     qPrintable(QApplication::translate("main", "No judge named %1 in this project")
                                        .arg(parser.value(judgeOption))));
        return 2;
    }
    if (parser.isSet(paneOption) && !window.showPane(parser.value(paneOption))) {
        std::fprintf(stderr, "%s\n",
                     qPrintable(QApplication::translate("main", "No pane named %1; there are: %2")
                                        .arg(parser.value(paneOption), window.paneKeys().join(QStringLiteral(", ")))));
        return 2;
    }
    if (parser.isSet(shotOption) || parser.isSet(chartOption)) {
        const QStringList size = parser.value(sizeOption).split(QLatin1Char('x'));
        if (size.size() == 2)
            window.resize(size[0].toInt(), size[1].toInt());
    }
    window.show();

    if (parser.isSet(benchOption))
        rubric::startScrollBench(window, sinceStart, parser.value(benchOption));
    if (parser.isSet(shotOption)) {
        const QString file = parser.value(shotOption);
        // Grab once the event loop has laid out and painted the window.
        QTimer::singleShot(parser.value(delayOption).toInt(), &window, [&window, file] {
            const bool ok = window.grab().save(file);
            if (!ok)
                std::fprintf(stderr, "%s\n", qPrintable(QApplication::translate("main", "Cannot write %1").arg(file)));
            QApplication::exit(ok ? 0 : 1);
        });
    }
    if (parser.isSet(chartOption)) {
        const QString file = parser.value(chartOption);
        // Charts fill in from the event loop (bootstrap intervals run in the background): wait a moment.
        QTimer::singleShot(parser.value(delayOption).toInt(), &window, [&window, file] {
            const auto r = window.exportChart(file);
            if (!r)
                std::fprintf(stderr, "%s\n", qPrintable(r.errorString()));
            QApplication::exit(r ? 0 : 1);
        });
    }
    return app.exec();
}
