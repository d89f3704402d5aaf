#pragma once

#include "data/JudgeTypes.h"
#include "judge/EndpointAdaptations.h"
#include "util/Result.h"

#include <QString>

#include <map>

namespace rubric {

class Project;

/// What a run knows each of its endpoints (base URL + model) refuses or needs: loaded from the
/// project before the first request (so a second run sends nothing they refuse), added to as its
/// engines learn, and saved at once (a run that stops later has still paid for the discovery).
class RunAdaptations
{
public:
    /// Reads what the project learned before about each profile's endpoint.
    Result<void> load(const Project &project, std::initializer_list<const ProviderProfile *> profiles);
    /// What is known of `profile`'s endpoint, with the profile's own reasoning budget and
    /// structured-answer mode: what an engine of that profile starts from.
    EndpointAdaptations forProfile(const ProviderProfile &profile) const;
    /// Merges what an engine of `profile` learned and saves the endpoint's adaptations in the
    /// project; true when something was new (other engines of the endpoint should take it).
    bool learn(Project &project, const ProviderProfile &profile, const EndpointAdaptations &learned);
    /// Whether two profiles name one endpoint (the key adaptations are kept under).
    static bool sameEndpoint(const ProviderProfile &a, const ProviderProfile &b) { return key(a) == key(b); }

private:
    static QString key(const ProviderProfile &p);

    std::map<QString, EndpointAdaptations> m_known;
};

} // namespace rubric
