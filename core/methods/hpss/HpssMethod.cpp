#include "HpssMethod.h"

#include "methods/Rescore.h"
#include "runs/RunContext.h"
#include "store/Project.h"
#include "util/Json.h"

#include <QSet>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

using namespace hpss;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kAuxMaxTokens = 1024;

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

QVariantMap recordToVariant(const SearchRecord &r)
{
    QVariantMap m{{QStringLiteral("strategy"), r.proposal.strategy.toVariant()},
                  {QStringLiteral("validation_spearman"), r.spearman},
                  {QStringLiteral("step"), r.proposal.step},
                  {QStringLiteral("move"), searchMoveName(r.proposal.move)}};
    if (r.proposal.parent)
        m.insert(QStringLiteral("parent"), r.proposal.parent->toVariant());
    if (r.proposal.changedFactor >= 0)
        m.insert(QStringLiteral("changed_factor"), factorName(factorAt(r.proposal.changedFactor)));
    return m;
}

} // namespace

HpssMethod::HpssMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

HpssMethod::~HpssMethod() = default;

Result<void> HpssMethod::readParams()
{
    m_params = SearchParams{};
    m_notes.clear();
    const QVariantMap s = m_ctx->methodSettings();
    for (auto it = s.begin(); it != s.end(); ++it) {
        const QString key = it.key().startsWith(QLatin1String("hpss.")) ? it.key().mid(5) : it.key();
        const QString value = it.value().toString().trimmed();
        if (key == QLatin1String("task")) {
            if (auto w = TaskWording::preset(value); !w)
                return makeError(w.errorString(), {}, 0, QStringLiteral("task"));
            m_taskName = value;
        } else if (key == QLatin1String("max_tokens")) {
            bool ok = false;
            m_maxTokens = value.toInt(&ok);
            if (!ok || m_maxTokens < 1)
                return makeError(tr("bad value '%1' for HPSS parameter 'max_tokens' (a positive integer)").arg(value),
                                 {}, 0, QStringLiteral("max_tokens"));
        } else if (auto r = m_params.set(key, value); !r) {
            return makeError(r.errorString(), {}, 0, key);
        }
    }
    QVector<Item> validation;
    QHash<QString, double> human;
    for (const Item &item : m_ctx->trainItems()) {
        const double h = m_ctx->human(item.id);
        if (std::isnan(h))
            continue;
        validation.append(item);
        human.insert(item.id, h);
    }
    if (validation.size() < 3)
        return makeError(tr("HPSS needs at least 3 train items with human scores on aspect '%1' as its validation "
                            "split (found %2): set a split first (rubric split)")
                                 .arg(m_ctx->aspect().name)
                                 .arg(validation.size()),
                         {}, 0, QStringLiteral("split"));
    m_validationHuman.clear();
    for (const Item &item : std::as_const(validation))
        m_validationHuman.append(human.value(item.id));
    // An example count the validation split cannot fill is no strategy of this run.
    const QStringList &exampleValues = factorValues(Factor::Examples);
    for (int j = 0; j < exampleValues.size(); ++j)
        if (exampleValues[j].toInt() > validation.size() && m_params.space.isEnabled(Factor::Examples, j)) {
            if (auto r = m_params.space.disable(Factor::Examples, exampleValues[j]); !r)
                return r;
            m_notes.append(tr("examples:%1 disabled: the validation split has %2 items")
                                   .arg(exampleValues[j])
                                   .arg(validation.size()));
        }
    if (auto r = m_params.validate(); !r)
        return r;
    m_builder = std::make_unique<PromptBuilder>(*TaskWording::preset(m_taskName), m_ctx->aspect(), validation, human,
                                                m_params.seed);
    return {};
}

Result<void> HpssMethod::restore(bool starting)
{
    auto stored = state::load(*m_ctx->project(), m_ctx->spec().judge);
    if (!stored)
        return stored.error();
    // A state left by a removed judge of the same name (--replace) is no state of this one: a
    // judge's first attempt (or an estimate before the judge exists) starts afresh.
    const QString &judge = m_ctx->spec().judge;
    const auto known = m_ctx->project()->readJudge(judge);
    if (!known)
        return known.error();
    if (!*known || (starting && m_ctx->store().runConfig(judge).value(QStringLiteral("attempts")).toInt() <= 1))
        stored->clear();
    m_search.reset();
    m_aux = Auxiliaries::fromVariant(stored->value(QStringLiteral("aux")));
    m_auxGenerations = stored->value(QStringLiteral("aux_generations")).toInt();
    m_evaluations.clear();
    // The same search: the stored parameters, read back, equal the run's.
    const auto storedParams = stored->isEmpty() ? Result<SearchParams>(makeError(QStringLiteral("none")))
                                                : SearchParams::fromVariant(stored->value(QStringLiteral("params")));
    if (storedParams && json::stringify(storedParams->toVariant()) == json::stringify(m_params.toVariant())) {
        auto search = HpssSearch::fromVariant(stored->value(QStringLiteral("search")));
        if (!search)
            return makeError(tr("the stored HPSS search of judge '%1' cannot be read: %2")
                                     .arg(m_ctx->spec().judge, search.errorString()),
                             m_ctx->project()->path(), 0, state::metaKey(m_ctx->spec().judge));
        m_search = std::move(search).value();
        m_evaluations = stored->value(QStringLiteral("evaluations")).toList();
        return {};
    }
    // No state, or one of other search parameters: a new search (the auxiliaries stay valid).
    auto search = HpssSearch::create(m_params);
    if (!search)
        return search.error();
    m_search = std::move(search).value();
    return {};
}

Result<void> HpssMethod::persist()
{
    return state::save(*m_ctx->project(), m_ctx->spec().judge,
                       {{QStringLiteral("params"), m_params.toVariant()},
                        {QStringLiteral("task"), m_taskName},
                        {QStringLiteral("search"), m_search->toVariant()},
                        {QStringLiteral("evaluations"), m_evaluations},
                        {QStringLiteral("aux"), m_aux.toVariant()},
                        {QStringLiteral("aux_generations"), m_auxGenerations}});
}

Result<JudgeRequest> HpssMethod::auxRequest(const QString &templ, const QVariantMap &extra) const
{
    QVariantMap c = m_ctx->baseContext();
    for (auto it = extra.begin(); it != extra.end(); ++it)
        c.insert(it.key(), it.value());
    auto prompt = m_ctx->prompts().render(templ, c);
    if (!prompt)
        return prompt.error();
    m_ctx->noteTemplate(*prompt);
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = 0;
    r.maxTokens = kAuxMaxTokens;
    return r;
}

Result<QVector<JudgeRequest>> HpssMethod::auxRequests(const PromptStrategy &strategy, const QVector<Item> &items,
                                                      QStringList *what) const
{
    const MissingAux m = missingAux(strategy, items, m_aux);
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
    // AutoCoT from self-generated criteria needs those first: asked in the next round.
    if (!m.autocot.isEmpty() && !m.criteria) {
        const bool self = m.autocot.endsWith(QLatin1String("/self"));
        auto r = auxRequest(QStringLiteral("hpss_autocot"),
                            {{QStringLiteral("aspect"), aspect},
                             {QStringLiteral("hpss_scale"), strategy.scaleMax()},
                             {QStringLiteral("criteria"), self ? m_aux.criteria : m_ctx->aspect().definition}});
        if (!r)
            return r.error();
        out.append(*r);
        what->append(QStringLiteral("autocot:") + m.autocot);
    }
    return out;
}

void HpssMethod::ensureAux(const PromptStrategy &strategy, const QVector<Item> &items, std::function<void()> then)
{
    // An item whose source another item already has a reference / questions for shares them.
    for (const Item &item : items)
        for (const Item &other : m_builder->validation() + m_ctx->targetItems()) {
            if (other.source != item.source || other.id == item.id)
                continue;
            if (!m_aux.references.contains(item.id) && m_aux.references.contains(other.id))
                m_aux.references.insert(item.id, m_aux.references.value(other.id));
            if (!m_aux.metrics.contains(item.id) && m_aux.metrics.contains(other.id))
                m_aux.metrics.insert(item.id, m_aux.metrics.value(other.id));
        }
    QStringList what;
    auto requests = auxRequests(strategy, items, &what);
    if (!requests) {
        m_ctx->fail(requests.errorString());
        return;
    }
    if (requests->isEmpty()) {
        then();
        return;
    }
    m_ctx->setOutlook(int(requests->size()));
    m_ctx->submit(
            JudgeRole::Evaluator, QStringLiteral("auxiliary"), *requests,
            [this, strategy, items, what, then = std::move(then)](const QVector<JudgeResponse> &rs) {
                for (int i = 0; i < rs.size(); ++i) {
                    if (!rs[i].ok()) {
                        m_ctx->fail(
                                tr("an auxiliary generation (%1) failed: %2")
                                        .arg(what[i].section(QLatin1Char(':'), 0, 0), RunContext::failureText(rs[i])));
                        return;
                    }
                    const QString text = rs[i].text().trimmed();
                    const QString kind = what[i].section(QLatin1Char(':'), 0, 0);
                    const QString arg = what[i].section(QLatin1Char(':'), 1);
                    if (text.isEmpty()) {
                        m_ctx->fail(tr("the evaluator's %1 answer was empty").arg(kind));
                        return;
                    }
                    ++m_auxGenerations;
                    if (kind == QLatin1String("criteria"))
                        m_aux.criteria = text;
                    else if (kind == QLatin1String("autocot"))
                        m_aux.autocot.insert(arg, text);
                    else
                        for (const QString &id : arg.split(QLatin1Char(',')))
                            (kind == QLatin1String("reference") ? m_aux.references : m_aux.metrics).insert(id, text);
                }
                if (auto r = persist(); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                ensureAux(strategy, items, then);
            });
}

Result<JudgeRequest> HpssMethod::scoreRequest(const PromptStrategy &strategy, const Item &item) const
{
    auto prompt = m_builder->render(strategy, item, m_aux);
    if (!prompt)
        return makeError(tr("item '%1', strategy %2: %3").arg(item.id, strategy.format(), prompt.errorString()), {}, 0,
                         prompt.error().field);
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = 0;
    r.maxTokens = m_maxTokens;
    return r;
}

bool HpssMethod::readable(const JudgeResponse &r) const
{
    return readScore(r.text()).parsed;
}

Result<RunEstimate> HpssMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    if (auto r = restore(false); !r)
        return r.error();
    RunEstimate e;
    const RunSpec &spec = m_ctx->spec();
    const QVector<Item> &validation = m_builder->validation();
    QVector<Item> targets;
    for (const Item &item : m_ctx->targetItems())
        if (spec.retryFailed || !m_ctx->failedBefore().contains(item.id))
            targets.append(item);
    std::optional<Error> cacheUnreadable; // a cache that cannot be read must not look empty
    const auto uncached = [this, &cacheUnreadable](const PromptStrategy &s, const QVector<Item> &items, int *hits) {
        int calls = 0;
        QSet<QString> keys;
        for (const Item &item : items) {
            auto r = scoreRequest(s, item);
            const QString key = r ? m_ctx->cacheKey(JudgeRole::Evaluator, *r) : QString();
            bool cached = r && keys.contains(key);
            if (r && !cached) {
                const auto inCache = m_ctx->isCached(JudgeRole::Evaluator, *r);
                if (!inCache.ok())
                    cacheUnreadable = inCache.error();
                else
                    cached = *inCache;
            }
            if (cached) {
                ++*hits;
                continue;
            }
            keys.insert(key);
            ++calls;
        }
        return calls;
    };
    // Search: the pending evaluation counted exactly where its prompts are known; every further
    // one costs one call per validation item (the budget is reached unless the space runs out).
    int searchCalls = 0;
    const auto pending = m_search->next(); // none: the search is finished
    int remaining = m_search->finished() ? 0 : m_params.budget - int(m_search->evaluated().size());
    if (pending && remaining > 0) {
        if (missingAux(pending->strategy, validation, m_aux).empty()) {
            searchCalls += uncached(pending->strategy, validation, &e.cached);
            --remaining;
        }
    }
    searchCalls += remaining * int(validation.size());
    // Auxiliaries: exact for a finished search (the winner's needs on the run's items); before,
    // the most the remaining strategies could need: the criteria, every AutoCoT variant, and a
    // reference and questions per distinct source of the validation and run items.
    int auxMax = 0, auxMin = 0, evaluateCalls = 0;
    if (m_search->finished()) {
        const SearchRecord *best = m_search->best();
        if (!best)
            return makeError(tr("the HPSS search of judge '%1' ended without a strategy").arg(spec.judge));
        const MissingAux m = missingAux(best->proposal.strategy, targets, m_aux);
        QSet<QString> refSources, metricSources;
        for (const QString &id : m.references)
            refSources.insert(m_ctx->item(id)->source);
        for (const QString &id : m.metrics)
            metricSources.insert(m_ctx->item(id)->source);
        auxMax = auxMin
                = int(refSources.size() + metricSources.size()) + (m.autocot.isEmpty() ? 0 : 1) + (m.criteria ? 1 : 0);
        evaluateCalls = auxMax == 0 ? uncached(best->proposal.strategy, targets, &e.cached) : int(targets.size());
    } else {
        QSet<QString> sources, refDone, metricsDone;
        for (const Item &item : validation + targets) {
            sources.insert(item.source);
            if (m_aux.references.contains(item.id))
                refDone.insert(item.source);
            if (m_aux.metrics.contains(item.id))
                metricsDone.insert(item.source);
        }
        const auto enabled = [this](Factor f, const char *value) {
            return m_params.space.isEnabled(f, int(factorValues(f).indexOf(QLatin1String(value))));
        };
        if (enabled(Factor::Reference, "self"))
            auxMax += int(sources.size() - refDone.size());
        if (enabled(Factor::Metrics, "on"))
            auxMax += int(sources.size() - metricsDone.size());
        const bool selfCriteria = enabled(Factor::Criteria, "self");
        if (selfCriteria && m_aux.criteria.isEmpty())
            ++auxMax;
        if (enabled(Factor::AutoCot, "on"))
            for (int j : m_params.space.enabledValues(Factor::Scale))
                for (const char *variant : {"human", "self"})
                    if ((selfCriteria || QLatin1String(variant) == QLatin1String("human"))
                        && !m_aux.autocot.contains(
                                QStringLiteral("%1/%2").arg(factorValues(Factor::Scale)[j], QLatin1String(variant))))
                        ++auxMax;
        evaluateCalls = int(targets.size());
    }
    e.calls = searchCalls + auxMax + evaluateCalls;
    e.callsMin = searchCalls + auxMin + evaluateCalls;
    e.exact = m_search->finished();
    if (cacheUnreadable)
        return *cacheUnreadable;
    e.perPhase.insert(QStringLiteral("auxiliary"), auxMax);
    e.perPhase.insert(QStringLiteral("search"), searchCalls);
    e.perPhase.insert(QStringLiteral("evaluate"), evaluateCalls);
    // Tokens: the origin prompt of the first validation item stands for a typical prompt.
    qint64 perCall = 1000;
    if (auto r = scoreRequest(m_params.origin, validation.first()); r)
        perCall = RunContext::approxTokens(*r);
    const qint64 outPerCall = 150;
    e.tokensIn = perCall * e.calls;
    e.tokensOut = outPerCall * e.calls;
    e.cost = (double(e.tokensIn) * spec.evaluator.pricePerMillionIn
              + double(e.tokensOut) * spec.evaluator.pricePerMillionOut)
             / 1e6;
    return e;
}

void HpssMethod::start()
{
    if (auto r = readParams(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (auto r = restore(true); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (auto r = persist(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    step();
}

void HpssMethod::step()
{
    if (m_ctx->stopped())
        return;
    const auto proposal = m_search->next();
    if (!proposal) {
        if (auto r = persist(); !r) { // finished: a resumed run goes straight to the test split
            m_ctx->fail(r.errorString());
            return;
        }
        scoreWinner();
        return;
    }
    if (auto r = persist(); !r) { // the proposal drew from the generator: keep it with the state
        m_ctx->fail(r.errorString());
        return;
    }
    ensureAux(proposal->strategy, m_builder->validation(), [this, p = *proposal] { evaluate(p); });
}

void HpssMethod::evaluate(const SearchProposal &proposal)
{
    const QVector<Item> &items = m_builder->validation();
    struct Tally
    {
        QVector<double> scores;
        int parseFailures = 0, outOfScale = 0, refused = 0;
    };
    auto tally = std::make_shared<Tally>();
    tally->scores.fill(kNaN, items.size());
    const PromptStrategy strategy = proposal.strategy;
    m_ctx->setOutlook(int(items.size()));
    m_ctx->stream(
            JudgeRole::Evaluator, QStringLiteral("search"), int(items.size()),
            [this, strategy](int unit) -> Result<QVector<JudgeRequest>> {
                auto r = scoreRequest(strategy, m_builder->validation()[unit]);
                if (!r)
                    return r.error();
                return QVector<JudgeRequest>{*r};
            },
            [tally, strategy](int unit, const QVector<JudgeResponse> &rs) {
                const JudgeResponse &r = rs.first();
                if (!r.ok()) {
                    ++tally->refused; // left out of the correlation
                    return;
                }
                const ScoreReading reading = readScore(r.text(), 1, strategy.scaleMax());
                tally->scores[unit] = reading.score; // [code]: the fallback 2.51 when nothing is found
                if (!reading.parsed)
                    ++tally->parseFailures;
                else if (!reading.inScale)
                    ++tally->outOfScale;
            },
            [this, tally, proposal] {
                QVector<double> x, y;
                for (int i = 0; i < tally->scores.size(); ++i)
                    if (!std::isnan(tally->scores[i])) {
                        x.append(tally->scores[i]);
                        y.append(m_validationHuman[i]);
                    }
                bool constant = false;
                const double rho = searchSpearman(x, y, &constant);
                if (auto r = m_search->report(proposal.strategy, rho); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                m_evaluations.append(QVariantMap{{QStringLiteral("step"), proposal.step},
                                                 {QStringLiteral("parse_failures"), tally->parseFailures},
                                                 {QStringLiteral("out_of_scale"), tally->outOfScale},
                                                 {QStringLiteral("refused"), tally->refused},
                                                 {QStringLiteral("constant"), constant}});
                if (auto r = persist(); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                step();
            },
            [this](const JudgeResponse &r) { return readable(r); });
}

void HpssMethod::scoreWinner()
{
    const SearchRecord *best = m_search->best();
    if (!best) {
        m_ctx->fail(tr("the HPSS search evaluated no strategy: %1").arg(m_search->stopReason()));
        return;
    }
    QVector<Item> targets;
    for (const Item &item : m_ctx->targetItems()) {
        if (!m_ctx->spec().retryFailed && m_ctx->failedBefore().contains(item.id))
            ++m_failed;
        else
            targets.append(item);
    }
    const PromptStrategy winner = best->proposal.strategy;
    ensureAux(winner, targets, [this, winner, targets] {
        m_ctx->setOutlook(int(targets.size()));
        m_ctx->stream(
                JudgeRole::Evaluator, QStringLiteral("evaluate"), int(targets.size()),
                [this, winner, targets](int unit) -> Result<QVector<JudgeRequest>> {
                    auto r = scoreRequest(winner, targets[unit]);
                    if (!r)
                        return r.error();
                    return QVector<JudgeRequest>{*r};
                },
                [this, winner, targets](int unit, const QVector<JudgeResponse> &rs) {
                    const JudgeResponse &r = rs.first();
                    const Item &item = targets[unit];
                    if (!r.ok()) {
                        m_ctx->recordScores({{item.id,
                                              QString::fromLatin1(rootKey),
                                              0,
                                              kNaN,
                                              QStringLiteral("failed"),
                                              RunContext::failureText(r),
                                              {},
                                              r.cacheKey}},
                                            {{item.id, kNaN}});
                        ++m_failed;
                        return;
                    }
                    const ScoreReading reading = readScore(r.text(), 1, winner.scaleMax());
                    const double score = reading.parsed ? reading.score : kNaN;
                    m_ctx->recordScores({{item.id,
                                          QString::fromLatin1(rootKey),
                                          0,
                                          score,
                                          reading.parsed ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                                          r.text(),
                                          {},
                                          r.cacheKey}},
                                        {{item.id, score}});
                    (reading.parsed ? m_scored : m_missing)++;
                    const double h = m_ctx->human(item.id);
                    if (reading.parsed && !std::isnan(h)) {
                        m_testScores.append(score);
                        m_testHuman.append(h);
                    }
                },
                [this] { finish(); }, [this](const JudgeResponse &r) { return readable(r); });
    });
}

void HpssMethod::finish()
{
    const SearchRecord &best = *m_search->best();
    const PromptStrategy winner = best.proposal.strategy;
    bool constantTest = false;
    const double testRho = searchSpearman(m_testScores, m_testHuman, &constantTest);
    const double gap = best.spearman - testRho;
    QString warning;
    if (gap > gapWarning)
        warning = tr("the winner's Spearman on the validation split (%1, n = %2) exceeds its Spearman on the test "
                     "split (%3, n = %4) by %5 > %6: the search may have fitted the small validation split")
                          .arg(best.spearman, 0, 'f', 3)
                          .arg(m_validationHuman.size())
                          .arg(testRho, 0, 'f', 3)
                          .arg(m_testScores.size())
                          .arg(gap, 0, 'f', 3)
                          .arg(gapWarning, 0, 'f', 2);
    QVariantList evaluated;
    int constants = 0, parseFailures = 0;
    for (const SearchRecord &r : m_search->evaluated())
        evaluated.append(recordToVariant(r));
    for (const QVariant &e : std::as_const(m_evaluations)) {
        constants += e.toMap().value(QStringLiteral("constant")).toBool() ? 1 : 0;
        parseFailures += e.toMap().value(QStringLiteral("parse_failures")).toInt();
    }
    const QVariantMap search{{QStringLiteral("algorithm"), searchAlgorithmName(m_params.algorithm)},
                             {QStringLiteral("evaluated"), evaluated},
                             {QStringLiteral("advantages"), m_search->advantagesVariant()},
                             {QStringLiteral("stop_reason"), m_search->stopReason()},
                             {QStringLiteral("params"), m_params.toVariant()}};

    Rubric rubric(QStringLiteral("hpss"), m_ctx->spec().aspect);
    Criterion root;
    root.key = QString::fromLatin1(rootKey);
    root.kind = CriterionKind::Aspect;
    root.text = m_ctx->aspect().name;
    root.definition = m_ctx->aspect().definition;
    root.origin
            = {{QStringLiteral("method"), QStringLiteral("hpss")}, {QStringLiteral("step"), QStringLiteral("aspect")}};
    root.stats = {{QStringLiteral("strategy"), winner.toVariant()},
                  {QStringLiteral("search"), search},
                  {QStringLiteral("task"), m_taskName},
                  {QStringLiteral("validation_spearman"), best.spearman},
                  {QStringLiteral("validation_n"), int(m_validationHuman.size())},
                  {QStringLiteral("test_spearman"), constantTest ? QVariant() : QVariant(testRho)},
                  {QStringLiteral("test_n"), int(m_testScores.size())},
                  {QStringLiteral("gap_warning"), warning}};
    rubric.add(root);
    for (int i = 0; i < kFactorCount; ++i) {
        Criterion c;
        c.key = factorName(factorAt(i));
        c.parentKey = root.key;
        c.kind = CriterionKind::Criterion;
        c.text = factorName(factorAt(i)) + QStringLiteral(": ") + winner.valueName(factorAt(i));
        c.origin = {{QStringLiteral("method"), QStringLiteral("hpss")},
                    {QStringLiteral("factor"), factorName(factorAt(i))},
                    {QStringLiteral("value"), winner.valueName(factorAt(i))}};
        rubric.add(c);
    }
    // A resumed run of a finished search stores no second identical version.
    int version = 0;
    if (auto latest = m_ctx->store().load(m_ctx->spec().judge); latest && latest->criteria() == rubric.criteria()) {
        version = latest->version();
    } else {
        auto saved = m_ctx->store().saveVersion(
                m_ctx->spec().judge, rubric,
                tr("HPSS winner after %n evaluation(s): %1", nullptr, int(evaluated.size())).arg(winner.format()));
        if (!saved) {
            m_ctx->fail(saved.errorString());
            return;
        }
        version = *saved;
    }
    if (auto r = rescore::recordAlignment(*m_ctx, version); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (!warning.isEmpty())
        (void)m_ctx->project()->addIssue(QStringLiteral("run"), warning, m_ctx->spec().judge);
    emit completed({{QStringLiteral("rubric_version"), version},
                    {QStringLiteral("strategy"), winner.format()},
                    {QStringLiteral("validation_spearman"), best.spearman},
                    {QStringLiteral("validation_n"), int(m_validationHuman.size())},
                    {QStringLiteral("test_spearman"), constantTest ? QVariant() : QVariant(testRho)},
                    {QStringLiteral("test_n"), int(m_testScores.size())},
                    {QStringLiteral("gap_warning"), warning},
                    {QStringLiteral("evaluations"), int(evaluated.size())},
                    {QStringLiteral("constant_strategies"), constants},
                    {QStringLiteral("constant_rule"), tr("a strategy with constant scores counts as Spearman 0")},
                    {QStringLiteral("validation_parse_failures"), parseFailures},
                    {QStringLiteral("aux_generations"), m_auxGenerations},
                    {QStringLiteral("stop_reason"), m_search->stopReason()},
                    {QStringLiteral("notes"), m_notes},
                    {QStringLiteral("scored"), m_scored},
                    {QStringLiteral("missing"), m_missing},
                    {QStringLiteral("failed"), m_failed}});
}

} // namespace rubric
