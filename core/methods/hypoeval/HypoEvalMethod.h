#pragma once

#include "methods/Method.h"
#include "methods/hypoeval/HypoEvalAlgorithm.h"
#include "methods/hypoeval/Literature.h"
#include "rubric/Rubric.h"
#include "store/RubricStore.h"

#include <QMap>

#include <memory>

namespace rubric {

struct Item;

/// HypoEval (Li, Li & Tan 2025; specs/hypoeval.md): runs HypoEvalAlgorithm on the train split
/// through the judge engines (generator for generation and redundancy checks, refiner for
/// refinements, evaluator for per-hypothesis scores), saves the whole bank as a rubric version
/// (the H_ev selected hypotheses enabled; origin, reward history and train correlations in each
/// criterion), then scores the target items on every enabled hypothesis with chain of thought
/// (1 call per item and hypothesis) and stores the unweighted mean as the judge score.
///
/// The literature (the parameter "literature", optional) is a folder of papers as text (*.txt, *.md)
/// and of summaries (*.summary.txt, *.summary.md). A paper with no summary beside it is first
/// summarised by the generator (one call each, phase "literature-summary", §2.1 step 3); a
/// summary file is taken as written (the user's or an edited one). The summaries fill the
/// prompts' relevant-papers slot and are kept in the rubric's root criterion.
///
/// A rubric already saved for the judge (e.g. edited by the user) is used as is; the
/// preparation is skipped. Parameters: see HypoEvalParams (--set KEY=VALUE).
class HypoEvalMethod : public Method
{
    Q_OBJECT
public:
    explicit HypoEvalMethod(RunContext *context, QObject *parent = nullptr);
    ~HypoEvalMethod() override;

    Result<RunEstimate> estimate() override;
    void start() override;

private:
    Result<void> readParams();
    /// The rendered template as a request with the run's sampling parameters (template noted).
    Result<JudgeRequest> request(const QString &templateName, const QVariantMap &context);
    Result<JudgeRequest> summaryRequest(const LiteraturePaper &paper);
    void startPreparation();
    /// The role whose profile answers a task: refinements the refiner, scores the evaluator,
    /// generations and redundancy checks the generator.
    static JudgeRole roleOf(HypoTask::Kind kind);
    Result<JudgeRequest> requestFor(const HypoEvalAlgorithm &algo, const HypoTask &task);
    HypoAnswer answerOf(const HypoTask &task, const QString &text) const;
    /// What --estimate says of a preparation that has not saved its rubric yet (see estimate()).
    Result<void> estimatePreparation(RunEstimate &e, QVector<Criterion> &selected, int &evalMin, int &evalMax);
    Result<JudgeRequest> scoreRequest(const QString &hypothesis, const Item &item);
    QVariantList observations(const QStringList &itemIds) const;
    void runBatch();
    void onBatchAnswered(const QVector<HypoTask> &tasks, const QVector<JudgeResponse> &responses);
    void savePreparedRubric();
    /// Streams the target items (one unit each: a request per selected hypothesis).
    void evaluate();
    void onEvaluated(const QString &itemId, const QVector<JudgeResponse> &responses);
    /// After re-scoring an existing version: drops stale criterion scores, records alignment.
    Result<void> finishRescore();

    HypoEvalParams m_params;
    QVector<LiteraturePaper> m_papers;
    QString m_literature; ///< L: the summaries, as the prompts' relevant-papers slot
    std::unique_ptr<HypoEvalAlgorithm> m_algo;
    QHash<QString, CriterionScore> m_selectionScores; ///< "key|item" → score from the selection phase
    Rubric m_rubric;
    QVector<Criterion> m_evalHyps;
    QVector<int> m_items; ///< indices into the target items this run asks (refused ones skipped)
    int m_scored = 0, m_missing = 0, m_failed = 0;
    int m_tooFew = 0;              ///< items left unscored: fewer parsed hypotheses than the minimum
    QMap<int, int> m_parsedCounts; ///< parsed hypotheses per item → items (answered items)
    /// "hypothesis key|item" → the call key of the request this run built for it (answers not
    /// asked again only): finishRescore() knows these rows are current without rebuilding them.
    QHash<QString, QString> m_askedKeys;
    /// Whether a score answer can be read on the aspect's scale (RunContext re-asks it once if not).
    bool readableScore(const JudgeResponse &response) const;
    bool m_rescore = false; ///< scoring a stored rubric version (no preparation in this run)
};

} // namespace rubric
