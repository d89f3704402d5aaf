#include "ScoreExport.h"

#include "store/Project.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::ScoreExport", text);
}

QByteArray csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n'))
        && !text.contains(QLatin1Char('\r')))
        return text.toUtf8();
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return '"' + quoted.toUtf8() + '"';
}

} // namespace

Result<int> ScoreExport::write(const Project &project, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("jsonl") && suffix != QLatin1String("json") && suffix != QLatin1String("csv"))
        return makeError(tr("choose a file ending in .csv, .json or .jsonl"), path);

    const QVector<Aspect> aspects = project.aspects();
    const QVector<JudgeInfo> judges = project.judges();
    QHash<QString, QHash<QString, double>> human;                      // aspect → item → mean
    QHash<QString, QHash<QString, QHash<QString, double>>> judgeScores; // judge → aspect → item → score
    for (const Aspect &a : aspects)
        human.insert(a.name, project.humanScores(a.name));
    for (const JudgeInfo &j : judges)
        for (const QString &a : j.aspects)
            judgeScores[j.name].insert(a, project.judgeScores(j.name, a));
    const auto split = project.split();

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(tr("cannot write the file: %1").arg(file.errorString()), path);

    const QVector<Item> items = project.items();
    if (suffix == QLatin1String("csv")) {
        QByteArrayList header{"id", "group", "system", "split"};
        for (const Aspect &a : aspects)
            header << csvField(QStringLiteral("human:") + a.name);
        for (const JudgeInfo &j : judges)
            for (const QString &a : j.aspects)
                header << csvField(j.name + QLatin1Char(':') + a);
        file.write(header.join(',') + '\n');
        for (const Item &it : items) {
            QByteArrayList row{csvField(it.id), csvField(it.group), csvField(it.system),
                               splitRoleName(split.value(it.id, SplitRole::None)).toUtf8()};
            const auto number = [](const QHash<QString, double> &m, const QString &id) {
                const auto f = m.constFind(id);
                return f == m.cend() ? QByteArray() : QByteArray::number(*f, 'g', 10);
            };
            for (const Aspect &a : aspects)
                row << number(human.value(a.name), it.id);
            for (const JudgeInfo &j : judges)
                for (const QString &a : j.aspects)
                    row << number(judgeScores.value(j.name).value(a), it.id);
            file.write(row.join(',') + '\n');
        }
    } else {
        QJsonArray all;
        for (const Item &it : items) {
            QJsonObject o{{QStringLiteral("id"), it.id},         {QStringLiteral("group"), it.group},
                          {QStringLiteral("system"), it.system}, {QStringLiteral("source"), it.source},
                          {QStringLiteral("output"), it.output},
                          {QStringLiteral("split"), splitRoleName(split.value(it.id, SplitRole::None))}};
            QJsonObject h;
            for (const Aspect &a : aspects) {
                const auto &m = human[a.name];
                const auto f = m.constFind(it.id);
                h.insert(a.name, f == m.cend() ? QJsonValue() : QJsonValue(*f));
            }
            o.insert(QStringLiteral("human"), h);
            QJsonObject js;
            for (const JudgeInfo &j : judges) {
                QJsonObject per;
                for (const QString &a : j.aspects) {
                    const auto &m = judgeScores[j.name][a];
                    const auto f = m.constFind(it.id);
                    per.insert(a, f == m.cend() ? QJsonValue() : QJsonValue(*f));
                }
                js.insert(j.name, per);
            }
            o.insert(QStringLiteral("judges"), js);
            if (suffix == QLatin1String("jsonl"))
                file.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
            else
                all.append(o);
        }
        if (suffix == QLatin1String("json"))
            file.write(QJsonDocument(all).toJson(QJsonDocument::Indented));
    }
    if (!file.commit())
        return makeError(tr("cannot write the file: %1").arg(file.errorString()), path);
    return int(items.size());
}

} // namespace rubric
