#include "CliUtil.h"
#include "methods/checkeval/AnswerImport.h"
#include "methods/checkeval/ChecklistIo.h"
#include "store/RubricStore.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Import per-question checklist answers made elsewhere (another tool's LLM answers, or people's) as a\n"
            "checklist judge, stored as a CheckEval run stores its own, so that `rubric agreement --questions`,\n"
            "the answer grid and the question figures take them like any run's.\n"
            "FILE is CSV with a header row and the columns item, question (a key such as q3, or the question's\n"
            "exact text) and answer (yes/no, y/n, 1/0, true/false; empty = unanswered). All-or-nothing: the\n"
            "first bad row (unknown item or question, bad answer, a second answer to the same pair) writes\n"
            "nothing and is named with its line and field.\n"
            "A new judge needs --checklist; an existing checklist judge keeps its latest checklist (with\n"
            "--checklist, it must ask the same questions)."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("CSV of answers."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Name of the checklist judge to create or fill."),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("checklist"),
                      QStringLiteral("The checklist: a .yaml/.json/.md file or preset:DATASET/ASPECT[/STAGE]."),
                      QStringLiteral("SPEC")});
    parser.addOption({QStringLiteral("aspect"),
                      QStringLiteral("Aspect of a YAML checklist file (default: from its "
                                     "file name)."),
                      QStringLiteral("ASPECT")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one line of JSON.")});
    if (auto rc = parse(parser, QStringLiteral("import-answers"), args, io))
        return *rc;
    if (parser.positionalArguments().size() != 1) {
        io.err << "rubric import-answers: give exactly one FILE\n";
        return 2;
    }
    if (!require(parser, QStringLiteral("judge"), io))
        return 2;
    const QString file = parser.positionalArguments().front();
    const QString judge = parser.value(QStringLiteral("judge"));
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    Rubric checklist;
    if (parser.isSet(QStringLiteral("checklist"))) {
        auto loaded
                = ChecklistIo::load(parser.value(QStringLiteral("checklist")), parser.value(QStringLiteral("aspect")));
        if (!loaded) {
            io.err << "rubric import-answers: --checklist: " << loaded.errorString() << '\n';
            return 1;
        }
        checklist = std::move(loaded).value();
    } else {
        RubricStore store(project.get());
        const auto latest = store.loadLatest(judge);
        if (!latest) {
            io.err << "rubric import-answers: " << latest.errorString() << '\n';
            return 1;
        }
        if (!*latest) {
            io.err << "rubric import-answers: judge '" << judge
                   << "' has no checklist yet: give --checklist (a file or preset:DATASET/ASPECT)\n";
            return 2;
        }
        checklist = **latest;
    }
    const auto r = AnswerImport::importCsv(*project, file, judge, checklist);
    if (!r) {
        io.err << "rubric import-answers: " << r.errorString() << '\n';
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("judge"), judge},
                                  {QStringLiteral("aspect"), checklist.aspect()},
                                  {QStringLiteral("answers"), r->answers},
                                  {QStringLiteral("unanswered"), r->unanswered},
                                  {QStringLiteral("items"), r->items},
                                  {QStringLiteral("questions"), r->questions}});
        return 0;
    }
    io.out << "imported " << r->answers << " answers (" << r->unanswered << " unanswered) on " << r->items
           << " items and " << r->questions << " questions as checklist judge '" << judge << "' for "
           << checklist.aspect() << '\n';
    return 0;
}

const Registration reg({QStringLiteral("import-answers"),
                        QStringLiteral("Import per-question checklist answers made elsewhere as a checklist judge."),
                        &run});

} // namespace
} // namespace rubric::cli
