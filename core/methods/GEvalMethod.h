#pragma once

#include "methods/Method.h"
#include "rubric/Rubric.h"

#include <QHash>

namespace rubric {

struct Item;

/// G-Eval (Liu et al. 2023): the aspect's definition plus evaluation steps (auto chain of
/// thought: generated once by the generator and stored in the rubric as `step` criteria, or
/// written by the user in the rubric) plus the item. The score is the expected value over the
/// scale when the endpoint returns top_logprobs (`--logprobs`), else the mean of n samples
/// (default 20; one call with n choices where the provider supports it, else n calls).
///
/// Parameters (--set): geval.temperature (1.0, for samples), geval.max_tokens (5),
/// geval.top_logprobs (20), geval.steps_max_tokens (512).
class GEvalMethod : public Method
{
    Q_OBJECT
public:
    explicit GEvalMethod(RunContext *context, QObject *parent = nullptr);

    Result<RunEstimate> estimate() override;
    void start() override;

    static constexpr const char *rootKey = "aspect";

private:
    Result<void> readParams();
    Result<JudgeRequest> stepsRequest();
    Rubric rubricFromSteps(const QStringList &steps, const QString &callKey) const;
    Result<QVector<JudgeRequest>> scoreRequests(const Rubric &rubric, const Item &item);
    void scoreNextChunk();
    void onChunkAnswered(const QVector<JudgeResponse> &responses);

    double m_temperature = 1.0;
    int m_maxTokens = 5;
    int m_topLogprobs = 20;
    int m_stepsMaxTokens = 512;
    bool m_choices = true;
    Rubric m_rubric;
    bool m_rescore = false; ///< scoring stored steps (no steps call in this run)
    int m_next = 0;
    QVector<QPair<QString, int>> m_chunk; ///< item id, number of requests
    int m_scored = 0, m_missing = 0;
};

} // namespace rubric
