// libFuzzer target: a 2xx body from an LLM endpoint. First byte: 0 = OpenAI chat completion,
// 1 = Anthropic messages, 2 / 3 = an OpenAI / Anthropic batch results file (JSONL, each answered
// line's body read as 0 / 1 are), 4 / 5 = an OpenAI / Anthropic batch object (its state); the
// rest is the body. A parsed response then goes through the score readers (logprob-weighted
// G-Eval score, sample mean, plain parse) as a run would.
#include "FuzzSupport.h"
#include "judge/AnswerParser.h"
#include "judge/BatchClient.h"
#include "judge/Provider.h"

#include <cmath>
#include <cstdlib>

using namespace rubric;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz::initQt(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const std::unique_ptr<Provider> openAi = Provider::create(ProviderKind::OpenAI);
    static const std::unique_ptr<Provider> anthropic = Provider::create(ProviderKind::Anthropic);
    const fuzz::Split in = fuzz::selector(data, size, 6);
    const ProviderKind kind = in.variant % 2 == 0 ? ProviderKind::OpenAI : ProviderKind::Anthropic;
    const Provider &provider = kind == ProviderKind::OpenAI ? *openAi : *anthropic;
    if (in.variant >= 4) {
        const auto poll = BatchClient::parsePoll(kind, in.payload);
        if (!poll.ok() && poll.error().message.isEmpty())
            std::abort();
        if (poll.ok() && poll->status.isEmpty())
            std::abort(); // a state always names its status
        return 0;
    }
    if (in.variant >= 2) {
        const BatchClient::Results lines = BatchClient::parseResults(kind, in.payload);
        for (const QString &why : lines.unreadable)
            if (why.isEmpty())
                std::abort(); // a skipped line says why
        for (const BatchClient::Outcome &line : lines.outcomes) {
            if (line.customId.isEmpty() || (!line.ok && line.error.isEmpty()))
                std::abort(); // every line is matched by its id, and a failed one says why
            if (line.ok)
                (void)provider.parseResponse(line.body);
        }
        return 0;
    }

    (void)provider.errorMessage(in.payload);
    const Result<JudgeResponse> response = provider.parseResponse(in.payload);
    if (!response.ok()) {
        if (response.error().message.isEmpty())
            std::abort(); // a refusal always says why
        return 0;
    }
    for (const auto &[min, max] : {std::pair{1, 5}, std::pair{0, 10}, std::pair{1, 1}}) {
        const ParsedAnswer parsed = AnswerParser::scoreOf(*response, min, max);
        if (parsed.ok && !std::isfinite(parsed.score))
            std::abort();
        if (parsed.usedLogprobs()) {
            // An expected value over the scale's tokens lies on the scale.
            if (parsed.score < min - 1e-9 || parsed.score > max + 1e-9)
                std::abort();
        }
        for (const JudgeChoice &choice : response->choices)
            (void)AnswerParser::weightedScore(choice, min, max);
    }
    return 0;
}
