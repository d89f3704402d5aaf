#pragma once

#include "rubric/Rubric.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>

#include <optional>

namespace rubric {

struct ItemCriterionScores;

/// How many questions of a checklist came from each stage of CheckEval's pipeline (the paper's
/// Tables 17–18): seeds, new ones from diversification and from elaboration (origin.stage),
/// those the filter removed (disabled with origin.filtered) and the final list (enabled).
struct StageCounts
{
    int seeds = 0;
    int diversification = 0;
    int elaboration = 0;
    int other = 0;   ///< questions with no (or an unknown) origin.stage
    int removed = 0; ///< disabled questions with origin.filtered
    int final = 0;   ///< enabled questions
};

/// Helpers for a CheckEval checklist (a Rubric in the shared checklist shape, see ChecklistIo).
/// Pure functions.
class Checklist
{
    Q_DECLARE_TR_FUNCTIONS(Checklist)
public:
    static StageCounts stageCounts(const Rubric &rubric);

    /// Lower case, every run of characters that are not letters or digits one space, trimmed:
    /// "Is it friendly, polite, and empathetic?" → "is it friendly polite and empathetic".
    static QString normaliseQuestion(const QString &text);

    /// A reason when the question reads so that "yes" means worse, else nullopt. The rule is
    /// deliberately simple: a negative-quality word (error, mistake, contradiction, repetitive,
    /// redundant, irrelevant, hallucination, missing, unnecessary, confusing, awkward, … see
    /// the list in Checklist.cpp) that is not negated. A negator (no, not, n't, without, free,
    /// avoid, never, lack, minimise, prevent, instead, "rather than", …) negates every such word
    /// after it in the same sentence until a contrast word (but, however, although, though, yet,
    /// whereas); "error-free" / "errors free" are negated too. Ironic or double-negated phrasings
    /// and flaws named without one of the listed words are not recognised.
    static std::optional<QString> negativePolarity(const QString &question);

    /// origin["inverted"]: the user said "yes" means worse for this question, so the scorer
    /// counts "no" as meeting the criterion.
    static bool isInverted(const Criterion &question);
    /// Toggles origin["inverted"] (sets it to true, or removes it).
    static void invert(Criterion &question);

    /// The checklist's sub-aspects as scores: per item, per sub-aspect, the share of the answered
    /// enabled questions of the sub-aspect that are met ("yes", or "no" for an inverted question;
    /// an answer is "yes" at a mean of 0.5 or more). Items and sub-aspects without an answered
    /// question are absent.
    static QHash<QString, QHash<QString, double>> subAspectShares(const Rubric &checklist,
                                                                  const QVector<ItemCriterionScores> &answers);
};

/// Checklist::stageCounts as a free function (the name the checklist contract uses).
inline StageCounts stageCounts(const Rubric &rubric)
{
    return Checklist::stageCounts(rubric);
}

} // namespace rubric
