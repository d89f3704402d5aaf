#include "CommandRegistry.h"

#include <QCoreApplication>
#ifdef RUBRIC_HAVE_REPORT
#include <QGuiApplication>
#endif
#include <QTextStream>

#include <cstdio>
#include <cstring>
#include <memory>

using namespace rubric::cli;

int main(int argc, char **argv)
{
    // `rubric report` paints (fonts, PDF, SVG): it needs QtGui, which runs headless on the
    // offscreen platform. Every other command stays a plain QCoreApplication.
    std::unique_ptr<QCoreApplication> application;
#ifdef RUBRIC_HAVE_REPORT
    if (argc > 1 && std::strcmp(argv[1], "report") == 0) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        application = std::make_unique<QGuiApplication>(argc, argv);
    }
#endif
    if (!application)
        application = std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication &app = *application;
    QCoreApplication::setApplicationName(QStringLiteral("rubric"));
    QCoreApplication::setOrganizationName(QStringLiteral("RubricStudio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RUBRIC_VERSION));

    QTextStream out(stdout);
    QTextStream err(stderr);
    Io io{out, err};

    QStringList args = app.arguments();
    args.removeFirst();
    const auto usage = [&](QTextStream &s) {
        s << "usage: rubric <command> [options]   (rubric <command> --help for its options)\n\ncommands:\n";
        for (const Command &c : CommandRegistry::all())
            s << "  " << c.name.leftJustified(20) << c.summary << '\n';
    };
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")
        || args.first() == QLatin1String("help")) {
        usage(out);
        return args.isEmpty() ? 2 : 0;
    }
    if (args.first() == QLatin1String("--version")) {
        out << "rubric " << RUBRIC_VERSION << '\n';
        return 0;
    }
    const QString name = args.takeFirst();
    const Command *command = CommandRegistry::find(name);
    if (!command) {
        err << "rubric: unknown command '" << name << "'\n\n";
        usage(err);
        return 2;
    }
    const int rc = command->run(args, io);
    out.flush();
    err.flush();
    return rc;
}
