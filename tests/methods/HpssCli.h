#pragma once

// The HPSS run tests' helpers: the CLI run in an event loop (the fake server lives in the test's
// thread) and the strategies a shown rubric's search evaluated.

#include "methods/hpss/PromptStrategy.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>
#include <QtTest>

namespace rubric::test {

/// Runs `rubric ARGS` (RUBRIC_CLI) and parses its stdout as a JSON object (empty when it is none).
inline QJsonObject cliJson(const QStringList &args, int *exitCode = nullptr, QString *out = nullptr,
                           QString *err = nullptr)
{
    QProcess cli;
    QEventLoop loop;
    QObject::connect(&cli, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    cli.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    loop.exec();
    if (cli.state() != QProcess::NotRunning) {
        cli.kill();
        cli.waitForFinished();
    }
    const QByteArray errText = cli.readAllStandardError();
    if (cli.exitCode() != 0 && !err)
        qWarning("%s", errText.constData());
    if (err)
        *err = QString::fromUtf8(errText);
    if (exitCode)
        *exitCode = cli.exitCode();
    const QByteArray text = cli.readAllStandardOutput();
    if (out)
        *out = QString::fromUtf8(text);
    return QJsonDocument::fromJson(text).object();
}

/// The strategies the stored search evaluated, in order ("scale:5,…" each).
inline QStringList evaluatedOf(const QJsonObject &shown)
{
    QStringList out;
    for (const auto &e :
         shown.value(QStringLiteral("search")).toObject().value(QStringLiteral("evaluated")).toArray()) {
        auto s = hpss::PromptStrategy::fromVariant(e.toObject().value(QStringLiteral("strategy")).toVariant());
        out.append(s ? s->format() : QStringLiteral("?"));
    }
    return out;
}

/// How many of the synthetic judge's helpful values (reference dialectic, metrics on, order IET) a strategy has.
inline int helpfulValues(const QJsonObject &strategy)
{
    return (strategy.value(QStringLiteral("reference")).toString() == QLatin1String("dialectic") ? 1 : 0)
           + (strategy.value(QStringLiteral("metrics")).toString() == QLatin1String("on") ? 1 : 0)
           + (strategy.value(QStringLiteral("order")).toString() == QLatin1String("IET") ? 1 : 0);
}

} // namespace rubric::test
