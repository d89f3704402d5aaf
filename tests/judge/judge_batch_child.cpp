// Test helper for TestJudgeEngine::killMidBatch: sends a batch to a judge endpoint with a project
// cache, then exits when every request is answered. The test SIGKILLs it half-way and runs it again.
#include "judge/JudgeEngine.h"
#include "store/Project.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

using namespace rubric;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("base-url"), QString(), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("project"), QString(), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("requests"), QString(), QStringLiteral("N")});
    parser.addOption({QStringLiteral("concurrency"), QString(), QStringLiteral("C")});
    parser.addOption({QStringLiteral("flush-ms"), QString(), QStringLiteral("MS"), QStringLiteral("50")});
    parser.process(app);

    auto project = Project::open(parser.value(QStringLiteral("project")));
    if (!project) {
        QTextStream(stderr) << project.errorString() << '\n';
        return 1;
    }
    ProviderProfile profile;
    profile.name = QStringLiteral("child");
    profile.baseUrl = parser.value(QStringLiteral("base-url"));
    profile.model = QStringLiteral("fake-judge");
    profile.concurrency = parser.value(QStringLiteral("concurrency")).toInt();
    JudgeEngine engine(profile, project->get());
    engine.setFlushInterval(parser.value(QStringLiteral("flush-ms")).toInt());
    engine.setRunName(QStringLiteral("kill-test"));
    int failed = 0;
    QObject::connect(&engine, &JudgeEngine::answered, [&](const JudgeResponse &r) { failed += r.ok() ? 0 : 1; });
    QObject::connect(&engine, &JudgeEngine::idle, &app, [&] { app.exit(failed == 0 ? 0 : 3); });
    QVector<JudgeRequest> batch;
    const int n = parser.value(QStringLiteral("requests")).toInt();
    for (int i = 0; i < n; ++i) {
        JudgeRequest r;
        r.messages = {{QStringLiteral("user"), QStringLiteral("Rate item #%1 from 1 to 5.").arg(i)}};
        r.tag = QString::number(i);
        batch.append(r);
    }
    engine.submit(batch);
    if (engine.pending() == 0)
        return 0;
    return app.exec();
}
