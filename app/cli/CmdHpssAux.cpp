#include "CliUtil.h"
#include "methods/hpss/HpssArtefacts.h"
#include "store/Project.h"

#include <QFile>

namespace rubric::cli {
namespace {

using namespace hpss;

QString usedText(const artefacts::Entry &e)
{
    QString t = QStringLiteral("used by %1 evaluated strateg%2")
                        .arg(e.usedBySteps.size())
                        .arg(e.usedBySteps.size() == 1 ? QLatin1String("y") : QLatin1String("ies"));
    if (e.usedByWinner)
        t += QStringLiteral(" and the winner");
    return t;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "List, show or edit the auxiliary texts of an HPSS judge: the self-generated criteria, the AutoCoT "
            "steps per <scale>/<human|self>, the self-generated reference and the metrics questions per item. "
            "Without --kind: the list. With --kind (and --item / --key): that text. With --set-file: the file's "
            "text replaces it as your edit, which no run makes again; the evaluated strategies that used it are "
            "scored again on the next run (only their prompts are new to the judge cache)."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("HPSS judge name."), QStringLiteral("NAME")});
    parser.addOption(
            {QStringLiteral("kind"), QStringLiteral("criteria, autocot, reference or metrics."), QStringLiteral("K")});
    parser.addOption({QStringLiteral("item"), QStringLiteral("Item id (reference, metrics)."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("key"), QStringLiteral("AutoCoT key <scale>/<human|self>, e.g. 5/human."),
                      QStringLiteral("KEY")});
    parser.addOption({QStringLiteral("set-file"), QStringLiteral("Replace the text with this file's (UTF-8)."),
                      QStringLiteral("F")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("hpss-aux"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("judge"), io))
        return 2;
    const bool json = parser.isSet(QStringLiteral("json"));
    if (!parser.isSet(QStringLiteral("kind"))) {
        for (const char *option : {"item", "key", "set-file"})
            if (parser.isSet(QLatin1String(option))) {
                io.err << "rubric hpss-aux: --" << option << " needs --kind\n";
                return 2;
            }
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const QString judge = parser.value(QStringLiteral("judge"));
    if (!parser.isSet(QStringLiteral("kind"))) {
        auto entries = artefacts::list(*project, judge);
        if (!entries) {
            io.err << "rubric hpss-aux: " << entries.errorString() << '\n';
            return 1;
        }
        if (json) {
            QVariantList list;
            for (const artefacts::Entry &e : std::as_const(*entries))
                list.append(e.toVariant());
            printJson(io, QVariantMap{{QStringLiteral("judge"), judge}, {QStringLiteral("entries"), list}});
            return 0;
        }
        if (entries->isEmpty())
            io.out << "judge " << judge << " has no auxiliary texts yet\n";
        for (const artefacts::Entry &e : std::as_const(*entries))
            io.out << artefacts::entryId(e.kind, e.key).leftJustified(24) << (e.edited ? " edited " : "        ")
                   << usedText(e).leftJustified(48) << ' ' << e.text.simplified().left(60) << '\n';
        return 0;
    }
    auto kind = artefacts::kindFromName(parser.value(QStringLiteral("kind")));
    if (!kind) {
        io.err << "rubric hpss-aux: --kind: " << kind.errorString() << '\n';
        return 2;
    }
    QString key;
    if (*kind == artefacts::Kind::Reference || *kind == artefacts::Kind::Metrics) {
        if (!require(parser, QStringLiteral("item"), io))
            return 2;
        key = parser.value(QStringLiteral("item"));
    } else if (*kind == artefacts::Kind::AutoCot) {
        if (!require(parser, QStringLiteral("key"), io))
            return 2;
        key = parser.value(QStringLiteral("key"));
    }
    if (parser.isSet(QStringLiteral("set-file"))) {
        const QString path = parser.value(QStringLiteral("set-file"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            io.err << "rubric hpss-aux: --set-file " << path << ": " << file.errorString() << '\n';
            return 1;
        }
        auto outcome = artefacts::edit(*project, judge, *kind, key, QString::fromUtf8(file.readAll()));
        if (!outcome) {
            io.err << "rubric hpss-aux: " << path << ": " << outcome.errorString() << '\n';
            return 1;
        }
        if (json) {
            QVariantList stale;
            for (int s : std::as_const(outcome->staleSteps))
                stale.append(s);
            QVariantMap out = outcome->entry.toVariant();
            out.insert(QStringLiteral("stale_steps"), stale);
            out.insert(QStringLiteral("search_repeats"), outcome->searchRepeats);
            printJson(io, out);
            return 0;
        }
        io.out << "edited " << artefacts::entryId(*kind, key) << " of judge " << judge << " ("
               << usedText(outcome->entry) << ")\n";
        if (outcome->searchRepeats)
            io.out << "the next run searches again; the " << outcome->staleSteps.size()
                   << " evaluation(s) that used an edited text are sent again, the rest comes from the cache\n";
        else if (outcome->entry.usedByWinner)
            io.out << "the next run scores the winner on the test split again with it\n";
        return 0;
    }
    auto entry = artefacts::read(*project, judge, *kind, key);
    if (!entry) {
        io.err << "rubric hpss-aux: " << entry.errorString() << '\n';
        return 1;
    }
    if (json) {
        printJson(io, entry->toVariant());
        return 0;
    }
    io.out << "# " << artefacts::entryId(entry->kind, entry->key) << (entry->edited ? " (edited)" : "") << ", "
           << usedText(*entry) << '\n'
           << entry->text << '\n';
    return 0;
}

const Registration reg({QStringLiteral("hpss-aux"),
                        QStringLiteral("List, show or edit an HPSS judge's auxiliary texts (references, metrics "
                                       "questions, AutoCoT steps, criteria)."),
                        &run});

} // namespace
} // namespace rubric::cli
