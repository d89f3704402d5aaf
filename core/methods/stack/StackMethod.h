#pragma once

#include "learn/Aggregator.h"
#include "methods/JudgeFeatures.h"
#include "methods/Method.h"
#include "rubric/Rubric.h"

namespace rubric {

/// The stacked judge: no prompt of its own. Its criteria are criteria other judges measured on the
/// same aspect (by default every enabled criterion of every judge, and each judge's own score unless
/// that score was itself fitted on the train labels), and its score is one of core/learn's
/// aggregators fitted on the train split's human scores, cross-validated there with HD-Eval's
/// figures (train r, cross-validated r, the overfitting warning, permutation importance). It sends
/// no call: everything comes from the store. It refuses, naming the criterion, when a chosen
/// criterion was never scored on an item it needs (a train item with a human score, or an item to
/// score).
///
/// Its rubric: the aspect → one node per source judge → one node per criterion (key "judge/key",
/// "judge/score" for a judge's own score) with its importance. The root keeps the aggregator's
/// description ("aggregator") and model ("aggregator_model"); the criterion scores are copied under
/// the judge so every view and `rubric explain` read them like any judge's.
///
/// Parameters (--set): judges, criteria, judge_scores, aggregator, ridge_lambda, cv_folds,
/// importance_repeats, seed.
class StackMethod : public Method
{
    Q_OBJECT
public:
    explicit StackMethod(RunContext *context, QObject *parent = nullptr);

    Result<RunEstimate> estimate() override;
    Result<void> check() override;
    void start() override;

    static constexpr const char *rootKey = "aspect";
    static constexpr const char *fitPhase = "fit";
    static constexpr const char *judgeNodePrefix = "judge:";

private:
    struct Params
    {
        QStringList judges;   ///< empty: every judge on the aspect but this one and other stacked judges
        QStringList criteria; ///< column names; empty: every column of the judges
        bool judgeScores = true;
        learn::AggregatorSettings aggregator;
        int cvFolds = 5;
        int importanceRepeats = 5;
        quint64 seed = 1;
    };
    Result<void> readParams();
    /// The chosen columns, and (default choice) the judge scores left out with why.
    Result<QVector<JudgeFeature>> chooseFeatures(QStringList *leftOut);
    /// The table of the chosen columns on the train and target items, or the refusal.
    Result<JudgeFeatureTable> readTable(const QVector<JudgeFeature> &features);
    Result<QVariantMap> fitAndRecord();
    void finish();

    Params m_params;
};

} // namespace rubric
