#include "judge/CacheKey.h"

#include "judge/EndpointPool.h"
#include "judge/Provider.h"
#include "judge/StructuredAnswers.h"

#include <QCryptographicHash>

#include <nlohmann/json.hpp>

namespace rubric::CacheKey {

QString canonical(const ProviderProfile &profile, const JudgeRequest &r, const QString &legacyBase)
{
    // nlohmann::json objects keep their keys sorted, so dump() is canonical.
    nlohmann::json messages = nlohmann::json::array();
    for (const ChatMessage &m : r.messages)
        messages.push_back({{"role", m.role.toStdString()}, {"content", m.content.toStdString()}});
    nlohmann::json stop = nlohmann::json::array();
    for (const QString &s : r.stop)
        stop.push_back(s.toStdString());
    nlohmann::json j = {{"provider", Provider::kindName(profile.kind).toStdString()},
                        {"model", profile.model.toStdString()},
                        {"messages", std::move(messages)},
                        {"temperature", r.temperature},
                        {"top_p", r.topP},
                        {"max_tokens", r.maxTokens},
                        {"n", r.n},
                        {"seed", r.seed ? nlohmann::json(*r.seed) : nlohmann::json()},
                        {"stop", std::move(stop)},
                        {"logprobs", r.logprobs},
                        {"top_logprobs", r.logprobs ? r.topLogprobs : 0},
                        {"response_format", r.responseFormat.toStdString()},
                        {"sample_index", r.sampleIndex}};
    if (r.reask > 0)
        j["reask"] = r.reask; // absent otherwise: the keys of every earlier call stay as they were
    // Structured answers change what the endpoint may answer: the form and the schema are in the
    // key where they are sent, absent otherwise (every key without them stays as it was).
    if (StructuredAnswers::applies(profile, r))
        j["structured"] = {{"mode", StructuredAnswers::modeName(profile.structuredAnswers).toStdString()},
                           {"schema", nlohmann::json::parse(StructuredAnswers::schema(r.shape).toStdString())}};
    if (!legacyBase.isEmpty())
        j["base_url"] = legacyBase.toStdString();
    return QString::fromStdString(j.dump());
}

QString hash(const QString &canonical)
{
    return QString::fromLatin1(QCryptographicHash::hash(canonical.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QStringList legacyKeys(const ProviderProfile &profile, const JudgeRequest &request)
{
    QStringList keys;
    for (const QString &url : profile.baseUrls())
        keys << hash(canonical(profile, request, EndpointPool::normalisedUrl(url)));
    return keys;
}

} // namespace rubric::CacheKey
