#include "CliUtil.h"
#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "judge/StructuredAnswers.h"
#include "runs/ConnectionTest.h"

#include <QCoreApplication>

namespace rubric::cli {
namespace {

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
            QStringLiteral("Send one scoring prompt to a judge endpoint and show what came back."));
    parser.addOption({QStringLiteral("base-url"), QStringLiteral("Endpoint base, e.g. http://127.0.0.1:8000/v1."),
                      QStringLiteral("URL")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("Model name."), QStringLiteral("M")});
    parser.addOption({QStringLiteral("provider"), QStringLiteral("openai (default) or anthropic."),
                      QStringLiteral("KIND"), QStringLiteral("openai")});
    parser.addOption({QStringLiteral("api-key-env"), QStringLiteral("Environment variable holding the API key."),
                      QStringLiteral("VAR")});
    parser.addOption({QStringLiteral("header"),
                      QStringLiteral("NAME=env:VAR (repeatable): an extra HTTP header whose value is read from the "
                                     "environment variable VAR."),
                      QStringLiteral("NAME=env:VAR")});
    parser.addOption({QStringLiteral("prompt"), QStringLiteral("The prompt to send (default: a 1–5 rating question)."),
                      QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("timeout-ms"), QStringLiteral("Per-request timeout."), QStringLiteral("MS"),
                      QStringLiteral("60000")});
    parser.addOption({QStringLiteral("deadline-ms"),
                      QStringLiteral("The most the call may take, however slowly the answer trickles in."),
                      QStringLiteral("MS"), QString::number(ProviderProfile().deadlineMs)});
    parser.addOption({QStringLiteral("max-response-mb"), QStringLiteral("The largest answer read."),
                      QStringLiteral("MB"), QString::number(ProviderProfile().maxResponseBytes / (1024 * 1024))});
    parser.addOption({QStringLiteral("reasoning-budget"),
                      QStringLiteral("Tokens a reasoning model may think on top of the test's max_tokens, once its "
                                     "answer shows it thinks (0 = never raise it)."),
                      QStringLiteral("TOKENS"), QString::number(defaultReasoningBudget)});
    parser.addOption(
            {QStringLiteral("structured"),
             QStringLiteral("Ask for the score as JSON of a schema: off (default), json_schema, guided_json or "
                            "llama_grammar (what the profile's structured answers send)."),
             QStringLiteral("MODE"), QStringLiteral("off")});
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
    if (auto url = EndpointSecrets::checkBaseUrl(profile.baseUrl); !url) {
        io.err << "rubric judge-test: " << url.errorString() << '\n';
        return 2;
    }
    if (auto headers = headersFromOptions(parser, io, QStringLiteral("judge-test")))
        profile.headers = *headers;
    else
        return 2;
    profile.concurrency = 1;
    profile.maxRetries = 2;
    profile.timeoutMs = parser.value(QStringLiteral("timeout-ms")).toInt();
    bool ok = false;
    profile.deadlineMs = parser.value(QStringLiteral("deadline-ms")).toInt(&ok);
    if (!ok || profile.deadlineMs <= 0) {
        io.err << "rubric judge-test: --deadline-ms must be a positive number of milliseconds\n";
        return 2;
    }
    const double mb = parser.value(QStringLiteral("max-response-mb")).toDouble(&ok);
    if (!ok || mb <= 0) {
        io.err << "rubric judge-test: --max-response-mb must be a positive number\n";
        return 2;
    }
    profile.maxResponseBytes = qint64(mb * 1024 * 1024);
    profile.reasoningBudget = parser.value(QStringLiteral("reasoning-budget")).toInt(&ok);
    if (!ok || profile.reasoningBudget < 0) {
        io.err << "rubric judge-test: --reasoning-budget must be a number of tokens, 0 or more\n";
        return 2;
    }
    if (const auto mode = StructuredAnswers::modeFromName(parser.value(QStringLiteral("structured")))) {
        profile.structuredAnswers = *mode;
    } else {
        io.err << "rubric judge-test: --structured must be one of "
               << StructuredAnswers::modeNames().join(QStringLiteral(", ")) << '\n';
        return 2;
    }

    // The command runs before main() enters the event loop, so it drives the application's own
    // loop (no nested loop) and leaves it when the test has finished.
    ConnectionTest test(profile);
    ConnectionTestResult result;
    QObject::connect(&test, &ConnectionTest::finished, [&result](const ConnectionTestResult &r) {
        result = r;
        QCoreApplication::exit(0);
    });
    test.start(parser.value(QStringLiteral("prompt")));
    QCoreApplication::exec();

    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("ok"), result.ok},
                                  {QStringLiteral("answer"), result.answer},
                                  {QStringLiteral("error"), result.error},
                                  {QStringLiteral("http_status"), result.httpStatus},
                                  {QStringLiteral("latency_ms"), result.latencyMs},
                                  {QStringLiteral("retries"), result.retries},
                                  {QStringLiteral("tokens_in"), result.tokensIn},
                                  {QStringLiteral("tokens_out"), result.tokensOut},
                                  {QStringLiteral("logprobs"), result.logprobs},
                                  {QStringLiteral("n_asked"), result.choicesAsked},
                                  {QStringLiteral("n_returned"), result.choicesReturned},
                                  {QStringLiteral("score"), jsonNumber(result.score)},
                                  {QStringLiteral("score_method"), result.scoreMethod},
                                  {QStringLiteral("adapted"), result.adapted},
                                  {QStringLiteral("sent"), result.sent}});
        return result.ok ? 0 : 1;
    }
    // What the endpoint wrote is printed with its control characters shown, not obeyed.
    for (const QString &why : result.adapted)
        io.out << "adapted:   " << terminalSafe(why) << '\n';
    if (!result.ok) {
        io.err << "rubric judge-test: the call failed: " << terminalSafe(result.error) << '\n';
        return 1;
    }
    io.out << "answer:    " << terminalSafe(result.answer.trimmed()) << '\n'
           << "latency:   " << QString::number(result.latencyMs, 'f', 1) << " ms"
           << (result.retries ? QStringLiteral(" (%1 retries)").arg(result.retries) : QString()) << '\n'
           << "tokens:    " << result.tokensIn << " in, " << result.tokensOut << " out\n"
           << "logprobs:  " << (result.logprobs ? "yes" : "no") << '\n';
    if (result.choicesAsked > 1)
        io.out << "n:         " << (result.choicesReturned >= result.choicesAsked ? "honoured" : "ignored") << " ("
               << result.choicesReturned << " of " << result.choicesAsked << " choices)\n";
    if (result.scored)
        io.out << "score:     " << QString::number(result.score, 'f', 4) << " (" << result.scoreMethod << ")\n";
    else
        io.out << "score:     not readable (" << terminalSafe(result.scoreError) << ")\n";
    return 0;
}

const Registration reg({QStringLiteral("judge-test"),
                        QStringLiteral("Send one call to a judge endpoint (answer, latency, tokens, logprobs)."),
                        &run});

} // namespace
} // namespace rubric::cli
