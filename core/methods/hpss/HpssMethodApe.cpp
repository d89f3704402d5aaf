#include "HpssMethod.h"
#include "methods/RunContext.h"

#include <QSet>

#include <cmath>
#include <limits>

// The APE-style baseline of the HPSS paper (Table 2) as the authors' baseline/ape.py runs it: the
// task's base prompt, then passes over a queue of five prompts, each resampled once by the evaluator
// ("Generate a variation of the following instruction …") and the variation evaluated on the
// validation split; the queue keeps the five best; the last of it is scored on the test split.

namespace rubric {

using namespace hpss;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

Result<QString> HpssMethod::apeBasePrompt() const
{
    // [code] ape.py: base_prompt.format(aspect, criteria=criteria_human[aspect], min, max) with the
    // task's scale (Topical-Chat 3, the others 5; groundedness 0 to 1) and the human criteria file
    // of that scale: ours are the aspect definition with its anchors on that scale, as the origin
    // strategy shows them.
    const TaskWording &task = m_builder->task();
    const Aspect &aspect = m_builder->aspect();
    const QString criteria
            = rescaleAnchors(aspect.definition, aspect.min, aspect.max, m_apeMin, task.nativeScale, task.nativeScale);
    auto filled = hpss::apeBasePrompt(task.name, aspect.name.toLower(), criteria, m_apeMin, m_apeMax);
    if (!filled)
        return makeError(tr("the APE-style base prompt of task '%1': %2").arg(task.name, filled.errorString()), {}, 0,
                         QStringLiteral("task"));
    return *filled;
}

QHash<QString, QString> HpssMethod::apeFields(const Item &item) const
{
    return hpss::apeFields(m_builder->task().name, m_builder->aspect().name.toLower(), item.source, item.output,
                           itemFact(item), m_apeMin);
}

QString HpssMethod::apeUnusable(const QString &prompt) const
{
    if (prompt.trimmed().isEmpty())
        return tr("an empty variation");
    auto filled = pythonFormat(prompt, apeFields(Item{}));
    return filled ? QString() : filled.errorString();
}

Result<JudgeRequest> HpssMethod::apeScoreRequest(const QString &prompt, const Item &item) const
{
    auto text = pythonFormat(prompt, apeFields(item));
    if (!text)
        return makeError(tr("item '%1', APE-style prompt: %2").arg(item.id, text.errorString()), {}, 0,
                         QStringLiteral("prompt"));
    JudgeRequest r;
    r.messages = {{QStringLiteral("system"), AssemblyOptions{}.systemPrompt}, {QStringLiteral("user"), *text}};
    r.temperature = 0;
    r.maxTokens = m_maxTokens;
    r.shape = AnswerShape::score(m_apeMin, m_apeMax);
    return r;
}

Result<JudgeRequest> HpssMethod::apeResampleRequest(const ApeSearch &search) const
{
    const int parent = search.resampleParent();
    if (parent < 0)
        return makeError(tr("the APE-style search asks for no variation now"), {}, 0, QStringLiteral("search"));
    auto text = apeResamplePrompt(search.candidates().at(parent).prompt);
    if (!text)
        return text.error();
    JudgeRequest r;
    r.messages = {{QStringLiteral("system"), AssemblyOptions{}.systemPrompt}, {QStringLiteral("user"), *text}};
    // [code] prompt_resampling: temperature 1.0, top_p 1.0, 4096 tokens, and the run's one seed for
    // every variation. Ours counts the attempt in the seed (as the OPRO-style proposals do): with one
    // seed a seeded endpoint varies a prompt the same way each pass, so the queue fills with copies
    // and an unusable variation comes back forever. Each attempt is its own cache key; a resumed run
    // reads the same answers.
    r.temperature = 1.0;
    r.topP = 1.0;
    r.seed = qint64(m_params.seed % 1000000007ull) * 1000 + search.resampleAttempt();
    r.maxTokens = m_maxTokens;
    return r;
}

void HpssMethod::stepApe()
{
    if (m_ctx->stopped())
        return;
    switch (m_ape->next()) {
    case ApeSearch::Action::Evaluate:
        evaluateApe(m_ape->pendingCandidate());
        return;
    case ApeSearch::Action::Resample:
        askVariation();
        return;
    case ApeSearch::Action::Done:
        if (auto r = persist(); !r) {
            m_ctx->fail(r.errorString());
            return;
        }
        scoreWinner();
        return;
    }
}

void HpssMethod::askVariation()
{
    auto request = apeResampleRequest(*m_ape);
    if (!request) {
        m_ctx->fail(request.errorString());
        return;
    }
    m_ctx->setOutlook(1);
    m_ctx->submit(JudgeRole::Evaluator, kPhaseSearch, {*request}, [this](const QVector<JudgeResponse> &rs) {
        if (!rs.first().ok()) { // no attempt spent: the run stops and a re-run asks again
            m_ctx->fail(tr("the APE-style variation failed: %1").arg(RunContext::failureText(rs.first())));
            return;
        }
        const QString text = rs.first().text();
        if (auto r = m_ape->acceptVariation(text, apeUnusable(text)); !r) {
            m_ctx->fail(r.errorString());
            return;
        }
        if (auto r = persist(); !r) {
            m_ctx->fail(r.errorString());
            return;
        }
        stepApe();
    });
}

void HpssMethod::evaluateApe(int candidate)
{
    const QVector<Item> &items = m_builder->validation();
    auto tally = std::make_shared<ValidationTally>();
    tally->scores.fill(kNaN, items.size());
    const QString prompt = m_ape->candidates().at(candidate).prompt;
    m_ctx->setOutlook(int(items.size()));
    m_ctx->stream(
            JudgeRole::Evaluator, kPhaseSearch, int(items.size()),
            [this, prompt](int unit) -> Result<QVector<JudgeRequest>> {
                auto r = apeScoreRequest(prompt, m_builder->validation()[unit]);
                if (!r)
                    return r.error();
                return QVector<JudgeRequest>{*r};
            },
            [this, tally](int unit, const QVector<JudgeResponse> &rs) {
                tallyAnswer(*tally, unit, rs.first(), m_apeMin, m_apeMax);
            },
            [this, tally, candidate] {
                bool constant = false;
                const double rho = tallySpearman(*tally, &constant);
                if (auto r = m_ape->report(candidate, rho); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                m_evaluations.append(QVariantMap{{QStringLiteral("step"), m_ape->candidates().at(candidate).step},
                                                 {QStringLiteral("candidate"), candidate},
                                                 {QStringLiteral("parse_failures"), tally->parseFailures},
                                                 {QStringLiteral("out_of_scale"), tally->outOfScale},
                                                 {QStringLiteral("refused"), tally->refused},
                                                 {QStringLiteral("constant"), constant}});
                if (auto r = persist(); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                stepApe();
            },
            [this](const JudgeResponse &r) { return readable(r); });
}

Result<RunEstimate> HpssMethod::estimateApe()
{
    RunEstimate e;
    const QVector<Item> &validation = m_builder->validation();
    QVector<Item> targets;
    for (const Item &item : m_ctx->targetItems())
        if (!m_ctx->skipsFailed(item.id))
            targets.append(item);
    // The calls a prompt costs on `items`: its prompts not in the judge cache (each distinct once).
    const auto uncached = [this, &e](const QString &prompt, const QVector<Item> &items) -> Result<int> {
        int calls = 0;
        QSet<QString> keys;
        for (const Item &item : items) {
            auto r = apeScoreRequest(prompt, item);
            if (!r)
                return r.error();
            const QString key = m_ctx->cacheKey(JudgeRole::Evaluator, *r);
            auto inCache = m_ctx->isCached(JudgeRole::Evaluator, *r);
            if (!inCache.ok())
                return inCache.error();
            if (*inCache || keys.contains(key)) {
                ++e.cached;
                continue;
            }
            keys.insert(key);
            ++calls;
        }
        return calls;
    };
    // The search replayed through the judge cache as far as its answers are there (a resumed run,
    // or another judge of the same search): cached variations are read, cached evaluations give
    // their Spearman, and the search goes on as the run's will.
    ApeSearch s = *m_ape;
    for (bool replaying = true; replaying;) {
        switch (s.next()) {
        case ApeSearch::Action::Done:
            replaying = false;
            break;
        case ApeSearch::Action::Resample: {
            auto request = apeResampleRequest(s);
            if (!request)
                return request.error();
            auto answer = m_ctx->cached(JudgeRole::Evaluator, *request);
            if (!answer)
                return answer.error();
            if (!*answer) {
                replaying = false;
                break;
            }
            ++e.cached;
            const QString text = (*answer)->text();
            if (auto r = s.acceptVariation(text, apeUnusable(text)); !r)
                return r.error();
            break;
        }
        case ApeSearch::Action::Evaluate: {
            QVector<double> x, y;
            QStringList groups;
            bool all = true;
            for (int i = 0; i < validation.size() && all; ++i) {
                auto request = apeScoreRequest(s.candidates().at(s.pendingCandidate()).prompt, validation[i]);
                if (!request)
                    return request.error();
                auto answer = m_ctx->cached(JudgeRole::Evaluator, *request);
                if (!answer)
                    return answer.error();
                if (!*answer) {
                    all = false;
                    break;
                }
                const ScoreReading reading = readScore((*answer)->text(), m_apeMin, m_apeMax);
                if (!reading.parsed && m_params.unparsed == UnparsedPolicy::Reask) {
                    all = false; // the run asks it again: not replayed
                    break;
                }
                const double score = reading.parsed ? reading.score : unparsedScore();
                if (std::isnan(score))
                    continue;
                x.append(score);
                y.append(m_validationHuman[i]);
                groups.append(m_validationGroups[i]);
            }
            if (!all) {
                replaying = false;
                break;
            }
            e.cached += int(validation.size());
            if (auto r = s.report(s.pendingCandidate(), levelSpearman(x, y, groups, m_params.level)); !r)
                return r.error();
            break;
        }
        }
    }
    const int v = int(validation.size());
    int searchMax = 0, searchMin = 0;
    if (s.next() != ApeSearch::Action::Done) {
        int costLeft = s.costLeft();
        if (s.next() == ApeSearch::Action::Evaluate) {
            auto pending = uncached(s.candidates().at(s.pendingCandidate()).prompt, validation);
            if (!pending)
                return pending.error();
            searchMax = searchMin = *pending;
            if (s.pendingCandidate() != 0)
                --costLeft; // the pending variation is one of the evaluations that cost
        }
        // Each evaluation that still costs: its variation, then a call per validation item (none
        // when the variation repeats a prompt already evaluated: the judge cache answers it); an
        // unusable variation costs its request and no evaluation, up to the search's limit.
        searchMax += costLeft * (1 + v) + s.unusableLeft();
        searchMin += costLeft;
    }
    int evaluate = int(targets.size()) * m_samples;
    const bool winnerKnown = s.winner() >= 0;
    if (winnerKnown && m_samples <= 1) {
        auto calls = uncached(s.candidates().at(s.winner()).prompt, targets);
        if (!calls)
            return calls.error();
        evaluate = *calls;
    }
    e.calls = searchMax + evaluate;
    e.callsMin = searchMin + evaluate;
    e.exact = winnerKnown && m_samples <= 1;
    e.exactPhases = {kPhaseAuxiliary};
    if (s.next() == ApeSearch::Action::Done)
        e.exactPhases.append(kPhaseSearch);
    if (e.exact)
        e.exactPhases.append(kPhaseEvaluate);
    e.perPhase.insert(kPhaseAuxiliary, 0);
    e.perPhase.insert(kPhaseSearch, searchMin == searchMax ? QVariant(searchMax)
                                                           : QVariant(QVariantMap{{QStringLiteral("min"), searchMin},
                                                                                  {QStringLiteral("max"), searchMax}}));
    e.perPhase.insert(kPhaseEvaluate, evaluate);
    qint64 perCall = 1000;
    if (auto r = apeScoreRequest(m_apeBase, validation.isEmpty() ? targets.value(0) : validation.first()); r)
        perCall = RunContext::approxTokens(*r, m_ctx->spec().evaluator);
    e.tokensIn = perCall * e.calls;
    e.tokensOut = 150 * e.calls;
    e.cost = RunContext::estimatedCost(m_ctx->spec().evaluator, e.tokensIn, e.tokensOut);
    return e;
}

void HpssMethod::apeStats(QVariantMap *stats, QVariantMap *result) const
{
    const int w = m_ape->winner();
    QVariantList evaluated;
    const QVector<ApeCandidate> &all = m_ape->candidates();
    for (int k = 0; k < all.size(); ++k) {
        if (!all[k].spearman)
            continue;
        evaluated.append(QVariantMap{{QStringLiteral("candidate"), k},
                                     {QStringLiteral("parent"), all[k].parent},
                                     {QStringLiteral("step"), all[k].step},
                                     {QStringLiteral("prompt"), all[k].prompt},
                                     {QStringLiteral("validation_spearman"), *all[k].spearman}});
    }
    QVariantList queue;
    for (int k : m_ape->queue())
        queue.append(k);
    stats->remove(QStringLiteral("strategy"));
    stats->insert(QStringLiteral("prompt"), QStringLiteral("ape-style"));
    stats->insert(QStringLiteral("prompt_text"), all.at(w).prompt);
    stats->insert(QStringLiteral("search"), QVariantMap{{QStringLiteral("algorithm"), QStringLiteral("ape")},
                                                        {QStringLiteral("evaluated"), evaluated},
                                                        {QStringLiteral("queue"), queue},
                                                        {QStringLiteral("winner"), w},
                                                        {QStringLiteral("cost"), m_ape->cost()},
                                                        {QStringLiteral("ape_log"), m_ape->log()},
                                                        {QStringLiteral("stop_reason"), m_ape->stopReason()},
                                                        {QStringLiteral("params"), m_params.toVariant()}});
    stats->insert(QStringLiteral("validation_spearman"), *all.at(w).spearman);
    stats->insert(QStringLiteral("validation_n"), int(m_validationHuman.size()));
    result->insert(QStringLiteral("strategy"), QStringLiteral("ape-style"));
    result->insert(QStringLiteral("evaluations"), int(evaluated.size()));
    result->insert(QStringLiteral("stop_reason"), m_ape->stopReason());
    result->insert(QStringLiteral("validation_spearman"), *all.at(w).spearman);
}

} // namespace rubric
