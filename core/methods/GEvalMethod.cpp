#include "GEvalMethod.h"

#include "AnswerText.h"
#include "Rescore.h"
#include "judge/AnswerParser.h"
#include "judge/Provider.h"
#include "runs/RunContext.h"
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
    const QVariantMap &s = m_ctx->spec().settings;
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
        else
            return makeError(tr("unknown G-Eval parameter '%1' (known: temperature, max_tokens, top_logprobs, "
                                "steps_max_tokens)")
                                     .arg(it.key()),
                             {}, 0, QStringLiteral("set"));
        if (!ok)
            return makeError(tr("bad value '%1' for G-Eval parameter '%2'").arg(it.value().toString(), it.key()), {}, 0,
                             QStringLiteral("set"));
    }
    if (m_ctx->spec().samples < 1)
        return makeError(tr("--samples must be at least 1"), {}, 0, QStringLiteral("samples"));
    m_choices = Provider::create(m_ctx->spec().evaluator.kind)->supportsChoices();
    auto loaded = m_ctx->store().load(m_ctx->spec().judge);
    if (loaded)
        m_rubric = *loaded;
    return {};
}

Result<JudgeRequest> GEvalMethod::stepsRequest()
{
    auto prompt = m_ctx->prompts().render(QStringLiteral("geval_steps"), m_ctx->baseContext());
    if (!prompt)
        return prompt.error();
    m_ctx->noteTemplate(*prompt);
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = 0;
    r.maxTokens = m_stepsMaxTokens;
    return r;
}

Result<QVector<JudgeRequest>> GEvalMethod::scoreRequests(const Rubric &rubric, const Item &item)
{
    QVariantMap c = m_ctx->baseContext();
    QVariantList steps;
    int i = 0;
    for (const Criterion &s : rubric.enabled(CriterionKind::Step))
        steps.append(QVariantMap{{QStringLiteral("index"), ++i}, {QStringLiteral("text"), s.text}});
    c.insert(QStringLiteral("steps"), steps);
    c.insert(QStringLiteral("source"), item.source);
    c.insert(QStringLiteral("output"), item.output);
    auto prompt = m_ctx->prompts().render(QStringLiteral("geval_score"), c);
    if (!prompt)
        return prompt.error();
    m_ctx->noteTemplate(*prompt);
    JudgeRequest base;
    base.messages = prompt->messages;
    base.maxTokens = m_maxTokens;
    QVector<JudgeRequest> out;
    const RunSpec &spec = m_ctx->spec();
    if (spec.logprobs) {
        base.temperature = 0;
        base.logprobs = true;
        base.topLogprobs = m_topLogprobs;
        out.append(base);
    } else if (m_choices) {
        base.temperature = m_temperature;
        base.n = spec.samples;
        out.append(base);
    } else {
        base.temperature = m_temperature;
        for (int s = 0; s < spec.samples; ++s) {
            JudgeRequest r = base;
            r.sampleIndex = s;
            out.append(r);
        }
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
    const auto price = [](const ProviderProfile &p, qint64 in, qint64 out) {
        return (double(in) * p.pricePerMillionIn + double(out) * p.pricePerMillionOut) / 1e6;
    };
    Rubric rubric = m_rubric;
    if (!hasSteps(rubric)) {
        auto req = stepsRequest();
        if (!req)
            return req.error();
        const QString stepsKey = m_ctx->cacheKey(JudgeRole::Generator, *req);
        if (auto cached = CallStore(m_ctx->project()).lookup(stepsKey)) {
            ++e.cached; // the steps are known from the cache: the score prompts are exact
            const QStringList steps = answer::steps(cached->text());
            if (!steps.isEmpty())
                rubric = rubricFromSteps(steps, stepsKey);
        } else {
            ++e.calls;
            e.tokensIn += RunContext::approxTokens(*req);
            e.tokensOut += m_stepsMaxTokens / 2;
            e.cost += price(spec.generator, RunContext::approxTokens(*req), m_stepsMaxTokens / 2);
        }
        e.perPhase.insert(QStringLiteral("steps"), e.calls);
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
    int scoreCalls = 0;
    const bool known = hasSteps(m_rubric) || e.cached > 0;
    QSet<QString> keys; // identical requests (e.g. duplicate outputs) are sent once
    for (const Item &item : m_ctx->targetItems()) {
        auto reqs = scoreRequests(rubric, item);
        if (!reqs)
            return reqs.error();
        for (const JudgeRequest &r : *reqs) {
            const QString key = m_ctx->cacheKey(JudgeRole::Evaluator, r);
            if (keys.contains(key)) {
                ++e.cached; // sent once; the run answers the copy from the cache
                continue;
            }
            keys.insert(key);
            if (known && m_ctx->isCached(JudgeRole::Evaluator, r)) {
                ++e.cached;
                continue;
            }
            ++scoreCalls;
            const qint64 in = RunContext::approxTokens(r);
            const qint64 out = qint64(m_maxTokens) * std::max(1, r.n);
            e.tokensIn += in;
            e.tokensOut += out;
            e.cost += price(spec.evaluator, in, out);
        }
    }
    e.calls += scoreCalls;
    e.callsMin = e.calls;
    e.perPhase.insert(QStringLiteral("evaluate"), scoreCalls);
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
        m_next = 0;
        scoreNextChunk();
        return;
    }
    auto req = stepsRequest();
    if (!req) {
        m_ctx->fail(req.errorString());
        return;
    }
    m_ctx->submit(JudgeRole::Generator, QStringLiteral("steps"), {*req}, [this](const QVector<JudgeResponse> &rs) {
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
        m_next = 0;
        scoreNextChunk();
    });
}

void GEvalMethod::scoreNextChunk()
{
    const QVector<Item> &items = m_ctx->targetItems();
    if (m_next >= items.size()) {
        // A re-score of stored (possibly edited) steps: record the version's alignment.
        if (m_rescore)
            if (auto r = rescore::recordAlignment(*m_ctx, m_rubric.version()); !r) {
                m_ctx->fail(r.errorString());
                return;
            }
        emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                        {QStringLiteral("scored"), m_scored},
                        {QStringLiteral("missing"), m_missing}});
        return;
    }
    const int chunkCalls = std::max(32, m_ctx->spec().evaluator.concurrency * 4);
    QVector<JudgeRequest> requests;
    m_chunk.clear();
    const int chunkStart = m_next;
    int perItem = 0;
    while (m_next < items.size() && requests.size() < chunkCalls) {
        auto reqs = scoreRequests(m_rubric, items[m_next]);
        if (!reqs) {
            m_ctx->fail(reqs.errorString());
            return;
        }
        perItem = int(reqs->size());
        m_chunk.append({items[m_next].id, perItem});
        requests += *reqs;
        ++m_next;
    }
    m_ctx->setOutlook(m_ctx->newTargetTexts(chunkStart) * perItem);
    m_ctx->submit(JudgeRole::Evaluator, QStringLiteral("evaluate"), requests,
                  [this](const QVector<JudgeResponse> &rs) { onChunkAnswered(rs); });
}

void GEvalMethod::onChunkAnswered(const QVector<JudgeResponse> &responses)
{
    const Aspect &aspect = m_ctx->aspect();
    const int min = int(std::ceil(aspect.min)), max = int(std::floor(aspect.max));
    QVector<CriterionScore> rows;
    QHash<QString, double> itemScores;
    const QString key = QString::fromLatin1(rootKey);
    int at = 0;
    for (const auto &[itemId, count] : std::as_const(m_chunk)) {
        double score = std::numeric_limits<double>::quiet_NaN();
        if (count == 1) {
            const JudgeResponse &r = responses[at];
            const ParsedAnswer parsed = AnswerParser::scoreOf(r, min, max);
            score = parsed.ok ? parsed.score : score;
            if (parsed.method == ParsedAnswer::Method::Logprobs || r.choices.size() <= 1) {
                QVariantMap dist;
                for (auto it = parsed.distribution.begin(); it != parsed.distribution.end(); ++it)
                    dist.insert(QString::number(it.key()), it.value());
                rows.append({itemId, key, 0, score, parsed.ok ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                             r.text(), dist.isEmpty() ? QString() : json::stringify(dist), r.cacheKey});
            } else {
                for (int c = 0; c < r.choices.size(); ++c) {
                    const ParsedAnswer one = AnswerParser::parseScore(r.choices[c].text);
                    rows.append({itemId,
                                 key,
                                 c,
                                 one.ok ? one.score : std::numeric_limits<double>::quiet_NaN(),
                                 one.ok ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                                 r.choices[c].text,
                                 {},
                                 r.cacheKey});
                }
            }
        } else {
            double sum = 0;
            int n = 0;
            for (int s = 0; s < count; ++s) {
                const JudgeResponse &r = responses[at + s];
                const ParsedAnswer one = AnswerParser::parseScore(r.text());
                if (one.ok) {
                    sum += one.score;
                    ++n;
                }
                rows.append({itemId,
                             key,
                             s,
                             one.ok ? one.score : std::numeric_limits<double>::quiet_NaN(),
                             one.ok ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                             r.text(),
                             {},
                             r.cacheKey});
            }
            if (n > 0)
                score = sum / n;
        }
        at += count;
        itemScores.insert(itemId, score);
        (std::isnan(score) ? m_missing : m_scored)++;
    }
    if (auto w = m_ctx->store().writeCriterionScores(m_ctx->spec().judge, rows); !w) {
        m_ctx->fail(w.errorString());
        return;
    }
    if (auto w = m_ctx->project()->setJudgeScores(m_ctx->spec().judge, m_ctx->spec().aspect, itemScores); !w) {
        m_ctx->fail(w.errorString());
        return;
    }
    scoreNextChunk();
}

} // namespace rubric
