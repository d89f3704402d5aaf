#pragma once

#include "data/JudgeTypes.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace rubric {

/// One way a request is sent otherwise because the endpoint refused (or could not use) what it
/// asked for. Each is learned from an answer (JudgeEngine), never assumed from a model's name.
enum class Adaptation {
    MaxCompletionTokens, ///< max_tokens refused: the budget goes as max_completion_tokens (OpenAI)
    NoTemperature,       ///< the temperature refused: none sent, the endpoint's default applies
    NoTopP,              ///< top_p refused: none sent
    NoLogprobs,          ///< logprobs / top_logprobs refused: asked without them
    OneChoice,           ///< n > 1 refused: one choice per request (n not sent)
    FoldSystem,          ///< the system role refused: system messages open the first user message
    ReasoningBudget,     ///< a reasoning model: its thinking gets a budget on top of max_tokens
    NoStructured,        ///< the structured-answer schema refused: asked without it, the text read
};

/// What an endpoint (a base URL and a model) needs a request to be, as learned from its answers:
/// a plain value that Provider::buildRequest applies, JudgeEngine extends when a refusal names a
/// parameter, and the project keeps per endpoint (endpoint::adaptations) so that the next run pays
/// for no discovery. Each adaptation carries a sentence saying what was adapted and why.
class EndpointAdaptations
{
public:
    bool isEmpty() const { return m_items.isEmpty(); }
    bool has(Adaptation a) const;
    /// Adds `a` with the reason shown to the user; false (nothing changes) when it is known already.
    bool add(Adaptation a, const QString &why);
    /// Adds what `other` knows and this does not (with its reasons); true when anything was new.
    bool merge(const EndpointAdaptations &other);
    /// Every adaptation, in the order learned.
    QVector<Adaptation> list() const;
    /// What was adapted and why, one sentence each, in the order learned.
    QStringList reasons() const;

    /// Tokens a reasoning model may think on top of each request's max_tokens (used once
    /// ReasoningBudget is learned; the engine sets it from its profile).
    int reasoningBudget() const { return m_reasoningBudget; }
    void setReasoningBudget(int tokens);
    /// The structured-answer form requests go with (the engine sets it from its profile): with
    /// one, a refusal naming its parameter teaches NoStructured.
    StructuredMode structuredMode() const { return m_structured; }
    void setStructuredMode(StructuredMode mode) { m_structured = mode; }

    /// The output budget a request goes with: max_tokens, plus the reasoning budget once the
    /// endpoint is known to think.
    int maxTokens(const JudgeRequest &request) const;
    /// The messages as sent: with FoldSystem, the system messages lead the first user message.
    QVector<ChatMessage> messages(const JudgeRequest &request) const;

    /// The adaptations that would change how `request` is sent to a `kind` endpoint and are not
    /// learned yet: what a refusal of it can teach.
    QVector<Adaptation> applicable(ProviderKind kind, const JudgeRequest &request) const;

    /// The adaptation an HTTP 400 or 422 answer to `request` asks for: the error names one of the
    /// parameters in applicable() (OpenAI's error.param and error.code, or the message text) and
    /// says it is not supported. nullopt for any other refusal (a context too long, a bad value of
    /// a supported parameter, one already adapted): those stay the request's own failure.
    struct Refusal
    {
        Adaptation what;
        QString why; ///< "temperature 0 refused: using the endpoint's default (1)"
    };
    std::optional<Refusal> refusal(ProviderKind kind, const JudgeRequest &request, int httpStatus,
                                   const QByteArray &body) const;

    /// Whether an answer shows a reasoning model that spent the budget thinking: no answer (every
    /// choice's answer() empty), cut off at the budget, and a sign of thought — reasoning tokens
    /// billed, reasoning text, an unclosed think block, or max_completion_tokens already learned.
    bool thoughtOut(const JudgeResponse &response) const;
    /// The sentence for ReasoningBudget with the current budget.
    QString reasoningWhy() const;

    /// Stable names for storage ("max_completion_tokens", "no_temperature", …).
    static QString name(Adaptation a);
    static std::optional<Adaptation> fromName(const QString &name);
    /// JSON for the project's meta table: [{"name": …, "why": …}, …]. fromJson ignores names it
    /// does not know (written by a newer build) and fails on text that is not such a list.
    QString toJson() const;
    static std::optional<EndpointAdaptations> fromJson(const QString &json);

    bool operator==(const EndpointAdaptations &other) const = default;

private:
    struct Item
    {
        Adaptation what;
        QString why;
        bool operator==(const Item &other) const = default;
    };
    QVector<Item> m_items;
    int m_reasoningBudget = defaultReasoningBudget;
    StructuredMode m_structured = StructuredMode::Off;
};

} // namespace rubric
