#include "GEvalMethod.h"

#include "judge/AnswerParser.h"
#include "judge/EndpointCapabilities.h"
#include "judge/Provider.h"
#include "methods/AnswerText.h"
#include "methods/EstimateTally.h"
#include "methods/Rescore.h"
#include "methods/RunContext.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QSet>

#include <cmath>

namespace rubric {
namespace {

bool hasSteps(const Rubric &r)
{
    return !r.enabled(CriterionKind::Step).isEmpty();
}

} // namespace

GEvalMethod::GEvalMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

Result<void> GEvalMethod::readParams()
{
    const QVariantMap s = m_ctx->methodSettings();
    for (auto it = s.begin(); it != s.end(); ++it) {
        const QString key = it.key().startsWith(QLatin1String("geval.")) ? it.key().mid(6) : it.key();
        bool ok = false;
        if (key == QLatin1String("temperature"))
            m_temperature = it.value().toString().toDouble(&ok);
        else if (key == QLatin1String("max_tokens"))
            m_maxTokens = it.value().toString().toInt(&ok);
        else if (key == QLatin1String("top_logprobs"))
            m_topLogprobs = it.value().toString().toInt(&ok);
        else if (key == QLatin1String("steps_max_tokens"))
            m_stepsMaxTokens = it.value().toString().toInt(&ok);
        else if (key == QLatin1String("logprobs"))
            ok = true; // read by logprobs()
        else if (key == QLatin1String("samples"))
            (void)it.value().toString().toInt(&ok); // read by samples()
        else
            return makeError(tr("unknown G-Eval parameter '%1' (known: temperature, max_tokens, top_logprobs, "
                                "steps_max_tokens)")
                                     .arg(it.key()),
                             {}, 0, QStringLiteral("set"));
        if (!ok)
            return makeError(tr("bad value '%1' for G-Eval parameter '%2'").arg(it.value().toString(), it.key()), {}, 0,
                             QStringLiteral("set"));
    }
    if (samples() < 1)
        return makeError(tr("--samples must be at least 1"), {}, 0, QStringLiteral("samples"));
    m_choices = Provider::create(m_ctx->spec().evaluator.kind)->supportsChoices();
    const Result<bool> ignoresN = endpoint::ignoresN(*m_ctx->project(), m_ctx->spec().evaluator);
    if (!ignoresN.ok())
        return ignoresN.error();
    const Result<bool> noLogprobs = endpoint::lacksLogprobs(*m_ctx->project(), m_ctx->spec().evaluator);
    if (!noLogprobs.ok())
        return noLogprobs.error();
    m_ignoresN = *ignoresN;
    m_noLogprobs = *noLogprobs;
    auto loaded = m_ctx->store().loadLatest(m_ctx->spec().judge);
    if (!loaded)
        return loaded.error(); // an unreadable rubric must not look like none (the steps would be asked again)
    if (*loaded)
        m_rubric = **loaded;
    return {};
}

Result<JudgeRequest> GEvalMethod::stepsRequest()
{
    return m_ctx->templateRequest(QStringLiteral("geval_steps"), m_ctx->baseContext(), 0, m_stepsMaxTokens);
}

bool GEvalMethod::logprobs() const
{
    return m_ctx->spec().settings.value(QStringLiteral("logprobs"), false).toBool();
}

int GEvalMethod::samples() const
{
    return m_ctx->spec().settings.value(QStringLiteral("samples"), 20).toInt();
}

GEvalMethod::Mode GEvalMethod::mode() const
{
    if (logprobs() && !m_noLogprobs)
        return Mode::Logprobs;
    return m_choices && !m_ignoresN ? Mode::Choices : Mode::Singles;
}

Result<JudgeRequest> GEvalMethod::scorePrompt(const Rubric &rubric, const Item &item)
{
    QVariantMap c = m_ctx->baseContext();
    QVariantList steps;
    int i = 0;
    for (const Criterion &s : rubric.enabled(CriterionKind::Step))
        steps.append(QVariantMap{{QStringLiteral("index"), ++i}, {QStringLiteral("text"), s.text}});
    c.insert(QStringLiteral("steps"), steps);
    c.insert(QStringLiteral("source"), item.source);
    c.insert(QStringLiteral("output"), item.output);
    auto base = m_ctx->templateRequest(QStringLiteral("geval_score"), c, m_temperature, m_maxTokens);
    if (!base)
        return base.error();
    base->shape = AnswerShape::score(std::ceil(m_ctx->aspect().min), std::floor(m_ctx->aspect().max));
    return base;
}

Result<QVector<JudgeRequest>> GEvalMethod::scoreRequests(const Rubric &rubric, const Item &item, Mode mode, int from)
{
    auto prompt = scorePrompt(rubric, item);
    if (!prompt)
        return prompt.error();
    JudgeRequest base = *prompt;
    const int samples = this->samples();
    switch (mode) {
    case Mode::Logprobs:
        // The logprob-weighted score reads the first score token: a JSON answer would open with "{".
        base.shape = {};
        base.temperature = 0;
        base.logprobs = true;
        base.topLogprobs = m_topLogprobs;
        return QVector<JudgeRequest>{base};
    case Mode::Choices:
        base.n = samples;
        return QVector<JudgeRequest>{base};
    case Mode::Singles:
        break;
    }
    QVector<JudgeRequest> out;
    if (from == 0 && m_choices) {
        // Asked with n before the endpoint showed it ignores n: the answer it gave counts.
        JudgeRequest withN = base;
        withN.n = samples;
        // A cache that cannot be read is no answer here; sending the requests then fails each
        // of them with the cache's error (JudgeEngine::submit), so nothing is paid for twice.
        if (const auto cached = m_ctx->cached(JudgeRole::Evaluator, withN); cached && *cached) {
            out.append(withN);
            from = std::min(samples, int((*cached)->choices.size()));
        }
    }
    for (int s = from; s < samples; ++s) {
        JudgeRequest r = base;
        r.sampleIndex = s;
        out.append(r);
    }
    return out;
}

Rubric GEvalMethod::rubricFromSteps(const QStringList &steps, const QString &callKey) const
{
    Rubric rubric(QStringLiteral("geval"), m_ctx->spec().aspect);
    Criterion root;
    root.key = QString::fromLatin1(rootKey);
    root.kind = CriterionKind::Aspect;
    root.text = m_ctx->aspect().name;
    root.definition = m_ctx->aspect().definition;
    root.origin
            = {{QStringLiteral("method"), QStringLiteral("geval")}, {QStringLiteral("step"), QStringLiteral("aspect")}};
    rubric.add(root);
    const QVariantMap templ = m_ctx->templatesUsed().value(QStringLiteral("geval_steps")).toMap();
    for (int i = 0; i < steps.size(); ++i) {
        Criterion s;
        s.key = QStringLiteral("s%1").arg(i + 1);
        s.parentKey = root.key;
        s.kind = CriterionKind::Step;
        s.text = steps[i];
        s.origin = {{QStringLiteral("method"), QStringLiteral("geval")},
                    {QStringLiteral("step"), QStringLiteral("auto-cot")},
                    {QStringLiteral("call_key"), callKey},
                    {QStringLiteral("template"), QStringLiteral("geval_steps")},
                    {QStringLiteral("template_hash"), templ.value(QStringLiteral("hash"))}};
        rubric.add(s);
    }
    return rubric;
}

Result<RunEstimate> GEvalMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    RunEstimate e;
    const RunSpec &spec = m_ctx->spec();
    Rubric rubric = m_rubric;
    if (!hasSteps(rubric)) {
        auto req = stepsRequest();
        if (!req)
            return req.error();
        const QString stepsKey = m_ctx->cacheKey(JudgeRole::Generator, *req);
        const auto cached = CallStore(m_ctx->project()).lookup(stepsKey);
        if (!cached)
            return cached.error();
        if (*cached) {
            ++e.cached; // the steps are known from the cache: the score prompts are exact
            const QStringList steps = answer::steps((*cached)->text());
            if (!steps.isEmpty())
                rubric = rubricFromSteps(steps, stepsKey);
        } else {
            ++e.calls;
            e.tokensIn += RunContext::approxTokens(*req);
            e.tokensOut += m_stepsMaxTokens / 2;
            e.cost += RunContext::estimatedCost(spec.generator, RunContext::approxTokens(*req), m_stepsMaxTokens / 2);
        }
        e.perPhase.insert(kPhaseSteps, e.calls);
        if (!hasSteps(rubric)) {
            // The steps are not known yet: score prompts are estimated with a placeholder of
            // typical length, and none of them can be in the cache.
            Criterion placeholder;
            placeholder.key = QStringLiteral("s1");
            placeholder.kind = CriterionKind::Step;
            placeholder.text = QString(400, QLatin1Char('x'));
            rubric.add(placeholder);
        }
    }
    const bool known = hasSteps(m_rubric) || e.cached > 0;
    EstimateTally tally(*m_ctx, e); // identical requests (e.g. duplicate outputs) are sent once
    const Mode m = mode();
    for (const Item &item : m_ctx->targetItems()) {
        if (m_ctx->skipsFailed(item.id))
            continue; // refused before: skipped unless asked again
        auto reqs = scoreRequests(rubric, item, m);
        if (!reqs)
            return reqs.error();
        for (const JudgeRequest &r : *reqs)
            // Before the steps are known the score prompts hold a placeholder: none is cached.
            if (auto counted = tally.add(JudgeRole::Evaluator, r, qint64(m_maxTokens) * std::max(1, r.n), known);
                !counted.ok())
                return counted.error();
    }
    const int scoreCalls = tally.calls();
    e.calls += scoreCalls;
    e.callsMin = e.calls;
    e.perPhase.insert(kPhaseEvaluate, scoreCalls);
    return e;
}

void GEvalMethod::start()
{
    if (auto r = readParams(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (hasSteps(m_rubric)) {
        m_rescore = true;
        scoreItems();
        return;
    }
    auto req = stepsRequest();
    if (!req) {
        m_ctx->fail(req.errorString());
        return;
    }
    m_ctx->submit(JudgeRole::Generator, kPhaseSteps, {*req}, [this](const QVector<JudgeResponse> &rs) {
        if (!rs.first().ok()) {
            m_ctx->fail(RunContext::failureText(rs.first()));
            return;
        }
        const QStringList steps = answer::steps(rs.first().text());
        if (steps.isEmpty()) {
            m_ctx->fail(
                    tr("the generator's answer contained no evaluation steps: %1").arg(rs.first().text().left(200)));
            return;
        }
        Rubric rubric = rubricFromSteps(steps, rs.first().cacheKey);
        auto saved = m_ctx->store().saveVersion(m_ctx->spec().judge, rubric, tr("auto-CoT evaluation steps"));
        if (!saved) {
            m_ctx->fail(saved.errorString());
            return;
        }
        rubric.setVersion(*saved);
        m_rubric = rubric;
        scoreItems();
    });
}

void GEvalMethod::scoreItems()
{
    m_items = m_ctx->targetsToAsk(&m_failed);
    const int perItem = mode() == Mode::Singles ? samples() : 1;
    m_ctx->setOutlook(m_ctx->newTargetTexts(0) * perItem);
    auto modes = std::make_shared<QHash<int, Mode>>();
    m_ctx->stream(
            JudgeRole::Evaluator, kPhaseEvaluate, int(m_items.size()),
            [this, modes](int unit) {
                const Mode m = mode();
                modes->insert(unit, m);
                return scoreRequests(m_rubric, m_ctx->targetItems()[m_items[unit]], m);
            },
            [this, modes](int unit, const QVector<JudgeResponse> &rs) {
                const Mode m = modes->take(unit);
                const Item &item = m_ctx->targetItems()[m_items[unit]];
                for (const JudgeResponse &r : rs)
                    if (r.status == JudgeStatus::Failed) {
                        recordFailed(item.id, rs);
                        return;
                    }
                if (m == Mode::Logprobs) {
                    const JudgeResponse &r = rs.first();
                    if (r.choices.isEmpty() || r.choices.first().topLogprobs.isEmpty()) {
                        // Logprobs asked, none came back: this item is scored by samples.
                        if (!m_noLogprobs) {
                            m_noLogprobs = true;
                            if (auto w = endpoint::noteLacksLogprobs(*m_ctx->project(), m_ctx->spec().evaluator); !w)
                                qWarning("%s", qPrintable(w.errorString()));
                        }
                        ++m_logprobFallbacks;
                        m_followUps.append({m_items[unit], {}, 0});
                        return;
                    }
                    const Aspect &aspect = m_ctx->aspect();
                    const ParsedAnswer parsed
                            = AnswerParser::scoreOf(r, int(std::ceil(aspect.min)), int(std::floor(aspect.max)));
                    QVariantMap dist;
                    for (auto it = parsed.distribution.begin(); it != parsed.distribution.end(); ++it)
                        dist.insert(QString::number(it.key()), it.value());
                    const double score = parsed.ok ? parsed.score : std::numeric_limits<double>::quiet_NaN();
                    m_ctx->recordScores({{item.id, QString::fromLatin1(rootKey), 0, score,
                                          parsed.ok ? QStringLiteral("ok") : QStringLiteral("unparsed"), r.text(),
                                          dist.isEmpty() ? QString() : json::stringify(dist), r.cacheKey}},
                                        {{item.id, score}});
                    (parsed.ok ? m_scored : m_missing)++;
                    return;
                }
                QVector<CriterionScore> rows;
                for (const JudgeResponse &r : rs)
                    for (const JudgeChoice &c : r.choices) {
                        const ParsedAnswer one = AnswerParser::parseScore(c.text);
                        const bool ok = one.ok && one.score >= m_ctx->aspect().min && one.score <= m_ctx->aspect().max;
                        rows.append({item.id,
                                     QString::fromLatin1(rootKey),
                                     int(rows.size()),
                                     ok ? one.score : std::numeric_limits<double>::quiet_NaN(),
                                     ok ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                                     c.text,
                                     {},
                                     r.cacheKey});
                    }
                if (rows.size() < samples()) {
                    // Fewer choices than asked: the endpoint ignores n. The rest one request each.
                    if (!m_ignoresN) {
                        m_ignoresN = true;
                        if (auto w = endpoint::noteIgnoresN(*m_ctx->project(), m_ctx->spec().evaluator); !w)
                            qWarning("%s", qPrintable(w.errorString()));
                    }
                    const int from = int(rows.size());
                    m_followUps.append({m_items[unit], std::move(rows), from});
                    return;
                }
                recordSamples(item.id, std::move(rows));
            },
            [this] { askFollowUps(); }, [this](const JudgeResponse &r) { return readableScore(r); });
}

void GEvalMethod::askFollowUps()
{
    if (m_followUps.isEmpty()) {
        finish();
        return;
    }
    // The samples the first answers did not bring: items whose logprobs did not come back, or
    // whose answer had fewer choices than asked.
    auto followUps = std::make_shared<QVector<FollowUp>>(std::exchange(m_followUps, {}));
    const Mode m = mode() == Mode::Logprobs ? (m_choices && !m_ignoresN ? Mode::Choices : Mode::Singles) : mode();
    int outlook = 0;
    for (const FollowUp &f : std::as_const(*followUps))
        outlook += m == Mode::Singles ? samples() - f.from : 1;
    m_ctx->setOutlook(outlook);
    m_ctx->stream(
            JudgeRole::Evaluator, kPhaseEvaluate, int(followUps->size()),
            [this, followUps, m](int unit) {
                const FollowUp &f = (*followUps)[unit];
                return scoreRequests(m_rubric, m_ctx->targetItems()[f.item], f.from > 0 ? Mode::Singles : m, f.from);
            },
            [this, followUps, m](int unit, const QVector<JudgeResponse> &rs) {
                FollowUp &f = (*followUps)[unit];
                const Item &item = m_ctx->targetItems()[f.item];
                for (const JudgeResponse &r : rs)
                    if (r.status == JudgeStatus::Failed) {
                        recordFailed(item.id, rs);
                        return;
                    }
                const bool singles = f.from > 0 || m == Mode::Singles;
                for (const JudgeResponse &r : rs)
                    for (const JudgeChoice &c : r.choices) {
                        if (f.rows.size() >= samples())
                            break;
                        const ParsedAnswer one = AnswerParser::parseScore(c.text);
                        const bool ok = one.ok && one.score >= m_ctx->aspect().min && one.score <= m_ctx->aspect().max;
                        f.rows.append({item.id,
                                       QString::fromLatin1(rootKey),
                                       int(f.rows.size()),
                                       ok ? one.score : std::numeric_limits<double>::quiet_NaN(),
                                       ok ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                                       c.text,
                                       {},
                                       r.cacheKey});
                    }
                if (!singles && f.rows.size() < samples()) {
                    // The n-choice fallback fell short too: the rest one request each, next round.
                    if (!m_ignoresN) {
                        m_ignoresN = true;
                        if (auto w = endpoint::noteIgnoresN(*m_ctx->project(), m_ctx->spec().evaluator); !w)
                            qWarning("%s", qPrintable(w.errorString()));
                    }
                    const int from = int(f.rows.size());
                    m_followUps.append({f.item, std::move(f.rows), std::max(1, from)});
                    return;
                }
                recordSamples(item.id, std::move(f.rows));
            },
            [this] { askFollowUps(); }, [this](const JudgeResponse &r) { return readableScore(r); });
}

bool GEvalMethod::readableScore(const JudgeResponse &response) const
{
    const Aspect &aspect = m_ctx->aspect();
    if (!response.choices.isEmpty() && !response.choices.first().topLogprobs.isEmpty())
        return AnswerParser::scoreOf(response, int(std::ceil(aspect.min)), int(std::floor(aspect.max))).ok;
    for (const JudgeChoice &c : response.choices) {
        const ParsedAnswer one = AnswerParser::parseScore(c.text);
        if (one.ok && one.score >= aspect.min && one.score <= aspect.max)
            return true;
    }
    return false;
}

void GEvalMethod::recordSamples(const QString &itemId, QVector<CriterionScore> rows)
{
    double sum = 0;
    int n = 0;
    for (const CriterionScore &r : std::as_const(rows))
        if (!std::isnan(r.score)) {
            sum += r.score;
            ++n;
        }
    const double score = n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
    m_ctx->recordScores(rows, {{itemId, score}});
    (n > 0 ? m_scored : m_missing)++;
}

void GEvalMethod::recordFailed(const QString &itemId, const QVector<JudgeResponse> &responses)
{
    QVector<CriterionScore> rows;
    for (int i = 0; i < responses.size(); ++i)
        if (responses[i].status == JudgeStatus::Failed)
            rows.append({itemId,
                         QString::fromLatin1(rootKey),
                         i,
                         std::numeric_limits<double>::quiet_NaN(),
                         QStringLiteral("failed"),
                         RunContext::failureText(responses[i]),
                         {},
                         responses[i].cacheKey});
    m_ctx->recordScores(rows, {{itemId, std::numeric_limits<double>::quiet_NaN()}});
    ++m_failed;
}

void GEvalMethod::finish()
{
    // Record the version's alignment: on the train split when a re-score scored the train items
    // too, on the test split apart.
    if (auto r = rescore::recordAlignment(*m_ctx, m_rubric.version()); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    const int samples = this->samples();
    QString scoring, reason;
    if (logprobs() && m_logprobFallbacks == 0 && !m_noLogprobs) {
        scoring = QStringLiteral("logprobs");
        reason = tr("the expected value over the scale from the answer's top_logprobs");
    } else {
        scoring = QStringLiteral("samples");
        const QString how = !m_choices   ? tr("one request each (the provider has no n)")
                            : m_ignoresN ? tr("one request each: the endpoint answers one choice whatever n asks")
                                         : tr("one request with n = %1").arg(samples);
        reason = tr("the mean of %1 samples per item, %2").arg(samples).arg(how);
        if (logprobs())
            reason = (m_logprobFallbacks > 0
                              ? tr("logprobs were asked but the endpoint returned none (%n item(s)); ", nullptr,
                                   m_logprobFallbacks)
                              : tr("logprobs were asked but this endpoint returns none (learned in an earlier run); "))
                     + reason;
    }
    emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                    {QStringLiteral("scored"), m_scored},
                    {QStringLiteral("missing"), m_missing},
                    {QStringLiteral("failed"), m_failed},
                    {QStringLiteral("scoring"), scoring},
                    {QStringLiteral("scoring_reason"), reason}});
}

} // namespace rubric
