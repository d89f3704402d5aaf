#include "CliUtil.h"
#include "store/DatabaseUrl.h"
#include "store/ProjectCopy.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Copy a whole project — items, scores, judges, rubrics, the call cache and ledger, ids and all — into a\n"
            "new project file or an empty PostgreSQL database, or back: --from P.rubric --to "
            "postgresql://user@host/db.\n"
            "The target must be empty; a password is best left to PGPASSWORD or ~/.pgpass, not the URL."));
    parser.addOption({QStringLiteral("from"), QStringLiteral("The project to copy (file or postgresql:// URL)."),
                      QStringLiteral("P")});
    parser.addOption({QStringLiteral("to"),
                      QStringLiteral("The new project: a file that does not exist yet, or an empty database."),
                      QStringLiteral("P")});
    if (auto rc = parse(parser, QStringLiteral("copy"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("from"), io) || !require(parser, QStringLiteral("to"), io))
        return 2;
    const QString fromText = parser.value(QStringLiteral("from"));
    const QString toText = parser.value(QStringLiteral("to"));
    const bool toFile = !DatabaseUrl::isDatabaseUrl(toText);
    if (toFile && QFileInfo::exists(toText)) {
        io.err << "rubric copy: --to: " << toText << " already exists; copy into a new file\n";
        return 1;
    }
    auto from = Project::open(fromText, Project::OpenMode::OpenExisting);
    if (!from) {
        io.err << "rubric copy: --from: " << from.errorString() << '\n';
        return 1;
    }
    QElapsedTimer clock;
    clock.start();
    Result<CopyCounts> copied = makeError(QString());
    {
        auto to = Project::open(toText, Project::OpenMode::OpenOrCreate);
        if (!to) {
            io.err << "rubric copy: --to: " << to.errorString() << '\n';
            if (toFile)
                QFile::remove(toText);
            return 1;
        }
        copied = copyProject(**from, **to);
        if (copied)
            io.out << "copied " << copied->rows << " rows of " << copied->tables << " tables from " << (*from)->path()
                   << " to " << (*to)->path() << " in " << clock.elapsed() << " ms\n";
    }
    if (!copied) {
        io.err << "rubric copy: " << copied.errorString() << '\n';
        // A file this command made holds nothing but the schema: it goes, so a retry starts clean.
        if (toFile)
            for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
                QFile::remove(toText + suffix);
        return 1;
    }
    return 0;
}

const Registration reg({QStringLiteral("copy"),
                        QStringLiteral("Copy a project between files and PostgreSQL databases, ids and all."), &run});

} // namespace
} // namespace rubric::cli
