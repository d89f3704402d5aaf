#include "ScoreExport.h"

#include "io/Exporter.h"
#include "methods/MethodRegistry.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace rubric {
namespace {

Result<int> writeJsonArray(const Project &project, const QString &path, const ScoreNotesFor &notesFor)
{
    // Everything is read before the file is written: an unreadable project writes no file (an
    // export with empty score columns would pass for a project without scores).
    const auto readAspects = project.readAspects();
    if (!readAspects)
        return readAspects.error();
    const auto readJudges = project.readJudges(Project::JudgeCounts::Skip);
    if (!readJudges)
        return readJudges.error();
    const QVector<Aspect> &aspects = *readAspects;
    const QVector<JudgeInfo> &judges = *readJudges;
    QHash<QString, QHash<QString, double>> human;                       // aspect → item → mean
    QHash<QString, QHash<QString, QHash<QString, double>>> judgeScores; // judge → aspect → item → score
    for (const Aspect &a : aspects) {
        auto scores = project.readHumanScores(a.name);
        if (!scores)
            return scores.error();
        human.insert(a.name, std::move(scores).value());
    }
    QHash<QString, ScoreNotes> notes; // judge → its notes (a checklist judge)
    for (const JudgeInfo &j : judges) {
        for (const QString &a : j.aspects) {
            auto scores = project.readJudgeScores(j.name, a);
            if (!scores)
                return scores.error();
            judgeScores[j.name].insert(a, std::move(scores).value());
        }
        auto n = notesFor(j.name);
        if (!n)
            return n.error();
        if (*n)
            notes.insert(j.name, **n);
    }
    const auto readSplit = project.readSplit();
    if (!readSplit)
        return readSplit.error();
    const auto &split = *readSplit;
    const auto readItems = project.readItems();
    if (!readItems)
        return readItems.error();

    QJsonArray all;
    const QVector<Item> &items = *readItems;
    for (const Item &it : items) {
        QJsonObject o{{QStringLiteral("id"), it.id},
                      {QStringLiteral("group"), it.group},
                      {QStringLiteral("system"), it.system},
                      {QStringLiteral("source"), it.source},
                      {QStringLiteral("output"), it.output},
                      {QStringLiteral("reference"), it.reference},
                      {QStringLiteral("split"), splitRoleName(split.value(it.id, SplitRole::None))}};
        QJsonObject h;
        for (const Aspect &a : aspects)
            if (const auto f = human[a.name].constFind(it.id); f != human[a.name].cend())
                h.insert(a.name, *f);
        o.insert(QStringLiteral("human"), h);
        QJsonObject js;
        for (const JudgeInfo &j : judges) {
            QJsonObject per;
            for (const QString &a : j.aspects)
                if (const auto f = judgeScores[j.name][a].constFind(it.id); f != judgeScores[j.name][a].cend())
                    per.insert(a, *f);
            js.insert(j.name, per);
        }
        o.insert(QStringLiteral("judges"), js);
        QJsonObject coverage; // as Exporter's JSONL: answered, asked and how a missing answer counts
        for (auto n = notes.cbegin(); n != notes.cend(); ++n)
            if (const auto c = n->answeredAsked.constFind(it.id); c != n->answeredAsked.cend())
                coverage.insert(n.key(), QJsonObject{{QStringLiteral("answered"), c->first},
                                                     {QStringLiteral("asked"), c->second},
                                                     {QStringLiteral("missing"), n->missing}});
        if (!coverage.isEmpty())
            o.insert(QStringLiteral("coverage"), coverage);
        all.append(o);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(
                QCoreApplication::translate("rubric::ScoreExport", "cannot write the file: %1").arg(file.errorString()),
                path);
    file.write(QJsonDocument(all).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return makeError(
                QCoreApplication::translate("rubric::ScoreExport", "cannot write the file: %1").arg(file.errorString()),
                path);
    return int(items.size());
}

} // namespace

Result<int> ScoreExport::write(const Project &project, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    // the methods' notes (a checklist judge's coverage and missing-answer policy); reads only
    const ScoreNotesFor notes = MethodRegistry::scoreNotesFor(const_cast<Project &>(project));
    if (suffix == QLatin1String("json"))
        return writeJsonArray(project, path, notes);
    if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("csv"))
        return Exporter::write(project, path, notes);
    return makeError(
            QCoreApplication::translate("rubric::ScoreExport", "choose a file ending in .csv, .json or .jsonl"), path);
}

} // namespace rubric
