#include "learn/Aggregator.h"
#include "methods/MethodRegistry.h"
#include "methods/stack/StackMethod.h"

#include <QtGlobal>

namespace rubric {

MethodInfo stackDescriptor()
{
    using T = MethodParam::Type;
    MethodInfo m;
    m.name = QStringLiteral("stack");
    m.title = QStringLiteral("Stacked judge");
    m.summary = QT_TRANSLATE_NOOP("rubric::MethodParams",
                                  "Stacked judge: an aggregator learned on the train split over the criteria other "
                                  "judges already scored on the aspect (and their own scores); sends no call.");
    m.create = [](RunContext *ctx) { return std::unique_ptr<Method>(new StackMethod(ctx)); };
    m.kinds = {CriterionKind::Aspect, CriterionKind::SubAspect, CriterionKind::Criterion};
    m.phases = {QString::fromLatin1(StackMethod::fitPhase)};
    m.exportedStats = {QStringLiteral("aggregator")};
    m.params = {
            {QStringLiteral("judges"),
             T::Text,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Source judges"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Judges whose criteria are stacked, separated by commas; empty: every judge on the "
                               "aspect except other stacked judges.")},
            {QStringLiteral("criteria"),
             T::Text,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Criteria"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The criteria to stack, separated by commas, each judge/criterion (judge/score: the "
                               "judge's own score); empty: every enabled criterion of the source judges.")},
            {QStringLiteral("judge_scores"),
             T::Bool,
             true,
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Judge scores"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Stack each source judge's own score beside its criteria (a score fitted on the train "
                               "labels, such as an aggregator's, is left out unless named in Criteria).")},
            {QStringLiteral("aggregator"), T::Choice, QStringLiteral("ridge"), 0, 0, 0, learn::aggregatorKindNames(),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Aggregator"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The learned aggregator over the stacked criteria (ridge: linear with an L2 penalty, "
                               "for many criteria and few labels).")},
            {QStringLiteral("ridge_lambda"),
             T::Double,
             1.0,
             0,
             1e6,
             3,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Ridge λ"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "L2 penalty of the ridge aggregator (sklearn's alpha).")},
            {QStringLiteral("cv_folds"),
             T::Int,
             5,
             0,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "CV folds"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Folds of the cross-validation on the train split (by group when a group repeats); "
                               "0 = leave-one-out.")},
            {QStringLiteral("importance_repeats"),
             T::Int,
             5,
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Importance repeats"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Permutations per criterion of the permutation importance.")},
            {QStringLiteral("seed"),
             T::Int,
             1,
             0,
             2147483647,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Seed"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Seed of the fit, the folds and the permutations; the same seed repeats the fit.")},
    };
    return m;
}

} // namespace rubric
