#pragma once

#include "methods/Method.h"
#include "rubric/Rubric.h"
#include "store/RubricStore.h"

#include <QHash>

namespace rubric {

struct Item;

/// G-Eval (Liu et al. 2023): the aspect's definition plus evaluation steps (auto chain of
/// thought: generated once by the generator and stored in the rubric as `step` criteria, or
/// written by the user in the rubric) plus the item. The score is the expected value over the
/// scale when the endpoint returns top_logprobs (`--logprobs`), else the mean of n samples
/// (default 20; one call with n choices where the provider supports it, else n calls).
///
/// Endpoints that ignore `n` (Ollama, the llama.cpp server) answer one choice: the missing
/// samples are asked one request each, and the project remembers that the endpoint ignores `n`,
/// so later runs ask one at a time from the start. A `--logprobs` answer without logprobs
/// falls back to the samples for that item (remembered too). The run's summary says which
/// scoring was used and why (`scoring`, `scoring_reason`).
///
/// Items stream through the run (RunContext::stream): one unit per item, no barrier.
///
/// Parameters (--set): geval.temperature (1.0, for samples), geval.max_tokens (5),
/// geval.top_logprobs (20), geval.steps_max_tokens (512).
class GEvalMethod : public Method
{
    Q_OBJECT
public:
    /// The phases of a run, in run order (MethodInfo::phases): the generated evaluation steps,
    /// then the scoring calls.
    static inline const QString kPhaseSteps = QStringLiteral("steps");
    static inline const QString kPhaseEvaluate = QStringLiteral("evaluate");

    explicit GEvalMethod(RunContext *context, QObject *parent = nullptr);

    Result<RunEstimate> estimate() override;
    void start() override;

    static constexpr const char *rootKey = "aspect";

private:
    Result<void> readParams();
    Result<JudgeRequest> stepsRequest();
    Rubric rubricFromSteps(const QStringList &steps, const QString &callKey) const;
    /// How one item's score is asked.
    enum class Mode { Logprobs, Choices, Singles };
    Mode mode() const;
    /// The parameter "logprobs" (--logprobs): ask for top_logprobs and weight the scale; unset: off.
    bool logprobs() const;
    /// The parameter "samples" (--samples): answers sampled per item without logprobs; unset: 20.
    int samples() const;
    /// The score prompt of an item under the rubric, with the run's sampling parameters.
    Result<JudgeRequest> scorePrompt(const Rubric &rubric, const Item &item);
    /// The requests of an item in `mode`. Singles: samples `from` … samples-1, one request each
    /// (sample index s); where the n-choice request of the item is already answered (the cache),
    /// it stands for the samples it holds.
    Result<QVector<JudgeRequest>> scoreRequests(const Rubric &rubric, const Item &item, Mode mode, int from = 0);
    void scoreItems();
    void onItemAnswered(int unit, const QVector<JudgeResponse> &responses);
    void askFollowUps();
    void onFollowUpAnswered(int unit, const QVector<JudgeResponse> &responses);
    /// Records an item from its samples (rows with scores in the scale or NaN).
    void recordSamples(const QString &itemId, QVector<CriterionScore> rows);
    void recordFailed(const QString &itemId, const QVector<JudgeResponse> &responses);
    /// Whether a score answer can be read: logprobs that give a score when they came back, else a
    /// choice whose text has a score on the scale (RunContext asks it once more if not; an answer
    /// at max_tokens that can be read, as logprobs at max_tokens 5 are, is not asked again).
    bool readableScore(const JudgeResponse &response) const;
    void finish();

    double m_temperature = 1.0;
    int m_maxTokens = 5;
    int m_topLogprobs = 20;
    int m_stepsMaxTokens = 512;
    bool m_choices = true;
    Rubric m_rubric;
    bool m_rescore = false; ///< scoring stored steps (no steps call in this run)
    QVector<int> m_items;   ///< indices into the target items this run asks (refused ones skipped)
    struct FollowUp
    {
        int item = 0;                 ///< index into the target items
        QVector<CriterionScore> rows; ///< the samples already in
        int from = 0;                 ///< the first sample still to ask
    };
    QVector<FollowUp> m_followUps;
    bool m_ignoresN = false;    ///< the endpoint answered one choice where n were asked
    bool m_noLogprobs = false;  ///< the endpoint returned no logprobs where they were asked
    int m_logprobFallbacks = 0; ///< items scored by samples because their answer had no logprobs
    int m_scored = 0, m_missing = 0, m_failed = 0;
};

} // namespace rubric
