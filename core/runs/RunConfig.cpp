#include "runs/RunConfig.h"

#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "judge/StructuredAnswers.h"
#include "methods/MethodRegistry.h"
#include "methods/PromptLibrary.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCoreApplication>

namespace rubric::RunConfig {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::RunConfig", text);
}

/// The base URLs of a stored endpoint: the pool's, else the one base URL (trailing slashes cut).
QStringList poolUrls(const QVariantMap &endpoint)
{
    QStringList urls;
    for (const QVariant &url : endpoint.value(QStringLiteral("pool")).toMap().value(QStringLiteral("urls")).toList())
        urls << url.toString();
    if (urls.isEmpty())
        urls << endpoint.value(QStringLiteral("base_url")).toString();
    for (QString &url : urls) {
        url = url.trimmed();
        while (url.endsWith(QLatin1Char('/')))
            url.chop(1);
    }
    return urls;
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
                  {QStringLiteral("price_cached"), p.pricePerMillionCached},
                  {QStringLiteral("timeout_ms"), p.timeoutMs},
                  {QStringLiteral("deadline_ms"), p.deadlineMs},
                  {QStringLiteral("max_response_bytes"), p.maxResponseBytes},
                  {QStringLiteral("max_retries"), p.maxRetries},
                  {QStringLiteral("reasoning_budget"), p.reasoningBudget}};
    if (const QVariantMap headers = EndpointSecrets::storableHeaders(p.headers); !headers.isEmpty())
        m.insert(QStringLiteral("headers"), headers);
    if (p.structuredAnswers != StructuredMode::Off) // written only when on: stored runs stay as they were
        m.insert(QStringLiteral("structured"), StructuredAnswers::modeName(p.structuredAnswers));
    if (!p.replicaUrls.isEmpty()) { // a pool: every URL and its weight (written only for pools)
        QVariantList urls, weights;
        for (const QString &url : p.baseUrls())
            urls << (EndpointSecrets::checkBaseUrl(url) ? url : EndpointSecrets::stripUrl(url));
        for (qsizetype i = 0; i < urls.size(); ++i)
            weights << p.replicaWeight(i);
        m.insert(QStringLiteral("pool"),
                 QVariantMap{{QStringLiteral("urls"), urls}, {QStringLiteral("weights"), weights}});
    }
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
    p.pricePerMillionCached = m.value(QStringLiteral("price_cached"), -1.0).toDouble();
    p.timeoutMs = m.value(QStringLiteral("timeout_ms"), p.timeoutMs).toInt();
    p.deadlineMs = m.value(QStringLiteral("deadline_ms"), p.deadlineMs).toInt();
    p.maxResponseBytes = m.value(QStringLiteral("max_response_bytes"), p.maxResponseBytes).toLongLong();
    p.maxRetries = m.value(QStringLiteral("max_retries"), p.maxRetries).toInt();
    p.reasoningBudget = m.value(QStringLiteral("reasoning_budget"), p.reasoningBudget).toInt();
    const auto structured
            = StructuredAnswers::modeFromName(m.value(QStringLiteral("structured"), QStringLiteral("off")).toString());
    if (!structured)
        return makeError(tr("the stored run names an unknown structured-answer mode '%1' for the %2")
                                 .arg(m.value(QStringLiteral("structured")).toString(), role),
                         {}, 0, field + QStringLiteral("structured"));
    p.structuredAnswers = *structured;
    if (p.concurrency < 1)
        return makeError(tr("the stored run has a bad concurrency for the %1").arg(role), {}, 0,
                         field + QStringLiteral("concurrency"));
    const QVariantMap pool = m.value(QStringLiteral("pool")).toMap();
    const QVariantList urls = pool.value(QStringLiteral("urls")).toList();
    const QVariantList weights = pool.value(QStringLiteral("weights")).toList();
    for (qsizetype i = 1; i < urls.size(); ++i)
        p.replicaUrls << urls[i].toString();
    for (const QVariant &w : weights) {
        bool ok = false;
        p.replicaWeights << w.toDouble(&ok);
        if (!ok || p.replicaWeights.last() <= 0)
            return makeError(tr("the stored run has a bad replica weight '%1' for the %2").arg(w.toString(), role), {},
                             0, field + QStringLiteral("pool"));
    }
    return p;
}

namespace {

// The parameters of `method` that runs.config keeps at its top level (MethodParam::topLevel).
QVector<const MethodParam *> topLevelParams(const QString &method)
{
    QVector<const MethodParam *> out;
    if (const MethodInfo *m = MethodRegistry::find(method))
        for (const MethodParam &p : m->params)
            if (p.topLevel)
                out << &p;
    return out;
}

// A setting as runs.config's top level holds it: typed as the parameter is.
QVariant typedValue(const MethodParam &p, const QVariant &v)
{
    switch (p.type) {
    case MethodParam::Type::Bool:
        return v.toBool();
    case MethodParam::Type::Int:
        return v.toInt();
    case MethodParam::Type::Double:
        return v.toDouble();
    default:
        return v.toString();
    }
}

} // namespace

QVariantMap toConfig(const RunSpec &s)
{
    QVariantMap config{{QStringLiteral("method"), s.method},
                       {QStringLiteral("aspect"), s.aspect},
                       {QStringLiteral("items"), itemsName(s.items)},
                       {QStringLiteral("evaluator"), profileToMap(s.evaluator)},
                       {QStringLiteral("generator"), profileToMap(s.generator)},
                       {QStringLiteral("refiner"), profileToMap(s.refiner)}};
    QVariantMap settings = s.settings;
    for (const MethodParam *p : topLevelParams(s.method)) {
        config.insert(p->key, typedValue(*p, settings.value(p->key, p->unsetOrDefault())));
        settings.remove(p->key);
    }
    config.insert(QStringLiteral("settings"), settings);
    return config;
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
    s.settings = c.value(QStringLiteral("settings")).toMap();
    // The method's parameters kept at the top level (by every version, and by those that had them
    // as RunSpec fields of their own) are settings.
    for (const MethodParam *p : topLevelParams(s.method))
        if (c.contains(p->key))
            s.settings.insert(p->key, c.value(p->key));
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
    const auto known = project->readJudge(judge, Project::JudgeCounts::Skip);
    if (!known)
        return known.error();
    if (!*known)
        return makeError(tr("there is no judge '%1' in this project").arg(judge), {}, 0, QStringLiteral("judge"));
    auto config = RubricStore(project).readRunConfig(judge);
    if (!config)
        return config.error();
    return fromConfig(judge, *config);
}

Result<QStringList> differences(Project *project, const RunSpec &spec)
{
    QStringList out;
    if (!project)
        return out;
    const auto judge = project->readJudge(spec.judge, Project::JudgeCounts::Skip);
    if (!judge)
        return judge.error();
    if (!*judge)
        return out;
    const auto read = RubricStore(project).readRunConfig(spec.judge);
    if (!read)
        return read.error();
    const QVariantMap &stored = *read;
    if (stored.value(QStringLiteral("method")).toString().isEmpty()) {
        // Imported scores: no configuration, but the method is recorded on the judge.
        if ((*judge)->method != spec.method)
            out << tr("method: '%1' (stored) → '%2'").arg((*judge)->method, spec.method);
        return out;
    }
    // Roles left empty take the evaluator's (generator) or the generator's (refiner) endpoint, as
    // the run does (RunContext).
    RunSpec filled = spec;
    if (filled.generator.baseUrl.isEmpty())
        filled.generator = filled.evaluator;
    if (filled.refiner.baseUrl.isEmpty())
        filled.refiner = filled.generator;
    const QVariantMap now = toConfig(filled);
    const auto quoted = [](const QVariant &v) {
        return v.typeId() == QMetaType::Bool ? (v.toBool() ? QStringLiteral("on") : QStringLiteral("off"))
                                             : QStringLiteral("'%1'").arg(v.toString());
    };
    const auto compare = [&](const QString &label, const QVariant &before, const QVariant &after) {
        if (before.toString() != after.toString())
            out << tr("%1: %2 (stored) → %3").arg(label, quoted(before), quoted(after));
    };
    for (const char *key : {"method", "aspect"})
        compare(QString::fromLatin1(key), stored.value(QString::fromLatin1(key)), now.value(QString::fromLatin1(key)));
    for (const char *role : {"evaluator", "generator", "refiner"}) {
        const QString r = QString::fromLatin1(role);
        // Configurations stored without a role took the evaluator's (generator) or generator's (refiner).
        QVariantMap before = stored.value(r).toMap();
        if (before.isEmpty())
            before = stored.value(r == QLatin1String("refiner")
                                                  && !stored.value(QStringLiteral("generator")).toMap().isEmpty()
                                          ? QStringLiteral("generator")
                                          : QStringLiteral("evaluator"))
                             .toMap();
        const QVariantMap after = now.value(r).toMap();
        compare(tr("%1 provider").arg(r), before.value(QStringLiteral("provider"), QStringLiteral("openai")),
                after.value(QStringLiteral("provider")));
        // One judge name, one model: a pool that gains, loses or reorders replicas of the same
        // model keeps the name (the cache key names the model, so every answer stays valid, and
        // a fleet that grows overnight should not need a new judge). A URL list with no URL in
        // common with the stored one is another deployment, which may serve other weights under
        // the same model name (two local servers both calling theirs "default"): that asks for
        // --replace or a new name, as a changed base URL always did. Each attempt records the
        // pool it ran with, so a fleet may be replaced one replica at a time.
        const QStringList urlsBefore = poolUrls(before), urlsAfter = poolUrls(after);
        bool shared = false;
        for (const QString &url : urlsAfter)
            shared = shared || urlsBefore.contains(url);
        if (!shared)
            compare(tr("%1 base URL").arg(r), urlsBefore.join(QStringLiteral(", ")),
                    urlsAfter.join(QStringLiteral(", ")));
        compare(tr("%1 model").arg(r), before.value(QStringLiteral("model")), after.value(QStringLiteral("model")));
    }
    // The method's parameters runs.config keeps at its top level (G-Eval's logprobs and samples,
    // HypoEval's literature folder): unset in the stored configuration is the value a run takes
    // when unset; one that another parameter being on makes irrelevant is not compared.
    const MethodInfo *method = MethodRegistry::find(spec.method);
    for (const MethodParam *p : topLevelParams(spec.method)) {
        if (const MethodParam *gate = p->unusedWhen.isEmpty() ? nullptr : method->param(p->unusedWhen);
            gate && methodParamValue(spec, *gate).toBool())
            continue;
        compare(p->key, stored.value(p->key, typedValue(*p, p->unsetOrDefault())), now.value(p->key));
    }
    QVariantMap before = stored.value(QStringLiteral("settings")).toMap();
    QVariantMap after = now.value(QStringLiteral("settings")).toMap();
    before.remove(QStringLiteral("max_source_tokens"));
    after.remove(QStringLiteral("max_source_tokens"));
    QStringList keys = before.keys() + after.keys();
    keys.removeDuplicates();
    keys.sort();
    for (const QString &key : std::as_const(keys)) {
        if (!before.contains(key))
            out << tr("--set %1: not set (stored) → '%2'").arg(key, after.value(key).toString());
        else if (!after.contains(key))
            out << tr("--set %1: '%2' (stored) → not set").arg(key, before.value(key).toString());
        else
            compare(QStringLiteral("--set ") + key, before.value(key), after.value(key));
    }
    const QVariantMap templates = stored.value(QStringLiteral("templates")).toMap();
    const PromptLibrary library(project);
    for (auto it = templates.begin(); it != templates.end(); ++it) {
        const QString was = it.value().toMap().value(QStringLiteral("hash")).toString();
        const auto current = library.get(it.key());
        const QString is = current ? current->hash : tr("unreadable: %1").arg(current.errorString());
        if (!was.isEmpty() && was != is)
            out << tr("template %1: %2 (stored) → %3 (edited since)").arg(it.key(), was, is);
    }
    return out;
}

} // namespace rubric::RunConfig
