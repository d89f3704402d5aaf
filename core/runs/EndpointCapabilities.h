#pragma once

#include "judge/JudgeTypes.h"
#include "util/Result.h"

namespace rubric {

class Project;

/// What the project learned about an endpoint (base URL + model) from its answers, so that the
/// next run asks in the way the endpoint can answer: some OpenAI-compatible servers (Ollama, the
/// llama.cpp server) answer one choice whatever `n` asks, and many local servers return no
/// logprobs. Kept in the project's meta table; a connection test reports both.
namespace endpoint {

/// Whether the endpoint is known to ignore `n`; an error when the project cannot be read.
Result<bool> ignoresN(const Project &project, const ProviderProfile &profile);
Result<void> noteIgnoresN(Project &project, const ProviderProfile &profile);
/// Whether the endpoint is known to return no logprobs; an error when the project cannot be read.
Result<bool> lacksLogprobs(const Project &project, const ProviderProfile &profile);
Result<void> noteLacksLogprobs(Project &project, const ProviderProfile &profile);

} // namespace endpoint
} // namespace rubric
