#pragma once

#include "rubric/Rubric.h"
#include "store/RubricStore.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>
#include <QVector>

#include <limits>

namespace rubric {

class Project;

/// One checklist question's answers on the items: item id → 1 (yes, meets the criterion, polarity
/// already applied) or 0 (no). Items without an answer are absent (or NaN).
struct QuestionAnswers
{
    QString key;
    QHash<QString, double> answers;
};

/// What one question did on the items (CheckEval question analytics).
struct QuestionStats
{
    QString key;
    int answered = 0;                                          ///< items with a yes/no answer
    double yesRate = std::numeric_limits<double>::quiet_NaN(); ///< share of yes; NaN when unanswered
    /// Point-biserial correlation with the human score: Pearson between the 0/1 answers and the
    /// human scores over the items that have both. NaN when it is undefined: fewer than two such
    /// items, a constant question (always yes or always no), or constant human scores; `note` says which.
    double discrimination = std::numeric_limits<double>::quiet_NaN();
    int correlationN = 0; ///< items with an answer and a human score
    QString constant;     ///< "yes" / "no" when every answer is the same (and there is one), else empty
    QString note;         ///< why discrimination is NaN, else empty
};

/// Two questions that ask the same thing in (nearly) the same words.
struct NearDuplicate
{
    QString first;          ///< the earlier question (tree order)
    QString second;         ///< the later one: stats["near_duplicate_of"] = first
    double similarity = 0;  ///< QuestionSimilarity::similarity
    bool identical = false; ///< equal after Checklist::normaliseQuestion
};

/// Per-question analytics of a checklist run: yes-rate, answered count, point-biserial
/// correlation with the human scores, constant questions, near-duplicate questions; and the
/// writer that puts them into the rubric's question stats (the shared checklist contract).
/// Pure functions.
class QuestionAnalytics
{
    Q_DECLARE_TR_FUNCTIONS(QuestionAnalytics)
public:
    /// QuestionSimilarity at or above which two questions of one checklist are flagged as near
    /// duplicates. Calibrated on 37 hand-labelled near-duplicate pairs among the 3,271 within-aspect
    /// pairs of the published CheckEval checklists (tests/methods/checkeval_near_duplicates.tsv):
    /// near the threshold of the highest F1: precision 0.26 and recall 0.54 there (20 of 76 flagged
    /// pairs labelled near duplicates, 20 of 37 found). No surface measure separates rewordings from
    /// questions on one topic much better (token Jaccard's best F1 is 0.34; its former 0.6 flagged
    /// none): the flag asks for a look, it is not a verdict.
    static constexpr double kNearDuplicateSimilarity = 0.39;

    /// One QuestionStats per entry of `answers` (same order). `human`: item id → human score.
    static QVector<QuestionStats> analyse(const QVector<QuestionAnswers> &answers, const QHash<QString, double> &human);

    /// Pairs of questions of `rubric` (all questions, tree order) whose similarity
    /// (QuestionSimilarity, idf over the rubric's questions) is at least `threshold` or that are
    /// identical after normalisation.
    static QVector<NearDuplicate> nearDuplicates(const Rubric &rubric, double threshold = kNearDuplicateSimilarity);
    /// Token Jaccard of the normalised questions (the former measure; kept for comparison).
    static double jaccard(const QString &a, const QString &b);

    /// The answers of sample 0 of the rubric's questions from stored criterion scores: score 1 / 0
    /// with parseStatus "ok" is an answer; anything else (NaN, "unparsed", "failed") is none.
    static QVector<QuestionAnswers> answersFromScores(const Rubric &rubric, const QVector<CriterionScore> &scores);

    /// Writes stats {"yes_rate", "discrimination", "answered", "constant" (only when constant),
    /// "near_duplicate_of" (only when flagged)} into the rubric's questions, replacing earlier
    /// values of these keys; other stats keys stay. An undefined figure (NaN) is left out, and
    /// a question with no answer gets answered = 0 and no yes_rate.
    static void writeStats(Rubric &rubric, const QVector<QuestionStats> &stats,
                           const QVector<NearDuplicate> &duplicates);

    /// The whole pass for one judge of the project: its latest rubric with the question stats
    /// written (answers from its criterion scores, human means of the rubric's aspect on
    /// `items`, every item when empty). Returns the rubric; saving it is the caller's choice.
    static Result<Rubric> forJudge(Project &project, const QString &judge, const QStringList &items = {});
};

} // namespace rubric
