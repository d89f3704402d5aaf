#pragma once

#include "methods/hpss/PromptAssembly.h"

#include <QString>
#include <QVector>

namespace rubric::hpss {

/// One in-context example of the pairwise template: a validation pair with the human verdict.
struct PairExample
{
    QString source;
    QString fact; ///< Topical-Chat: written in its own fact block
    QString outputA;
    QString outputB;
    bool prefersA = false;
};

/// Everything a pairwise prompt needs besides the strategy (PromptInputs' fields for two outputs).
struct PairwiseInputs
{
    TaskWording task;
    QString aspect; ///< written in lower case
    QString source;
    QString fact;
    QString outputA;
    QString outputB;
    QString criteria;  ///< the aspect definition (criteria human)
    QString reference; ///< the evaluator's own reference for the source (reference self)
    QVector<PairExample> examples;
    QString autocot;
    QString metrics;
};

/// "summaries", "responses", "sentences", "stories": a task noun's plural.
QString pluralNoun(const QString &noun);

/// The pairwise template set (paper App. I): the pointwise template's three components and six
/// orders, with MT-Bench's pairwise judge prompt (Zheng et al. 2023, "pair-v2": compare two answers,
/// avoid position and length bias, verdict "[[A]]", "[[B]]" or "[[C]]" for a tie) in place of the
/// rating instruction. The paper prints no pairwise template: the wording is OURS, built from the
/// task's own nouns and headers (README, HPSS section). The Scale factor does not exist here (the
/// strategy's scale is ignored; the pairwise space holds it fixed) and Self-Generated Criteria is
/// refused (StrategySpace::pairwise drops it). The result carries the text, the messages and the
/// component spans; no factor spans (the studio's highlighting is pointwise only).
Result<RenderedPrompt> renderPairwisePrompt(const PromptStrategy &strategy, const PairwiseInputs &inputs,
                                            const AssemblyOptions &options = {});

} // namespace rubric::hpss
