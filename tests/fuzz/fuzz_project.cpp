// libFuzzer target: opening a damaged project file. The input is the whole file; it is opened
// as an existing project (OpenExisting, which migrates an old schema) and read the way the studio
// reads it on open: meta, aspects, items, annotations, split, judges and their scores. Any error
// must come back as an Error with a message, never as a crash or a hang.
#include "FuzzSupport.h"
#include "store/Project.h"

#include <QFile>

#include <cstdlib>

using namespace rubric;

namespace {

template <typename T> void expectMessage(const Result<T> &r)
{
    if (!r.ok() && r.error().message.isEmpty())
        std::abort(); // a refusal always says why
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz::initQt(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString path = fuzz::scratch().filePath(QStringLiteral("damaged.rubric"));
    // A journal left by the previous input would be replayed into this one.
    for (const char *suffix : {"-wal", "-shm", "-journal"})
        QFile::remove(path + QLatin1String(suffix));
    if (fuzz::writeScratch(QStringLiteral("damaged.rubric"),
                           QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)))
                .isEmpty())
        return 0;

    auto opened = Project::open(path, Project::OpenMode::OpenExisting);
    expectMessage(opened);
    if (!opened.ok())
        return 0;
    Project &project = **opened;
    expectMessage(project.readMeta(QStringLiteral("task")));
    expectMessage(project.readItemCount());
    expectMessage(project.readItems());
    expectMessage(project.readGroups());
    expectMessage(project.readSystems());
    expectMessage(project.readAnnotations());
    expectMessage(project.readSplit());
    expectMessage(project.readItemIds());
    const auto aspects = project.readAspects();
    expectMessage(aspects);
    const auto judges = project.readJudges();
    expectMessage(judges);
    if (aspects.ok() && judges.ok())
        for (const Aspect &a : *aspects) {
            expectMessage(project.readHumanScores(a.name));
            expectMessage(project.readAnnotators(a.name));
            for (const JudgeInfo &j : *judges)
                expectMessage(project.readJudgeScores(j.name, a.name));
        }
    return 0;
}
