#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Rubric Studio"));
    QApplication::setOrganizationName(QStringLiteral("RubricStudio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Build LLM judges that agree with people."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("project"), QApplication::translate("main", "Project file to open."));
    parser.process(app);

    rubric::MainWindow window;
    if (!parser.positionalArguments().isEmpty())
        window.openProject(parser.positionalArguments().constFirst());
    window.show();
    return app.exec();
}
