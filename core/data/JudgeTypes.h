#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <optional>

namespace rubric {

/// Tokens a reasoning model may think on top of a request's max_tokens, unless a profile says otherwise.
constexpr int defaultReasoningBudget = 2048;

/// Which wire protocol a provider speaks.
enum class ProviderKind { OpenAI, Anthropic };

/// Whether, and in which form, scoring requests ask the endpoint to constrain its answer to a
/// JSON schema (see StructuredAnswers). Opt-in per profile: an endpoint that ignores the schema
/// is still read by the text reader, and one that refuses it is asked without it.
enum class StructuredMode {
    Off,          ///< free text, read by AnswerParser (the default)
    JsonSchema,   ///< OpenAI and vLLM: `response_format: {"type": "json_schema", …}`
    GuidedJson,   ///< vLLM's older extension: `guided_json: <schema>`
    LlamaGrammar, ///< llama.cpp server: `json_schema: <schema>` (which it turns into a grammar)
};

/// A named endpoint the user configured (saved in user settings, never in a project).
/// The key itself is not stored here: `apiKeyEnv` names an environment variable, or
/// `useKeychain` says it lives in the OS keychain under the profile's name.
struct ProviderProfile
{
    QString name;
    ProviderKind kind = ProviderKind::OpenAI;
    QString baseUrl; ///< e.g. http://127.0.0.1:8000/v1 or https://api.anthropic.com/v1
    QString model;
    QString apiKeyEnv; ///< environment variable holding the key ("" = none)
    bool useKeychain = false;
    QVariantMap headers;          ///< extra HTTP headers: NAME → "env:VAR" (never a value, never the key)
    int concurrency = 16;         ///< requests in flight to this endpoint
    double requestsPerMinute = 0; ///< 0 = unlimited
    double tokensPerMinute = 0;   ///< 0 = unlimited
    double pricePerMillionIn = 0;
    double pricePerMillionOut = 0;
    /// Input tokens the provider read from its prompt cache; below 0 = the input price (no discount known).
    double pricePerMillionCached = -1;
    int timeoutMs = 120000; ///< a call that receives nothing for this long is retried (a stall)
    /// The most one call may take from sending to its last byte, however it trickles in (an
    /// endpoint sending a byte a second never stalls): sized for reasoning models that think for
    /// minutes. Past it the call fails with the reason and is not retried.
    int deadlineMs = 600000;
    /// The largest answer read, in bytes: a longer body is cut off and the call fails with the
    /// reason (not retried), so that a broken or hostile endpoint cannot fill the memory.
    qint64 maxResponseBytes = 32LL * 1024 * 1024;
    int maxRetries = 6;
    /// Once the endpoint shows it is a reasoning model (an answer that thinking used up, see
    /// EndpointAdaptations), each request goes with this many tokens on top of its max_tokens.
    int reasoningBudget = defaultReasoningBudget;
    /// Whether scoring requests ask for a JSON answer of their shape (JudgeRequest::shape), and in
    /// which form; only OpenAI-compatible endpoints get it (Anthropic has no schema parameter).
    StructuredMode structuredAnswers = StructuredMode::Off;
    /// Further base URLs serving the same model (replicas of one deployment, e.g. a vLLM fleet):
    /// with any, the engine spreads requests over `baseUrl` and these (EndpointPool says how).
    /// The cache key names the model, not a URL, so an answer from any replica serves them all.
    QStringList replicaUrls;
    /// Relative weight of each replica, `baseUrl` first (missing entries = 1): a replica of weight
    /// w takes w × concurrency requests in flight and w × the per-minute limits.
    QVector<double> replicaWeights;

    /// Every base URL of the profile: `baseUrl`, then `replicaUrls`.
    QStringList baseUrls() const { return QStringList{baseUrl} + replicaUrls; }
    /// The weight of replica `i` of baseUrls() (1 where none is given).
    double replicaWeight(qsizetype i) const { return i < replicaWeights.size() ? replicaWeights[i] : 1.0; }

    /// The price of one call: `in` input tokens of which `cached` came from the provider's prompt
    /// cache (priced at pricePerMillionCached where set), and `out` output tokens.
    double cost(double in, double out, double cached = 0) const
    {
        const double cachedPrice = pricePerMillionCached >= 0 ? pricePerMillionCached : pricePerMillionIn;
        return ((in - cached) * pricePerMillionIn + cached * cachedPrice + out * pricePerMillionOut) / 1e6;
    }
};

/// What a scoring request's answer holds, so that an endpoint with structured answers can be
/// given its JSON schema (StructuredAnswers::schema). Free text (generations) has none.
struct AnswerShape
{
    enum class Kind {
        None,  ///< free text
        Score, ///< {"reasoning": string, "score": number in [min, max]}
        YesNo, ///< {"Q1": "Yes"|"No", …, "QN": …}
    };
    Kind kind = Kind::None;
    double min = 0; ///< Score: the scale
    double max = 0;
    int questions = 0; ///< YesNo: how many

    bool isSet() const { return kind != Kind::None; }
    static AnswerShape score(double min, double max) { return {Kind::Score, min, max, 0}; }
    static AnswerShape yesNo(int questions) { return {Kind::YesNo, 0, 0, questions}; }
    bool operator==(const AnswerShape &other) const = default;
};

struct ChatMessage
{
    QString role; ///< "system", "user" or "assistant"
    QString content;
};

/// One call to a judge. Everything that changes the answer is part of the cache key.
struct JudgeRequest
{
    QVector<ChatMessage> messages;
    double temperature = 0.0;
    double topP = 1.0;
    int maxTokens = 512;
    int n = 1;
    std::optional<qint64> seed;
    QStringList stop;
    bool logprobs = false;
    int topLogprobs = 0;
    QString responseFormat; ///< "" or "json_object"
    /// What the answer holds: sent as a JSON schema where the profile's structuredAnswers asks for
    /// it (then part of the key); otherwise it changes nothing.
    AnswerShape shape;
    int sampleIndex = 0; ///< distinguishes repeated samples of the same prompt
    int reask = 0;       ///< 1 when asked again after an answer that could not be read (in the key when set)
    QString tag;         ///< caller's label (e.g. "item:42/criterion:h3"); not part of the key
};

/// One token alternative with its log probability (from top_logprobs).
struct TokenLogprob
{
    QString token;
    double logprob = 0.0;
};

/// One choice of an answer: its text and, when asked for, per-token top alternatives.
struct JudgeChoice
{
    QString text;
    QVector<QVector<TokenLogprob>> topLogprobs; ///< per generated token: the alternatives
    /// Why generation stopped, as the endpoint said: OpenAI's finish_reason ("stop", "length"),
    /// Anthropic's stop_reason ("end_turn", "max_tokens"); "" when it said nothing.
    QString finishReason;
    /// What a reasoning model thought before it answered, when the endpoint sent it apart from the
    /// answer: OpenAI-compatible servers' `message.reasoning_content` (vLLM, llama.cpp, DeepSeek) or
    /// `message.reasoning` (newer vLLM, Ollama), Anthropic's thinking blocks. A `<think>` block inside
    /// `text` stays there (the text is kept as it came); answer() leaves it out.
    QString reasoning;

    /// The answer without the reasoning: `text` less its `<think>…</think>` (or `<thinking>`,
    /// `<reasoning>`) blocks, trimmed. A think block that never closes (the budget ran out while the
    /// model was thinking) leaves no answer: "". This is what every reader reads.
    QString answer() const;
    /// The reasoning of this choice: the `reasoning` field, then any think blocks in `text`.
    QString thoughts() const;

    /// Cut off at max_tokens (finish_reason "length" or stop_reason "max_tokens").
    bool cutOff() const
    {
        return finishReason == QLatin1String("length") || finishReason == QLatin1String("max_tokens");
    }
};

enum class JudgeStatus { Ok, Cached, Failed, Cancelled };

/// The engine's answer to one JudgeRequest. `Failed` carries the reason (HTTP status and the
/// server's message, or the network error) and is never cached.
struct JudgeResponse
{
    JudgeStatus status = JudgeStatus::Failed;
    QVector<JudgeChoice> choices;
    int tokensIn = 0; ///< every input token, those read from the provider's prompt cache included
    int tokensOut = 0;
    int tokensCached = 0; ///< input tokens the provider read from its prompt cache
    /// Of tokensOut, those a reasoning model spent thinking (OpenAI's
    /// usage.completion_tokens_details.reasoning_tokens); billed as output, never shown as the answer.
    int tokensReasoning = 0;
    double latencyMs = 0;
    int retries = 0;
    int httpStatus = 0;
    double cost = 0;
    QString error;
    QString cacheKey;
    QString tag;
    /// Set by RunContext when the first answer could not be read and the request was asked once
    /// more: why ("cut off at max_tokens", "empty answer"); the response is the second answer.
    QString reasked;

    bool ok() const { return status == JudgeStatus::Ok || status == JudgeStatus::Cached; }
    /// The first choice's answer, reasoning left out (JudgeChoice::answer()).
    QString text() const { return choices.isEmpty() ? QString() : choices.first().answer(); }
    /// The first choice's text exactly as the endpoint sent it (think blocks included).
    QString rawText() const { return choices.isEmpty() ? QString() : choices.first().text; }
};

} // namespace rubric

Q_DECLARE_METATYPE(rubric::JudgeRequest)
Q_DECLARE_METATYPE(rubric::JudgeResponse)
