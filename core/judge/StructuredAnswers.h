#pragma once

#include "data/JudgeTypes.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace rubric {

/// Structured answers (issue 29.3): the JSON schema of a scoring request's answer shape and the
/// body fields each StructuredMode sends it in. Pure functions, any thread.
///
/// A schema goes only where the profile opts in (structuredAnswers not Off), the request has a
/// shape and the endpoint speaks the OpenAI protocol. The answer is read by AnswerParser as every
/// other answer is: the schema's `score` member and `Q1`… members are its strongest forms, and an
/// endpoint that ignores the schema is read from its text.
namespace StructuredAnswers {

/// Stable names for settings, run configurations and the command line: "off", "json_schema",
/// "guided_json", "llama_grammar".
QString modeName(StructuredMode mode);
std::optional<StructuredMode> modeFromName(const QString &name);
QStringList modeNames();

/// Whether `request` goes to `profile`'s endpoint with a schema (before any adaptation): the
/// profile opts in, the request has a shape and the provider speaks OpenAI's protocol.
bool applies(const ProviderProfile &profile, const JudgeRequest &request);

/// The JSON schema of `shape`, compact ("" for no shape). A score: an object with a `reasoning`
/// string and a `score` number within the scale; yes/no: `Q1`…`QN`, each "Yes" or "No". Both
/// require every member and allow no others.
QString schema(const AnswerShape &shape);

/// The body fields `mode` sends the schema of `shape` in, as a compact JSON object to merge into
/// an OpenAI chat-completions body ("" for Off or no shape):
/// JsonSchema `{"response_format": {"type": "json_schema", "json_schema": {"name", "schema", "strict": true}}}`,
/// GuidedJson `{"guided_json": schema}`, LlamaGrammar `{"json_schema": schema}`.
QString bodyFields(StructuredMode mode, const AnswerShape &shape);

/// What the schema adds to a request as sent to `profile`'s endpoint: bodyFields() where
/// applies(), else "" (for token estimates).
QString sentText(const ProviderProfile &profile, const JudgeRequest &request);

} // namespace StructuredAnswers
} // namespace rubric
