#include "RunContext.h"

#include "judge/Provider.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QSet>
#include <QTimer>

#include <algorithm>

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
    const auto aspect = m_project->aspect(m_spec.aspect);
    if (!aspect)
        return makeError(tr("no aspect named '%1' in the project").arg(m_spec.aspect), {}, 0, QStringLiteral("aspect"));
    m_aspect = *aspect;
    m_baseContext = PromptLibrary::taskContext(PromptLibrary::projectTask(m_project), m_aspect);
    m_allItems = m_project->items();
    for (int i = 0; i < m_allItems.size(); ++i)
        m_itemIndex.insert(m_allItems[i].id, i);
    m_human = m_project->humanScores(m_spec.aspect);
    const QStringList target = m_project->itemIds(m_spec.items);
    for (const QString &id : target)
        m_target.append(m_allItems[m_itemIndex.value(id)]);
    for (const QString &id : m_project->itemIds(SplitFilter::Train))
        if (m_human.contains(id))
            m_train.append(m_allItems[m_itemIndex.value(id)]);
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
    return {};
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
    return p.baseUrl + QLatin1Char('\n') + p.model + QLatin1Char('\n') + Provider::kindName(p.kind);
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
    JudgeEngine *raw = engine.get();
    connect(raw, &JudgeEngine::answered, this, [this, raw](const JudgeResponse &r) { onAnswered(raw, r); });
    m_engines.emplace(key, std::move(engine));
    return raw;
}

bool RunContext::isCached(JudgeRole role, const JudgeRequest &request)
{
    return engine(role)->isCached(request);
}

std::optional<JudgeResponse> RunContext::cached(JudgeRole role, const JudgeRequest &request)
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

void RunContext::submit(JudgeRole role, const QString &phase, const QVector<JudgeRequest> &requests, Done done)
{
    if (m_stopped)
        return;
    m_phase = phase;
    if (requests.isEmpty()) {
        QTimer::singleShot(0, this, [this, done] {
            if (!m_stopped)
                done({});
        });
        return;
    }
    if (m_spec.budget > 0) {
        // Worst case: every uncached request uses its whole max_tokens of output.
        JudgeEngine *e = engine(role);
        const ProviderProfile &p = e->profile();
        double projected = 0;
        for (const JudgeRequest &r : requests)
            if (!e->isCached(r))
                projected += (double(approxTokens(r)) * p.pricePerMillionIn
                              + double(r.maxTokens) * std::max(1, r.n) * p.pricePerMillionOut)
                             / 1e6;
        const double spent = progress().cost;
        if (spent + projected > m_spec.budget) {
            fail(tr("stopped before the budget of %1 would be passed: %2 spent, the next %3 calls (%4) could cost up "
                    "to %5 more. Raise the budget and run the same judge again to resume; answers so far are kept.")
                         .arg(m_spec.budget, 0, 'f', 4)
                         .arg(spent, 0, 'f', 4)
                         .arg(requests.size())
                         .arg(phase)
                         .arg(projected, 0, 'f', 4));
            return;
        }
    }
    const int id = m_nextBatch++;
    Batch b;
    b.phase = phase;
    b.engine = engine(role);
    b.responses.resize(requests.size());
    b.remaining = int(requests.size());
    b.done = std::move(done);
    m_batches.insert(id, b);
    m_phaseCalls[phase] += int(requests.size());
    m_total += int(requests.size());
    QVector<JudgeRequest> tagged = requests;
    for (int i = 0; i < tagged.size(); ++i)
        tagged[i].tag = QStringLiteral("%1:%2").arg(id).arg(i);
    b.engine->submit(tagged);
}

void RunContext::onAnswered(JudgeEngine *engine, const JudgeResponse &response)
{
    if (m_stopped)
        return;
    const qsizetype colon = response.tag.indexOf(QLatin1Char(':'));
    const int id = response.tag.left(colon).toInt();
    const int index = response.tag.mid(colon + 1).toInt();
    auto it = m_batches.find(id);
    if (it == m_batches.end() || it->engine != engine || index < 0 || index >= it->responses.size())
        return;
    it->responses[index] = response;
    --it->remaining;
    ++m_done;
    if (response.status == JudgeStatus::Cached)
        ++m_phaseHits[it->phase];
    else if (response.status == JudgeStatus::Ok)
        ++m_phaseSent[it->phase];
    if (!response.ok()) {
        fail(tr("the judge endpoint failed (%1): %2")
                     .arg(response.httpStatus ? QStringLiteral("HTTP %1").arg(response.httpStatus)
                                              : tr("no HTTP status"),
                          response.error.isEmpty() ? tr("cancelled") : response.error));
        return;
    }
    emit progressed(progress());
    if (it->remaining == 0) {
        Batch done = *it;
        m_batches.erase(it);
        // Continue from the event loop: the engine may be inside submit() (cache hits).
        QTimer::singleShot(0, this, [this, done] {
            if (!m_stopped)
                done.done(done.responses);
        });
    }
}

void RunContext::cancel()
{
    if (m_stopped)
        return;
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
        p.cost += s.cost;
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

} // namespace rubric
