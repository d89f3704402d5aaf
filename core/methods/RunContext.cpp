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
    // A re-score of a rubric version without a train-split figure (an edited version, or G-Eval's
    // steps re-scored after a finished run) also scores the annotated train items, so every
    // version's alignment is measured on the train split — the basis HypoEval's first version is
    // measured on — and versions compare on one basis. Once the figure is there the train items
    // are not asked again; resuming an unfinished first run does not ask them.
    auto readVersions = m_store.readVersions(m_spec.judge);
    if (!readVersions)
        return readVersions.error();
    if (const auto &versions = *readVersions; !versions.isEmpty() && !versions.last().alignment) {
        const auto judge = m_project->readJudge(m_spec.judge);
        if (!judge)
            return judge.error();
        if (versions.last().version > 1 || (*judge && (*judge)->status == QLatin1String("done"))) {
            QSet<QString> targetIds;
            for (const QString &id : target)
                targetIds.insert(id);
            for (const Item &it : std::as_const(m_train))
                if (!targetIds.contains(it.id))
                    m_target.append(it);
        }
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

void RunContext::submit(JudgeRole role, const QString &phase, const QVector<JudgeRequest> &requests, Done done,
                        Readable readable)
{
    auto responses = std::make_shared<QVector<JudgeResponse>>(requests.size());
    stream(
            role, phase, int(requests.size()),
            [requests](int unit) -> Result<QVector<JudgeRequest>> { return QVector<JudgeRequest>{requests[unit]}; },
            [responses](int unit, const QVector<JudgeResponse> &rs) { (*responses)[unit] = rs.first(); },
            [responses, done = std::move(done)] { done(*responses); }, std::move(readable));
}

bool RunContext::readableText(const JudgeResponse &response)
{
    for (const JudgeChoice &c : response.choices)
        if (c.cutOff() || c.text.trimmed().isEmpty())
            return false;
    return !response.choices.isEmpty();
}

QVariantMap RunContext::reasked() const
{
    return m_reasked;
}

double RunContext::projectedCost(JudgeEngine *engine, const JudgeRequest &request) const
{
    // Worst case: the request uses its whole max_tokens of output.
    const ProviderProfile &p = engine->profile();
    // At the interactive price also with provider batches: whether a step goes as a batch is decided
    // when it is sent (the threshold, a refused creation), so the full price is the worst case.
    // A reasoning model may think its whole budget on top of max_tokens, and bills it as output.
    return p.cost(double(approxTokens(request, p)),
                  double(engine->adaptations().maxTokens(request)) * std::max(1, request.n));
}

void RunContext::stream(JudgeRole role, const QString &phase, int units, UnitBuilder build, UnitAnswered answered,
                        std::function<void()> done, Readable readable)
{
    if (m_stopped)
        return;
    m_phase = phase;
    const int id = m_nextStream++;
    Stream &s = m_streams[id];
    s.id = id;
    s.phase = phase;
    s.engine = engine(role);
    s.units = std::max(0, units);
    s.build = std::move(build);
    s.answered = std::move(answered);
    s.done = std::move(done);
    s.readable = readable ? std::move(readable) : Readable(&RunContext::readableText);
    // Start from the event loop: the method's caller returns first, as with any answer.
    QTimer::singleShot(0, this, [this, id] { fill(id); });
}

Result<void> RunContext::buildWindow(Stream &s)
{
    // With provider batches the whole step is built at once, so that it goes as one batch.
    const int window = m_spec.batch.enabled ? std::numeric_limits<int>::max()
                                            : std::max(32, 4 * s.engine->profile().concurrency);
    int requests = 0;
    double projected = 0;
    while (s.next < s.units && requests < window) {
        auto built = s.build(s.next);
        if (!built)
            return built.error();
        Unit u;
        u.requests = std::move(built).value();
        u.responses.resize(u.requests.size());
        u.remaining = int(u.requests.size());
        u.reasked.resize(u.requests.size());
        if (m_spec.budget > 0) {
            u.projected.resize(u.requests.size());
            for (int i = 0; i < u.requests.size(); ++i) {
                const auto inCache = s.engine->isCached(u.requests[i]);
                if (!inCache.ok())
                    return inCache.error();
                if (!*inCache)
                    projected += u.projected[i] = projectedCost(s.engine, u.requests[i]);
            }
        }
        requests += int(u.requests.size());
        s.pending.insert(s.next, std::move(u));
        s.built.append(s.next);
        ++s.next;
    }
    if (m_spec.budget > 0) {
        const double spent = progress().cost;
        if (spent + m_reserved + projected > m_spec.budget)
            return makeError(tr("stopped before the budget of %1 would be passed: %2 spent, the next %3 calls (%4) "
                                "could cost up to %5 more. Raise the budget and run the same judge again to resume; "
                                "answers so far are kept.")
                                     .arg(m_spec.budget, 0, 'f', 4)
                                     .arg(spent + m_reserved, 0, 'f', 4)
                                     .arg(requests)
                                     .arg(s.phase)
                                     .arg(projected, 0, 'f', 4),
                             {}, 0, QStringLiteral("budget"));
    }
    return {};
}

void RunContext::fill(int streamId)
{
    auto it = m_streams.find(streamId);
    if (m_stopped || it == m_streams.end())
        return;
    Stream &s = it->second;
    if (s.filling)
        return; // an answer that came synchronously (a cache hit): the loop below goes on
    s.filling = true;
    // Twice the engine's concurrency waits in its queue, so a slot that frees is refilled at
    // once, before this loop runs again for the answer. Until a request of the stream succeeds,
    // only one concurrency's worth goes out, and none more while a refusal is held and answers
    // are still coming: if every request is refused (a parameter the endpoint rejects), the run
    // stops having sent no more than that.
    const int concurrency = s.engine->profile().concurrency;
    // With provider batches everything goes at once: the engine gathers it into one batch.
    const int target = m_spec.batch.enabled ? std::numeric_limits<int>::max()
                       : s.succeeded > 0    ? 2 * concurrency
                                            : concurrency;
    if (s.succeeded == 0 && !s.held.isEmpty() && s.outstanding > 0) {
        s.filling = false;
        return;
    }
    int unitsThisTurn = 0;
    while (!m_stopped && s.outstanding < target && (s.next < s.units || !s.built.isEmpty())) {
        if (s.built.isEmpty()) {
            if (auto r = buildWindow(s); !r) {
                s.filling = false;
                fail(r.errorString());
                return;
            }
        }
        const int unit = s.built.takeFirst();
        Unit &u = s.pending[unit];
        if (u.requests.isEmpty()) {
            unitComplete(s, unit);
            continue;
        }
        QVector<JudgeRequest> tagged = u.requests;
        for (int i = 0; i < tagged.size(); ++i) {
            tagged[i].tag = QStringLiteral("%1:%2:%3").arg(streamId).arg(unit).arg(i);
            if (!u.projected.isEmpty())
                m_reserved += u.projected[i];
        }
        s.outstanding += int(tagged.size());
        m_phaseCalls[s.phase] += int(tagged.size());
        m_total += int(tagged.size());
        s.engine->submit(tagged); // cache hits are answered inside
        // A resume answers whole stretches from the cache without touching the event loop:
        // give it back now and then (cancel, progress, the GUI of a worker's owner).
        if (++unitsThisTurn >= 256 && s.outstanding < target && !m_spec.batch.enabled) {
            s.filling = false;
            QTimer::singleShot(0, this, [this, streamId] { fill(streamId); });
            return;
        }
    }
    s.filling = false;
    if (!m_stopped)
        finishIfDone(s);
}

bool RunContext::itemFailure(const JudgeResponse &response)
{
    return response.status == JudgeStatus::Failed
           && (response.httpStatus == 400 || response.httpStatus == 413 || response.httpStatus == 422);
}

QString RunContext::failureText(const JudgeResponse &response)
{
    return tr("the judge endpoint failed (%1): %2")
            .arg(response.httpStatus ? QStringLiteral("HTTP %1").arg(response.httpStatus) : tr("no HTTP status"),
                 response.error.isEmpty() ? tr("cancelled") : response.error);
}

void RunContext::onAnswered(JudgeEngine *engine, const JudgeResponse &response)
{
    if (m_stopped)
        return;
    const QStringList parts = response.tag.split(QLatin1Char(':'));
    if (parts.size() != 3)
        return;
    const int streamId = parts[0].toInt(), unit = parts[1].toInt(), index = parts[2].toInt();
    auto sit = m_streams.find(streamId);
    if (sit == m_streams.end() || sit->second.engine != engine)
        return;
    Stream &s = sit->second;
    auto uit = s.pending.find(unit);
    if (uit == s.pending.end() || index < 0 || index >= uit->responses.size())
        return;
    Unit &u = *uit;
    --s.outstanding;
    ++m_done;
    if (!u.projected.isEmpty())
        m_reserved = std::max(0.0, m_reserved - std::exchange(u.projected[index], 0.0));
    if (response.status == JudgeStatus::Cached)
        ++m_phaseHits[s.phase];
    else if (response.status == JudgeStatus::Ok)
        ++m_phaseSent[s.phase];
    if (response.ok() && u.reasked[index].isEmpty() && !s.readable(response)) {
        // An answer that is no answer (empty, or cut off before anything could be read): ask once
        // more, with room to finish when it was cut off. The request's key changes, so the cache
        // keeps both and a re-run asks nothing.
        ++s.succeeded; // the endpoint took the request: its settings are not the problem
        JudgeRequest again = u.requests[index];
        bool cutOff = false;
        for (const JudgeChoice &c : response.choices)
            cutOff = cutOff || c.cutOff();
        if (cutOff)
            again.maxTokens = std::max(1, again.maxTokens) * 2;
        again.reask = 1;
        again.tag = response.tag;
        const QString why = cutOff                                ? QStringLiteral("cut off at max_tokens")
                            : response.text().trimmed().isEmpty() ? QStringLiteral("empty answer")
                                                                  : QStringLiteral("unreadable answer");
        u.reasked[index] = why;
        m_reasked.insert(why, m_reasked.value(why).toInt() + 1);
        ++s.outstanding;
        ++m_phaseCalls[s.phase];
        ++m_total;
        emit progressed(progress());
        s.engine->submit({again}); // a cache hit answers inside: `u` may be gone after this
        return;
    }
    u.responses[index] = response;
    if (!u.reasked[index].isEmpty())
        u.responses[index].reasked = u.reasked[index];
    --u.remaining;
    if (response.ok()) {
        ++s.succeeded;
    } else if (itemFailure(response)) {
        u.refused = true;
    } else {
        fail(failureText(response));
        return;
    }
    emit progressed(progress());
    if (u.remaining == 0)
        unitComplete(s, unit);
    if (!m_stopped && !s.filling)
        fill(streamId);
}

void RunContext::unitComplete(Stream &s, int unit)
{
    ++s.answeredUnits;
    if (s.pending[unit].refused && s.succeeded == 0) {
        // Nothing of this stream has succeeded: the refusal may be the run's (a parameter the
        // endpoint rejects for every request). Hold the unit until that is clear.
        s.held.append(unit);
        const int threshold = std::min(s.units, std::max(5, s.engine->profile().concurrency));
        if (s.held.size() >= threshold) {
            const JudgeResponse *first = nullptr;
            for (const JudgeResponse &r : std::as_const(s.pending[s.held.first()].responses))
                if (itemFailure(r)) {
                    first = &r;
                    break;
                }
            fail(failureText(first ? *first : JudgeResponse()) + QLatin1Char(' ')
                 + tr("(every one of the first %n answered requests was refused, so the run stops: check the "
                      "model and the method's parameters)",
                      nullptr, int(s.held.size())));
        }
        return;
    }
    const auto deliver = [this, &s](int u) {
        const Unit done = s.pending.take(u);
        s.answered(u, done.responses);
    };
    if (!s.held.isEmpty() && s.succeeded > 0)
        for (const int h : std::exchange(s.held, {}))
            if (!m_stopped)
                deliver(h);
    if (!m_stopped)
        deliver(unit);
}

void RunContext::finishIfDone(Stream &s)
{
    if (s.finished || s.next < s.units || !s.built.isEmpty() || s.outstanding > 0)
        return;
    for (const int h : std::exchange(s.held, {})) { // refused, fewer than the threshold, nothing succeeded
        const Unit done = s.pending.take(h);
        s.answered(h, done.responses);
        if (m_stopped)
            return;
    }
    s.finished = true;
    const int id = s.id;
    QTimer::singleShot(0, this, [this, id] {
        auto it = m_streams.find(id);
        if (it == m_streams.end() || m_stopped)
            return;
        std::function<void()> done = std::move(it->second.done);
        m_streams.erase(it);
        if (auto r = flushScores(); !r) {
            fail(r.errorString());
            return;
        }
        done();
    });
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
