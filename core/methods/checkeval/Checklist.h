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

    /// A reason when the question reads so that "yes" means worse, else nullopt. Two rules, each
    /// applied to what is not negated: (1) a flaw word (error, mistake, contradiction, repetitive,
    /// redundant, irrelevant, hallucination, missing, unnecessary, confusing, awkward, run-on, …
    /// see the list in Checklist.cpp); (2) a remedy clause — "should / must / needs … split,
    /// removed, corrected, fixed, rephrased, clarified, improved, …" — which asks whether
    /// something needs correcting, whatever the flaw is called. A negator (no, not, n't, without,
    /// free, avoid, never, lack, minimise, prevent, "rather than", …) negates what follows it in
    /// the same sentence until a contrast word (but, however, although, though, yet, whereas);
    /// "error-free" / "errors free" are negated too. Measured on the 230 published questions
    /// against hand labels (tests/methods/checkeval_polarity_labels.json): every flaw question
    /// found, no false alarm. Ironic or double-negated phrasings and flaws named neither way are
    /// not recognised.
    static std::optional<QString> negativePolarity(const QString &question);

    /// The questions the judge asks, in tree order: enabled questions none of whose ancestors
    /// (sub-aspects) is disabled. A disabled sub-aspect's questions are not asked, not counted in
    /// an item's score and not compared between judges — every caller reads this, not the
    /// questions' own enabled flags.
    static QVector<Criterion> askedQuestions(const Rubric &checklist);
    /// Whether `question` is among askedQuestions(checklist).
    static bool isAsked(const Rubric &checklist, const Criterion &question);

    /// origin["inverted"]: the user said "yes" means worse for this question, so the scorer
    /// counts "no" as meeting the criterion.
    static bool isInverted(const Criterion &question);
    /// Toggles origin["inverted"] (sets it to true, or removes it).
    static void invert(Criterion &question);

    /// The checklist's sub-aspects as scores: per item, per sub-aspect, the share of the answered
    /// enabled questions of the sub-aspect that are met (a stored score is meets-criterion, the
    /// polarity already applied; met at a mean of 0.5 or more). Items and sub-aspects without an
    /// answered question are absent.
    static QHash<QString, QHash<QString, double>> subAspectShares(const Rubric &checklist,
                                                                  const QVector<ItemCriterionScores> &answers);
};

/// Checklist::stageCounts as a free function (the name the checklist contract uses).
inline StageCounts stageCounts(const Rubric &rubric)
{
    return Checklist::stageCounts(rubric);
}

} // namespace rubric
