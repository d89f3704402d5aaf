#pragma once
// The SummEval coherence project of the pipeline and run pane tests, built from the example data
// (resources/example/summeval.json): 30 annotated train items and `testItems` test items from every
// `step`-th row, outputs distinct (the synthetic judge knows each output's human score).

#include "store/Project.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <memory>

namespace rubric::test {

struct SummEvalProject
{
    std::unique_ptr<Project> project;
    QHash<QString, double> humanByOutput;
    QStringList testIds;
};

/// nullptr when the data cannot be read, has too few distinct outputs or the project cannot be
/// written. `duplicate`: one more test item repeating the first test item's source and output (the
/// same prompt, sent once).
inline std::unique_ptr<SummEvalProject> makeSummEvalProject(const QString &path, int testItems, int step,
                                                            bool duplicate = false)
{
    auto fx = std::make_unique<SummEvalProject>();
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/resources/example/summeval.json"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).array();
    auto p = Project::open(path);
    if (!p)
        return nullptr;
    fx->project = std::move(p).value();
    QVector<Item> items;
    QVector<Annotation> notes;
    QHash<QString, SplitRole> split;
    const int wanted = 30 + testItems;
    for (qsizetype i = 0; i < rows.size() && items.size() < wanted; i += step) {
        const QJsonObject o = rows[i].toObject();
        Item it;
        it.id = QStringLiteral("se%1").arg(i);
        it.group = o.value(QStringLiteral("doc_id")).toString();
        it.system = o.value(QStringLiteral("system_id")).toString();
        it.source = o.value(QStringLiteral("source")).toString();
        it.output = o.value(QStringLiteral("system_output")).toString().trimmed();
        it.reference = o.value(QStringLiteral("reference")).toString();
        it.position = int(items.size());
        if (fx->humanByOutput.contains(it.output))
            continue; // identical outputs would make the synthetic judge ambiguous
        const double human = o.value(QStringLiteral("scores")).toObject().value(QStringLiteral("coherence")).toDouble();
        fx->humanByOutput.insert(it.output, human);
        notes.append(Annotation{it.id, QStringLiteral("coherence"), QStringLiteral("experts"), human, {}, {}});
        split.insert(it.id, items.size() < 30 ? SplitRole::Train : SplitRole::Test);
        if (items.size() >= 30)
            fx->testIds.append(it.id);
        items.append(it);
    }
    if (items.size() < wanted)
        return nullptr;
    if (duplicate && items.size() > 30) {
        Item twin = items[30];
        twin.id += QStringLiteral("-twin");
        twin.position = int(items.size());
        notes.append(Annotation{twin.id,
                                QStringLiteral("coherence"),
                                QStringLiteral("experts"),
                                fx->humanByOutput.value(twin.output),
                                {},
                                {}});
        split.insert(twin.id, SplitRole::Test);
        fx->testIds.append(twin.id);
        items.append(twin);
    }
    if (!fx->project->addItems(items)
        || !fx->project->upsertAspect(
                Aspect{QStringLiteral("coherence"),
                       QStringLiteral("the quality of all sentences collectively, focusing on how well "
                                      "they fit together and sound natural as a whole"),
                       1, 5})
        || !fx->project->addAnnotations(notes) || !fx->project->setSplit(split))
        return nullptr;
    return fx;
}

} // namespace rubric::test
