#include "RunContext.h"

#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "judge/StructuredAnswers.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <limits>
#include <memory>

namespace rubric {
RunContext::RunContext(Project *project, RunSpec spec, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_store(project)
    , m_spec(std::move(spec))
    , m_prompts(project)
{
    if (m_spec.generator.baseUrl.isEmpty())
        m_spec.generator = m_spec.evaluator;
    if (m_spec.refiner.baseUrl.isEmpty())
        m_spec.refiner = m_spec.generator;
}

RunContext::~RunContext() = default;

Result<void> RunContext::prepare()
{
    const auto aspect = m_project->readAspect(m_spec.aspect);
    if (!aspect)
        return aspect.error();
    if (!*aspect)
        return makeError(tr("no aspect named '%1' in the project").arg(m_spec.aspect), {}, 0, QStringLiteral("aspect"));
    m_aspect = **aspect;
    const auto task = PromptLibrary::projectTask(m_project);
    if (!task)
        return task.error();
    m_task = *task;
    m_baseContext = PromptLibrary::taskContext(m_task, m_aspect);
    auto items = m_project->readItems();
    if (!items)
        return items.error();
    m_allItems = std::move(items).value();
    if (const QVariant cap = m_spec.settings.value(QString::fromLatin1(maxSourceTokensKey)); cap.isValid()) {
        bool ok = false;
        const int tokens = cap.toString().toInt(&ok);
        if (!ok || tokens < 1)
            return makeError(
                    tr("bad value '%1' for max_source_tokens (a number of tokens, at least 1)").arg(cap.toString()), {},
                    0, QStringLiteral("set"));
        // The templates see the source cut to about `tokens` tokens (4 characters each), marked.
        const qsizetype chars = qsizetype(tokens) * 4;
        for (Item &it : m_allItems)
            if (it.source.size() > chars)
                it.source = it.source.left(chars) + QStringLiteral(" […]");
    }
    if (auto failed = m_store.failedItems(m_spec.judge); failed)
        m_failedBefore = *failed;
    else
        return failed.error();
    for (int i = 0; i < m_allItems.size(); ++i)
        m_itemIndex.insert(m_allItems[i].id, i);
    auto human = m_project->readHumanScores(m_spec.aspect);
    if (!human)
        return human.error();
    m_human = std::move(human).value();
    auto targetIds = m_project->readItemIds(m_spec.items);
    if (!targetIds)
        return targetIds.error();
    const QStringList &target = *targetIds;
    for (const QString &id : target)
        m_target.append(m_allItems[m_itemIndex.value(id)]);
    auto trainIds = m_project->readItemIds(SplitFilter::Train);
    if (!trainIds)
        return trainIds.error();
    for (const QString &id : std::as_const(*trainIds))
        if (m_human.contains(id))
            m_train.append(m_allItems[m_itemIndex.value(id)]);
    // A re-score of an edited rubric version (version 2 on) also scores the annotated train
    // items, so every version's alignment is measured on the train split — the basis HypoEval's
    // first version is measured on — and versions compare on one basis. It does so on every
    // re-score of that version, so that the same command scores the same items each time (the
    // second time from the cache, sending nothing). A first version is scored on the items asked
    // for only: a finished run given again asks nothing it did not ask the first time.
    auto readVersions = m_store.readVersions(m_spec.judge);
    if (!readVersions)
        return readVersions.error();
    if (const auto &versions = *readVersions; !versions.isEmpty() && versions.last().version > 1) {
        QSet<QString> targetIds;
        for (const QString &id : target)
            targetIds.insert(id);
        for (const Item &it : std::as_const(m_train))
            if (!targetIds.contains(it.id))
                m_target.append(it);
    }
    if (m_target.isEmpty())
        return makeError(
                tr("no items to score: the %1 split is empty (make a split with 'rubric split', or pass --items all)")
                        .arg(m_spec.items == SplitFilter::Test    ? QStringLiteral("test")
                             : m_spec.items == SplitFilter::Train ? QStringLiteral("train")
                                                                  : QStringLiteral("whole")),
                {}, 0, QStringLiteral("items"));
    for (const ProviderProfile *p : {&m_spec.evaluator, &m_spec.generator, &m_spec.refiner})
        if (p->baseUrl.isEmpty() || p->model.isEmpty())
            return makeError(tr("a judge endpoint needs a base URL and a model"), {}, 0, QStringLiteral("base-url"));
    for (const ProviderProfile *p : {&m_spec.evaluator, &m_spec.generator, &m_spec.refiner}) {
        for (const QString &base : p->baseUrls())
            if (auto url = EndpointSecrets::checkBaseUrl(base); !url)
                return makeError(url.errorString(), {}, 0, QStringLiteral("base-url"));
    }
    // What the endpoints were found to need before: every engine starts from it.
    if (auto known = m_adaptations.load(*m_project, {&m_spec.evaluator, &m_spec.generator, &m_spec.refiner}); !known)
        return known.error();
    return {};
}

QVariantMap RunContext::methodSettings() const
{
    QVariantMap s = m_spec.settings;
    s.remove(QString::fromLatin1(maxSourceTokensKey));
    return s;
}

const Item *RunContext::item(const QString &id) const
{
    const auto it = m_itemIndex.constFind(id);
    return it == m_itemIndex.constEnd() ? nullptr : &m_allItems[*it];
}

double RunContext::human(const QString &itemId) const
{
    return m_human.value(itemId, std::numeric_limits<double>::quiet_NaN());
}

QString RunContext::profileKey(const ProviderProfile &p) const
{
    // Every setting of the profile: roles that share an endpoint but differ in prices, limits or
    // key get their own engine (their own costs and limits); the judge cache stays shared, since
    // its key names the model, not the role or the URL.
    QStringList headers;
    for (auto it = p.headers.cbegin(); it != p.headers.cend(); ++it)
        headers << it.key() + QLatin1Char('=') + it.value().toString();
    QStringList weights;
    for (qsizetype i = 0; i < p.baseUrls().size(); ++i)
        weights << QString::number(p.replicaWeight(i), 'g', 17);
    // The name matters only for a key in the keychain (stored under the profile's name).
    return QStringList{p.useKeychain ? p.name : QString(),
                       Provider::kindName(p.kind),
                       p.baseUrls().join(QLatin1Char('\t')),
                       weights.join(QLatin1Char(',')),
                       p.model,
                       p.apiKeyEnv,
                       p.useKeychain ? QStringLiteral("keychain") : QString(),
                       headers.join(QLatin1Char('\t')),
                       QString::number(p.concurrency),
                       QString::number(p.requestsPerMinute, 'g', 17),
                       QString::number(p.tokensPerMinute, 'g', 17),
                       QString::number(p.pricePerMillionIn, 'g', 17),
                       QString::number(p.pricePerMillionOut, 'g', 17),
                       QString::number(p.pricePerMillionCached, 'g', 17),
                       QString::number(p.timeoutMs),
                       QString::number(p.maxRetries)}
            .join(QLatin1Char('\n'));
}

void RunContext::onAdapted(JudgeEngine *engine)
{
    // Shared with the run's other engines of the same endpoint (roles that differ in prices or limits).
    const ProviderProfile &p = engine->profile();
    if (!m_adaptations.learn(*m_project, p, engine->adaptations()))
        return;
    const EndpointAdaptations known = m_adaptations.forProfile(p);
    for (auto &[key, other] : m_engines)
        if (other.get() != engine && RunAdaptations::sameEndpoint(other->profile(), p)) {
            EndpointAdaptations theirs = other->adaptations();
            if (theirs.merge(known))
                other->setAdaptations(theirs);
        }
}

EndpointAdaptations RunContext::adaptations(JudgeRole role) const
{
    return m_adaptations.forProfile(role == JudgeRole::Evaluator   ? m_spec.evaluator
                                    : role == JudgeRole::Generator ? m_spec.generator
                                                                   : m_spec.refiner);
}

QStringList RunContext::adapted() const
{
    QStringList out;
    for (const auto &[key, engine] : m_engines)
        for (const QString &why : engine->adaptations().reasons())
            if (!out.contains(why))
                out.append(why);
    return out;
}

JudgeEngine *RunContext::engine(JudgeRole role)
{
    const ProviderProfile &p = role == JudgeRole::Evaluator   ? m_spec.evaluator
                               : role == JudgeRole::Generator ? m_spec.generator
                                                              : m_spec.refiner;
    const QString key = profileKey(p);
    auto it = m_engines.find(key);
    if (it != m_engines.end())
        return it->second.get();
    auto engine = std::make_unique<JudgeEngine>(p, m_project);
    engine->setRunName(m_spec.judge);
    engine->setBatchOptions(m_spec.batch);
    engine->setAdaptations(m_adaptations.forProfile(p));
    JudgeEngine *raw = engine.get();
    connect(raw, &JudgeEngine::adapted, this, [this, raw] { onAdapted(raw); });
    connect(raw, &JudgeEngine::answered, this, [this, raw](const JudgeResponse &r) { onAnswered(raw, r); });
    if (m_spec.batch.enabled) // a batch's state changes while no answer comes: shown as it changes
        connect(raw, &JudgeEngine::statsChanged, this, [this] {
            if (!m_stopped)
                emit progressed(progress());
        });
    m_engines.emplace(key, std::move(engine));
    return raw;
}

Result<bool> RunContext::isCached(JudgeRole role, const JudgeRequest &request)
{
    return engine(role)->isCached(request);
}

Result<std::optional<JudgeResponse>> RunContext::cached(JudgeRole role, const JudgeRequest &request)
{
    return engine(role)->cached(request);
}

QString RunContext::cacheKey(JudgeRole role, const JudgeRequest &request)
{
    return engine(role)->cacheKey(request);
}

void RunContext::noteTemplate(const RenderedPrompt &prompt)
{
    m_templates.insert(prompt.templateName, QVariantMap{{QStringLiteral("hash"), prompt.templateHash},
                                                        {QStringLiteral("source"), prompt.templateSource}});
}

QVector<int> RunContext::targetsToAsk(int *skipped) const
{
    QVector<int> out;
    for (int i = 0; i < m_target.size(); ++i) {
        if (skipsFailed(m_target[i].id))
            ++*skipped; // the endpoint refused it before: --retry-failed asks again
        else
            out.append(i);
    }
    return out;
}

Result<JudgeRequest> RunContext::templateRequest(const QString &name, const QVariantMap &context, double temperature,
                                                 int maxTokens)
{
    auto prompt = m_prompts.render(name, context);
    if (!prompt)
        return prompt.error();
    noteTemplate(*prompt);
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = temperature;
    r.maxTokens = maxTokens;
    return r;
}

void RunContext::recordScores(const QVector<CriterionScore> &rows, const QHash<QString, double> &itemScores)
{
    m_pendingRows += rows;
    m_pendingItemScores.insert(itemScores);
    if (!m_flushTimer) {
        m_flushTimer = new QTimer(this);
        m_flushTimer->setSingleShot(true);
        m_flushTimer->setInterval(250);
        connect(m_flushTimer, &QTimer::timeout, this, [this] {
            if (auto r = flushScores(); !r)
                fail(r.errorString());
        });
    }
    if (!m_flushTimer->isActive())
        m_flushTimer->start();
}

Result<void> RunContext::flushScores()
{
    if (m_flushTimer)
        m_flushTimer->stop();
    if (!m_pendingRows.isEmpty()) {
        if (auto w = m_store.writeCriterionScores(m_spec.judge, m_pendingRows); !w)
            return w;
        m_pendingRows.clear();
    }
    if (!m_pendingItemScores.isEmpty()) {
        if (auto w = m_project->setJudgeScores(m_spec.judge, m_spec.aspect, m_pendingItemScores); !w)
            return w;
        m_pendingItemScores.clear();
    }
    return {};
}

void RunContext::cancel()
{
    if (m_stopped)
        return;
    // What was scored so far is kept (its answers are in the cache either way).
    (void)flushScores();
    m_stopped = true;
    for (auto &[key, engine] : m_engines)
        engine->cancel();
}

void RunContext::fail(const QString &message)
{
    if (m_stopped)
        return;
    cancel();
    emit failed(message);
}

QVariantMap RunContext::phaseCalls() const
{
    QVariantMap out;
    for (auto it = m_phaseCalls.begin(); it != m_phaseCalls.end(); ++it)
        out.insert(it.key(), QVariantMap{{QStringLiteral("calls"), it.value()},
                                         {QStringLiteral("sent"), m_phaseSent.value(it.key())},
                                         {QStringLiteral("cache_hits"), m_phaseHits.value(it.key())}});
    return out;
}

RunProgress RunContext::progress() const
{
    RunProgress p;
    p.phase = m_phase;
    p.done = m_done;
    p.total = m_total;
    for (const auto &[key, engine] : m_engines) {
        const JudgeStats s = engine->stats();
        p.sent += s.sent;
        p.cacheHits += s.cacheHits;
        p.tokens += s.tokensIn + s.tokensOut;
        p.tokensReasoning += s.tokensReasoning;
        p.cost += s.cost;
        p.batches += engine->batches();
        p.batchWaiting += engine->waitingForBatches();
    }
    if (m_outlook >= 0)
        p.sendMax = std::max(p.sent, m_outlookBase + m_outlook);
    return p;
}

int RunContext::newTargetTexts(int from) const
{
    QSet<QPair<QString, QString>> seen;
    int fresh = 0;
    for (int i = 0; i < m_target.size(); ++i) {
        const QPair<QString, QString> texts{m_target[i].source, m_target[i].output};
        if (seen.contains(texts))
            continue;
        seen.insert(texts);
        if (i >= from)
            ++fresh;
    }
    return fresh;
}

void RunContext::setOutlook(int maxToSend)
{
    m_outlook = maxToSend;
    int sent = 0;
    for (const auto &[key, engine] : m_engines)
        sent += engine->stats().sent;
    m_outlookBase = sent;
}

qint64 RunContext::approxTokens(const QString &text)
{
    return text.isEmpty() ? 0 : std::max<qint64>(1, (text.size() + 3) / 4);
}

qint64 RunContext::approxTokens(const JudgeRequest &request)
{
    qint64 n = 0;
    for (const ChatMessage &m : request.messages)
        n += approxTokens(m.content);
    return n;
}

qint64 RunContext::approxTokens(const JudgeRequest &request, const ProviderProfile &profile)
{
    return approxTokens(request) + approxTokens(StructuredAnswers::sentText(profile, request));
}

} // namespace rubric
