#pragma once

// A SummEval coherence project with a finished HD-Eval judge, made by a real run against the
// loopback fake endpoint (tests/support): the synthetic judge decomposes into SIGNAL and NOISE
// criteria and scores them by a known rule, so layer 2 and 3 exist, pruning has selected nodes
// and the aggregator has train / CV / test figures. Shared by the GUI test and hdeval-shot.
// addTwoAspectJudge adds SummEval's own relevance scores and a judge over two aspects.

#include "FakeLlmServer.h"
#include "SummEvalFixture.h"
#include "SyntheticJudge.h"
#include "runs/Run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>

#include <memory>

namespace rubric::test {

struct HdEvalProject
{
    std::unique_ptr<SummEvalProject> fx;
    std::unique_ptr<SyntheticJudge> judge;
    std::unique_ptr<FakeLlmServer> server;
    QString error;

    Project *project() const { return fx ? fx->project.get() : nullptr; }

    /// The spec of judge `name` with `settings` (method hdeval, aspect coherence).
    RunSpec spec(const QString &name, const QVariantMap &settings) const
    {
        RunSpec s;
        s.judge = name;
        s.method = QStringLiteral("hdeval");
        s.aspect = QStringLiteral("coherence");
        s.evaluator.name = QStringLiteral("fake");
        s.evaluator.baseUrl = server->baseUrl();
        s.evaluator.model = QStringLiteral("synthetic");
        s.evaluator.concurrency = 8;
        s.evaluator.maxRetries = 1;
        s.settings = settings;
        return s;
    }

    /// Runs `s` to its end; empty on success, else the failure.
    QString run(const RunSpec &s) const
    {
        Run run(fx->project.get(), s);
        QSignalSpy finished(&run, &Run::finished);
        if (auto started = run.start(); !started)
            return started.errorString();
        if (finished.isEmpty() && !finished.wait(240000))
            return QStringLiteral("timeout");
        return finished.first().at(0).toBool() ? QString() : finished.first().at(1).toString();
    }
};

/// The project at `path` (12 test items) with judge "hd": three layers, the linear aggregator,
/// two layer-2 nodes selected for expansion.
inline HdEvalProject makeHdEvalProject(const QString &path)
{
    HdEvalProject p;
    p.fx = makeSummEvalProject(path, 12, 8, false);
    if (!p.fx) {
        p.error = QStringLiteral("cannot build the SummEval project");
        return p;
    }
    p.judge = std::make_unique<SyntheticJudge>(p.fx->humanByOutput);
    p.server = std::make_unique<FakeLlmServer>();
    SyntheticJudge *judge = p.judge.get();
    p.server->setJudge([judge](const QJsonObject &body) { return judge->answer(body); });
    if (!p.server->listen()) {
        p.error = QStringLiteral("the fake endpoint does not listen");
        return p;
    }
    p.error = p.run(p.spec(QStringLiteral("hd"), {{QStringLiteral("aggregator"), QStringLiteral("linear")},
                                                  {QStringLiteral("top_k"), QStringLiteral("2")}}));
    return p;
}

/// Adds the aspect "relevance" (1–5) with SummEval's expert scores of the project's items (the
/// example data, row i for item "se<i>") and runs judge `name` over coherence and relevance: two
/// roots, the linear aggregator, two layer-2 nodes selected. Empty on success, else the failure.
inline QString addTwoAspectJudge(HdEvalProject &p, const QString &name)
{
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/resources/example/summeval.json"));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1").arg(f.fileName());
    const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).array();
    QVector<Annotation> notes;
    for (const Item &it : p.project()->items()) {
        const int row = it.id.mid(2).toInt(); // "se<i>"
        if (row < 0 || row >= rows.size())
            return QStringLiteral("item %1 is not a row of the example data").arg(it.id);
        const double score = rows[row]
                                     .toObject()
                                     .value(QStringLiteral("scores"))
                                     .toObject()
                                     .value(QStringLiteral("relevance"))
                                     .toDouble();
        notes.append(Annotation{it.id, QStringLiteral("relevance"), QStringLiteral("experts"), score, {}, {}});
    }
    if (!p.project()->upsertAspect(Aspect{QStringLiteral("relevance"),
                                          QStringLiteral("how well the summary keeps the important content of "
                                                         "the source"),
                                          1, 5})
        || !p.project()->addAnnotations(notes))
        return QStringLiteral("cannot add the relevance scores");
    return p.run(p.spec(name, {{QStringLiteral("aggregator"), QStringLiteral("linear")},
                               {QStringLiteral("aspects"), QStringLiteral("coherence,relevance")},
                               {QStringLiteral("top_k"), QStringLiteral("2")}}));
}

} // namespace rubric::test
