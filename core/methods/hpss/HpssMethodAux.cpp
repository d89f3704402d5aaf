#include "HpssMethod.h"
#include "methods/RunContext.h"

#include <QSet>

namespace rubric {
namespace {

using namespace hpss;

constexpr int kAuxMaxTokens = 1024;
/// More rounds than the dependencies need (the self AutoCoT waits for the self criteria): a
/// need that stays unmet after them is a bug, reported instead of looping.
constexpr int kAuxRounds = 4;

/// Distinct sources of `ids` in first-appearance order, each with the ids that share it.
QVector<QPair<QString, QStringList>> bySource(const QStringList &ids, const RunContext &ctx)
{
    QVector<QPair<QString, QStringList>> out;
    QHash<QString, int> at;
    for (const QString &id : ids) {
        const Item *item = ctx.item(id);
        const QString source = item ? item->source : QString();
        if (auto it = at.constFind(source); it != at.constEnd()) {
            out[*it].second.append(id);
        } else {
            at.insert(source, int(out.size()));
            out.append({source, {id}});
        }
    }
    return out;
}

/// Stores an answer under its "kind:arg" label (see HpssMethod::auxRequests).
void apply(Auxiliaries &aux, const QString &what, const QString &text)
{
    const QString kind = what.section(QLatin1Char(':'), 0, 0);
    const QString arg = what.section(QLatin1Char(':'), 1);
    if (kind == QLatin1String("criteria"))
        aux.criteria = text;
    else if (kind == QLatin1String("autocot"))
        aux.autocot.insert(arg, text);
    else
        for (const QString &id : arg.split(QLatin1Char(',')))
            (kind == QLatin1String("reference") ? aux.references : aux.metrics).insert(id, text);
}

} // namespace

using namespace hpss;

MissingAux HpssMethod::searchNeeds(const Auxiliaries &aux) const
{
    if (m_search->plannedEvaluations() <= 1)
        return missingAux(m_params.origin, m_builder->validation(), aux);
    return missingAux(m_params.space, m_builder->validation(), aux);
}

void HpssMethod::shareBySource(Auxiliaries &aux, const QVector<Item> &items) const
{
    QHash<QString, QString> references, metrics; // source → the text an item of it has
    for (const Item &other : m_builder->validation() + m_ctx->targetItems()) {
        if (const auto it = aux.references.constFind(other.id);
            it != aux.references.constEnd() && !references.contains(other.source))
            references.insert(other.source, *it);
        if (const auto it = aux.metrics.constFind(other.id);
            it != aux.metrics.constEnd() && !metrics.contains(other.source))
            metrics.insert(other.source, *it);
    }
    for (const Item &item : items) {
        if (!aux.references.contains(item.id) && references.contains(item.source))
            aux.references.insert(item.id, references.value(item.source));
        if (!aux.metrics.contains(item.id) && metrics.contains(item.source))
            aux.metrics.insert(item.id, metrics.value(item.source));
    }
}

Result<JudgeRequest> HpssMethod::auxRequest(const QString &templ, const QVariantMap &extra) const
{
    QVariantMap c = m_ctx->baseContext();
    // The paper's auxiliary prompts (App. A) name the source and the output with HPSS's task words,
    // not the project's general task context ("## Article", not "## Source Text").
    const TaskWording task = *TaskWording::preset(m_taskName);
    const bool numbered = task.metricsNumbered;
    const QVariantMap words{{QStringLiteral("hpss_noun"), task.noun},
                            {QStringLiteral("hpss_source_noun"), task.sourceNoun},
                            {QStringLiteral("hpss_autocot_phrase"), task.autocotPhrase},
                            {QStringLiteral("hpss_metrics_phrase"), task.metricsPhrase},
                            {QStringLiteral("hpss_metrics_good"), task.metricsGood},
                            {QStringLiteral("hpss_metrics_who"), task.metricsWho},
                            {QStringLiteral("hpss_source_header"), task.auxSourceHeader},
                            {QStringLiteral("hpss_metrics_target"), task.metricsTarget},
                            {QStringLiteral("hpss_metrics_join"), task.metricsJoin},
                            {QStringLiteral("hpss_metrics_points"), task.metricsPoints},
                            {QStringLiteral("hpss_req1"), numbered ? QStringLiteral("(1) ") : QString()},
                            {QStringLiteral("hpss_req2"), numbered ? QStringLiteral("(2) ") : QString()},
                            {QStringLiteral("hpss_req3"), numbered ? QStringLiteral("(3) ") : QString()},
                            {QStringLiteral("hpss_reference_lead"), task.referenceLead},
                            {QStringLiteral("hpss_reference_tail"), task.referenceTail}};
    for (auto it = words.begin(); it != words.end(); ++it)
        c.insert(it.key(), it.value());
    for (auto it = extra.begin(); it != extra.end(); ++it)
        c.insert(it.key(), it.value());
    return m_ctx->templateRequest(templ, c, 0, kAuxMaxTokens);
}

Result<QVector<JudgeRequest>> HpssMethod::auxRequests(const MissingAux &m, const Auxiliaries &aux,
                                                      QStringList *what) const
{
    QVector<JudgeRequest> out;
    const QString aspect = m_ctx->aspect().name.toLower();
    if (m.criteria) {
        auto r = auxRequest(QStringLiteral("hpss_criteria"), {{QStringLiteral("aspect"), aspect}});
        if (!r)
            return r.error();
        out.append(*r);
        what->append(QStringLiteral("criteria"));
    }
    const auto perSource = [&](const QStringList &ids, const QString &templ, const QString &kind) -> Result<void> {
        for (const auto &group : bySource(ids, *m_ctx)) {
            auto r = auxRequest(templ, {{QStringLiteral("aspect"), aspect}, {QStringLiteral("source"), group.first}});
            if (!r)
                return r.error();
            out.append(*r);
            what->append(kind + QLatin1Char(':') + group.second.join(QLatin1Char(',')));
        }
        return {};
    };
    if (auto r = perSource(m.references, QStringLiteral("hpss_reference"), QStringLiteral("reference")); !r)
        return r.error();
    if (auto r = perSource(m.metrics, QStringLiteral("hpss_metrics"), QStringLiteral("metrics")); !r)
        return r.error();
    for (const QString &key : m.autocot) {
        const bool self = key.endsWith(QLatin1String("/self"));
        if (self && m.criteria)
            continue; // AutoCoT from self-generated criteria needs those first: asked in the next round
        auto r = auxRequest(QStringLiteral("hpss_autocot"),
                            {{QStringLiteral("aspect"), aspect},
                             {QStringLiteral("hpss_scale"), key.section(QLatin1Char('/'), 0, 0).toInt()},
                             {QStringLiteral("criteria"), self ? aux.criteria : m_ctx->aspect().definition}});
        if (!r)
            return r.error();
        out.append(*r);
        what->append(QStringLiteral("autocot:") + key);
    }
    return out;
}

void HpssMethod::makeAux(AuxNeed need, const QVector<Item> &items, const QString &phase, std::function<void()> then,
                         int round)
{
    if (m_ctx->stopped())
        return;
    // An item whose source another item already has a reference / questions for shares them.
    shareBySource(m_aux, items);
    const MissingAux missing = need(m_aux);
    QStringList what;
    auto requests = auxRequests(missing, m_aux, &what);
    if (!requests) {
        m_ctx->fail(requests.errorString());
        return;
    }
    if (requests->isEmpty()) {
        then();
        return;
    }
    if (round >= kAuxRounds) {
        m_ctx->fail(tr("the HPSS auxiliary texts (%1) are still missing after %2 rounds")
                            .arg(what.join(QLatin1String(", ")))
                            .arg(round));
        return;
    }
    m_ctx->setOutlook(int(requests->size()));
    m_ctx->submit(JudgeRole::Evaluator, phase, *requests,
                  [this, need = std::move(need), items, phase, what, then = std::move(then),
                   round](const QVector<JudgeResponse> &rs) mutable {
                      for (int i = 0; i < rs.size(); ++i) {
                          const QString kind = what[i].section(QLatin1Char(':'), 0, 0);
                          if (!rs[i].ok()) {
                              m_ctx->fail(tr("an auxiliary generation (%1) failed: %2")
                                                  .arg(kind, RunContext::failureText(rs[i])));
                              return;
                          }
                          const QString text = rs[i].text().trimmed();
                          if (text.isEmpty()) {
                              m_ctx->fail(tr("the evaluator's %1 answer was empty").arg(kind));
                              return;
                          }
                          ++m_auxGenerations;
                          apply(m_aux, what[i], text);
                      }
                      if (auto r = persist(); !r) {
                          m_ctx->fail(r.errorString());
                          return;
                      }
                      makeAux(std::move(need), items, phase, std::move(then), round + 1);
                  });
}

Result<int> HpssMethod::auxCalls(const AuxNeed &need, const QVector<Item> &items, Auxiliaries *aux, int *cached)
{
    // The rounds makeAux will ask, replayed through the judge cache: a cached answer is read (a
    // self AutoCoT prompt shows the criteria it answers); an uncached one counts and stands in
    // for its text with a marker no cached prompt contains.
    const QString unknown = QStringLiteral("\x01 not answered yet \x01");
    int calls = 0;
    QSet<QString> keys;
    for (int round = 0; round < kAuxRounds; ++round) {
        shareBySource(*aux, items);
        QStringList what;
        auto requests = auxRequests(need(*aux), *aux, &what);
        if (!requests)
            return requests.error();
        if (requests->isEmpty())
            return calls;
        for (int i = 0; i < requests->size(); ++i) {
            const JudgeRequest &r = requests->at(i);
            auto answer = m_ctx->cached(JudgeRole::Evaluator, r);
            if (!answer)
                return answer.error();
            const QString key = m_ctx->cacheKey(JudgeRole::Evaluator, r);
            if (*answer || keys.contains(key)) {
                ++*cached;
            } else {
                ++calls;
                keys.insert(key);
            }
            const QString text = *answer ? (*answer)->text().trimmed() : QString();
            apply(*aux, what[i], text.isEmpty() ? unknown : text);
        }
    }
    return calls;
}

Result<JudgeRequest> HpssMethod::oproRequest() const
{
    QVariantList parts;
    for (int p = 0; p < kFactorCount; ++p)
        parts.append(QVariantMap{{QStringLiteral("index"), p}, {QStringLiteral("range"), m_search->oproRange(p)}});
    auto r = auxRequest(QStringLiteral("hpss_opro"), {{QStringLiteral("hpss_parts"), parts},
                                                      {QStringLiteral("hpss_history"), m_search->oproHistory()}});
    if (!r)
        return r;
    // [code] strategy_generate: temperature 1.0, top_p 1.0, the run's seed, 4096 tokens. The seed
    // also counts the iteration, so that a history left unchanged by a repeat is sampled anew
    // (with [code]'s one seed a seeded endpoint answers it the same, and the rest of the budget
    // goes on repeats); each iteration is its own cache key, a resumed run reads the same answers.
    const int iteration = int(m_search->oproLog().size());
    r->temperature = 1.0;
    r->seed = qint64(m_params.seed % 1000000007ull) * 1000 + iteration;
    r->maxTokens = m_maxTokens;
    return r;
}

void HpssMethod::askProposal()
{
    auto request = oproRequest();
    if (!request) {
        m_ctx->fail(request.errorString());
        return;
    }
    m_ctx->setOutlook(1);
    m_ctx->submit(JudgeRole::Evaluator, kPhaseSearch, {*request}, [this](const QVector<JudgeResponse> &rs) {
        if (!rs.first().ok()) { // not an iteration spent: the run stops and a re-run asks again
            m_ctx->fail(tr("the OPRO proposal failed: %1").arg(RunContext::failureText(rs.first())));
            return;
        }
        if (auto r = m_search->acceptProposal(rs.first().text()); !r) {
            m_ctx->fail(r.errorString());
            return;
        }
        if (auto r = persist(); !r) {
            m_ctx->fail(r.errorString());
            return;
        }
        step();
    });
}

} // namespace rubric
