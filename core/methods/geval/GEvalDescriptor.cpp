#include "methods/MethodRegistry.h"
#include "methods/geval/GEvalMethod.h"

#include <QtGlobal>

namespace rubric {

MethodInfo gevalDescriptor()
{
    using T = MethodParam::Type;
    MethodInfo m;
    m.name = QStringLiteral("geval");
    m.title = QStringLiteral("G-Eval");
    m.summary = QT_TRANSLATE_NOOP("rubric::MethodParams",
                                  "G-Eval: generated evaluation steps, then one scoring call per item (Liu et al., "
                                  "2023).");
    m.create = [](RunContext *ctx) { return std::unique_ptr<Method>(new GEvalMethod(ctx)); };
    m.kinds = {CriterionKind::Aspect, CriterionKind::Step};
    m.phases = {GEvalMethod::kPhaseSteps, GEvalMethod::kPhaseEvaluate};
    m.params = {
            {QStringLiteral("logprobs"),
             T::Bool,
             true,
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Weight the scale by logprobs"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Ask for top_logprobs and score the probability-weighted mean of the scale tokens "
                               "(one call per item). Off: sample n answers and average them, as the paper does "
                               "for models without logprobs.")},
            {QStringLiteral("samples"),
             T::Int,
             20,
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Samples n"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Answers sampled per item without logprobs (paper: n = 20)."),
             QStringLiteral("logprobs")},
            {QStringLiteral("temperature"),
             T::Double,
             1.0,
             0,
             2,
             2,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Temperature"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Sampling temperature of the scoring calls (paper: 1 with n = 20 samples).")},
            {QStringLiteral("max_tokens"),
             T::Int,
             5,
             1,
             100000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Max tokens"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Largest answer of a scoring call; the score is the first token (upstream: 5).")},
            {QStringLiteral("top_logprobs"),
             T::Int,
             20,
             1,
             20,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Top logprobs"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Alternatives per token asked for with logprobs (the most OpenAI allows: 20)."),
             QString()},
    };
    // Once RunSpec fields of their own: runs.config keeps them at its top level; logprobs is off
    // unless asked for (--logprobs), as it always was outside the form.
    for (MethodParam &p : m.params) {
        p.topLevel = p.key == QLatin1String("logprobs") || p.key == QLatin1String("samples");
        if (p.key == QLatin1String("logprobs"))
            p.unsetValue = false;
    }
    m.runOptions
            = {{QStringLiteral("logprobs"), QStringLiteral("logprobs"), "G-Eval: weight the scale by top_logprobs."},
               {QStringLiteral("samples"), QStringLiteral("samples"), "G-Eval without logprobs: samples per item.", "N",
                QStringLiteral("20")}};
    return m;
}

} // namespace rubric
