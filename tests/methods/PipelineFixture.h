#pragma once

// The method pipeline tests' fixture: a small SummEval coherence project, a run spec against the
// fake endpoint, and a run driven to its end.

#include "runs/Run.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace rubric::test {

// SummEval coherence (resources/example/summeval.json): every 8th item, the first 30 train.
struct Fixture
{
    std::unique_ptr<Project> project;
    QHash<QString, double> humanByOutput;
    QStringList testIds;
};

// `duplicate`: one more test item repeating the first test item's source and output (the same
// prompt, sent once).
inline std::unique_ptr<Fixture> makeProject(const QString &path, int testItems, bool duplicate = false)
{
    auto fx = std::make_unique<Fixture>();
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
    for (int i = 0; i < rows.size() && items.size() < wanted; i += 8) {
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

inline RunSpec spec(const QString &judge, const QString &method, const QString &baseUrl)
{
    RunSpec s;
    s.judge = judge;
    s.method = method;
    s.aspect = QStringLiteral("coherence");
    s.evaluator.name = QStringLiteral("fake");
    s.evaluator.baseUrl = baseUrl;
    s.evaluator.model = QStringLiteral("synthetic");
    s.evaluator.concurrency = 8;
    s.evaluator.maxRetries = 1;
    return s;
}

struct Outcome
{
    bool ok = false;
    QString error;
    QVariantMap summary;
    QVector<int> sendMax; ///< RunProgress::sendMax of every progress report that had one
};

inline Outcome runToEnd(Project *project, const RunSpec &s)
{
    Run run(project, s);
    QSignalSpy finished(&run, &Run::finished);
    Outcome o;
    QObject::connect(&run, &Run::progressed, [&o](const RunProgress &p) {
        if (p.sendMax >= 0)
            o.sendMax.append(p.sendMax);
    });
    auto started = run.start();
    if (!started) {
        o.error = started.errorString();
        return o;
    }
    if (finished.isEmpty() && !finished.wait(240000)) {
        o.error = QStringLiteral("timeout");
        return o;
    }
    o.ok = finished.first().at(0).toBool();
    o.error = finished.first().at(1).toString();
    o.summary = run.summary();
    return o;
}

inline int phaseCalls(const QVariantMap &summary, const QString &phase, const char *what = "calls")
{
    return summary.value(QStringLiteral("calls")).toMap().value(phase).toMap().value(QString::fromLatin1(what)).toInt();
}

inline double pearsonOf(const QHash<QString, double> &scores, Fixture &fx)
{
    std::vector<double> x, y;
    const auto human = fx.project->humanScores(QStringLiteral("coherence"));
    for (const QString &id : std::as_const(fx.testIds))
        if (scores.contains(id)) {
            x.push_back(scores.value(id));
            y.push_back(human.value(id));
        }
    return stats::pearson(x, y);
}

/// Project files of one test program, each test its own: p1.rubric, p2.rubric … in a
/// temporary folder removed at the end.
class TempProjects
{
public:
    bool isValid() const { return m_dir.isValid(); }
    QString next() { return m_dir.filePath(QStringLiteral("p%1.rubric").arg(++m_count)); }

private:
    QTemporaryDir m_dir;
    int m_count = 0;
};

} // namespace rubric::test
