#include "judge/ProviderProfiles.h"

#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "judge/StructuredAnswers.h"

#include <QCoreApplication>

namespace rubric {
namespace {
const QString group = QStringLiteral("providers");

QString groupKey(const QString &name)
{
    // QSettings treats '/' and '\\' as separators; keep the name one level deep.
    QString k = name;
    k.replace(QLatin1Char('/'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    return group + QLatin1Char('/') + k;
}
} // namespace

ProviderProfiles::ProviderProfiles()
    : m_settings(std::make_unique<QSettings>())
{
}

ProviderProfiles::ProviderProfiles(const QString &settingsFile)
    : m_settings(std::make_unique<QSettings>(settingsFile, QSettings::IniFormat))
{
}

QStringList ProviderProfiles::names() const
{
    QStringList out;
    m_settings->beginGroup(group);
    for (const QString &g : m_settings->childGroups()) {
        const QString n = m_settings->value(g + QStringLiteral("/name")).toString();
        out.append(n.isEmpty() ? g : n);
    }
    m_settings->endGroup();
    out.sort();
    return out;
}

std::optional<ProviderProfile> ProviderProfiles::load(const QString &name) const
{
    const QString k = groupKey(name);
    if (!m_settings->contains(k + QStringLiteral("/baseUrl")))
        return std::nullopt;
    m_settings->beginGroup(k);
    ProviderProfile p;
    p.name = m_settings->value(QStringLiteral("name"), name).toString();
    p.kind = Provider::kindFromName(m_settings->value(QStringLiteral("kind")).toString())
                     .value_or(ProviderKind::OpenAI);
    p.baseUrl = m_settings->value(QStringLiteral("baseUrl")).toString();
    p.model = m_settings->value(QStringLiteral("model")).toString();
    p.apiKeyEnv = m_settings->value(QStringLiteral("apiKeyEnv")).toString();
    p.useKeychain = m_settings->value(QStringLiteral("useKeychain"), false).toBool();
    p.headers = m_settings->value(QStringLiteral("headers")).toMap();
    p.concurrency = m_settings->value(QStringLiteral("concurrency"), p.concurrency).toInt();
    p.requestsPerMinute = m_settings->value(QStringLiteral("requestsPerMinute"), 0.0).toDouble();
    p.tokensPerMinute = m_settings->value(QStringLiteral("tokensPerMinute"), 0.0).toDouble();
    p.pricePerMillionIn = m_settings->value(QStringLiteral("pricePerMillionIn"), 0.0).toDouble();
    p.pricePerMillionCached = m_settings->value(QStringLiteral("pricePerMillionCached"), -1.0).toDouble();
    p.pricePerMillionOut = m_settings->value(QStringLiteral("pricePerMillionOut"), 0.0).toDouble();
    p.timeoutMs = m_settings->value(QStringLiteral("timeoutMs"), p.timeoutMs).toInt();
    p.deadlineMs = m_settings->value(QStringLiteral("deadlineMs"), p.deadlineMs).toInt();
    p.maxResponseBytes = m_settings->value(QStringLiteral("maxResponseBytes"), p.maxResponseBytes).toLongLong();
    p.maxRetries = m_settings->value(QStringLiteral("maxRetries"), p.maxRetries).toInt();
    p.reasoningBudget = m_settings->value(QStringLiteral("reasoningBudget"), p.reasoningBudget).toInt();
    // A name this build does not know (written by a newer one) leaves structured answers off.
    p.structuredAnswers
            = StructuredAnswers::modeFromName(m_settings->value(QStringLiteral("structuredAnswers")).toString())
                      .value_or(StructuredMode::Off);
    p.replicaUrls = m_settings->value(QStringLiteral("replicaUrls")).toStringList();
    for (const QString &w : m_settings->value(QStringLiteral("replicaWeights")).toStringList())
        p.replicaWeights << w.toDouble();
    m_settings->endGroup();
    return p;
}

Result<void> ProviderProfiles::save(const ProviderProfile &p)
{
    if (p.name.trimmed().isEmpty())
        return makeError(QCoreApplication::translate("rubric::ProviderProfiles", "a provider profile needs a name"));
    if (p.baseUrl.trimmed().isEmpty())
        return makeError(QCoreApplication::translate("rubric::ProviderProfiles", "a provider profile needs a base URL"),
                         {}, 0, QStringLiteral("baseUrl"));
    for (const QString &base : p.baseUrls())
        if (auto url = EndpointSecrets::checkBaseUrl(base); !url)
            return url;
    if (auto headers = EndpointSecrets::checkHeaders(p.headers); !headers)
        return headers;
    if (p.reasoningBudget < 0)
        return makeError(QCoreApplication::translate("rubric::ProviderProfiles",
                                                     "the reasoning budget is a number of tokens, 0 or more"),
                         {}, 0, QStringLiteral("reasoningBudget"));
    m_settings->beginGroup(groupKey(p.name));
    m_settings->setValue(QStringLiteral("name"), p.name);
    m_settings->setValue(QStringLiteral("kind"), Provider::kindName(p.kind));
    m_settings->setValue(QStringLiteral("baseUrl"), p.baseUrl);
    m_settings->setValue(QStringLiteral("model"), p.model);
    m_settings->setValue(QStringLiteral("apiKeyEnv"), p.apiKeyEnv);
    m_settings->setValue(QStringLiteral("useKeychain"), p.useKeychain);
    m_settings->setValue(QStringLiteral("headers"), p.headers);
    m_settings->setValue(QStringLiteral("concurrency"), p.concurrency);
    m_settings->setValue(QStringLiteral("requestsPerMinute"), p.requestsPerMinute);
    m_settings->setValue(QStringLiteral("tokensPerMinute"), p.tokensPerMinute);
    m_settings->setValue(QStringLiteral("pricePerMillionIn"), p.pricePerMillionIn);
    m_settings->setValue(QStringLiteral("pricePerMillionCached"), p.pricePerMillionCached);
    m_settings->setValue(QStringLiteral("pricePerMillionOut"), p.pricePerMillionOut);
    m_settings->setValue(QStringLiteral("timeoutMs"), p.timeoutMs);
    m_settings->setValue(QStringLiteral("deadlineMs"), p.deadlineMs);
    m_settings->setValue(QStringLiteral("maxResponseBytes"), p.maxResponseBytes);
    m_settings->setValue(QStringLiteral("maxRetries"), p.maxRetries);
    m_settings->setValue(QStringLiteral("reasoningBudget"), p.reasoningBudget);
    if (p.structuredAnswers == StructuredMode::Off) // profiles without it stay as they were written
        m_settings->remove(QStringLiteral("structuredAnswers"));
    else
        m_settings->setValue(QStringLiteral("structuredAnswers"), StructuredAnswers::modeName(p.structuredAnswers));
    QStringList weights;
    for (double w : p.replicaWeights)
        weights << QString::number(w, 'g', 17);
    if (p.replicaUrls.isEmpty()) { // profiles without replicas stay as they were written
        m_settings->remove(QStringLiteral("replicaUrls"));
        m_settings->remove(QStringLiteral("replicaWeights"));
    } else {
        m_settings->setValue(QStringLiteral("replicaUrls"), p.replicaUrls);
        m_settings->setValue(QStringLiteral("replicaWeights"), weights);
    }
    m_settings->endGroup();
    return {};
}

void ProviderProfiles::remove(const QString &name)
{
    m_settings->remove(groupKey(name));
}

void ProviderProfiles::sync()
{
    m_settings->sync();
}

} // namespace rubric
