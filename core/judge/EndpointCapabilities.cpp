#include "judge/EndpointCapabilities.h"

#include "judge/EndpointSecrets.h"
#include "store/Project.h"

#include <QCoreApplication>

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

Result<EndpointAdaptations> adaptations(const Project &project, const ProviderProfile &profile)
{
    const auto value = project.readMeta(key(profile, "adaptations"));
    if (!value.ok())
        return value.error();
    if (value->isEmpty())
        return EndpointAdaptations();
    auto parsed = EndpointAdaptations::fromJson(*value);
    if (!parsed)
        return makeError(QCoreApplication::translate("rubric::endpoint",
                                                     "the project's record of what %1 (%2) refuses cannot be read: %3")
                                 .arg(profile.model, profile.baseUrl, value->left(200)),
                         project.path());
    return *parsed;
}

Result<void> noteAdaptations(Project &project, const ProviderProfile &profile, const EndpointAdaptations &learned)
{
    auto stored = adaptations(project, profile);
    if (!stored)
        return stored.error();
    EndpointAdaptations merged = *stored;
    const QVector<Adaptation> list = learned.list();
    const QStringList why = learned.reasons();
    for (qsizetype i = 0; i < list.size(); ++i)
        merged.add(list[i], list[i] == Adaptation::ReasoningBudget ? QString() : why[i]);
    if (merged == *stored)
        return {};
    return project.setMeta(key(profile, "adaptations"), merged.toJson());
}

} // namespace rubric::endpoint
