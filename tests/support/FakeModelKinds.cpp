// The fake endpoint's model kinds (FakeModelKind): the refusals of reasoning models and picky
// servers, in the shapes real ones send, and the ways thinking models show their thinking.
#include "FakeLlmServer.h"

#include <QJsonDocument>

namespace rubric::test {
namespace {

/// OpenAI's 400: {"error": {"message", "type": "invalid_request_error", "param", "code"}}.
QByteArray openAiError(const QString &message, const QString &param, const QString &code)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("error"),
                                      QJsonObject{{QStringLiteral("message"), message},
                                                  {QStringLiteral("type"), QStringLiteral("invalid_request_error")},
                                                  {QStringLiteral("param"), param},
                                                  {QStringLiteral("code"), code}}}})
            .toJson(QJsonDocument::Compact);
}

/// vLLM's 400: {"object": "error", "message", "type": "BadRequestError", "param", "code": 400}.
QByteArray vllmError(const QString &message, const QJsonValue &param)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("object"), QStringLiteral("error")},
                                     {QStringLiteral("message"), message},
                                     {QStringLiteral("type"), QStringLiteral("BadRequestError")},
                                     {QStringLiteral("param"), param},
                                     {QStringLiteral("code"), 400}})
            .toJson(QJsonDocument::Compact);
}

QString number(const QJsonValue &v)
{
    return QString::number(v.toDouble(), 'g', 6);
}

int tokensOf(const QString &text)
{
    return std::max(1, int(text.size()) / 4);
}

/// The output budget the request gives: max_completion_tokens, else max_tokens (0: none given).
int budgetOf(const QJsonObject &body)
{
    if (body.contains(QStringLiteral("max_completion_tokens")))
        return body.value(QStringLiteral("max_completion_tokens")).toInt();
    return body.value(QStringLiteral("max_tokens")).toInt();
}

} // namespace

std::optional<FakeModelKind> FakeLlmServer::modelKindFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("plain"))
        return FakeModelKind::Plain;
    if (n == QLatin1String("openai-reasoning"))
        return FakeModelKind::OpenAiReasoning;
    if (n == QLatin1String("think-inline"))
        return FakeModelKind::ThinkInline;
    if (n == QLatin1String("reasoning-field"))
        return FakeModelKind::ReasoningField;
    if (n == QLatin1String("refuses-system-role"))
        return FakeModelKind::RefusesSystemRole;
    if (n == QLatin1String("refuses-n"))
        return FakeModelKind::RefusesN;
    if (n == QLatin1String("refuses-logprobs"))
        return FakeModelKind::RefusesLogprobs;
    return std::nullopt;
}

QString FakeLlmServer::thinkingText() const
{
    // Other scores and other yes/no answers than the judge's, so that a reader that looks into the
    // thinking reads the wrong one.
    const QString line = QStringLiteral("Let me weigh this. Maybe 2? Q1: No, Q2: Yes. Or rating [[1]] at most, "
                                        "Score: 1, Answer: No. ");
    QString text;
    while (tokensOf(text) < m_reasoningTokens)
        text += line;
    return text.left(std::max(4, m_reasoningTokens * 4)).trimmed();
}

QByteArray FakeLlmServer::refusal(const QJsonObject &body) const
{
    const auto has = [&body](const char *field) { return body.contains(QLatin1String(field)); };
    switch (m_kind) {
    case FakeModelKind::Plain:
    case FakeModelKind::ThinkInline:
    case FakeModelKind::ReasoningField:
        return {};
    case FakeModelKind::OpenAiReasoning:
        if (has("max_tokens"))
            return openAiError(QStringLiteral("Unsupported parameter: 'max_tokens' is not supported with this model. "
                                              "Use 'max_completion_tokens' instead."),
                               QStringLiteral("max_tokens"), QStringLiteral("unsupported_parameter"));
        for (const char *field : {"temperature", "top_p"})
            if (has(field) && body.value(QLatin1String(field)).toDouble() != 1.0)
                return openAiError(QStringLiteral("Unsupported value: '%1' does not support %2 with this model. Only "
                                                  "the default (1) value is supported.")
                                           .arg(QLatin1String(field), number(body.value(QLatin1String(field)))),
                                   QLatin1String(field), QStringLiteral("unsupported_value"));
        for (const char *field : {"logprobs", "top_logprobs"})
            if (has(field))
                return openAiError(QStringLiteral("Unsupported parameter: '%1' is not supported with this model.")
                                           .arg(QLatin1String(field)),
                                   QLatin1String(field), QStringLiteral("unsupported_parameter"));
        return {};
    case FakeModelKind::RefusesSystemRole:
        for (const auto &m : body.value(QStringLiteral("messages")).toArray())
            if (m.toObject().value(QStringLiteral("role")).toString() == QLatin1String("system"))
                return vllmError(QStringLiteral("System role not supported"), QJsonValue::Null);
        return {};
    case FakeModelKind::RefusesN:
        if (body.value(QStringLiteral("n")).toInt(1) > 1)
            return vllmError(QStringLiteral("n > 1 is not supported by this server: one choice per request"),
                             QStringLiteral("n"));
        return {};
    case FakeModelKind::RefusesLogprobs:
        if (has("logprobs") || has("top_logprobs"))
            return vllmError(QStringLiteral("logprobs is not supported by this model"), QStringLiteral("logprobs"));
        return {};
    }
    return {};
}

FakeLlmServer::Turn FakeLlmServer::turn(const QJsonObject &body, const QString &answer, bool cutOff,
                                        int answerTokens) const
{
    Turn t;
    t.message.insert(QStringLiteral("role"), QStringLiteral("assistant"));
    const int budget = budgetOf(body);
    switch (m_kind) {
    case FakeModelKind::OpenAiReasoning:
        if (budget < m_reasoningTokens + answerTokens) { // thought until the budget ran out
            t.message.insert(QStringLiteral("content"), QString());
            t.finishReason = QStringLiteral("length");
            t.completionTokens = t.reasoningTokens = budget;
            return t;
        }
        t.message.insert(QStringLiteral("content"), answer);
        t.completionTokens = m_reasoningTokens + answerTokens;
        t.reasoningTokens = m_reasoningTokens;
        break;
    case FakeModelKind::ThinkInline: {
        const QString open = QStringLiteral("<think>") + thinkingText();
        const QString block = open + QStringLiteral("</think>\n\n");
        if (budget < tokensOf(block)) { // cut off inside the thinking: the block never closes
            const QString cut = open.left(std::max(1, budget) * 4);
            t.message.insert(QStringLiteral("content"), cut);
            t.finishReason = QStringLiteral("length");
            t.completionTokens = std::max(1, budget);
            return t;
        }
        t.message.insert(QStringLiteral("content"), QString(block + answer));
        t.completionTokens = tokensOf(block) + answerTokens;
        break;
    }
    case FakeModelKind::ReasoningField: {
        const QString thinking = thinkingText();
        if (budget < tokensOf(thinking) + answerTokens) {
            t.message.insert(QStringLiteral("content"), QJsonValue::Null);
            t.message.insert(m_reasoningField, thinking.left(std::max(1, budget) * 4));
            t.finishReason = QStringLiteral("length");
            t.completionTokens = std::max(1, budget);
            return t;
        }
        t.message.insert(QStringLiteral("content"), answer);
        t.message.insert(m_reasoningField, thinking);
        t.completionTokens = tokensOf(thinking) + answerTokens;
        break;
    }
    case FakeModelKind::Plain:
    case FakeModelKind::RefusesSystemRole:
    case FakeModelKind::RefusesN:
    case FakeModelKind::RefusesLogprobs:
        t.message.insert(QStringLiteral("content"), answer);
        t.completionTokens = answerTokens;
        break;
    }
    t.finishReason = cutOff ? QStringLiteral("length") : QStringLiteral("stop");
    return t;
}

} // namespace rubric::test
