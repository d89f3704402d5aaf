#include "CliUtil.h"
#include "methods/MethodRegistry.h"
#include "rubric/Rubric.h"
#include "rubric/RubricDiff.h"
#include "rubric/RubricExport.h"
#include "store/RubricStore.h"

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Show the rubric of a judge (latest version unless --version)."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Judge name."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("version"), QStringLiteral("Rubric version (default: latest)."),
                      QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addOption({QStringLiteral("diff"),
                      QStringLiteral("Show what changed from version N to the shown one (--version, default latest)."),
                      QStringLiteral("N")});
    parser.addOption(
            {QStringLiteral("markdown"), QStringLiteral("Print a Markdown document (for reports and reviews).")});
    if (auto rc = parse(parser, QStringLiteral("show-rubric"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("judge"), io))
        return 2;
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    RubricStore store(project.get());
    auto rubric = store.load(parser.value(QStringLiteral("judge")), parser.value(QStringLiteral("version")).toInt());
    if (!rubric) {
        io.err << "rubric: " << rubric.errorString() << '\n';
        return 1;
    }
    if (parser.isSet(QStringLiteral("diff"))) {
        bool ok = false;
        const int from = parser.value(QStringLiteral("diff")).toInt(&ok);
        auto old = ok && from > 0 ? store.load(parser.value(QStringLiteral("judge")), from)
                                  : Result<Rubric>(makeError(QStringLiteral("--diff: '%1' is not a version number")
                                                                     .arg(parser.value(QStringLiteral("diff")))));
        if (!old) {
            io.err << "rubric: " << old.errorString() << '\n';
            return 1;
        }
        const auto changes = RubricDiff::compare(*old, *rubric);
        if (parser.isSet(QStringLiteral("json"))) {
            QVariantList list;
            for (const auto &e : changes)
                list.append(QVariantMap{{QStringLiteral("change"), RubricDiff::changeName(e.change)},
                                        {QStringLiteral("id"), e.key},
                                        {QStringLiteral("before"), e.before},
                                        {QStringLiteral("after"), e.after}});
            printJson(io, QVariantMap{{QStringLiteral("from"), old->version()},
                                      {QStringLiteral("to"), rubric->version()},
                                      {QStringLiteral("changes"), list}});
        } else {
            io.out << "version " << old->version() << " → " << rubric->version() << '\n' << RubricDiff::toText(changes);
        }
        return 0;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QVariantMap json = RubricExport::toJson(*rubric, MethodRegistry::exportedRootStats(rubric->method()));
        // The method's flags on each criterion (what its panes show: CheckEval's polarity, …).
        if (const MethodInfo *m = MethodRegistry::find(rubric->method()); m && m->criterionFlags) {
            QVariantList criteria = json.value(QStringLiteral("criteria")).toList();
            for (QVariant &v : criteria) {
                QVariantMap c = v.toMap();
                if (const Criterion *found = rubric->find(c.value(QStringLiteral("id")).toString()))
                    c.insert(QStringLiteral("flags"), m->criterionFlags(*rubric, *found));
                v = c;
            }
            json.insert(QStringLiteral("criteria"), criteria);
        }
        printJson(io, json);
        return 0;
    }
    if (parser.isSet(QStringLiteral("markdown"))) {
        io.out << RubricExport::toMarkdown(*rubric);
        return 0;
    }
    io.out << rubric->method() << " rubric for " << rubric->aspect() << ", version " << rubric->version() << '\n';
    const std::function<void(const QString &, int)> print = [&](const QString &parent, int depth) {
        for (const Criterion &c : rubric->children(parent)) {
            io.out << QString(depth * 2, QLatin1Char(' ')) << (c.enabled ? "[x] " : "[ ] ") << c.key << " ("
                   << criterionKindName(c.kind) << ")";
            if (c.stats.contains(QStringLiteral("train_pearson"))
                && !c.stats.value(QStringLiteral("train_pearson")).isNull())
                io.out << " train r="
                       << QString::number(c.stats.value(QStringLiteral("train_pearson")).toDouble(), 'f', 3);
            io.out << ": " << c.text.simplified().left(160) << '\n';
            print(c.key, depth + 1);
        }
    };
    print(QString(), 0);
    return 0;
}

const Registration reg({QStringLiteral("show-rubric"),
                        QStringLiteral("Show a judge's rubric (criteria, origin, stats)."), &run});

} // namespace
} // namespace rubric::cli
