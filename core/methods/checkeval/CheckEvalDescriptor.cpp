#include "methods/MethodRegistry.h"
#include "methods/checkeval/CheckEvalMethod.h"
#include "methods/checkeval/Checklist.h"

#include <QtGlobal>

namespace rubric {

MethodInfo checkevalDescriptor()
{
    using T = MethodParam::Type;
    MethodInfo m;
    m.name = QStringLiteral("checkeval");
    m.title = QStringLiteral("CheckEval");
    m.summary = QT_TRANSLATE_NOOP("rubric::MethodParams",
                                  "CheckEval: a checklist of yes/no questions per sub-aspect, answered per item; the "
                                  "score is the share of yes (Lee et al., 2025).");
    m.create = [](RunContext *ctx) { return std::unique_ptr<Method>(new CheckEvalMethod(ctx)); };
    m.kinds = {CriterionKind::Aspect, CriterionKind::SubAspect, CriterionKind::Question};
    m.phases = {CheckEvalMethod::kPhaseDiversify, CheckEvalMethod::kPhaseElaborate, CheckEvalMethod::kPhaseFilter,
                CheckEvalMethod::kPhaseEvaluate};
    m.criterionFlags = [](const Rubric &rubric, const Criterion &c) {
        QVariantMap f;
        if (c.kind != CriterionKind::Question)
            return f;
        const auto polarity = Checklist::negativePolarity(c.text);
        f.insert(QStringLiteral("inverted"), Checklist::isInverted(c));
        // "yes" reads as worse: the reason, null when not (or when already inverted, as the pane shows it)
        f.insert(QStringLiteral("polarity"),
                 polarity && !Checklist::isInverted(c) ? QVariant(*polarity) : QVariant::fromValue(nullptr));
        f.insert(QStringLiteral("constant"), c.stats.value(QStringLiteral("constant")));
        f.insert(QStringLiteral("near_duplicate_of"), c.stats.value(QStringLiteral("near_duplicate_of")));
        f.insert(QStringLiteral("asked"), Checklist::isAsked(rubric, c));
        return f;
    };
    m.params = {
            {QStringLiteral("checklist"),
             T::File,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Checklist"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Where the checklist comes from on the judge's first run: a file (CheckEval YAML, "
                               "or our JSON/Markdown export) or a shipped preset, e.g. "
                               "preset:summeval/coherence/elaboration. A judge that has a checklist uses its latest "
                               "version.")},
            {QStringLiteral("checklist_from"),
             T::Text,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Checklist of judge"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Instead of a file: copy the latest checklist version of another judge (to answer "
                               "one checklist with several models).")},
            {QStringLiteral("group"),
             T::Choice,
             QStringLiteral("sub-aspect"),
             0,
             0,
             0,
             {QStringLiteral("sub-aspect"), QStringLiteral("aspect"), QStringLiteral("question")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Questions per call"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "One call per item and sub-aspect (the authors' script), per item for the whole "
                               "aspect, or per item and question.")},
            {QStringLiteral("augment"),
             T::Choice,
             QStringLiteral("none"),
             0,
             0,
             0,
             {QStringLiteral("none"), QStringLiteral("diversify"), QStringLiteral("elaborate"), QStringLiteral("both")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Augmentation"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Let the generator add questions from the seeds: diversification (other "
                               "perspectives of each sub-aspect), elaboration (finer questions per seed), or both, "
                               "each from the seeds as in the paper.")},
            {QStringLiteral("filter"),
             T::Choice,
             QStringLiteral("auto"),
             0,
             0,
             0,
             {QStringLiteral("auto"), QStringLiteral("on"), QStringLiteral("off")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Filter"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The generator removes off-definition, redundant and non-yes/no questions (kept "
                               "disabled, with the reason). auto: on when augmenting, as in the paper.")},
            {QStringLiteral("elaborate_min"),
             T::Int,
             3,
             1,
             50,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Elaboration min"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Sub-sub-questions asked for per seed, at least (paper: 3).")},
            {QStringLiteral("elaborate_max"),
             T::Int,
             10,
             1,
             50,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Elaboration max"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Sub-sub-questions per seed, at most (paper: 10); more are dropped.")},
            {QStringLiteral("temperature"),
             T::Double,
             0.0,
             0,
             2,
             2,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Temperature"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Sampling temperature of the answering calls (paper: 0).")},
            {QStringLiteral("max_tokens"),
             T::Int,
             200,
             1,
             100000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Max tokens"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Largest answer of an answering call (paper: 200).")},
            {QStringLiteral("weights"),
             T::Choice,
             QStringLiteral("uniform"),
             0,
             0,
             0,
             {QStringLiteral("uniform"), QStringLiteral("regression")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Question weights"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "uniform: the share of yes (the paper's method). regression: weights from a ridge "
                               "regression of the human score on the train split's answers (the paper's appendix "
                               "C.2, which found no reliable gain).")},
            {QStringLiteral("missing"),
             T::Choice,
             QStringLiteral("skip"),
             0,
             0,
             0,
             {QStringLiteral("skip"), QStringLiteral("no")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Unanswered questions"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "skip: a question the judge left unanswered (after one re-ask) leaves the "
                               "denominator; no: the strict policy, it counts as no.")},
            {QStringLiteral("seed"),
             T::Text,
             QStringLiteral("0"),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Seed"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The random seed sent with every call (the paper fixes it, value unpublished), or "
                               "none. Endpoints whose API has no seed (Anthropic) do not get one.")},
            {QStringLiteral("benchmark"),
             T::Text,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Benchmark"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The benchmark's name in the augmentation and filter prompts (e.g. SummEval); a "
                               "preset's dataset names it when unset.")},
    };
    return m;
}

} // namespace rubric
