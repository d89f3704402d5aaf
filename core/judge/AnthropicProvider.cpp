#include "judge/AnthropicProvider.h"

#include "judge/EndpointJson.h"

#include <QCoreApplication>
#include <QUrl>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace rubric {

ProviderCall AnthropicProvider::buildRequest(const ProviderProfile &profile, const QByteArray &apiKey,
                                             const JudgeRequest &request, const EndpointAdaptations &adaptations) const
{
    // No structured answers here: the Messages API takes no JSON schema for the answer, so a
    // request's shape is not sent (StructuredAnswers::applies is false for Anthropic) and the
    // text reader reads the answer.
    nlohmann::json body;
    body["model"] = profile.model.toStdString();
    body["max_tokens"] = adaptations.maxTokens(request);
    QString system;
    nlohmann::json messages = nlohmann::json::array();
    for (const ChatMessage &m : adaptations.messages(request)) {
        if (m.role == QLatin1String("system")) {
            system += (system.isEmpty() ? QString() : QStringLiteral("\n\n")) + m.content;
            continue;
        }
        messages.push_back({{"role", m.role.toStdString()}, {"content", m.content.toStdString()}});
    }
    // The system block is the static part of every prompt (instructions, rubric, examples): a cache
    // breakpoint after it lets the provider read it from its prompt cache on the next call.
    if (!system.isEmpty())
        body["system"] = nlohmann::json::array(
                {{{"type", "text"}, {"text", system.toStdString()}, {"cache_control", {{"type", "ephemeral"}}}}});
    body["messages"] = std::move(messages);
    if (!adaptations.has(Adaptation::NoTemperature))
        body["temperature"] = request.temperature;
    if (request.topP < 1.0 && !adaptations.has(Adaptation::NoTopP))
        body["top_p"] = request.topP;
    if (!request.stop.isEmpty()) {
        nlohmann::json stop = nlohmann::json::array();
        for (const QString &s : request.stop)
            stop.push_back(s.toStdString());
        body["stop_sequences"] = std::move(stop);
    }

    QString base = profile.baseUrl.trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    ProviderCall call;
    call.request.setUrl(QUrl(base + QStringLiteral("/messages")));
    call.request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    call.request.setRawHeader(QByteArrayLiteral("anthropic-version"), QByteArray(apiVersion));
    if (!apiKey.isEmpty())
        call.request.setRawHeader(QByteArrayLiteral("x-api-key"), apiKey);
    for (auto it = profile.headers.cbegin(); it != profile.headers.cend(); ++it)
        call.request.setRawHeader(it.key().toUtf8(), it.value().toString().toUtf8());
    const std::string text = body.dump();
    call.body = QByteArray(text.data(), qsizetype(text.size()));
    return call;
}

Result<JudgeResponse> AnthropicProvider::parseResponse(const QByteArray &body) const
{
    bool tooDeep = false;
    const nlohmann::json j = endpointJson::parse(body, &tooDeep);
    if (j.is_discarded() || !j.is_object())
        return makeError(endpointJson::refusal(tooDeep));
    auto content = j.find("content");
    if (content == j.end() || !content->is_array())
        return makeError(QCoreApplication::translate("rubric::Provider", "the answer has no content"));
    JudgeChoice choice;
    for (const auto &block : *content) {
        if (block.is_object() && block.value("type", std::string()) == "text" && block.contains("text")
            && block["text"].is_string())
            choice.text += QString::fromStdString(block["text"].get<std::string>());
        // Extended thinking comes as its own blocks before the answer.
        else if (block.is_object() && block.value("type", std::string()) == "thinking" && block.contains("thinking")
                 && block["thinking"].is_string())
            choice.reasoning += QString::fromStdString(block["thinking"].get<std::string>());
    }
    if (j.contains("stop_reason") && j["stop_reason"].is_string())
        choice.finishReason = QString::fromStdString(j["stop_reason"].get<std::string>());
    JudgeResponse r;
    r.choices.append(choice);
    if (j.contains("usage") && j["usage"].is_object()) {
        const auto &u = j["usage"];
        // input_tokens counts only what came after the last cache breakpoint: the tokens read from
        // the cache and those written to it are reported beside it, and all three are input.
        // (Each clamped to 0 … endpointJson::maxTokens, so the sum stays in range.)
        r.tokensCached = endpointJson::tokens(u, "cache_read_input_tokens");
        r.tokensIn = endpointJson::tokens(u, "input_tokens") + r.tokensCached
                     + endpointJson::tokens(u, "cache_creation_input_tokens");
        r.tokensOut = endpointJson::tokens(u, "output_tokens");
    }
    return r;
}

} // namespace rubric
