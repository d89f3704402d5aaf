#include "judge/RunAdaptations.h"

#include "judge/EndpointCapabilities.h"

namespace rubric {

QString RunAdaptations::key(const ProviderProfile &p)
{
    return p.baseUrl.trimmed() + QLatin1Char('\n') + p.model;
}

Result<void> RunAdaptations::load(const Project &project, std::initializer_list<const ProviderProfile *> profiles)
{
    for (const ProviderProfile *p : profiles) {
        auto known = endpoint::adaptations(project, *p);
        if (!known)
            return known.error();
        m_known[key(*p)] = *known;
    }
    return {};
}

EndpointAdaptations RunAdaptations::forProfile(const ProviderProfile &profile) const
{
    const auto it = m_known.find(key(profile));
    EndpointAdaptations a = it == m_known.end() ? EndpointAdaptations() : it->second;
    a.setReasoningBudget(profile.reasoningBudget);
    a.setStructuredMode(profile.structuredAnswers);
    return a;
}

bool RunAdaptations::learn(Project &project, const ProviderProfile &profile, const EndpointAdaptations &learned)
{
    EndpointAdaptations &known = m_known[key(profile)];
    const bool added = known.merge(learned);
    if (auto w = endpoint::noteAdaptations(project, profile, known); !w)
        qWarning("%s", qPrintable(w.errorString())); // this run goes on adapted; the next one learns again
    return added;
}

} // namespace rubric
