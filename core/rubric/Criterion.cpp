#include "Criterion.h"

#include <array>
#include <utility>

namespace rubric {
namespace {

constexpr std::array<std::pair<CriterionKind, const char *>, 6> kNames{{
        {CriterionKind::Aspect, "aspect"},
        {CriterionKind::Hypothesis, "hypothesis"},
        {CriterionKind::SubAspect, "sub-aspect"},
        {CriterionKind::Question, "question"},
        {CriterionKind::Criterion, "criterion"},
        {CriterionKind::Step, "step"},
}};

} // namespace

QString criterionKindName(CriterionKind kind)
{
    for (const auto &[k, name] : kNames)
        if (k == kind)
            return QString::fromLatin1(name);
    return {};
}

bool parseCriterionKind(const QString &name, CriterionKind *kind)
{
    for (const auto &[k, n] : kNames) {
        if (name == QLatin1String(n)) {
            *kind = k;
            return true;
        }
    }
    return false;
}

} // namespace rubric
