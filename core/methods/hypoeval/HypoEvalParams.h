#pragma once

#include "util/Result.h"

#include <QVariantMap>

namespace rubric {

/// HypoEval's hyperparameters (specs/hypoeval.md §2.8), paper defaults. Set from
/// `--set KEY=VALUE` pairs through fromSettings(); unknown keys and bad values are errors.
struct HypoEvalParams
{
    int initSamples = 5;         ///< |S_init|                         key init_samples
    int initHypotheses = 5;      ///< |H_init|                         key init_hypotheses
    int hypothesesPerCall = 5;   ///< <num_hypotheses> of generate/refine (inferred) key per_call
    int topK = 10;               ///< k                                key k
    double theta = 0.5;          ///< wrong-prediction threshold (on 1–5, see fitScale) key theta
    double alpha = 0.5;          ///< UCB exploration coefficient       key alpha
    double a = 1.0;              ///< exploitation a − b·err²           key a
    double b = 1.0 / 16.0;       ///< (on 1–5, see fitScale)             key b
    int wHyp = 3;                ///< wrong top-k predictions that file a sample (not in the paper; inferred) key w_hyp
    int wMax = 10;               ///< wrong-bank size that triggers generation key w_max
    int refineRounds = 6;        ///< N_refine, odd = data, even = literature key refine_rounds
    int hMax = 20;               ///< bank size                         key h_max
    int hEv = 5;                 ///< hypotheses used at evaluation     key h_ev
    quint32 seed = 42;           ///< draws S_init, update order, union sampling key seed
    bool mergeWholeBank = false; ///< false: top-H_max of H_top ∪ H_W (paper); true: H^{t-1} ∪ H_W key merge=top|all
    double scaleMin = 1;         ///< the evaluator's score scale       key scale_min
    double scaleMax = 5;         ///<                                   key scale_max
    double temperature = 1e-5;   ///< sampling temperature of every call (upstream code) key temperature
    int maxTokens = 4000;        ///< max tokens of every call (upstream code) key max_tokens
    /// Training items a hypothesis must have a parsed score on to be selectable (not in the paper):
    /// a Pearson on two points is ±1. 0 = automatic, max(5, ⌈train/2⌉) capped at the train size. key min_parsed
    int minParsed = 0;
    /// Hypotheses whose answer on an item must give a score for the item to be scored (their
    /// mean); fewer leaves the item unscored. 0 = automatic: a majority of the hypotheses used,
    /// ⌊n/2⌋ + 1 (3 of 5). key min_hypotheses
    int minHypotheses = 0;

    /// The minimum of parsed hypotheses on an item for `count` hypotheses (see minHypotheses).
    int minHypothesesFor(int count) const;
    /// θ and b are given on the paper's 1–5 scale (θ = 0.5 is half a point of a range of 4;
    /// b = 1/16 = 1/4² keeps a − b·err² within [a − 1, a]), whoever sets them (the run pane sends
    /// them always). For the scale scaleMin…scaleMax, with R = scaleMax − scaleMin, the run uses
    /// θ·R/4 and b·16/R²: 1–5 keeps the values; 1–3 with the defaults: θ = 0.25, b = 1/4; 0–1:
    /// θ = 0.125, b = 1. Call once, after the scale is set.
    void fitScale();

    /// The minimum of parsed training items for `trainSize` training items (see minParsed).
    int minParsedFor(int trainSize) const;

    static Result<HypoEvalParams> fromSettings(const QVariantMap &settings);
    QVariantMap toMap() const;
    static QStringList keys();
};

} // namespace rubric
