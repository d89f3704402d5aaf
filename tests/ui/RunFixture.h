#pragma once
// A project for the run pane tests: SummEval coherence (resources/example/summeval.json), 30
// annotated train items and `testItems` test items, every 8th row with distinct outputs, plus
// the synthetic judge on a loopback fake server that knows their human scores.

#include "FakeLlmServer.h"
#include "SyntheticJudge.h"
#include "store/Project.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace rubric::fixture {

struct RunProject
{
    std::unique_ptr<Project> project;
    QHash<QString, double> humanByOutput;
    QStringList testIds;
};

inline RunProject makeRunProject(const QString &path, int testItems)
{
    RunProject fx;
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/resources/example/summeval.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read summeval.json");
    const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).array();
    auto p = Project::open(path);
    if (!p)
        qFatal("cannot create %s", qPrintable(path));
    fx.project = std::move(p).value();
    QVector<Item> items;
    QVector<Annotation> notes;
    QHash<QString, SplitRole> split;
    const int wanted = 30 + testItems;
    for (qsizetype i = 0; i < rows.size() && items.size() < wanted; i += 3) {
        const QJsonObject o = rows[i].toObject();
        Item it;
        it.id = QStringLiteral("se%1").arg(i);
        it.group = o.value(QStringLiteral("doc_id")).toString();
        it.system = o.value(QStringLiteral("system_id")).toString();
        it.source = o.value(QStringLiteral("source")).toString();
        it.output = o.value(QStringLiteral("system_output")).toString().trimmed();
        it.reference = o.value(QStringLiteral("reference")).toString();
        it.position = int(items.size());
        if (fx.humanByOutput.contains(it.output))
            continue;
        const double human = o.value(QStringLiteral("scores")).toObject().value(QStringLiteral("coherence")).toDouble();
        fx.humanByOutput.insert(it.output, human);
        notes.append(Annotation{it.id, QStringLiteral("coherence"), QStringLiteral("experts"), human, {}, {}});
        split.insert(it.id, items.size() < 30 ? SplitRole::Train : SplitRole::Test);
        if (items.size() >= 30)
            fx.testIds.append(it.id);
        items.append(it);
    }
    if (items.size() < wanted)
        qFatal("summeval.json has too few distinct outputs");
    if (!fx.project->addItems(items)
        || !fx.project->upsertAspect(
                Aspect{QStringLiteral("coherence"), QStringLiteral("the quality of all sentences collectively"), 1, 5})
        || !fx.project->addAnnotations(notes) || !fx.project->setSplit(split))
        qFatal("cannot fill the run fixture");
    return fx;
}

} // namespace rubric::fixture
