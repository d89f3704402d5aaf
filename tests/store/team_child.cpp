// Test helper for TestTeamDatabase: one annotator (or one run) working in a team project at the
// same time as another process.
//
//   team_child annotate URL ANNOTATOR ITEMS
//       Scores items i0 … i(ITEMS-1) on the aspects coh and flu one at a time, as the Annotate
//       pane saves (Project::setAnnotation): as ANNOTATOR, score 1 + (item + aspect) % 5, and as
//       the annotator "shared" (both children write the same rows), score 3. Prints
//       "first<TAB>MS" / "last<TAB>MS" (milliseconds since the epoch of the first and last
//       write) and "wrote<TAB>N"; exits 1 at the first write that fails, with its message.
//   team_child hold-judge URL JUDGE
//       Claims the judge as a run does (status "running"), prints "holding", and waits to be
//       killed.
#include "store/Project.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTextStream>

#include <cstdio>

using namespace rubric;

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "team_child: " << message << '\n';
    return 1;
}

void say(const QString &line)
{
    const QByteArray bytes = line.toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() < 3)
        return fail(QStringLiteral("usage: team_child annotate URL ANNOTATOR ITEMS | hold-judge URL JUDGE"));
    auto opened = Project::open(args.at(1), Project::OpenMode::OpenExisting);
    if (!opened)
        return fail(opened.errorString());
    Project &project = **opened;

    if (args.at(0) == QLatin1String("hold-judge")) {
        if (auto r = project.setJudgeStatus(args.at(2), QStringLiteral("running")); !r)
            return fail(r.errorString());
        say(QStringLiteral("holding"));
        return app.exec(); // holds the judge until the test kills this process
    }
    if (args.at(0) != QLatin1String("annotate") || args.size() != 4)
        return fail(QStringLiteral("unknown mode '%1'").arg(args.at(0)));
    const QString annotator = args.at(2);
    bool ok = false;
    const int items = args.at(3).toInt(&ok);
    if (!ok || items <= 0)
        return fail(QStringLiteral("ITEMS must be a positive number, got '%1'").arg(args.at(3)));
    const QStringList aspects{QStringLiteral("coh"), QStringLiteral("flu")};
    int written = 0;
    for (int i = 0; i < items; ++i) {
        for (int a = 0; a < aspects.size(); ++a) {
            const QString item = QStringLiteral("i%1").arg(i);
            for (const Annotation &ann : {Annotation{item, aspects.at(a), annotator, double(1 + (i + a) % 5), {}, {}},
                                          Annotation{item, aspects.at(a), QStringLiteral("shared"), 3.0, {}, {}}}) {
                if (auto r = project.setAnnotation(ann); !r)
                    return fail(QStringLiteral("%1 %2 %3: %4").arg(item, ann.aspect, ann.annotator, r.errorString()));
                if (written++ == 0)
                    say(QStringLiteral("first\t%1").arg(QDateTime::currentMSecsSinceEpoch()));
            }
        }
    }
    say(QStringLiteral("last\t%1").arg(QDateTime::currentMSecsSinceEpoch()));
    say(QStringLiteral("wrote\t%1").arg(written));
    return 0;
}
