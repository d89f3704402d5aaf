#include "judge/StructuredAnswers.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace rubric::StructuredAnswers {
namespace {

// The members keep the order they are written in: a constrained decoder writes them in the
// schema's order, so the reasoning comes before the score and Q2 before Q10.
using ordered = nlohmann::ordered_json;

ordered number(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15)
        return ordered(static_cast<long long>(v));
    return ordered(v);
}

ordered schemaJson(const AnswerShape &shape)
{
    ordered properties = ordered::object();
    ordered required = ordered::array();
    switch (shape.kind) {
    case AnswerShape::Kind::None:
        return {};
    case AnswerShape::Kind::Score:
        properties["reasoning"] = {{"type", "string"}};
        properties["score"] = {{"type", "number"}, {"minimum", number(shape.min)}, {"maximum", number(shape.max)}};
        required = ordered::array({"reasoning", "score"});
        break;
    case AnswerShape::Kind::YesNo:
        for (int i = 1; i <= std::max(0, shape.questions); ++i) {
            const std::string q = "Q" + std::to_string(i);
            properties[q] = {{"type", "string"}, {"enum", ordered::array({"Yes", "No"})}};
            required.push_back(q);
        }
        break;
    }
    return {{"type", "object"}, {"properties", properties}, {"required", required}, {"additionalProperties", false}};
}

const char *schemaName(const AnswerShape &shape)
{
    return shape.kind == AnswerShape::Kind::YesNo ? "yes_no_answers" : "score";
}

QString text(const ordered &j)
{
    return QString::fromStdString(j.dump());
}

} // namespace

QString modeName(StructuredMode mode)
{
    switch (mode) {
    case StructuredMode::Off:
        return QStringLiteral("off");
    case StructuredMode::JsonSchema:
        return QStringLiteral("json_schema");
    case StructuredMode::GuidedJson:
        return QStringLiteral("guided_json");
    case StructuredMode::LlamaGrammar:
        return QStringLiteral("llama_grammar");
    }
    return QStringLiteral("off");
}

std::optional<StructuredMode> modeFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    for (StructuredMode m :
         {StructuredMode::Off, StructuredMode::JsonSchema, StructuredMode::GuidedJson, StructuredMode::LlamaGrammar})
        if (modeName(m) == n)
            return m;
    return std::nullopt;
}

QStringList modeNames()
{
    return {QStringLiteral("off"), QStringLiteral("json_schema"), QStringLiteral("guided_json"),
            QStringLiteral("llama_grammar")};
}

bool applies(const ProviderProfile &profile, const JudgeRequest &request)
{
    return profile.kind == ProviderKind::OpenAI && profile.structuredAnswers != StructuredMode::Off
           && request.shape.isSet();
}

QString schema(const AnswerShape &shape)
{
    return shape.isSet() ? text(schemaJson(shape)) : QString();
}

QString bodyFields(StructuredMode mode, const AnswerShape &shape)
{
    if (!shape.isSet())
        return {};
    switch (mode) {
    case StructuredMode::Off:
        return {};
    case StructuredMode::JsonSchema:
        return text(
                {{"response_format",
                  {{"type", "json_schema"},
                   {"json_schema", {{"name", schemaName(shape)}, {"schema", schemaJson(shape)}, {"strict", true}}}}}});
    case StructuredMode::GuidedJson:
        return text({{"guided_json", schemaJson(shape)}});
    case StructuredMode::LlamaGrammar:
        return text({{"json_schema", schemaJson(shape)}});
    }
    return {};
}

QString sentText(const ProviderProfile &profile, const JudgeRequest &request)
{
    return applies(profile, request) ? bodyFields(profile.structuredAnswers, request.shape) : QString();
}

} // namespace rubric::StructuredAnswers
