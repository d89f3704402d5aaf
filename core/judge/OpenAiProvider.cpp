#include "judge/OpenAiProvider.h"

#include "judge/EndpointJson.h"
#include "judge/StructuredAnswers.h"

#include <QCoreApplication>
#include <QUrl>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace rubric {
namespace {

std::string utf8(const QString &s)
{
    return s.toStdString();
}

QString endpoint(const QString &base, const QString &path)
{
    QString b = base.trimmed();
    while (b.endsWith(QLatin1Char('/')))
        b.chop(1);
    return b + path;
}

} // namespace

ProviderCall OpenAiProvider::buildRequest(const ProviderProfile &profile, const QByteArray &apiKey,
                                          const JudgeRequest &request, const EndpointAdaptations &adaptations) const
{
    nlohmann::json body;
    body["model"] = utf8(profile.model);
    nlohmann::json messages = nlohmann::json::array();
    for (const ChatMessage &m : adaptations.messages(request))
        messages.push_back({{"role", utf8(m.role)}, {"content", utf8(m.content)}});
    body["messages"] = std::move(messages);
    if (!adaptations.has(Adaptation::NoTemperature))
        body["temperature"] = request.temperature;
    if (!adaptations.has(Adaptation::NoTopP))
        body["top_p"] = request.topP;
    body[adaptations.has(Adaptation::MaxCompletionTokens) ? "max_completion_tokens" : "max_tokens"]
            = adaptations.maxTokens(request);
    if (request.n > 1 && !adaptations.has(Adaptation::OneChoice))
        body["n"] = request.n;
    if (request.seed)
        body["seed"] = *request.seed;
    if (!request.stop.isEmpty()) {
        nlohmann::json stop = nlohmann::json::array();
        for (const QString &s : request.stop)
            stop.push_back(utf8(s));
        body["stop"] = std::move(stop);
    }
    if (request.logprobs && !adaptations.has(Adaptation::NoLogprobs)) {
        body["logprobs"] = true;
        if (request.topLogprobs > 0)
            body["top_logprobs"] = request.topLogprobs;
    }
    if (!request.responseFormat.isEmpty())
        body["response_format"] = {{"type", utf8(request.responseFormat)}};
    std::string text = body.dump();
    // Structured answers: the schema of the request's shape in the profile's form, unless the
    // endpoint refused it (then the text reader reads the answer as it reads any other). The
    // schema keeps its members' order (a constrained decoder writes them in it: Q2 before Q10),
    // so that body is written in order; every other body stays as it was.
    if (StructuredAnswers::applies(profile, request) && !adaptations.has(Adaptation::NoStructured)) {
        nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(text);
        const nlohmann::ordered_json fields = nlohmann::ordered_json::parse(
                utf8(StructuredAnswers::bodyFields(profile.structuredAnswers, request.shape)));
        for (auto it = fields.begin(); it != fields.end(); ++it)
            ordered[it.key()] = *it;
        text = ordered.dump();
    }

    ProviderCall call;
    call.request.setUrl(QUrl(endpoint(profile.baseUrl, QStringLiteral("/chat/completions"))));
    call.request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    if (!apiKey.isEmpty())
        call.request.setRawHeader(QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + apiKey);
    for (auto it = profile.headers.cbegin(); it != profile.headers.cend(); ++it)
        call.request.setRawHeader(it.key().toUtf8(), it.value().toString().toUtf8());
    call.body = QByteArray(text.data(), qsizetype(text.size()));
    return call;
}

Result<JudgeResponse> OpenAiProvider::parseResponse(const QByteArray &body) const
{
    bool tooDeep = false;
    const nlohmann::json j = endpointJson::parse(body, &tooDeep);
    if (j.is_discarded() || !j.is_object())
        return makeError(endpointJson::refusal(tooDeep));
    auto choices = j.find("choices");
    if (choices == j.end() || !choices->is_array() || choices->empty())
        return makeError(QCoreApplication::translate("rubric::Provider", "the answer has no choices"));
    JudgeResponse r;
    for (const auto &c : *choices) {
        JudgeChoice choice;
        if (c.contains("message") && c["message"].is_object()) {
            const auto &message = c["message"];
            const auto &content = message.value("content", nlohmann::json());
            if (content.is_string())
                choice.text = QString::fromStdString(content.get<std::string>());
            // Reasoning parsers put the thinking apart: vLLM, llama.cpp and DeepSeek as
            // `reasoning_content`, newer vLLM and Ollama as `reasoning`. `content` may then be null.
            for (const char *field : {"reasoning_content", "reasoning"}) {
                const auto &thought = message.value(field, nlohmann::json());
                if (thought.is_string() && choice.reasoning.isEmpty())
                    choice.reasoning = QString::fromStdString(thought.get<std::string>());
            }
        } else if (c.contains("text") && c["text"].is_string()) {
            choice.text = QString::fromStdString(c["text"].get<std::string>());
        }
        if (c.contains("finish_reason") && c["finish_reason"].is_string())
            choice.finishReason = QString::fromStdString(c["finish_reason"].get<std::string>());
        if (c.contains("logprobs") && c["logprobs"].is_object()) {
            const auto &content = c["logprobs"].value("content", nlohmann::json());
            if (content.is_array()) {
                for (const auto &tok : content) {
                    QVector<TokenLogprob> alts;
                    const auto &top = tok.value("top_logprobs", nlohmann::json());
                    if (top.is_array()) {
                        for (const auto &a : top) {
                            if (a.contains("token") && a["token"].is_string() && a.contains("logprob")
                                && a["logprob"].is_number())
                                alts.append({QString::fromStdString(a["token"].get<std::string>()),
                                             a["logprob"].get<double>()});
                        }
                    }
                    if (alts.isEmpty() && tok.contains("token") && tok["token"].is_string() && tok.contains("logprob")
                        && tok["logprob"].is_number())
                        alts.append({QString::fromStdString(tok["token"].get<std::string>()),
                                     tok["logprob"].get<double>()});
                    choice.topLogprobs.append(alts);
                }
            }
        }
        r.choices.append(choice);
    }
    if (j.contains("usage") && j["usage"].is_object()) {
        // The endpoint's figures are clamped (endpointJson::tokens): a negative or absurd count
        // must not lower the money spent or overflow a sum.
        const auto &u = j["usage"];
        r.tokensIn = endpointJson::tokens(u, "prompt_tokens");
        r.tokensOut = endpointJson::tokens(u, "completion_tokens");
        // Prompt caching (OpenAI, vLLM with prefix caching): the part of prompt_tokens read from the cache.
        if (u.contains("prompt_tokens_details"))
            r.tokensCached = std::min(endpointJson::tokens(u["prompt_tokens_details"], "cached_tokens"), r.tokensIn);
        // Reasoning models bill their hidden thinking as completion tokens and say how many it took.
        if (u.contains("completion_tokens_details"))
            r.tokensReasoning
                    = std::min(endpointJson::tokens(u["completion_tokens_details"], "reasoning_tokens"), r.tokensOut);
    }
    return r;
}

} // namespace rubric
