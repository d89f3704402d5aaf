#include "HypoEvalMethod.h"
#include "methods/EstimateTally.h"
#include "methods/RunContext.h"

#include <QPair>
#include <QSet>

#include <algorithm>

// HypoEvalMethod::estimate(): what a run will send before it starts. The method's run is in
// HypoEvalMethod.cpp.

namespace rubric {

Result<void> HypoEvalMethod::estimatePreparation(RunEstimate &e, QVector<Criterion> &selected, int &evalMin,
                                                 int &evalMax)
{
    const RunSpec &spec = m_ctx->spec();
    QVector<HypoEvalAlgorithm::Sample> train;
    for (const Item &it : m_ctx->trainItems())
        train.append({it.id, m_ctx->human(it.id)});
    if (train.size() < 2)
        return makeError(tr("HypoEval needs at least 2 human-scored training items"), {}, 0, QStringLiteral("items"));

    // §2.1: papers without a summary are summarised first, one generator call each. A summary
    // in the cache is the one the run will use.
    int summaries = 0;
    for (LiteraturePaper &p : m_papers) {
        if (!p.summary.isEmpty())
            continue;
        auto req = summaryRequest(p);
        if (!req)
            return req.error();
        const auto hit = m_ctx->cached(JudgeRole::Generator, *req);
        if (!hit)
            return hit.error();
        if (*hit && !Literature::summaryOf((*hit)->text()).isEmpty()) {
            ++e.cached;
            p.summary = Literature::summaryOf((*hit)->text());
            continue;
        }
        ++summaries;
        const qint64 in = RunContext::approxTokens(*req);
        e.tokensIn += in;
        e.tokensOut += 600;
        e.cost += RunContext::estimatedCost(spec.generator, in, 600);
    }
    if (!m_papers.isEmpty()) {
        e.calls += summaries;
        e.callsMin += summaries;
        e.perPhase.insert(QStringLiteral("literature-summary"), summaries);
    }
    m_literature = Literature::relevantPapers(m_papers);

    // The preparation is deterministic for its answers: replay it through the judge cache (a
    // resumed run, or the same settings under another judge name, finds its answers there) up
    // to the first batch with a call not answered yet. From there on, the calls depend on the
    // answers still to come: the algorithm's bounds (HypoEvalAlgorithm::remaining).
    HypoEvalAlgorithm algo(m_params, train, !m_papers.isEmpty());
    HypoCallBounds rest;
    QString partialPhase;
    int partialHits = 0;
    if (summaries > 0) {
        rest = algo.remaining(); // the prompts need the summaries: nothing to replay
    } else {
        for (;;) {
            const HypoCallBounds before = algo.remaining();
            const QVector<HypoTask> batch = algo.nextBatch();
            if (batch.isEmpty()) {
                if (algo.failed())
                    return makeError(tr("the preparation fails on the answers in the cache: %1").arg(algo.error()), {},
                                     0, {});
                break;
            }
            QVector<HypoAnswer> answers;
            int hits = 0;
            for (const HypoTask &t : batch) {
                auto req = requestFor(algo, t);
                if (!req)
                    return req.error();
                const auto hit = m_ctx->cached(roleOf(t.kind), *req);
                if (!hit)
                    return hit.error();
                if (*hit) {
                    ++hits;
                    answers.append(answerOf(t, (*hit)->text()));
                }
            }
            e.cached += hits;
            if (answers.size() < batch.size()) {
                rest = before;
                partialPhase = batch.first().phase;
                partialHits = hits;
                break;
            }
            algo.deliver(answers);
        }
    }
    if (algo.finished()) { // every call of the preparation is in the cache: the selection is known
        const QStringList keys = algo.selected();
        for (const QString &key : keys)
            for (const HypoHypothesis &h : algo.hypotheses())
                if (h.key == key) {
                    Criterion c;
                    c.key = h.key;
                    c.kind = CriterionKind::Hypothesis;
                    c.text = h.text;
                    selected.append(c);
                }
        return {};
    }
    const qint64 scoreIn = 700, genIn = 3000, scoreOut = 300, genOut = 800; // typical sizes (inferred)
    for (auto it = rest.phases.begin(); it != rest.phases.end(); ++it) {
        int lo = it->min, hi = it->max;
        if (it.key() == partialPhase) { // the calls of the interrupted batch that are answered already
            lo = std::max(0, lo - partialHits);
            hi = std::max(0, hi - partialHits);
        }
        e.perPhase.insert(it.key(), QVariantMap{{QStringLiteral("min"), lo}, {QStringLiteral("max"), hi}});
        const bool scoring = it.key().contains(QLatin1String("score")) || it.key() == QLatin1String("update")
                             || it.key() == QLatin1String("selection");
        const bool redundancy = it.key() == QLatin1String("redundancy");
        const qint64 in = scoring ? scoreIn : (redundancy ? 400 : genIn);
        const qint64 out = scoring ? scoreOut : (redundancy ? 120 : genOut);
        e.calls += hi;
        e.callsMin += lo;
        e.tokensIn += hi * in;
        e.tokensOut += hi * out;
        e.cost += RunContext::estimatedCost(scoring ? spec.evaluator : spec.generator, hi * in, hi * out);
    }
    evalMin = std::min(m_params.hEv, rest.bankMin);
    evalMax = std::min(m_params.hEv, rest.bankMax);
    return {};
}

Result<RunEstimate> HypoEvalMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    RunEstimate e;
    const RunSpec &spec = m_ctx->spec();
    QVector<Criterion> hyps = m_rubric.enabled(CriterionKind::Hypothesis);
    int evalHypsMin = int(hyps.size()), evalHypsMax = int(hyps.size());
    if (hyps.isEmpty())
        if (auto r = estimatePreparation(e, hyps, evalHypsMin, evalHypsMax); !r)
            return r.error();
    const bool prepared = !hyps.isEmpty(); // saved, or every preparation call in the cache
    if (prepared) {
        EstimateTally tally(*m_ctx, e); // identical requests (e.g. duplicate outputs) are sent once
        for (const Item &item : m_ctx->targetItems()) {
            if (m_ctx->skipsFailed(item.id))
                continue; // refused before: skipped unless asked again
            for (const Criterion &h : std::as_const(hyps)) {
                auto req = scoreRequest(h.text, item);
                if (!req)
                    return req.error();
                if (auto counted = tally.add(JudgeRole::Evaluator, *req, 300); !counted.ok())
                    return counted.error();
            }
        }
        const int evalCalls = tally.calls();
        e.calls += evalCalls;
        e.callsMin += evalCalls;
        e.perPhase.insert(QStringLiteral("evaluate"), evalCalls);
    } else {
        // One call per target item and selected hypothesis; an item whose texts equal another's
        // asks the same prompts (sent once), and one equal to a train item's may be answered by
        // the selection's calls already.
        QSet<QPair<QString, QString>> trainTexts, seen;
        for (const Item &it : m_ctx->trainItems())
            trainTexts.insert({it.source, it.output});
        int distinct = 0, fresh = 0;
        for (const Item &item : m_ctx->targetItems()) {
            const QPair<QString, QString> texts{item.source, item.output};
            if (seen.contains(texts))
                continue;
            seen.insert(texts);
            ++distinct;
            if (!trainTexts.contains(texts))
                ++fresh;
            auto req = scoreRequest(QString(600, QLatin1Char('x')), item); // a typical hypothesis length
            if (!req)
                return req.error();
            const qint64 in = RunContext::approxTokens(*req, m_ctx->spec().evaluator) * evalHypsMax;
            e.tokensIn += in;
            e.tokensOut += 300 * evalHypsMax;
            e.cost += RunContext::estimatedCost(spec.evaluator, in, 300 * evalHypsMax);
        }
        e.calls += distinct * evalHypsMax;
        e.callsMin += fresh * evalHypsMin;
        e.perPhase.insert(QStringLiteral("evaluate"), QVariantMap{{QStringLiteral("min"), fresh * evalHypsMin},
                                                                  {QStringLiteral("max"), distinct * evalHypsMax}});
    }
    e.exact = e.calls == e.callsMin;
    return e;
}

} // namespace rubric
