// A standalone fake LLM endpoint for benchmarks and screenshots: `fake-llm-server --port P --latency-ms 50`.
#include "FakeLlmServer.h"
#include "SyntheticJudge.h"
#include "store/Project.h"

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
    parser.addOption(
            {QStringLiteral("port"), QStringLiteral("Port (0 = any)."), QStringLiteral("P"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("latency-ms"), QStringLiteral("Delay before each answer."), QStringLiteral("MS"),
                      QStringLiteral("0")});
    parser.addOption({QStringLiteral("latency-sigma"),
                      QStringLiteral("With this σ > 0, a lognormal latency whose median is --latency-ms (a long tail "
                                     "like hosted LLMs')."),
                      QStringLiteral("S"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed of the latency and fault draws."),
                      QStringLiteral("N"), QStringLiteral("12345")});
    parser.addOption({QStringLiteral("fault-rate"),
                      QStringLiteral("Share of requests that fail (429/500/drop/truncated evenly)."),
                      QStringLiteral("R"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("error-rate"),
                      QStringLiteral("Share of requests answered with HTTP 500 (1 = a replica that is down)."),
                      QStringLiteral("R"), QStringLiteral("0")});
    parser.addOption(
            {QStringLiteral("batch-delay-ms"),
             QStringLiteral("Provider batches (OpenAI /v1/files + /v1/batches, Anthropic /v1/messages/batches) "
                            "end this long after they were created."),
             QStringLiteral("MS"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("batch-failure-rate"), QStringLiteral("Share of batch lines that fail."),
                      QStringLiteral("R"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("retry-after"), QStringLiteral("Retry-After seconds of a 429."),
                      QStringLiteral("S"), QStringLiteral("1")});
    parser.addOption(
            {QStringLiteral("synthetic-project"),
             QStringLiteral("Answer like the pipeline tests' synthetic judge, which knows the human scores of this "
                            "project (hypotheses starting with SIGNAL track them, NOISE ones do not)."),
             QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("aspect"), QStringLiteral("Aspect whose human scores the synthetic judge knows."),
                      QStringLiteral("A"), QStringLiteral("coherence")});
    parser.addOption({QStringLiteral("model-kind"),
                      QStringLiteral("What kind of model answers: plain, openai-reasoning (refuses max_tokens, "
                                     "temperature/top_p other than 1 and logprobs as OpenAI does; hides its thinking "
                                     "in max_completion_tokens), think-inline (<think>…</think> before the answer), "
                                     "reasoning-field (thinking in message.reasoning_content), refuses-system-role, "
                                     "refuses-n, refuses-logprobs."),
                      QStringLiteral("KIND"), QStringLiteral("plain")});
    parser.addOption({QStringLiteral("reasoning-tokens"),
                      QStringLiteral("Tokens the reasoning kinds think before they answer."), QStringLiteral("N"),
                      QStringLiteral("300")});
    parser.addOption({QStringLiteral("reasoning-field"),
                      QStringLiteral("The message field reasoning-field puts the thinking in (reasoning_content or "
                                     "reasoning)."),
                      QStringLiteral("NAME"), QStringLiteral("reasoning_content")});
    parser.process(app);

    FakeLlmServer server;
    server.setLatencyMs(parser.value(QStringLiteral("latency-ms")).toInt());
    const quint32 seed = parser.value(QStringLiteral("seed")).toUInt();
    server.setSeed(seed);
    if (const double sigma = parser.value(QStringLiteral("latency-sigma")).toDouble(); sigma > 0)
        server.setLatencyLogNormal(parser.value(QStringLiteral("latency-ms")).toDouble(), sigma, seed);
    const double rate = parser.value(QStringLiteral("fault-rate")).toDouble() / 4.0;
    server.setFaultRates(rate, rate + parser.value(QStringLiteral("error-rate")).toDouble(), rate, rate);
    server.setRetryAfterSeconds(parser.value(QStringLiteral("retry-after")).toDouble());
    server.setBatchDelayMs(parser.value(QStringLiteral("batch-delay-ms")).toInt());
    server.setBatchLineFailureRate(parser.value(QStringLiteral("batch-failure-rate")).toDouble());
    const auto kind = FakeLlmServer::modelKindFromName(parser.value(QStringLiteral("model-kind")));
    if (!kind) {
        QTextStream(stderr) << "unknown --model-kind " << parser.value(QStringLiteral("model-kind")) << Qt::endl;
        return 2;
    }
    server.setModelKind(*kind);
    server.setReasoningTokens(parser.value(QStringLiteral("reasoning-tokens")).toInt());
    server.setReasoningField(parser.value(QStringLiteral("reasoning-field")));
    std::unique_ptr<SyntheticJudge> synthetic;
    if (parser.isSet(QStringLiteral("synthetic-project"))) {
        const QString path = parser.value(QStringLiteral("synthetic-project"));
        auto project = rubric::Project::open(path, rubric::Project::OpenMode::OpenExisting);
        if (!project) {
            QTextStream(stderr) << path << ": " << project.errorString() << Qt::endl;
            return 1;
        }
        const QHash<QString, double> human = (*project)->humanScores(parser.value(QStringLiteral("aspect")));
        QHash<QString, double> byOutput;
        for (const rubric::Item &item : (*project)->items())
            if (human.contains(item.id))
                byOutput.insert(item.output, human.value(item.id));
        if (byOutput.isEmpty()) {
            QTextStream(stderr) << path << ": no human scores for aspect " << parser.value(QStringLiteral("aspect"))
                                << Qt::endl;
            return 1;
        }
        synthetic = std::make_unique<SyntheticJudge>(byOutput);
        server.setJudge([&synthetic](const QJsonObject &body) { return synthetic->answer(body); });
    } else {
        // A plausible 1–5 judge: "Rating: [[n]]" with logprobs over the scale, n from the prompt's length.
        server.setJudge([](const QJsonObject &body) {
            const QString prompt
                    = QString::fromUtf8(QJsonDocument(body.value(QStringLiteral("messages")).toArray()).toJson());
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
    }
    if (!server.listen(quint16(parser.value(QStringLiteral("port")).toUInt()))) {
        QTextStream(stderr) << "cannot listen\n";
        return 1;
    }
    QTextStream(stdout) << "listening on " << server.baseUrl() << Qt::endl;
    return app.exec();
}
