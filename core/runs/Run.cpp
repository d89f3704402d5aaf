#include "Run.h"

#include "RunConfig.h"
#include "judge/Provider.h"
#include "methods/Method.h"
#include "methods/MethodRegistry.h"
#include "methods/RunContext.h"
#include "store/Project.h"

#include <QCoreApplication>

#include <algorithm>

namespace rubric {

Run::Run(Project *project, RunSpec spec, QObject *parent)
    : QObject(parent)
    , m_project(project)
    , m_spec(std::move(spec))
{
}

Run::~Run() = default;

QStringList Run::methods()
{
    return MethodRegistry::names();
}

Result<void> Run::setUp()
{
    if (m_method)
        return {};
    const MethodInfo *info = MethodRegistry::find(m_spec.method);
    if (!info)
        return makeError(tr("unknown method '%1' (known: %2)").arg(m_spec.method, methods().join(QStringLiteral(", "))),
                         {}, 0, QStringLiteral("method"));
    if (m_spec.judge.trimmed().isEmpty())
        return makeError(tr("a run needs a judge name"), {}, 0, QStringLiteral("judge"));
    const auto existing = m_project->readJudge(m_spec.judge, Project::JudgeCounts::Skip);
    if (!existing)
        return existing.error();
    if (*existing && (*existing)->method != m_spec.method)
        return makeError(tr("judge '%1' already exists with method '%2'").arg(m_spec.judge, (*existing)->method), {}, 0,
                         QStringLiteral("judge"));
    m_ctx = std::make_unique<RunContext>(m_project, m_spec);
    if (auto r = m_ctx->prepare(); !r)
        return r;
    m_method = info->create(m_ctx.get());
    connect(m_ctx.get(), &RunContext::progressed, this, &Run::progressed);
    connect(m_ctx.get(), &RunContext::failed, this, &Run::onFailed);
    connect(m_method.get(), &Method::completed, this, &Run::onCompleted);
    return {};
}

Result<void> Run::checkConfiguration() const
{
    if (m_spec.resume || m_spec.replace)
        return {};
    const auto existing = m_project->readJudge(m_spec.judge, Project::JudgeCounts::Skip);
    if (!existing)
        return existing.error();
    if (!*existing)
        return {};
    const auto diff = RunConfig::differences(m_project, m_spec);
    if (!diff)
        return diff.error();
    if (!diff->isEmpty())
        return makeError(tr("judge '%1' was run with another configuration; one judge name is one "
                            "configuration:\n  %2\nuse a new judge name, or --replace to delete the judge's "
                            "scores and rubric and start afresh under this name")
                                 .arg(m_spec.judge, diff->join(QStringLiteral("\n  "))),
                         {}, 0, QStringLiteral("judge"));
    return {};
}

Result<RunEstimate> Run::estimate()
{
    // An estimate of another configuration under the name would count the stored judge's work.
    if (auto r = checkConfiguration(); !r)
        return r.error();
    if (auto r = setUp(); !r)
        return r.error();
    auto e = m_method->estimate();
    if (!e || e->calls == 0)
        return e;
    // A reasoning model thinks on top of each request's max_tokens and bills it as output: the
    // budget it may use is part of the worst case (the evaluator's price; most calls are its).
    if (const EndpointAdaptations a = m_ctx->adaptations(JudgeRole::Evaluator); a.has(Adaptation::ReasoningBudget)) {
        const qint64 thinking = qint64(e->calls) * a.reasoningBudget();
        e->tokensOut += thinking;
        e->cost += m_ctx->spec().evaluator.cost(0, double(thinking));
    }
    if (!m_spec.batch.enabled)
        return e;
    // Through provider batches the phases of at least the threshold's calls cost the batch price:
    // their share of the calls (a phase's calls taken as costing alike) is priced at it.
    int batched = 0;
    for (auto it = e->perPhase.cbegin(); it != e->perPhase.cend(); ++it)
        if (it.value().toInt() >= m_spec.batch.threshold)
            batched += it.value().toInt();
    const double share = std::min(1.0, double(batched) / e->calls);
    e->cost *= 1.0 - share * (1.0 - m_spec.batch.priceFactor);
    return e;
}

Result<void> Run::start()
{
    // One judge name is one configuration (RunConfig::differences); --resume takes the stored one.
    const auto existing = m_project->readJudge(m_spec.judge, Project::JudgeCounts::Skip);
    if (!existing)
        return existing.error();
    if (!m_spec.resume && *existing) {
        if (m_spec.replace) {
            m_method.reset(); // prepared (by estimate()) against the old judge
            m_ctx.reset();
            if (auto r = m_project->removeJudge(m_spec.judge); !r)
                return r;
        } else if (auto r = checkConfiguration(); !r) {
            return r;
        }
    }
    if (auto r = setUp(); !r)
        return r;
    if (auto r = m_method->check(); !r)
        return r;
    const RunSpec &s = m_ctx->spec();
    QVariantMap config = RunConfig::toConfig(s);
    auto judge = m_project->ensureJudge(s.judge, s.method);
    if (!judge)
        return judge.error();
    const auto readPrevious = m_ctx->store().readRunConfig(s.judge);
    if (!readPrevious)
        return readPrevious.error();
    const QVariantMap &previous = *readPrevious;
    if (previous.contains(QStringLiteral("aspect")) && previous.value(QStringLiteral("aspect")).toString() != s.aspect)
        return makeError(tr("judge '%1' was run for aspect '%2'; use another judge name for '%3'")
                                 .arg(s.judge, previous.value(QStringLiteral("aspect")).toString(), s.aspect),
                         {}, 0, QStringLiteral("aspect"));
    config.insert(QStringLiteral("attempts"), previous.value(QStringLiteral("attempts")).toInt() + 1);
    m_summary = config;
    if (auto r = m_ctx->store().setRunConfig(s.judge, config); !r)
        return r;
    if (auto r = m_project->setJudgeStatus(s.judge, QStringLiteral("running")); !r)
        return r;
    m_method->start();
    return {};
}

void Run::cancel()
{
    if (!m_ctx || m_done)
        return;
    m_ctx->cancel();
    m_done = true;
    record(QStringLiteral("cancelled"), tr("cancelled"));
    emit finished(false, tr("cancelled"));
}

void Run::record(const QString &status, const QString &error)
{
    m_summary.insert(QStringLiteral("calls"), m_ctx->phaseCalls());
    m_summary.insert(QStringLiteral("templates"), m_ctx->templatesUsed());
    m_summary.insert(QStringLiteral("error"), error);
    m_summary.insert(QStringLiteral("resumable"), status != QLatin1String("done"));
    const RunProgress p = m_ctx->progress();
    m_summary.insert(QStringLiteral("sent"), p.sent);
    m_summary.insert(QStringLiteral("cache_hits"), p.cacheHits);
    m_summary.insert(QStringLiteral("tokens"), p.tokens);
    if (p.tokensReasoning > 0)
        m_summary.insert(QStringLiteral("tokens_reasoning"), p.tokensReasoning);
    m_summary.insert(QStringLiteral("cost"), p.cost);
    // What the endpoints refused and how the requests were sent instead (also for a failed run:
    // the next attempt starts from it).
    if (const QStringList adapted = m_ctx->adapted(); !adapted.isEmpty())
        m_summary.insert(QStringLiteral("adapted"), adapted);
    else
        m_summary.remove(QStringLiteral("adapted"));
    QVariantList batches; // the provider batches of this attempt
    for (const BatchStatus &b : p.batches)
        batches.append(QVariantMap{{QStringLiteral("id"), b.remoteId},
                                   {QStringLiteral("state"), b.state},
                                   {QStringLiteral("status"), b.remoteStatus},
                                   {QStringLiteral("calls"), b.requests},
                                   {QStringLiteral("answered"), b.completed},
                                   {QStringLiteral("failed"), b.failed}});
    if (!batches.isEmpty() || m_spec.batch.enabled)
        m_summary.insert(QStringLiteral("batches"), batches);
    // Failures here cannot be reported anywhere better than the run's own result.
    (void)m_ctx->store().setRunConfig(m_spec.judge, m_summary);
    (void)m_project->setJudgeStatus(m_spec.judge, status);
}

void Run::onCompleted(const QVariantMap &methodSummary)
{
    if (m_done)
        return;
    m_done = true;
    m_summary.insert(QStringLiteral("result"), methodSummary);
    // Items the endpoint refused (this attempt or an earlier one): listed with its message.
    QVariantMap refused;
    if (auto failed = m_ctx->store().failedItems(m_spec.judge); failed)
        for (auto it = failed->begin(); it != failed->end(); ++it)
            refused.insert(it.key(), it.value());
    m_summary.insert(QStringLiteral("failed_items"), refused);
    // Answers that were no answers (empty, cut off at max_tokens) and were asked once more.
    if (const QVariantMap reasked = m_ctx->reasked(); !reasked.isEmpty())
        m_summary.insert(QStringLiteral("reasked"), reasked);
    record(QStringLiteral("done"));
    for (auto it = refused.begin(); it != refused.end(); ++it)
        if (!m_ctx->failedBefore().contains(it.key()) || m_spec.retryFailed)
            (void)m_project->addIssue(QStringLiteral("run"),
                                      tr("the endpoint refused this item: %1 (run the judge again with "
                                         "--retry-failed to ask it again, e.g. with max_source_tokens set)")
                                              .arg(it.value().toString()),
                                      m_spec.judge, it.key());
    if (const int missing = methodSummary.value(QStringLiteral("missing")).toInt(); missing > 0)
        (void)m_project->addIssue(QStringLiteral("run"),
                                  tr("%n item(s) got no score: the judge's answers could not be read "
                                     "(see the criterion scores' parse status)",
                                     nullptr, missing),
                                  m_spec.judge);
    emit finished(true, {});
}

void Run::onFailed(const QString &message)
{
    if (m_done)
        return;
    m_done = true;
    record(QStringLiteral("failed"), message);
    (void)m_project->addIssue(QStringLiteral("run"), message, m_spec.judge);
    emit finished(false, message);
}

} // namespace rubric
