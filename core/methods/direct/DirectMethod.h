#pragma once

#include "methods/Method.h"
#include "rubric/Rubric.h"

namespace rubric {

struct Item;
struct JudgeRequest;
struct JudgeResponse;

/// Direct scoring: the aspect's definition and the item, one call per item, no rubric — the
/// baseline that HD-Eval and HPSS compare their rubrics with ("direct scoring"). The judge's
/// rubric is the aspect alone (one criterion, the root), so every view shows its scores like any
/// other judge's. The answer is read by the shared reader (AnswerParser::readScore on the aspect's
/// scale); an answer without a score is asked once more (RunContext), then stored as unparsed.
///
/// Parameters (--set): temperature (0), max_tokens (16).
class DirectMethod : public Method
{
    Q_OBJECT
public:
    explicit DirectMethod(RunContext *context, QObject *parent = nullptr);

    Result<RunEstimate> estimate() override;
    Result<void> check() override;
    void start() override;

    static constexpr const char *rootKey = "aspect";
    static constexpr const char *evaluatePhase = "evaluate";

private:
    Result<void> readParams();
    Result<JudgeRequest> scoreRequest(const Item &item);
    double readScore(const JudgeResponse &response) const;
    /// The judge's rubric: the latest version, or version 1 (the aspect alone), saved.
    Result<void> ensureRubric();
    void onAnswered(const Item &item, const JudgeResponse &response);
    void finish();

    double m_temperature = 0;
    int m_maxTokens = 16;
    Rubric m_rubric;
    QVector<int> m_items; ///< indices into the target items this run asks (refused ones skipped)
    int m_scored = 0, m_missing = 0, m_failed = 0;
};

} // namespace rubric
