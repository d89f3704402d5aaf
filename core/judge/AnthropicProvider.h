#pragma once

#include "judge/Provider.h"

namespace rubric {

/// Anthropic messages API: POST {base}/messages with `x-api-key` and `anthropic-version`.
/// System messages go to the top-level `system` field; there are no logprobs and one choice per call.
/// Of EndpointAdaptations, those that mean something here apply: no temperature, no top_p, system
/// folded into the user message, the reasoning budget on max_tokens.
class AnthropicProvider : public Provider
{
public:
    static constexpr const char *apiVersion = "2023-06-01";

    ProviderKind kind() const override { return ProviderKind::Anthropic; }
    ProviderCall buildRequest(const ProviderProfile &profile, const QByteArray &apiKey, const JudgeRequest &request,
                              const EndpointAdaptations &adaptations = {}) const override;
    Result<JudgeResponse> parseResponse(const QByteArray &body) const override;
    bool supportsChoices() const override { return false; }
};

} // namespace rubric
