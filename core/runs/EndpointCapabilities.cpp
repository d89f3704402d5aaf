#include "runs/EndpointCapabilities.h"

#include "judge/EndpointSecrets.h"
#include "store/Project.h"

namespace rubric::endpoint {
namespace {

QString key(const ProviderProfile &profile, const char *what)
{
    QString base = EndpointSecrets::checkBaseUrl(profile.baseUrl) ? profile.baseUrl.trimmed()
                                                                  : EndpointSecrets::stripUrl(profile.baseUrl);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return QStringLiteral("endpoint:%1|%2:%3").arg(base, profile.model, QString::fromLatin1(what));
}

} // namespace

Result<bool> ignoresN(const Project &project, const ProviderProfile &profile)
{
    const auto value = project.readMeta(key(profile, "ignores_n"));
    if (!value.ok())
        return value.error();
    return *value == QLatin1String("1");
}

Result<void> noteIgnoresN(Project &project, const ProviderProfile &profile)
{
    return project.setMeta(key(profile, "ignores_n"), QStringLiteral("1"));
}

Result<bool> lacksLogprobs(const Project &project, const ProviderProfile &profile)
{
    const auto value = project.readMeta(key(profile, "no_logprobs"));
    if (!value.ok())
        return value.error();
    return *value == QLatin1String("1");
}

Result<void> noteLacksLogprobs(Project &project, const ProviderProfile &profile)
{
    return project.setMeta(key(profile, "no_logprobs"), QStringLiteral("1"));
}

} // namespace rubric::endpoint
