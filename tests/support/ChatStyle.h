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

} // namespace rubric::test
