#include "methods/MethodRegistry.h"
#include "methods/direct/DirectMethod.h"

#include <QtGlobal>

namespace rubric {

MethodInfo directDescriptor()
{
    using T = MethodParam::Type;
    MethodInfo m;
    m.name = QStringLiteral("direct");
    m.title = QStringLiteral("Direct score");
    m.summary = QT_TRANSLATE_NOOP("rubric::MethodParams",
                                  "Direct score: the aspect's definition and the item, one call per item, no rubric "
                                  "(the baseline the HD-Eval and HPSS papers compare with).");
    m.create = [](RunContext *ctx) { return std::unique_ptr<Method>(new DirectMethod(ctx)); };
    m.kinds = {CriterionKind::Aspect};
    m.phases = {QString::fromLatin1(DirectMethod::evaluatePhase)};
    m.params = {
            {QStringLiteral("temperature"),
             T::Double,
             0.0,
             0,
             2,
             2,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Temperature"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Sampling temperature of the scoring call (0: the most likely "
                                                       "score, one answer per item).")},
            {QStringLiteral("max_tokens"),
             T::Int,
             16,
             1,
             8192,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Max tokens"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Largest answer of a scoring call; the prompt asks for the score only (an answer "
                               "cut off before its score is asked again with twice the room).")},
    };
    return m;
}

} // namespace rubric
