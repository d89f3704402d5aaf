#pragma once

#include "methods/Method.h"
#include "methods/checkeval/CheckEvalParams.h"
#include "rubric/Rubric.h"
#include "store/RubricStore.h"

#include <QHash>
#include <QSet>

namespace rubric {

struct Item;

/// CheckEval (Lee et al.; specs/checkeval.md): a checklist of yes/no questions (aspect →
/// sub-aspects → questions, "yes" = better) answered by the evaluator; an item's score is the
/// share of "yes" among the questions answered.
///
/// Start: the judge's latest rubric version when it has one (a resumed run, or a re-score after
/// edits in the studio); else the checklist named by `checklist` (a file or a preset) or copied
/// from `checklist_from`, saved as version 1 before any call.
///
/// Phases (in order): "diversify" (generator, one call per aspect: the paper's prompt gives all
/// key components and their seeds at once), "elaborate" (one call per sub-aspect with seeds: its
/// seeds at depth 2 of the outline, 3 to 10 sub-sub-questions each at depth 3), "filter" (one call
/// per aspect over the combined pool, JSON); they run when augment ≠ none or filter = on and the
/// checklist has not been through them (the root's origin["pipeline"] records it), and end with a
/// new rubric version. Then "evaluate": one call per (item, group) — a sub-aspect's enabled
/// questions, the whole aspect, or one question — for the target items and the annotated train
/// items (the question analytics' discrimination and the regression weights are measured on the
/// train split). A call whose answers leave questions out is asked once more for just those
/// (a distinct prompt, so a distinct cache key); what is still missing is stored unanswered
/// (NaN, "unparsed", with the raw answer), never as "no". Re-asks are not in the estimate.
///
/// After answering: stale answers are pruned (questions disabled, removed or reworded since),
/// the question stats (QuestionAnalytics) and, with weights=regression, the question weights are
/// written into the current version, and the version's alignment is recorded.
class CheckEvalMethod : public Method
{
    Q_OBJECT
public:
    /// The phases of a run, in run order (MethodInfo::phases): the checklist's augmentation
    /// (diversify, elaborate, filter; each where asked for), then the answers.
    static inline const QString kPhaseDiversify = QStringLiteral("diversify");
    static inline const QString kPhaseElaborate = QStringLiteral("elaborate");
    static inline const QString kPhaseFilter = QStringLiteral("filter");
    static inline const QString kPhaseEvaluate = QStringLiteral("evaluate");

    explicit CheckEvalMethod(RunContext *context, QObject *parent = nullptr);

    Result<RunEstimate> estimate() override;
    /// The parameters, and for a judge without a checklist yet the checklist to load (a file
    /// that does not parse is refused before the judge is created).
    Result<void> check() override;
    void start() override;

    /// One answering call's questions: a sub-aspect's enabled questions, the aspect's, or one.
    struct Group
    {
        QString subAspect; ///< key of the sub-aspect ("" for the whole aspect)
        QVector<Criterion> questions;
    };
    static QVector<Group> groupsOf(const Rubric &rubric, CheckEvalParams::Group mode);

private:
    Result<void> readParams();
    /// The checklist from `checklist` / `checklist_from`, as a checkeval rubric of the run's aspect.
    Result<Rubric> loadChecklist() const;
    QVariantMap context() const;
    Result<JudgeRequest> request(const QString &templateName, const QVariantMap &context, JudgeRole role);
    /// The answering request of one group on one item; `reask`: the follow-up for missing questions.
    Result<JudgeRequest> answerRequest(const QVector<Criterion> &questions, const Item &item, bool reask);
    /// Whether the checklist still has to go through augmentation and/or the filter.
    bool pipelinePending() const;

    // Augmentation and filter (CheckEvalAugment.cpp).
    Result<JudgeRequest> diversifyRequest(const Rubric &rubric);
    Result<QVector<JudgeRequest>> elaborateRequests(const Rubric &rubric, QStringList *subAspects);
    Result<JudgeRequest> filterRequest(const Rubric &rubric);
    /// Adds the parsed new questions to m_rubric; returns how many were added.
    int addDiversified(const QString &answer, const QString &callKey);
    int addElaborated(const QString &subAspect, const QString &answer, const QString &callKey);
    /// Disables the questions the filter's JSON answer left out; an error when the answer is not
    /// valid JSON of the asked shape.
    Result<int> applyFilter(const QString &answer);
    void runPipeline();
    void runElaborate();
    void runFilter(bool reask);
    void savePipelineVersion();

    // Answering (CheckEvalMethod.cpp).
    void evaluate();
    void onItemAnswered(int unit, const QVector<JudgeResponse> &responses);
    void askMissing();
    void recordItem(const QString &itemId, const QVector<CriterionScore> &rows);
    void finish();
    /// Question stats and weights into the current version (stats of that version's run).
    Result<void> writeMeasures();
    /// weights=regression: ridge fit of the human score on the train answers; rewrites the judge
    /// scores. Items in `refused` (a refused call) or without any answer read keep no score.
    Result<void> fitWeights(const QHash<QString, QHash<QString, double>> &answers, const QSet<QString> &refused);

    CheckEvalParams m_params;
    QStringList m_keyMetrics; ///< the project's aspects (the filter prompt's key metrics)
    Rubric m_rubric;
    QVector<Group> m_groups;
    QVector<Item> m_items; ///< the items this run answers (target ∪ annotated train; refused skipped)
    struct Pending
    {
        int item = 0;                        ///< index into m_items
        QHash<QString, CriterionScore> rows; ///< by question key
        QVector<QVector<Criterion>> missing; ///< per group with unanswered questions: those
    };
    QVector<Pending> m_pending;
    QSet<QString> m_written; ///< "item|key" rows written by this run
    int m_added[2] = {0, 0}; ///< questions added by diversification, elaboration
    int m_unplaced = 0;      ///< generated questions dropped (no known sub-aspect / seed, duplicates)
    int m_removed = 0;       ///< questions the filter disabled
    QStringList m_elaborateSubs;
    int m_scored = 0, m_missing = 0, m_failed = 0, m_reasked = 0, m_unanswered = 0;
    double m_coverageSum = 0;
    int m_coverageN = 0;
    bool m_pipelineRan = false;
};

} // namespace rubric
