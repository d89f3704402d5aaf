#pragma once

// The method pipeline tests' fixture: a small SummEval coherence project, a run spec against the
// fake endpoint, and a run driven to its end.

#include "SummEvalFixture.h"
#include "runs/Run.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace rubric::test {

using Fixture = SummEvalProject;

/// Every 8th row of the example (see makeSummEvalProject).
inline std::unique_ptr<Fixture> makeProject(const QString &path, int testItems, bool duplicate = false)
{
    return makeSummEvalProject(path, testItems, 8, duplicate);
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
