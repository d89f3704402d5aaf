#include "CliUtil.h"
#include "methods/OfflineBaselines.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Compute the offline baselines (ROUGE-1/2/L F1 against the reference, output length) and store them "
            "as judges rouge-1, rouge-2, rouge-l and length."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("aspect"), QStringLiteral("Aspect to store the scores for, or 'all' (default)."),
                      QStringLiteral("A"), QStringLiteral("all")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("baseline"), args, io))
        return *rc;
    auto project = openProject(parser, io);
    if (!project)
        return 1;

    QStringList aspects;
    const QString wanted = parser.value(QStringLiteral("aspect"));
    if (wanted == QLatin1String("all")) {
        const auto all = project->readAspects();
        if (!all) {
            io.err << "rubric: " << all.errorString() << '\n';
            return 1;
        }
        for (const Aspect &a : *all)
            aspects.append(a.name);
        if (aspects.isEmpty()) {
            io.err << "rubric: the project has no aspects to store baseline scores for\n";
            return 1;
        }
    } else {
        const auto known = project->readAspect(wanted);
        if (!known) {
            io.err << "rubric: " << known.errorString() << '\n';
            return 1;
        }
        if (!*known) {
            io.err << "rubric: no aspect named '" << wanted << "' in the project\n";
            return 1;
        }
        aspects.append(wanted);
    }
    auto written = OfflineBaselines::computeAndStore(project.get(), aspects);
    if (!written) {
        io.err << "rubric: " << written.errorString() << '\n';
        return 1;
    }
    QVariantList judges;
    for (const QString &j : *written) {
        const auto scores = project->readJudgeScores(j, aspects.first());
        if (!scores) {
            io.err << "rubric: " << scores.errorString() << '\n';
            return 1;
        }
        judges.append(QVariantMap{{QStringLiteral("name"), j}, {QStringLiteral("items"), int(scores->size())}});
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("judges"), judges}, {QStringLiteral("aspects"), aspects}});
        return 0;
    }
    for (const QVariant &v : judges) {
        const QVariantMap m = v.toMap();
        io.out << m.value(QStringLiteral("name")).toString().leftJustified(10) << " scored "
               << m.value(QStringLiteral("items")).toInt() << " items for " << aspects.join(QStringLiteral(", "))
               << '\n';
    }
    return 0;
}

const Registration reg({QStringLiteral("baseline"),
                        QStringLiteral("Store offline baseline judges (ROUGE-1/2/L, length) for every aspect."), &run});

} // namespace
} // namespace rubric::cli
