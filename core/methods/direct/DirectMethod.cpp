#include "methods/direct/DirectMethod.h"

#include "judge/AnswerParser.h"
#include "methods/EstimateTally.h"
#include "methods/MethodRegistry.h"
#include "methods/Rescore.h"
#include "methods/RunContext.h"

#include <QSet>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

DirectMethod::DirectMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

Result<void> DirectMethod::readParams()
{
    // The ranges are the descriptor's (MethodParam::accepts): written once, in DirectDescriptor.cpp.
    const MethodInfo *info = MethodRegistry::find(m_ctx->spec().method);
    const QVariantMap s = m_ctx->methodSettings();
    for (auto it = s.begin(); it != s.end(); ++it) {
        const QString key = it.key().startsWith(QLatin1String("direct.")) ? it.key().mid(7) : it.key();
        const QString text = it.value().toString();
        const MethodParam *declared = info ? info->param(key) : nullptr;
        if (!declared)
            return makeError(
                    tr("unknown parameter '%1' of the direct score (known: temperature, max_tokens)").arg(it.key()), {},
                    0, QStringLiteral("set"));
        if (!declared->accepts(text))
            return makeError(tr("bad value '%1' for the direct score's parameter '%2' (%3 to %4)")
                                     .arg(text, it.key())
                                     .arg(declared->min)
                                     .arg(declared->max),
                             {}, 0, QStringLiteral("set"));
        if (key == QLatin1String("temperature"))
            m_temperature = text.toDouble();
        else if (key == QLatin1String("max_tokens"))
            m_maxTokens = text.toInt();
    }
    return {};
}

Result<void> DirectMethod::check()
{
    return readParams();
}

Result<JudgeRequest> DirectMethod::scoreRequest(const Item &item)
{
    QVariantMap c = m_ctx->baseContext();
    c.insert(QStringLiteral("source"), item.source);
    c.insert(QStringLiteral("output"), item.output);
    auto r = m_ctx->templateRequest(QStringLiteral("direct_score"), c, m_temperature, m_maxTokens);
    if (!r)
        return r.error();
    r->shape = AnswerShape::score(std::ceil(m_ctx->aspect().min), std::floor(m_ctx->aspect().max));
    return r;
}

double DirectMethod::readScore(const JudgeResponse &response) const
{
    if (!response.ok())
        return NaN;
    const ParsedAnswer a = AnswerParser::readScore(response.text(), {m_ctx->aspect().min, m_ctx->aspect().max});
    return a.ok ? a.score : NaN;
}

Result<RunEstimate> DirectMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    RunEstimate e;
    EstimateTally tally(*m_ctx, e); // identical requests (duplicate outputs) are sent once
    for (const Item &item : m_ctx->targetItems()) {
        if (m_ctx->skipsFailed(item.id))
            continue; // refused before: skipped unless asked again
        auto req = scoreRequest(item);
        if (!req)
            return req.error();
        if (auto counted = tally.add(JudgeRole::Evaluator, *req, m_maxTokens); !counted.ok())
            return counted.error();
    }
    e.calls = tally.calls();
    e.callsMin = e.calls;
    e.perPhase.insert(QString::fromLatin1(evaluatePhase), e.calls);
    return e;
}

Result<void> DirectMethod::ensureRubric()
{
    auto loaded = m_ctx->store().loadLatest(m_ctx->spec().judge);
    if (!loaded)
        return loaded.error(); // an unreadable rubric must not look like none
    if (*loaded) {
        m_rubric = **loaded;
        return {};
    }
    Rubric rubric(m_ctx->spec().method, m_ctx->spec().aspect);
    Criterion root;
    root.key = QString::fromLatin1(rootKey);
    root.kind = CriterionKind::Aspect;
    root.text = m_ctx->aspect().name;
    root.definition = m_ctx->aspect().definition;
    root.origin = {{QStringLiteral("method"), m_ctx->spec().method},
                   {QStringLiteral("template"), QStringLiteral("direct_score")}};
    rubric.add(root);
    auto saved = m_ctx->store().saveVersion(m_ctx->spec().judge, rubric, tr("the aspect's definition, no rubric"));
    if (!saved)
        return saved.error();
    rubric.setVersion(*saved);
    m_rubric = rubric;
    return {};
}

void DirectMethod::start()
{
    if (auto r = readParams(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (auto r = ensureRubric(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    m_items = m_ctx->targetsToAsk(&m_failed);
    m_ctx->setOutlook(m_ctx->newTargetTexts(0));
    m_ctx->stream(
            JudgeRole::Evaluator, QString::fromLatin1(evaluatePhase), int(m_items.size()),
            [this](int unit) -> Result<QVector<JudgeRequest>> {
                auto r = scoreRequest(m_ctx->targetItems()[m_items[unit]]);
                if (!r)
                    return r.error();
                return QVector<JudgeRequest>{*r};
            },
            [this](int unit, const QVector<JudgeResponse> &rs) {
                onAnswered(m_ctx->targetItems()[m_items[unit]], rs.first());
            },
            [this] { finish(); }, [this](const JudgeResponse &r) { return !std::isnan(readScore(r)); });
}

void DirectMethod::onAnswered(const Item &item, const JudgeResponse &r)
{
    const QString key = QString::fromLatin1(rootKey);
    if (r.status == JudgeStatus::Failed) {
        m_ctx->recordScores(
                {{item.id, key, 0, NaN, QStringLiteral("failed"), RunContext::failureText(r), {}, r.cacheKey}},
                {{item.id, NaN}});
        ++m_failed;
        return;
    }
    const double score = readScore(r);
    const bool ok = !std::isnan(score);
    const QString thoughts = r.choices.isEmpty() ? QString() : r.choices.first().thoughts();
    m_ctx->recordScores({{item.id, key, 0, score, ok ? QStringLiteral("ok") : QStringLiteral("unparsed"), r.text(),
                          thoughts, r.cacheKey}},
                        {{item.id, score}});
    (ok ? m_scored : m_missing)++;
}

void DirectMethod::finish()
{
    if (auto r = rescore::recordAlignment(*m_ctx, m_rubric.version()); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                    {QStringLiteral("scored"), m_scored},
                    {QStringLiteral("missing"), m_missing},
                    {QStringLiteral("failed"), m_failed}});
}

} // namespace rubric
