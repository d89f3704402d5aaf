#include "judge/Provider.h"

#include "judge/AnthropicProvider.h"
#include "judge/EndpointJson.h"
#include "judge/OpenAiProvider.h"

#include <nlohmann/json.hpp>

namespace rubric {

QString Provider::errorMessage(const QByteArray &body) const
{
    const nlohmann::json j = endpointJson::parse(body);
    if (j.is_object()) {
        auto it = j.find("error");
        if (it != j.end()) {
            if (it->is_string())
                return QString::fromStdString(it->get<std::string>());
            if (it->is_object() && it->contains("message") && (*it)["message"].is_string())
                return QString::fromStdString((*it)["message"].get<std::string>());
        }
        if (j.contains("message") && j["message"].is_string())
            return QString::fromStdString(j["message"].get<std::string>());
    }
    return QString::fromUtf8(body.left(500)).trimmed();
}

std::unique_ptr<Provider> Provider::create(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::OpenAI:
        return std::make_unique<OpenAiProvider>();
    case ProviderKind::Anthropic:
        return std::make_unique<AnthropicProvider>();
    }
    return nullptr;
}

QString Provider::kindName(ProviderKind kind)
{
    return kind == ProviderKind::Anthropic ? QStringLiteral("anthropic") : QStringLiteral("openai");
}

std::optional<ProviderKind> Provider::kindFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("openai"))
        return ProviderKind::OpenAI;
    if (n == QLatin1String("anthropic"))
        return ProviderKind::Anthropic;
    return std::nullopt;
}

} // namespace rubric
