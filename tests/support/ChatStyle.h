#pragma once

#include "FakeLlmServer.h"

#include <QJsonObject>

namespace rubric::test {

/// How a chat model dresses the synthetic judge's verdicts (issue 29): the same verdict, written
/// the way chat models write it — markdown emphasis, "Score (1-5): 4", "I would rate this a **4**
/// out of 5.", fenced JSON, a preamble with other numbers before the score; checklists as
/// `Q1: [Yes]`, `**Q1:** Yes`, `- Q1: **No**`, `Q1. Yes`. Which form an answer takes is drawn from a
/// hash of the prompt, so a replay gets the same text. Generated lists (hypotheses, criteria,
/// questions) are left as they are. Test code only.
FakeAnswer chatStyled(FakeAnswer answer, const QJsonObject &requestBody);

/// How an endpoint with structured answers (issue 29.3) writes the synthetic judge's verdict: where
/// the body carries a schema (`response_format`'s json_schema, `guided_json` or `json_schema`), the
/// verdict as that schema's JSON — `{"reasoning": <the text>, "score": n}` or `{"Q1": "Yes", …}`.
/// An answer without a schema, or with no verdict to put in it, is left as it is. Test code only.
FakeAnswer schemaStyled(FakeAnswer answer, const QJsonObject &requestBody);
/// The schema a request body carries in any structured-answer form (empty without one).
QJsonObject sentSchema(const QJsonObject &requestBody);

} // namespace rubric::test
