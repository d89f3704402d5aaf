#include "methods/MethodRegistry.h"
#include "methods/hpss/HpssMethod.h"

#include <QtGlobal>

namespace rubric {

MethodInfo hpssDescriptor()
{
    using T = MethodParam::Type;
    MethodInfo m;
    m.name = QLatin1String(hpss::kMethodName);
    m.title = QStringLiteral("HPSS");
    m.summary = QT_TRANSLATE_NOOP("rubric::MethodParams",
                                  "HPSS: searches the prompting strategies (scale, examples, criteria, reference, "
                                  "chain of thought, AutoCoT, metrics, order) for the judge prompt that agrees best "
                                  "with the human scores on the train split (Wen et al., 2025).");
    m.create = [](RunContext *ctx) { return std::unique_ptr<Method>(new HpssMethod(ctx)); };
    m.kinds = {CriterionKind::Aspect, CriterionKind::Criterion};
    m.phases = {HpssMethod::kPhaseAuxiliary, HpssMethod::kPhaseSearch, HpssMethod::kPhaseEvaluate};
    m.params = {
            {QStringLiteral("search"),
             T::Choice,
             QStringLiteral("hpss"),
             0,
             0,
             0,
             {QStringLiteral("hpss"), QStringLiteral("greedy"), QStringLiteral("stepwise"), QStringLiteral("mutation"),
              QStringLiteral("random"), QStringLiteral("opro"), QStringLiteral("ape")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Search"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "HPSS, or a baseline in the same space: greedy, stepwise greedy, random one-factor "
                               "mutation (the paper's “w/o all”), plain random search, OPRO-style (the evaluator "
                               "proposes each strategy from the best ones so far), or APE-style (free-text prompts: "
                               "the evaluator writes variations of the five best so far).")},
            {QStringLiteral("setting"),
             T::Choice,
             QStringLiteral("pointwise"),
             0,
             0,
             0,
             {QStringLiteral("pointwise"), QStringLiteral("pairwise")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Setting"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Pointwise: each prompt rates one output (Spearman). Pairwise (paper App. I): each "
                               "prompt compares two outputs of the same source whose human scores differ and names "
                               "the better one; the search maximises accuracy over 1,728 strategies (no scale, no "
                               "self-generated criteria).")},
            {QStringLiteral("budget"),
             T::Int,
             71,
             1,
             12960,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Strategies evaluated"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Strategies scored on the whole validation split, the 21 initial ones included "
                               "(paper: 71).")},
            {QStringLiteral("population"),
             T::Int,
             5,
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Population k"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Best strategies kept per round (paper: k = 5).")},
            {QStringLiteral("mutations"),
             T::Int,
             2,
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Mutations g"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Mutations per population member and round (paper: g = 2).")},
            {QStringLiteral("exploit"),
             T::Double,
             0.2,
             0,
             1,
             2,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Exploitation ρ"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Probability that a step jumps to the unexplored strategy with the largest summed "
                               "advantage (paper: 0.2).")},
            {QStringLiteral("temperature"),
             T::Double,
             5.0,
             0.01,
             100,
             2,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Softmax temperature τ"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Temperature of the softmax over the neighbours' advantage gains, Spearman × 100 "
                               "(paper: 5). Scoring itself is greedy.")},
            {QStringLiteral("ucb"),
             T::Double,
             4.0,
             0,
             100,
             2,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Exploration weight λ"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Weight of the UCB bonus for rarely seen values (paper: 4).")},
            {QStringLiteral("seed"),
             T::Int,
             1,
             0,
             2147483647,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Seed"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Seed of the search's random choices (the in-context examples have their own seed).")},
            {QStringLiteral("example_seed"),
             T::Int,
             1,
             0,
             2147483647,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Example seed"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Seed of the in-context example draw (one validation item per integer rating), apart "
                               "from the search's seed so that several search seeds share the examples.")},
            {QStringLiteral("level"),
             T::Choice,
             QStringLiteral("task"),
             0,
             0,
             0,
             {QStringLiteral("task"), QStringLiteral("dataset"), QStringLiteral("summary")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Correlation level"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Where the validation and test Spearman are taken: the task's (summary-level for "
                               "SummEval, per article then averaged; dataset-level for the others), or either one.")},
            {QStringLiteral("unparsed"),
             T::Choice,
             QStringLiteral("fallback"),
             0,
             0,
             0,
             {QStringLiteral("fallback"), QStringLiteral("drop"), QStringLiteral("reask")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Unreadable answers"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "An answer without a rating, on both splits: 2.51 after one ask (the authors' code), "
                               "left out, or asked again first.")},
            {QStringLiteral("samples"),
             T::Int,
             1,
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Samples of the winner"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Answers per test item from the winning strategy, their mean the score (the paper's "
                               "HPSS†: 20 at temperature 1).")},
            {QStringLiteral("prompt"),
             T::Choice,
             QStringLiteral("none"),
             0,
             0,
             0,
             {QStringLiteral("none"), QStringLiteral("closerlook"), QStringLiteral("closerlook-icl")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Fixed prompt (baseline)"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Instead of a searched strategy, the paper's CloserLook baseline: Chiang and Lee's "
                               "analyze-rate prompt of the task and aspect (SummEval, Topical-Chat), with five human "
                               "evaluation examples (closerlook-icl); no search, scored on the test split.")},
            {QStringLiteral("task"),
             T::Choice,
             QStringLiteral("summeval"),
             0,
             0,
             0,
             {QStringLiteral("summeval"), QStringLiteral("topical_chat"), QStringLiteral("sf"), QStringLiteral("sfhot"),
              QStringLiteral("sfres"), QStringLiteral("hanna")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Task wording"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The paper's wording of the prompt for this kind of task: summaries, dialogue "
                               "responses, data-to-text sentences or stories.")},
            {QStringLiteral("max_tokens"),
             T::Int,
             4096,
             1,
             100000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Max tokens"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Largest answer of a scoring call (the explanation and the [[rating]]; upstream: "
                               "4096).")},
    };
    m.exportedStats = {QStringLiteral("strategy"), QStringLiteral("search"), QStringLiteral("validation_spearman"),
                       QStringLiteral("validation_n"), QStringLiteral("test_spearman"), QStringLiteral("test_n"),
                       QStringLiteral("gap_warning"), QStringLiteral("transfer_from"), QStringLiteral("metric"),
                       QStringLiteral("level"), QStringLiteral("samples"), QStringLiteral("prompt"),
                       QStringLiteral("prompt_file"), QStringLiteral("prompt_examples"), QStringLiteral("prompt_text"),
                       // the pairwise setting: accuracy on pairs, and the test pairs' verdicts
                       QStringLiteral("setting"), QStringLiteral("pairwise"), QStringLiteral("validation_accuracy"),
                       QStringLiteral("test_accuracy"), QStringLiteral("test_pairs")};
    return m;
}

} // namespace rubric
