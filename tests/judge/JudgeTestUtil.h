#pragma once

// What the judge-engine tests share: request batches, a profile for the loopback fake server,
// an answer collector.
#include "FakeLlmServer.h"
#include "judge/JudgeEngine.h"

#include <QFile>

namespace rubric::test {

inline QVector<JudgeRequest> batch(int n, const QString &prefix = QStringLiteral("item"))
{
    QVector<JudgeRequest> out;
    for (int i = 0; i < n; ++i) {
        JudgeRequest r;
        r.messages = {{QStringLiteral("system"), QStringLiteral("You are a strict judge.")},
                      {QStringLiteral("user"), QStringLiteral("Rate %1 #%2 from 1 to 5.").arg(prefix).arg(i)}};
        r.tag = QString::number(i);
        out.append(r);
    }
    return out;
}

inline ProviderProfile profileFor(const FakeLlmServer &server, int concurrency = 8)
{
    ProviderProfile p;
    p.name = QStringLiteral("fake");
    p.baseUrl = server.baseUrl();
    p.model = QStringLiteral("fake-judge");
    p.concurrency = concurrency;
    p.timeoutMs = 10000;
    return p;
}

/// Collects an engine's answers until it is idle.
struct Collector
{
    QVector<JudgeResponse> answers;
    bool idle = false;
    explicit Collector(JudgeEngine &engine)
    {
        QObject::connect(&engine, &JudgeEngine::answered, [this](const JudgeResponse &r) { answers.append(r); });
        QObject::connect(&engine, &JudgeEngine::idle, [this] { idle = true; });
    }
};

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace rubric::test
