#pragma once

#include "data/JudgeTypes.h"
#include "judge/EndpointAdaptations.h"
#include "util/Result.h"

namespace rubric {

class Project;

/// What the project learned about an endpoint (base URL + model) from its answers, so that the
/// next run asks in the way the endpoint can answer: some OpenAI-compatible servers (Ollama, the
/// llama.cpp server) answer one choice whatever `n` asks, and many local servers return no
/// logprobs; and what requests it refuses (EndpointAdaptations: max_tokens, temperature, logprobs,
/// n, the system role) or whether it is a reasoning model. Kept in the project's meta table; a
/// connection test reports them.
namespace endpoint {

/// Whether the endpoint is known to ignore `n`; an error when the project cannot be read.
Result<bool> ignoresN(const Project &project, const ProviderProfile &profile);
Result<void> noteIgnoresN(Project &project, const ProviderProfile &profile);
/// Whether the endpoint is known to return no logprobs; an error when the project cannot be read.
Result<bool> lacksLogprobs(const Project &project, const ProviderProfile &profile);
Result<void> noteLacksLogprobs(Project &project, const ProviderProfile &profile);
/// The adaptations learned for the endpoint (empty when none); an error when the project cannot
/// be read or what it holds is not a list of adaptations.
Result<EndpointAdaptations> adaptations(const Project &project, const ProviderProfile &profile);
/// Adds `learned` to what the project holds for the endpoint (nothing is forgotten).
Result<void> noteAdaptations(Project &project, const ProviderProfile &profile, const EndpointAdaptations &learned);

} // namespace endpoint
} // namespace rubric
