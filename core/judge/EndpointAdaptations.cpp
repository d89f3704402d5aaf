#include "judge/EndpointAdaptations.h"

#include "judge/EndpointJson.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::EndpointAdaptations", text);
}

/// The parts of an error body that say what was refused, lower-cased: OpenAI's
/// {"error": {"message", "param", "code"}}, vLLM's {"message", "param", "code"} at the top, a
/// FastAPI 422's {"detail": [{"loc": [..., "n"], "msg"}]}, or the text itself.
struct ErrorParts
{
    QString param;
    QString code;
    QString text;
};

QString str(const nlohmann::json &j, const char *field)
{
    const auto it = j.find(field);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()).toLower() : QString();
}

ErrorParts errorParts(const QByteArray &body)
{
    ErrorParts p;
    const nlohmann::json j = endpointJson::parse(body);
    if (!j.is_object()) {
        p.text = QString::fromUtf8(body).toLower();
        return p;
    }
    const auto read = [&p](const nlohmann::json &e) {
        p.param = str(e, "param");
        p.code = str(e, "code");
        p.text = str(e, "message");
    };
    if (const auto e = j.find("error"); e != j.end() && e->is_object())
        read(*e);
    else if (e != j.end() && e->is_string())
        p.text = QString::fromStdString(e->get<std::string>()).toLower();
    else
        read(j);
    if (const auto detail = j.find("detail"); detail != j.end()) {
        if (detail->is_string())
            p.text += QLatin1Char(' ') + QString::fromStdString(detail->get<std::string>()).toLower();
        else if (detail->is_array())
            for (const auto &d : *detail) {
                if (!d.is_object())
                    continue;
                p.text += QLatin1Char(' ') + str(d, "msg");
                if (const auto loc = d.find("loc");
                    loc != d.end() && loc->is_array() && !loc->empty() && loc->back().is_string() && p.param.isEmpty())
                    p.param = QString::fromStdString(loc->back().get<std::string>()).toLower();
            }
    }
    return p;
}

/// Whether the message says a parameter (or value) is not supported, as opposed to a bad value
/// of a supported one ("must be between 0 and 2", "is too large: … context length").
bool saysUnsupported(const ErrorParts &e)
{
    if (e.code == QLatin1String("unsupported_parameter") || e.code == QLatin1String("unsupported_value"))
        return true;
    static const char *const phrases[] = {"not supported", "unsupported",    "does not support", "doesn't support",
                                          "not allowed",   "not permitted",  "only supports",    "only the default",
                                          "must be 1",     "cannot be used", "not available"};
    return std::any_of(std::begin(phrases), std::end(phrases),
                       [&e](const char *p) { return e.text.contains(QLatin1String(p)); });
}

/// Whether the text names `word` as a word of its own (so "max_tokens" is not found in
/// "max_completion_tokens", nor "logprobs" in "top_logprobs").
bool names(const QString &text, const QString &word)
{
    const QRegularExpression re(QStringLiteral("(^|[^a-z0-9_])") + QRegularExpression::escape(word)
                                + QStringLiteral("($|[^a-z0-9_])"));
    return re.match(text).hasMatch();
}

bool namesParameter(const ErrorParts &e, Adaptation a)
{
    switch (a) {
    case Adaptation::MaxCompletionTokens:
        return e.param == QLatin1String("max_tokens") || names(e.text, QStringLiteral("max_tokens"));
    case Adaptation::NoTemperature:
        return e.param == QLatin1String("temperature") || names(e.text, QStringLiteral("temperature"));
    case Adaptation::NoTopP:
        return e.param == QLatin1String("top_p") || names(e.text, QStringLiteral("top_p"));
    case Adaptation::NoLogprobs:
        return e.param == QLatin1String("logprobs") || e.param == QLatin1String("top_logprobs")
               || names(e.text, QStringLiteral("logprobs")) || names(e.text, QStringLiteral("top_logprobs"));
    case Adaptation::OneChoice: {
        // "n" alone is too short a word to look for: only in the shapes servers write it.
        static const QRegularExpression re(
                QStringLiteral("(['\"`]n['\"`])|(^|[^a-z0-9_])n\\s*(=|>|must\\b)|parameter n\\b|\\bn parameter"));
        return e.param == QLatin1String("n") || re.match(e.text).hasMatch();
    }
    case Adaptation::FoldSystem: {
        static const QRegularExpression re(QStringLiteral("system (role|message|prompt)"));
        return re.match(e.text).hasMatch();
    }
    case Adaptation::NoStructured:
        for (const char *field : {"response_format", "guided_json", "json_schema"})
            if (e.param == QLatin1String(field) || names(e.text, QLatin1String(field)))
                return true;
        return false;
    case Adaptation::ReasoningBudget:
        return false;
    }
    return false;
}

QString number(double v)
{
    return QString::number(v, 'g', 6);
}

} // namespace

bool EndpointAdaptations::has(Adaptation a) const
{
    return std::any_of(m_items.cbegin(), m_items.cend(), [a](const Item &i) { return i.what == a; });
}

bool EndpointAdaptations::add(Adaptation a, const QString &why)
{
    if (has(a))
        return false;
    m_items.append({a, why});
    return true;
}

bool EndpointAdaptations::merge(const EndpointAdaptations &other)
{
    bool added = false;
    for (const Item &i : other.m_items)
        added = add(i.what, i.why) || added;
    return added;
}

QVector<Adaptation> EndpointAdaptations::list() const
{
    QVector<Adaptation> out;
    for (const Item &i : m_items)
        out.append(i.what);
    return out;
}

QStringList EndpointAdaptations::reasons() const
{
    QStringList out;
    for (const Item &i : m_items)
        out.append(i.what == Adaptation::ReasoningBudget ? reasoningWhy() : i.why);
    return out;
}

void EndpointAdaptations::setReasoningBudget(int tokens)
{
    m_reasoningBudget = std::max(0, tokens);
}

QString EndpointAdaptations::reasoningWhy() const
{
    return tr("reasoning model: %1-token budget on top of each request's max_tokens")
            .arg(QLocale(QLocale::English).toString(m_reasoningBudget));
}

int EndpointAdaptations::maxTokens(const JudgeRequest &request) const
{
    return request.maxTokens + (has(Adaptation::ReasoningBudget) ? m_reasoningBudget : 0);
}

QVector<ChatMessage> EndpointAdaptations::messages(const JudgeRequest &request) const
{
    if (!has(Adaptation::FoldSystem))
        return request.messages;
    QStringList system;
    QVector<ChatMessage> out;
    for (const ChatMessage &m : request.messages) {
        if (m.role == QLatin1String("system"))
            system.append(m.content);
        else
            out.append(m);
    }
    if (system.isEmpty())
        return out;
    const QString preamble = system.join(QStringLiteral("\n\n"));
    const auto user = std::find_if(out.begin(), out.end(),
                                   [](const ChatMessage &m) { return m.role == QLatin1String("user"); });
    if (user == out.end())
        out.prepend({QStringLiteral("user"), preamble});
    else
        user->content = preamble + QStringLiteral("\n\n") + user->content;
    return out;
}

QVector<Adaptation> EndpointAdaptations::applicable(ProviderKind kind, const JudgeRequest &request) const
{
    QVector<Adaptation> out;
    const auto consider = [&](Adaptation a, bool sent) {
        if (sent && !has(a))
            out.append(a);
    };
    const bool openAi = kind == ProviderKind::OpenAI;
    // Anthropic's max_tokens is required and has no other name; logprobs and n it never gets.
    consider(Adaptation::MaxCompletionTokens, openAi);
    consider(Adaptation::NoTemperature, true);
    consider(Adaptation::NoTopP, openAi || request.topP < 1.0);
    consider(Adaptation::NoLogprobs, openAi && request.logprobs);
    consider(Adaptation::OneChoice, openAi && request.n > 1);
    consider(Adaptation::FoldSystem,
             std::any_of(request.messages.cbegin(), request.messages.cend(),
                         [](const ChatMessage &m) { return m.role == QLatin1String("system"); }));
    consider(Adaptation::ReasoningBudget, true);
    // Only a request that carries a schema can have it refused (StructuredAnswers::applies).
    consider(Adaptation::NoStructured, openAi && m_structured != StructuredMode::Off && request.shape.isSet());
    return out;
}

std::optional<EndpointAdaptations::Refusal> EndpointAdaptations::refusal(ProviderKind kind, const JudgeRequest &request,
                                                                         int httpStatus, const QByteArray &body) const
{
    if (httpStatus != 400 && httpStatus != 422)
        return std::nullopt;
    const ErrorParts e = errorParts(body);
    if (!saysUnsupported(e) && !(e.text.contains(QLatin1String("max_completion_tokens"))))
        return std::nullopt;
    // error.param names the parameter exactly where the endpoint gives it: then only that one
    // (one already adapted, or not sent, is no adaptation: the request fails as it would have).
    static const QStringList parameters{
            QStringLiteral("max_tokens"),      QStringLiteral("temperature"),  QStringLiteral("top_p"),
            QStringLiteral("logprobs"),        QStringLiteral("top_logprobs"), QStringLiteral("n"),
            QStringLiteral("response_format"), QStringLiteral("guided_json"),  QStringLiteral("json_schema")};
    const bool byParam = parameters.contains(e.param);
    for (Adaptation a : applicable(kind, request)) {
        const bool named = byParam ? namesParameter(ErrorParts{e.param, e.code, QString()}, a) : namesParameter(e, a);
        if (!named)
            continue;
        // A max_tokens message that only suggests max_completion_tokens counts; other parameters
        // need the message (or code) to say they are not supported.
        if (a != Adaptation::MaxCompletionTokens && !saysUnsupported(e))
            continue;
        switch (a) {
        case Adaptation::MaxCompletionTokens:
            return Refusal{a, tr("max_tokens refused: sending max_completion_tokens")};
        case Adaptation::NoTemperature: {
            static const QRegularExpression fallback(QStringLiteral("default \\(([^)]+)\\)"));
            const auto m = fallback.match(e.text);
            return Refusal{a, m.hasMatch() ? tr("temperature %1 refused: using the endpoint's default (%2)")
                                                     .arg(number(request.temperature), m.captured(1))
                                           : tr("temperature %1 refused: using the endpoint's default")
                                                     .arg(number(request.temperature))};
        }
        case Adaptation::NoTopP:
            return Refusal{a, tr("top_p %1 refused: using the endpoint's default").arg(number(request.topP))};
        case Adaptation::NoLogprobs:
            return Refusal{a, tr("logprobs refused: asking without them")};
        case Adaptation::OneChoice:
            return Refusal{a, tr("n refused: one choice per request")};
        case Adaptation::FoldSystem:
            return Refusal{a, tr("system role refused: folded into the user message")};
        case Adaptation::NoStructured:
            return Refusal{a, tr("%1 refused: reading the answers as text")
                                      .arg(m_structured == StructuredMode::GuidedJson ? QStringLiteral("guided_json")
                                           : m_structured == StructuredMode::LlamaGrammar
                                                   ? QStringLiteral("json_schema")
                                                   : QStringLiteral("response_format"))};
        case Adaptation::ReasoningBudget:
            break;
        }
    }
    return std::nullopt;
}

bool EndpointAdaptations::thoughtOut(const JudgeResponse &response) const
{
    // The answer as parsed (the engine asks before it has a status): a failure has no choices.
    if (response.choices.isEmpty())
        return false;
    bool signs = response.tokensReasoning > 0 || has(Adaptation::MaxCompletionTokens);
    for (const JudgeChoice &c : response.choices) {
        if (!c.answer().isEmpty() || !c.cutOff())
            return false;
        // An answer() that is empty while the text is not: a think block that never closed.
        signs = signs || !c.reasoning.trimmed().isEmpty() || !c.text.trimmed().isEmpty();
    }
    return signs;
}

QString EndpointAdaptations::name(Adaptation a)
{
    switch (a) {
    case Adaptation::MaxCompletionTokens:
        return QStringLiteral("max_completion_tokens");
    case Adaptation::NoTemperature:
        return QStringLiteral("no_temperature");
    case Adaptation::NoTopP:
        return QStringLiteral("no_top_p");
    case Adaptation::NoLogprobs:
        return QStringLiteral("no_logprobs");
    case Adaptation::OneChoice:
        return QStringLiteral("one_choice");
    case Adaptation::FoldSystem:
        return QStringLiteral("fold_system");
    case Adaptation::ReasoningBudget:
        return QStringLiteral("reasoning_budget");
    case Adaptation::NoStructured:
        return QStringLiteral("no_structured");
    }
    return {};
}

std::optional<Adaptation> EndpointAdaptations::fromName(const QString &name)
{
    for (Adaptation a :
         {Adaptation::MaxCompletionTokens, Adaptation::NoTemperature, Adaptation::NoTopP, Adaptation::NoLogprobs,
          Adaptation::OneChoice, Adaptation::FoldSystem, Adaptation::ReasoningBudget, Adaptation::NoStructured})
        if (EndpointAdaptations::name(a) == name)
            return a;
    return std::nullopt;
}

QString EndpointAdaptations::toJson() const
{
    nlohmann::json list = nlohmann::json::array();
    for (const Item &i : m_items)
        list.push_back({{"name", name(i.what).toStdString()}, {"why", i.why.toStdString()}});
    return QString::fromStdString(list.dump());
}

std::optional<EndpointAdaptations> EndpointAdaptations::fromJson(const QString &json)
{
    const std::string text = json.toStdString();
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array())
        return std::nullopt;
    EndpointAdaptations out;
    for (const auto &e : j) {
        if (!e.is_object() || !e.contains("name") || !e["name"].is_string())
            return std::nullopt;
        const auto a = fromName(QString::fromStdString(e["name"].get<std::string>()));
        if (!a)
            continue;
        out.add(*a, QString::fromStdString(e.value("why", std::string())));
    }
    return out;
}

} // namespace rubric
