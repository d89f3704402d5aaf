// libFuzzer target: the checklist importer. First byte: 0 = CheckEval YAML, 1 = our JSON rubric
// export, 2 = our Markdown export; the rest is the file, read through ChecklistIo::readFile.
#include "FuzzSupport.h"
#include "methods/checkeval/ChecklistIo.h"

#include <cstdlib>

using namespace rubric;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz::initQt(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const QString names[]
            = {QStringLiteral("coherence_seed.yaml"), QStringLiteral("checklist.json"), QStringLiteral("checklist.md")};
    const fuzz::Split in = fuzz::selector(data, size, 3);
    const QString path = fuzz::writeScratch(names[in.variant], in.payload);
    if (path.isEmpty())
        return 0;
    // readFile is the importer's whole path: the reader by suffix, then validate().
    const Result<Rubric> rubric = ChecklistIo::readFile(path);
    if (!rubric.ok()) {
        if (rubric.error().message.isEmpty())
            std::abort(); // a refusal always says why
        return 0;
    }
    if (!ChecklistIo::validate(*rubric, path).ok())
        std::abort(); // readFile promises a checklist
    return 0;
}
