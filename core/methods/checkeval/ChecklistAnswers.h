#pragma once

#include "rubric/Rubric.h"
#include "store/RubricStore.h"

#include <QHash>
#include <QString>
#include <QVector>

#include <limits>

namespace rubric::checkeval {

/// The answers of one answering call, question index (1-based, as numbered in the prompt) →
/// yes (true) / no (false), read by the shared answer reader (AnswerParser::parseYesNo: `Q1: Yes`,
/// `Q1: [Yes]`, `**Q1:** Yes`, `- Q1: **No**`, `Q1. Yes`, "Q1: No obvious errors, so Yes", a JSON
/// object; reasoning blocks left out). The upstream loose regex that finds "no" inside "not" or
/// "know" is not used. When a model answers an index twice, the first answer counts (a later line
/// is a correction or a restatement we cannot tell apart; the first is what it committed to).
/// Indices outside 1…`questions` are ignored.
QHash<int, bool> parseAnswers(const QString &text, int questions);

/// One item's checklist score from its answers to the enabled questions.
struct ItemChecklistScore
{
    int yes = 0;       ///< answers meeting the criterion (after inversion)
    int answered = 0;  ///< questions with a yes/no answer
    int questions = 0; ///< enabled questions
    /// yes / answered (NaN when none answered); with the strict policy yes / questions.
    double score = std::numeric_limits<double>::quiet_NaN();
    double coverage = std::numeric_limits<double>::quiet_NaN(); ///< answered / questions
};

/// Scores an item from its stored answers (criterion key → 1, 0 or NaN) on the rubric's enabled
/// questions. `missingIsNo`: the strict policy (an unanswered question counts as "no").
ItemChecklistScore scoreItem(const Rubric &rubric, const QHash<QString, double> &answers, bool missingIsNo);

/// Coverage per item (answered / enabled questions) from stored criterion scores: the studio and
/// the exports call this, since a judge score has no room for a second figure. Items without any
/// stored answer to the rubric's enabled questions are absent.
QHash<QString, double> checklistCoverage(const Rubric &rubric, const QVector<CriterionScore> &scores);

} // namespace rubric::checkeval
