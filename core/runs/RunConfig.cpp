#include "runs/RunConfig.h"

#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCoreApplication>

namespace rubric::RunConfig {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::RunConfig", text);
}

} // namespace

QString itemsName(SplitFilter f)
{
    return f == SplitFilter::Test    ? QStringLiteral("test")
           : f == SplitFilter::Train ? QStringLiteral("train")
                                     : QStringLiteral("all");
}

std::optional<SplitFilter> itemsFromName(const QString &name)
{
    if (name == QLatin1String("test"))
        return SplitFilter::Test;
    if (name == QLatin1String("train"))
        return SplitFilter::Train;
    if (name == QLatin1String("all"))
        return SplitFilter::All;
    return std::nullopt;
}

QVariantMap profileToMap(const ProviderProfile &p)
{
    // A run with a credential in its URL is refused before it starts (RunContext::prepare); the
    // URL is stripped here all the same. Headers are written as their references only.
    QVariantMap m{{QStringLiteral("name"), p.name},
                  {QStringLiteral("provider"), Provider::kindName(p.kind)},
                  {QStringLiteral("base_url"),
                   EndpointSecrets::checkBaseUrl(p.baseUrl) ? p.baseUrl : EndpointSecrets::stripUrl(p.baseUrl)},
                  {QStringLiteral("model"), p.model},
                  {QStringLiteral("api_key_env"), p.apiKeyEnv},
                  {QStringLiteral("use_keychain"), p.useKeychain},
                  {QStringLiteral("concurrency"), p.concurrency},
                  {QStringLiteral("requests_per_minute"), p.requestsPerMinute},
                  {QStringLiteral("tokens_per_minute"), p.tokensPerMinute},
                  {QStringLiteral("price_in"), p.pricePerMillionIn},
                  {QStringLiteral("price_out"), p.pricePerMillionOut},
                  {QStringLiteral("timeout_ms"), p.timeoutMs},
                  {QStringLiteral("max_retries"), p.maxRetries}};
    if (const QVariantMap headers = EndpointSecrets::storableHeaders(p.headers); !headers.isEmpty())
        m.insert(QStringLiteral("headers"), headers);
    return m;
}

Result<ProviderProfile> profileFromMap(const QVariantMap &m, const QString &role)
{
    ProviderProfile p;
    const QString field = role + QStringLiteral(".");
    if (m.value(QStringLiteral("base_url")).toString().isEmpty())
        return makeError(tr("the stored run has no base URL for the %1").arg(role), {}, 0,
                         field + QStringLiteral("base_url"));
    if (m.value(QStringLiteral("model")).toString().isEmpty())
        return makeError(tr("the stored run has no model for the %1").arg(role), {}, 0,
                         field + QStringLiteral("model"));
    const auto kind = Provider::kindFromName(m.value(QStringLiteral("provider"), QStringLiteral("openai")).toString());
    if (!kind)
        return makeError(tr("the stored run names an unknown provider '%1' for the %2")
                                 .arg(m.value(QStringLiteral("provider")).toString(), role),
                         {}, 0, field + QStringLiteral("provider"));
    p.kind = *kind;
    p.name = m.value(QStringLiteral("name"), role).toString();
    p.baseUrl = m.value(QStringLiteral("base_url")).toString();
    p.model = m.value(QStringLiteral("model")).toString();
    p.apiKeyEnv = m.value(QStringLiteral("api_key_env")).toString();
    p.useKeychain = m.value(QStringLiteral("use_keychain"), false).toBool();
    p.headers = EndpointSecrets::storableHeaders(m.value(QStringLiteral("headers")).toMap());
    p.concurrency = m.value(QStringLiteral("concurrency"), p.concurrency).toInt();
    p.requestsPerMinute = m.value(QStringLiteral("requests_per_minute"), 0.0).toDouble();
    p.tokensPerMinute = m.value(QStringLiteral("tokens_per_minute"), 0.0).toDouble();
    p.pricePerMillionIn = m.value(QStringLiteral("price_in"), 0.0).toDouble();
    p.pricePerMillionOut = m.value(QStringLiteral("price_out"), 0.0).toDouble();
    p.timeoutMs = m.value(QStringLiteral("timeout_ms"), p.timeoutMs).toInt();
    p.maxRetries = m.value(QStringLiteral("max_retries"), p.maxRetries).toInt();
    if (p.concurrency < 1)
        return makeError(tr("the stored run has a bad concurrency for the %1").arg(role), {}, 0,
                         field + QStringLiteral("concurrency"));
    return p;
}

QVariantMap toConfig(const RunSpec &s)
{
    return {{QStringLiteral("method"), s.method},
            {QStringLiteral("aspect"), s.aspect},
            {QStringLiteral("items"), itemsName(s.items)},
            {QStringLiteral("logprobs"), s.logprobs},
            {QStringLiteral("samples"), s.samples},
            {QStringLiteral("literature"), s.literatureDir},
            {QStringLiteral("settings"), s.settings},
            {QStringLiteral("evaluator"), profileToMap(s.evaluator)},
            {QStringLiteral("generator"), profileToMap(s.generator)},
            {QStringLiteral("refiner"), profileToMap(s.refiner)}};
}

Result<RunSpec> fromConfig(const QString &judge, const QVariantMap &c)
{
    RunSpec s;
    s.judge = judge;
    s.method = c.value(QStringLiteral("method")).toString();
    if (s.method.isEmpty())
        return makeError(tr("judge '%1' has no stored run configuration (imported scores cannot be re-run)").arg(judge),
                         {}, 0, QStringLiteral("method"));
    s.aspect = c.value(QStringLiteral("aspect")).toString();
    if (s.aspect.isEmpty())
        return makeError(tr("the stored run of '%1' names no aspect").arg(judge), {}, 0, QStringLiteral("aspect"));
    const auto items = itemsFromName(c.value(QStringLiteral("items"), QStringLiteral("test")).toString());
    if (!items)
        return makeError(tr("the stored run of '%1' has an unknown item set '%2'")
                                 .arg(judge, c.value(QStringLiteral("items")).toString()),
                         {}, 0, QStringLiteral("items"));
    s.items = *items;
    s.logprobs = c.value(QStringLiteral("logprobs"), false).toBool();
    s.samples = c.value(QStringLiteral("samples"), s.samples).toInt();
    s.literatureDir = c.value(QStringLiteral("literature")).toString();
    s.settings = c.value(QStringLiteral("settings")).toMap();
    auto evaluator = profileFromMap(c.value(QStringLiteral("evaluator")).toMap(), QStringLiteral("evaluator"));
    if (!evaluator)
        return evaluator.error();
    s.evaluator = *evaluator;
    // generator and refiner default to the evaluator (and the refiner to the generator), as in `rubric run`
    s.generator = s.evaluator;
    if (const QVariantMap g = c.value(QStringLiteral("generator")).toMap(); !g.isEmpty()) {
        auto generator = profileFromMap(g, QStringLiteral("generator"));
        if (!generator)
            return generator.error();
        s.generator = *generator;
    }
    s.refiner = s.generator;
    if (const QVariantMap r = c.value(QStringLiteral("refiner")).toMap(); !r.isEmpty()) {
        auto refiner = profileFromMap(r, QStringLiteral("refiner"));
        if (!refiner)
            return refiner.error();
        s.refiner = *refiner;
    }
    return s;
}

Result<RunSpec> load(Project *project, const QString &judge)
{
    if (!project)
        return makeError(tr("no project is open"));
    if (!project->judge(judge))
        return makeError(tr("there is no judge '%1' in this project").arg(judge), {}, 0, QStringLiteral("judge"));
    RubricStore store(project);
    return fromConfig(judge, store.runConfig(judge));
}

} // namespace rubric::RunConfig
