#pragma once

// What the CheckEval tests share: a checklist written in upstream's YAML, the signal and noise
// questions the synthetic judge (tests/support) answers by rule, and the CLI run as a child process.

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "data/Aspect.h"
#include "methods/PromptLibrary.h"
#include "methods/checkeval/CheckEvalMethod.h"
#include "methods/checkeval/CheckEvalParams.h"
#include "methods/checkeval/ChecklistAnswers.h"
#include "store/RubricStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlQuery>
#include <QtTest>

#include <cmath>

namespace rubric::test {

/// A CheckEval YAML checklist (upstream's format: questions of a sub-aspect in one string).
inline QString writeChecklist(const QString &dir, const QString &name, const QList<QPair<QString, QStringList>> &subs)
{
    QString text = QStringLiteral("definition: how well the sentences fit together\nsub_aspect:\n");
    for (const auto &[sub, questions] : subs)
        text += QStringLiteral("  %1:\n    %2\n").arg(sub, questions.join(QLatin1Char(' ')));
    const QString path = dir + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text.toUtf8());
    return path;
}

// Thresholds on the human score (1-5) that split the fixture's train items (none is constant there).
inline const QStringList kSignal{QStringLiteral("Is SIGNAL3 the order clear?"),
                                 QStringLiteral("Is SIGNAL4 the flow kept?"),
                                 QStringLiteral("Is SIGNAL4.5 every link sound?")};
inline const QStringList kNoise{QStringLiteral("Is NOISE the wording alpha?"),
                                QStringLiteral("Is NOISE the wording beta?"),
                                QStringLiteral("Is NOISE the wording gamma?")};

inline int itemsAnswered(Fixture &fx)
{
    // The target (test) items and the annotated train items: every run answers both.
    return int(fx.testIds.size()) + 30;
}

/// The method's own summary within the run's.
inline QVariantMap result(const Outcome &o)
{
    return o.summary.value(QStringLiteral("result")).toMap();
}

inline double aucOf(const QVector<double> &positive, const QVector<double> &negative)
{
    double wins = 0;
    for (double p : positive)
        for (double n : negative)
            wins += p > n ? 1 : p == n ? 0.5 : 0;
    return wins / (double(positive.size()) * negative.size());
}

inline QJsonObject cliJson(const QStringList &args, int *exitCode = nullptr)
{
    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    cli.waitForFinished(120000);
    if (exitCode)
        *exitCode = cli.exitCode();
    const QByteArray out = cli.readAllStandardOutput();
    if (cli.exitCode() != 0)
        qWarning("%s", cli.readAllStandardError().constData());
    return QJsonDocument::fromJson(out).object();
}

} // namespace rubric::test
