#include "CliUtil.h"

#include "judge/AnswerParser.h"
#include "judge/JudgeEngine.h"
#include "judge/Provider.h"

#include <QCoreApplication>

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Send one scoring prompt to a judge endpoint and show what came back."));
    parser.addOption({QStringLiteral("base-url"), QStringLiteral("Endpoint base, e.g. http://127.0.0.1:8000/v1."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("Model name."), QStringLiteral("M")});
    parser.addOption({QStringLiteral("provider"), QStringLiteral("openai (default) or anthropic."), QStringLiteral("KIND"),
                      QStringLiteral("openai")});
    parser.addOption({QStringLiteral("api-key-env"), QStringLiteral("Environment variable holding the API key."), QStringLiteral("VAR")});
    parser.addOption({QStringLiteral("prompt"), QStringLiteral("The prompt to send (default: a 1–5 rating question)."),
                      QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("timeout-ms"), QStringLiteral("Per-request timeout."), QStringLiteral("MS"), QStringLiteral("60000")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("judge-test"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("base-url"), io) || !require(parser, QStringLiteral("model"), io))
        return 2;
    const auto kind = Provider::kindFromName(parser.value(QStringLiteral("provider")));
    if (!kind) {
        io.err << "rubric judge-test: --provider must be openai or anthropic\n";
        return 2;
    }
    ProviderProfile profile;
    profile.name = QStringLiteral("judge-test");
    profile.kind = *kind;
    profile.baseUrl = parser.value(QStringLiteral("base-url"));
    profile.model = parser.value(QStringLiteral("model"));
    profile.apiKeyEnv = parser.value(QStringLiteral("api-key-env"));
    profile.concurrency = 1;
    profile.maxRetries = 2;
    profile.timeoutMs = parser.value(QStringLiteral("timeout-ms")).toInt();

    JudgeRequest request;
    request.messages = {{QStringLiteral("user"),
                         parser.isSet(QStringLiteral("prompt"))
                             ? parser.value(QStringLiteral("prompt"))
                             : QStringLiteral("Rate the fluency of this sentence from 1 (poor) to 5 (perfect): "
                                              "\"The cat sat quietly on the warm mat.\" Answer with the number only.")}};
    request.maxTokens = 16;
    request.logprobs = *kind == ProviderKind::OpenAI;
    request.topLogprobs = request.logprobs ? 5 : 0;

    JudgeEngine engine(profile, nullptr);
    engine.setCacheEnabled(false);
    // The command runs before main() enters the event loop, so it drives the application's own
    // loop (no nested loop) and leaves it when the engine is idle.
    JudgeResponse response;
    QObject::connect(&engine, &JudgeEngine::answered, [&](const JudgeResponse &r) { response = r; });
    QObject::connect(&engine, &JudgeEngine::idle, QCoreApplication::instance(), [] { QCoreApplication::exit(0); });
    engine.submit({request});
    if (engine.pending() > 0)
        QCoreApplication::exec();

    const bool logprobs = !response.choices.isEmpty() && !response.choices.first().topLogprobs.isEmpty();
    const ParsedAnswer parsed = AnswerParser::scoreOf(response, 1, 5);
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("ok"), response.ok()},
                                  {QStringLiteral("answer"), response.text()},
                                  {QStringLiteral("error"), response.error},
                                  {QStringLiteral("http_status"), response.httpStatus},
                                  {QStringLiteral("latency_ms"), response.latencyMs},
                                  {QStringLiteral("retries"), response.retries},
                                  {QStringLiteral("tokens_in"), response.tokensIn},
                                  {QStringLiteral("tokens_out"), response.tokensOut},
                                  {QStringLiteral("logprobs"), logprobs},
                                  {QStringLiteral("score"), jsonNumber(parsed.score)},
                                  {QStringLiteral("score_method"), AnswerParser::methodName(parsed.method)}});
        return response.ok() ? 0 : 1;
    }
    if (!response.ok()) {
        io.err << "rubric judge-test: the call failed: " << response.error << '\n';
        return 1;
    }
    io.out << "answer:    " << response.text().trimmed() << '\n'
           << "latency:   " << QString::number(response.latencyMs, 'f', 1) << " ms"
           << (response.retries ? QStringLiteral(" (%1 retries)").arg(response.retries) : QString()) << '\n'
           << "tokens:    " << response.tokensIn << " in, " << response.tokensOut << " out\n"
           << "logprobs:  " << (logprobs ? "yes" : "no") << '\n';
    if (parsed.ok)
        io.out << "score:     " << QString::number(parsed.score, 'f', 4) << " (" << AnswerParser::methodName(parsed.method) << ")\n";
    else
        io.out << "score:     not readable (" << parsed.error << ")\n";
    return 0;
}

const Registration reg({QStringLiteral("judge-test"), QStringLiteral("Send one call to a judge endpoint (answer, latency, tokens, logprobs)."),
                        &run});

} // namespace
} // namespace rubric::cli
