// libFuzzer target: the dataset importers. First byte: 0 = JSON, 1 = JSONL, 2 = CSV, 3 = TSV;
// the rest is the file. Each input is previewed (the mapping dialog's view) and checked against
// a project with the mapping a person would give that shape of file (Importer::check runs every
// test run() does, without writing).
#include "FuzzSupport.h"
#include "io/Importer.h"
#include "store/Project.h"

#include <cstdlib>

using namespace rubric;

namespace {

FieldMapping nestedMapping()
{
    FieldMapping m;
    m.id = QStringLiteral("meta.id");
    m.group = QStringLiteral("meta.doc");
    m.system = QStringLiteral("meta.sys");
    m.source = QStringLiteral("text.src");
    m.output = QStringLiteral("text.out");
    m.context.append({QStringLiteral("topic"), QStringLiteral("meta.topic")});
    m.human.append({QStringLiteral("coherence"), QStringLiteral("scores.coherence")});
    m.human.append({QStringLiteral("fluency"), QStringLiteral("scores.fluency")});
    m.scales.insert(QStringLiteral("fluency"), {1.0, 5.0});
    return m;
}

FieldMapping csvMapping()
{
    FieldMapping m; // no id: the position in the file
    m.group = QStringLiteral("doc");
    m.system = QStringLiteral("model");
    m.source = QStringLiteral("article");
    m.output = QStringLiteral("summary");
    m.human.append({QStringLiteral("coherence"), QStringLiteral("coh")});
    m.human.append({QStringLiteral("fluency"), QStringLiteral("flu")});
    return m;
}

FieldMapping tsvMapping()
{
    FieldMapping m;
    m.id = QStringLiteral("id");
    m.group = QStringLiteral("group");
    m.output = QStringLiteral("output");
    m.human.append({QStringLiteral("quality"), QStringLiteral("quality")});
    // HANNA's derived systems: story id / 2 picks the name.
    m.systemFromIdBlock = 2;
    m.systemFromIdNames = {QStringLiteral("s1"), QStringLiteral("s2")};
    return m;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz::initQt(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ImportFormat formats[]
            = {ImportFormat::Json, ImportFormat::Jsonl, ImportFormat::Csv, ImportFormat::Tsv};
    static const QString names[] = {QStringLiteral("data.json"), QStringLiteral("data.jsonl"),
                                    QStringLiteral("data.csv"), QStringLiteral("data.tsv")};
    static std::unique_ptr<Project> project = [] {
        auto p = Project::open(fuzz::scratch().filePath(QStringLiteral("fuzz.rubric")));
        if (!p.ok())
            std::abort(); // the harness itself is broken
        return std::move(*p);
    }();

    const fuzz::Split in = fuzz::selector(data, size, 4);
    const QString path = fuzz::writeScratch(names[in.variant], in.payload);
    if (path.isEmpty())
        return 0;

    const Result<ImportPreview> preview = Importer::preview(path, formats[in.variant], 5);
    if (!preview.ok() && preview.error().message.isEmpty())
        std::abort(); // a refusal always says why

    ImportSpec spec;
    spec.file = path;
    spec.format = formats[in.variant];
    spec.mapping = in.variant < 2 ? nestedMapping() : in.variant == 2 ? csvMapping() : tsvMapping();
    const Result<ImportSummary> summary = Importer::check(*project, spec);
    if (!summary.ok()) {
        if (summary.error().message.isEmpty())
            std::abort();
        return 0;
    }
    // A summary names a scale for every aspect it reports, and every scale is a range.
    if (summary->scales.size() != summary->aspects.size())
        std::abort();
    for (const AspectScale &s : summary->scales)
        if (!(s.min < s.max))
            std::abort();
    return 0;
}
