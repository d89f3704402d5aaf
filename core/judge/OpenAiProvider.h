#pragma once

#include "judge/Provider.h"

namespace rubric {

/// OpenAI-compatible chat completions: POST {base}/chat/completions with `Authorization: Bearer`.
/// Spoken by OpenAI, vLLM, llama.cpp's server, Ollama and LM Studio; asks for logprobs when the
/// request does. Every EndpointAdaptations applies (reasoning models want max_completion_tokens and
/// no temperature, some servers refuse n, logprobs or the system role).
class OpenAiProvider : public Provider
{
public:
    ProviderKind kind() const override { return ProviderKind::OpenAI; }
    ProviderCall buildRequest(const ProviderProfile &profile, const QByteArray &apiKey, const JudgeRequest &request,
                              const EndpointAdaptations &adaptations = {}) const override;
    Result<JudgeResponse> parseResponse(const QByteArray &body) const override;
    bool supportsChoices() const override { return true; }
};

} // namespace rubric
