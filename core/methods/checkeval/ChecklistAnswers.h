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

/// The one place a question's polarity is applied: whether the judge's answer (`yes`) meets the
/// question's criterion — "yes", or "no" for a question inverted because its "yes" means worse.
/// Stored answers keep both (CriterionScore::answer the literal answer, CriterionScore::score
/// this); everything downstream (item scores, sub-aspect shares, the grid's colours, analytics,
/// agreement) reads `score` and never inverts again.
bool meetsCriterion(const Criterion &question, bool yes);

/// One item's checklist score from its answers to the enabled questions.
struct ItemChecklistScore
{
    int yes = 0;       ///< answers meeting the criterion (stored scores of 1)
    int answered = 0;  ///< questions with a yes/no answer
    int questions = 0; ///< enabled questions
    /// yes / answered (NaN when none answered); with the strict policy yes / questions.
    double score = std::numeric_limits<double>::quiet_NaN();
    double coverage = std::numeric_limits<double>::quiet_NaN(); ///< answered / questions
};

/// Scores an item from its stored answers (criterion key → 1 met, 0 not met, NaN) on the questions
/// the rubric asks (Checklist::askedQuestions: enabled, under an enabled sub-aspect). `missingIsNo`: the strict policy
/// (an unanswered question counts as "no").
ItemChecklistScore scoreItem(const Rubric &rubric, const QHash<QString, double> &answers, bool missingIsNo);

/// Coverage per item (answered / enabled questions) from stored criterion scores: the studio and
/// the exports call this, since a judge score has no room for a second figure. Items without any
/// stored answer to the rubric's enabled questions are absent.
QHash<QString, double> checklistCoverage(const Rubric &rubric, const QVector<CriterionScore> &scores);

} // namespace rubric::checkeval
