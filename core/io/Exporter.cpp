#include "Exporter.h"

#include "store/Project.h"
#include "util/Csv.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Exporter", text);
}

QString number(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

} // namespace

Result<int> Exporter::write(const Project &project, const QString &file, const ScoreNotesFor &notes)
{
    const QString suffix = QFileInfo(file).suffix().toLower();
    const bool jsonl = suffix == QLatin1String("jsonl");
    if (!jsonl && suffix != QLatin1String("csv"))
        return makeError(tr("export writes .jsonl or .csv files"), file);

    QStringList aspects;
    QHash<QString, QHash<QString, double>> human;
    const auto aspectList = project.readAspects();
    if (!aspectList)
        return aspectList.error();
    for (const Aspect &a : *aspectList) {
        aspects.append(a.name);
        auto scores = project.readHumanScores(a.name);
        if (!scores)
            return scores.error();
        human.insert(a.name, std::move(scores).value());
    }
    struct Column
    {
        QString judge, aspect;
        QHash<QString, double> scores;
        std::optional<ScoreNotes> notes;
    };
    QVector<Column> judgeColumns;
    const auto judges = project.readJudges(Project::JudgeCounts::Skip);
    if (!judges)
        return judges.error();
    for (const JudgeInfo &j : *judges) {
        std::optional<ScoreNotes> judgeNotes;
        if (notes) {
            auto n = notes(j.name);
            if (!n)
                return n.error();
            judgeNotes = std::move(n).value();
        }
        for (const QString &a : j.aspects) {
            auto scores = project.readJudgeScores(j.name, a);
            if (!scores)
                return scores.error();
            judgeColumns.append({j.name, a, std::move(scores).value(), judgeNotes});
        }
    }

    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return makeError(tr("cannot write the file: %1").arg(out.errorString()), file);
    if (!jsonl) {
        QStringList header{QStringLiteral("id"),     QStringLiteral("group"),  QStringLiteral("system"),
                           QStringLiteral("source"), QStringLiteral("output"), QStringLiteral("reference")};
        for (const QString &a : std::as_const(aspects))
            header.append(QStringLiteral("human.") + a);
        for (const Column &c : std::as_const(judgeColumns)) {
            header.append(QStringLiteral("judge.%1.%2").arg(c.judge, c.aspect));
            if (c.notes)
                for (const char *n : {"answered", "asked", "missing"})
                    header.append(QStringLiteral("judge.%1.%2.%3").arg(c.judge, c.aspect, QLatin1String(n)));
        }
        QStringList cells;
        for (const QString &h : std::as_const(header))
            cells.append(csv::field(h));
        out.write((cells.join(QLatin1Char(',')) + QStringLiteral("\r\n")).toUtf8());
    }
    // One item at a time: the texts of a million items never sit in memory together.
    int written = 0;
    const auto each = project.forEachItem([&](const Item &it) {
        ++written;
        if (jsonl) {
            QVariantMap h;
            for (const QString &a : std::as_const(aspects)) {
                const auto &scores = human[a];
                auto s = scores.constFind(it.id);
                if (s != scores.constEnd())
                    h.insert(a, s.value());
            }
            QVariantMap judges, coverage;
            for (const Column &c : std::as_const(judgeColumns)) {
                auto s = c.scores.constFind(it.id);
                if (s == c.scores.constEnd())
                    continue;
                QVariantMap m = judges.value(c.judge).toMap();
                m.insert(c.aspect, s.value());
                judges.insert(c.judge, m);
                if (c.notes) {
                    const auto n = c.notes->answeredAsked.value(it.id, {0, 0});
                    coverage.insert(c.judge, QVariantMap{{QStringLiteral("answered"), n.first},
                                                         {QStringLiteral("asked"), n.second},
                                                         {QStringLiteral("missing"), c.notes->missing}});
                }
            }
            QVariantMap obj{{QStringLiteral("id"), it.id},         {QStringLiteral("group"), it.group},
                            {QStringLiteral("system"), it.system}, {QStringLiteral("source"), it.source},
                            {QStringLiteral("output"), it.output}, {QStringLiteral("reference"), it.reference},
                            {QStringLiteral("human"), h},          {QStringLiteral("judges"), judges}};
            if (!coverage.isEmpty())
                obj.insert(QStringLiteral("coverage"), coverage);
            out.write((json::stringify(obj) + QLatin1Char('\n')).toUtf8());
        } else {
            QStringList cells{csv::field(it.id),     csv::field(it.group),  csv::field(it.system),
                              csv::field(it.source), csv::field(it.output), csv::field(it.reference)};
            for (const QString &a : std::as_const(aspects)) {
                const auto &scores = human[a];
                auto s = scores.constFind(it.id);
                cells.append(s == scores.constEnd() ? QString() : number(s.value()));
            }
            for (const Column &c : std::as_const(judgeColumns)) {
                auto s = c.scores.constFind(it.id);
                cells.append(s == c.scores.constEnd() ? QString() : number(s.value()));
                if (!c.notes)
                    continue;
                const auto n = c.notes->answeredAsked.constFind(it.id);
                if (n == c.notes->answeredAsked.cend()) {
                    cells << QString() << QString() << QString();
                    continue;
                }
                cells << QString::number(n->first) << QString::number(n->second) << csv::field(c.notes->missing);
            }
            out.write((cells.join(QLatin1Char(',')) + QStringLiteral("\r\n")).toUtf8());
        }
        return true;
    });
    if (!each)
        return each.error();
    if (!out.commit())
        return makeError(tr("cannot write the file: %1").arg(out.errorString()), file);
    return written;
}

} // namespace rubric
