#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace rubric::answer {

/// Hypotheses of a generation/refinement answer: "hypothesis1. …", "hypothesis 2: …" (the
/// format HypoEval asks for), else a numbered list "1. …". Whitespace-normalised, in order.
QStringList hypotheses(const QString &text);
/// Numbered steps ("1. …" lines) of a G-Eval auto-CoT answer; non-empty lines when unnumbered.
QStringList steps(const QString &text);
/// The last "Final answer: yes|no" (brackets and case ignored); nullopt when absent.
std::optional<bool> finalYesNo(const QString &text);
/// The reasoning before the final score line ("Final score: …" / "{Final score: …}"), trimmed.
QString reasoningBeforeScore(const QString &text);

} // namespace rubric::answer
