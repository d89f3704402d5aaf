// A loopback endpoint that misbehaves on purpose, for trying the CLI against it:
//   hostile-llm-server --mode deep-json|huge-body|trickle|negative-usage|retry-after-inf|record [--port N]
#include "HostileServer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

using namespace rubric::test;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
            QStringLiteral("A loopback LLM endpoint that misbehaves on purpose (tests only)."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("mode"),
                      QStringLiteral("deep-json, huge-body, trickle, negative-usage, retry-after-inf or record."),
                      QStringLiteral("MODE")});
    parser.addOption({QStringLiteral("port"), QStringLiteral("Port to listen on (0 = any)."), QStringLiteral("PORT"),
                      QStringLiteral("0")});
    parser.process(app);
    const auto mode = HostileServer::fromName(parser.value(QStringLiteral("mode")));
    if (!mode) {
        QTextStream(stderr) << "unknown --mode\n";
        return 2;
    }
    HostileServer server(*mode);
    if (!server.listen(quint16(parser.value(QStringLiteral("port")).toUInt()))) {
        QTextStream(stderr) << "cannot listen\n";
        return 1;
    }
    QTextStream(stdout) << "listening on " << server.baseUrl() << Qt::endl;
    return app.exec();
}
