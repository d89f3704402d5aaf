// RunContext's streams (RunContext::stream, submit): units of requests kept flowing to an engine at
// its concurrency, answers that cannot be read asked once more, the budget checked a window ahead,
// and refusals told apart (one item's or the run's). RunContext.cpp holds the rest of the context:
// preparing the run, the engines and their adaptations, the cache, the scores and the progress.

#include "judge/Provider.h"
#include "methods/RunContext.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <limits>
#include <memory>

namespace rubric {

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

} // namespace rubric
