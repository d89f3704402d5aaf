#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace rubric::answer {

/// Hypotheses of a generation/refinement answer: "hypothesis1. …", "hypothesis 2: …" (the
/// format HypoEval asks for), else a numbered list "1. …". Whitespace-normalised, in order.
QStringList hypotheses(const QString &text);
/// The steps of a G-Eval auto-CoT answer, read as a generated list by the shared reader
/// (AnswerParser::parseList: "1.", "**1.**", bullets, continuation lines); non-empty lines when unlisted.
QStringList steps(const QString &text);
/// The last "Final answer: yes|no" (brackets and case ignored); nullopt when absent.
std::optional<bool> finalYesNo(const QString &text);
/// The reasoning before the final score line ("Final score: …" / "{Final score: …}"), trimmed.
QString reasoningBeforeScore(const QString &text);

} // namespace rubric::answer
