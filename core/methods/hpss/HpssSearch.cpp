#include "methods/hpss/HpssSearch.h"

#include <QVariantList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace rubric::hpss {

// The search loop; the parameters are in HpssSearchParams.cpp, the state's JSON in HpssSearchState.cpp.

Result<HpssSearch> HpssSearch::create(const SearchParams &params)
{
    if (auto r = params.validate(); !r)
        return r.error();
    HpssSearch s;
    s.m_params = params;
    s.m_rng.seed(params.seed);
    for (int i = 0; i < kFactorCount; ++i) {
        const qsizetype m = factorValues(Factor(i)).size();
        s.m_a[size_t(i)] = QVector<double>(m, 0.0);
        s.m_n[size_t(i)] = QVector<double>(m, 0.0);
        s.m_m[size_t(i)] = QVector<double>(m, 0.0);
    }
    s.setUpInit();
    return s;
}

void HpssSearch::setUpInit()
{
    m_initList = {m_params.origin};
    // OPRO starts from the same initialisation: [code] loads it as the search history.
    if (m_params.algorithm == SearchAlgorithm::Hpss || m_params.algorithm == SearchAlgorithm::Mutation
        || m_params.algorithm == SearchAlgorithm::Opro)
        m_initList += m_params.space.neighbours(m_params.origin);
    m_initIndex = 0;
}

int HpssSearch::initCount() const
{
    return int(m_initList.size());
}

int HpssSearch::plannedEvaluations() const
{
    if (m_params.algorithm != SearchAlgorithm::Stepwise)
        return m_params.budget;
    // Each factor's batch changes the best so far in that factor only, and no earlier strategy
    // has a later factor off the origin's value: every value of the batch is new.
    int all = 1;
    for (int i = 0; i < kFactorCount; ++i)
        all += int(m_params.space.enabledValues(Factor(i)).size()) - 1;
    return std::min(all, m_params.budget);
}

std::optional<SearchProposal> HpssSearch::next()
{
    if (m_pending)
        return m_pending;
    if (m_phase == Phase::Done)
        return std::nullopt;
    if (int(m_records.size()) >= m_params.budget) {
        stop(QStringLiteral("budget"));
        return std::nullopt;
    }
    m_pending = advance();
    return m_pending;
}

std::optional<SearchProposal> HpssSearch::advance()
{
    if (m_phase == Phase::Init) {
        const PromptStrategy &s = m_initList.at(m_initIndex);
        ++m_initIndex;
        if (m_initIndex == 1)
            return propose(s, SearchMove::Init, std::nullopt, -1);
        return propose(s, SearchMove::Init, m_params.origin, m_params.origin.firstDifference(s));
    }
    switch (m_params.algorithm) {
    case SearchAlgorithm::Hpss:
    case SearchAlgorithm::Mutation:
        return advancePopulation();
    case SearchAlgorithm::Greedy:
        return advanceGreedy();
    case SearchAlgorithm::Stepwise:
        return advanceStepwise();
    case SearchAlgorithm::Random:
        return advanceRandom();
    case SearchAlgorithm::Opro:
        return advanceOpro();
    case SearchAlgorithm::Ape: // text candidates: ApeSearch runs it, this search proposes nothing
        stop(QStringLiteral("APE-style: no strategy search"));
        return std::nullopt;
    }
    return std::nullopt;
}

SearchProposal HpssSearch::propose(const PromptStrategy &s, SearchMove move,
                                   const std::optional<PromptStrategy> &parent, int changedFactor) const
{
    return SearchProposal{s, move, parent, changedFactor, int(m_records.size()) + 1};
}

void HpssSearch::stop(const QString &reason)
{
    m_phase = Phase::Done;
    m_stopReason = reason;
}

Result<void> HpssSearch::report(const PromptStrategy &strategy, double spearman)
{
    if (!m_pending)
        return makeError(QStringLiteral("no strategy is waiting for its score"), {}, 0, QStringLiteral("search"));
    if (m_pending->strategy != strategy)
        return makeError(QStringLiteral("reported %1, but the search asked for %2")
                                 .arg(strategy.format(), m_pending->strategy.format()),
                         {}, 0, QStringLiteral("search"));
    if (!std::isfinite(spearman))
        return makeError(QStringLiteral("the validation Spearman of %1 is not a number (constant scores?)")
                                 .arg(strategy.format()),
                         {}, 0, QStringLiteral("validation_spearman"));
    const SearchRecord record{*m_pending, spearman};
    m_pending.reset();
    m_records.append(record);
    m_scores[record.proposal.strategy] = spearman;
    afterReport(record);
    return {};
}

void HpssSearch::afterReport(const SearchRecord &record)
{
    if (m_phase == Phase::Init) {
        if (m_initIndex >= initCount())
            finishInit();
        return;
    }
    if (m_params.algorithm != SearchAlgorithm::Hpss && m_params.algorithm != SearchAlgorithm::Mutation)
        return;
    const PromptStrategy &t = record.proposal.strategy;
    m_newPop.append(t);
    ++m_cost;
    ++m_roundAdded;
    if (record.proposal.move == SearchMove::Explore) {
        // Eq. 4 with the parent's pre-update A[i][c_i], then Eq. 5 (zero mean over the factor's values).
        const int i = record.proposal.changedFactor;
        const PromptStrategy &parent = *record.proposal.parent;
        const int c = parent.index(Factor(i));
        const int j = t.index(Factor(i));
        QVector<double> &a = m_a[size_t(i)];
        QVector<double> &n = m_n[size_t(i)];
        const double gain = r(t) - (r(parent) - a[c]);
        a[j] = (a[j] * n[j] + gain) / (n[j] + 1);
        n[j] += 1;
        const QVector<int> enabled = m_params.space.enabledValues(Factor(i));
        double mean = 0;
        for (int v : enabled)
            mean += a[v];
        mean /= enabled.size();
        for (int v : enabled)
            a[v] -= mean;
    }
    for (int i = 0; i < kFactorCount; ++i)
        m_m[size_t(i)][t.index(Factor(i))] += 1;
}

void HpssSearch::finishInit()
{
    m_phase = Phase::Search;
    const PromptStrategy &base = m_params.origin;
    for (int i = 0; i < kFactorCount; ++i) {
        const QVector<int> enabled = m_params.space.enabledValues(Factor(i));
        QVector<double> s(factorValues(Factor(i)).size(), 0.0);
        double mean = 0;
        for (int j : enabled) {
            const PromptStrategy v = base.with(Factor(i), j);
            // Greedy, Stepwise and Random start from the origin alone: no one-factor table to average.
            s[j] = isEvaluated(v) ? r(v) : r(base);
            mean += s[j];
        }
        mean /= enabled.size();
        for (int j : enabled) {
            m_a[size_t(i)][j] = s[j] - mean;
            m_n[size_t(i)][j] = 1;
            m_m[size_t(i)][j] = 1;
        }
    }
    QVector<PromptStrategy> all;
    for (const SearchRecord &rec : std::as_const(m_records))
        all.append(rec.proposal.strategy);
    m_pop = topK(all);
    m_newPop = m_pop;
    m_popIndex = m_rep = m_cost = m_rounds = m_roundAdded = 0;
}

QVector<PromptStrategy> HpssSearch::topK(const QVector<PromptStrategy> &candidates) const
{
    QVector<PromptStrategy> sorted = candidates;
    std::stable_sort(sorted.begin(), sorted.end(), [this](const PromptStrategy &x, const PromptStrategy &y) {
        return m_scores.at(x) > m_scores.at(y);
    });
    if (sorted.size() > m_params.population)
        sorted.resize(m_params.population);
    return sorted;
}

bool HpssSearch::populationStalled() const
{
    for (const PromptStrategy &p : m_pop)
        for (const PromptStrategy &n : m_params.space.neighbours(p))
            if (!isEvaluated(n))
                return false;
    return true;
}

QVector<NeighbourScore> HpssSearch::neighbourScores(const PromptStrategy &parent) const
{
    QVector<NeighbourScore> out;
    const double t = m_cost + 1; // [code]: search-phase evaluations + 1; ln 1 = 0, no bonus at first
    double maxB = -std::numeric_limits<double>::infinity();
    QVector<double> b;
    for (const PromptStrategy &n : m_params.space.neighbours(parent)) {
        NeighbourScore s;
        s.strategy = n;
        s.factor = parent.firstDifference(n);
        s.value = n.index(Factor(s.factor));
        const QVector<double> &a = m_a[size_t(s.factor)];
        s.advantageGain = a[s.value] - a[parent.index(Factor(s.factor))];
        const double m = std::max(1.0, m_m[size_t(s.factor)][s.value]);
        s.bonus = m_params.ucb * std::sqrt(std::log(t) / m);
        b.append((s.advantageGain + s.bonus) / m_params.temperature);
        maxB = std::max(maxB, b.last());
        out.append(s);
    }
    double sum = 0;
    for (qsizetype k = 0; k < out.size(); ++k) {
        out[k].probability = std::exp(b[k] - maxB);
        sum += out[k].probability;
    }
    for (NeighbourScore &s : out)
        s.probability /= sum;
    return out;
}

std::optional<PromptStrategy> HpssSearch::exploitationTarget() const
{
    std::optional<PromptStrategy> best;
    double bestSum = -std::numeric_limits<double>::infinity();
    for (const PromptStrategy &s : allStrategies()) {
        if (isEvaluated(s))
            continue;
        double sum = 0;
        for (int i = 0; i < kFactorCount; ++i)
            sum += m_a[size_t(i)][s.index(Factor(i))];
        if (sum > bestSum) { // strict: the first maximum in product order wins, as in [code]
            bestSum = sum;
            best = s;
        }
    }
    return best;
}

std::optional<SearchProposal> HpssSearch::advancePopulation()
{
    const int m = m_params.budget - initCount();
    const bool heuristic = m_params.algorithm == SearchAlgorithm::Hpss;
    for (;;) {
        if (m_cost >= m) {
            stop(QStringLiteral("budget"));
            return std::nullopt;
        }
        if (m_popIndex >= m_pop.size()) {
            m_pop = topK(m_newPop); // elitist: parents compete with their children
            ++m_rounds;
            if (m_rounds >= m_params.maxRounds) {
                stop(QStringLiteral("max_rounds"));
                return std::nullopt;
            }
            if (m_roundAdded == 0 && populationStalled()) {
                stop(QStringLiteral("every neighbour of the population is evaluated"));
                return std::nullopt;
            }
            m_newPop = m_pop;
            m_popIndex = m_rep = m_roundAdded = 0;
            continue;
        }
        if (m_rep >= m_params.mutations) {
            ++m_popIndex;
            m_rep = 0;
            continue;
        }
        const PromptStrategy parent = m_pop.at(m_popIndex);
        ++m_rep;
        PromptStrategy child;
        if (heuristic) {
            const QVector<NeighbourScore> table = neighbourScores(parent);
            const double u = uniform();
            double acc = 0;
            child = table.last().strategy;
            for (const NeighbourScore &s : table) {
                acc += s.probability;
                if (u < acc) {
                    child = s.strategy;
                    break;
                }
            }
        } else {
            const QVector<PromptStrategy> ns = m_params.space.neighbours(parent);
            child = ns.at(qsizetype(below(quint64(ns.size()))));
        }
        if (isEvaluated(child))
            continue; // Alg. 2 l.6-8: no cost, no resample
        if (heuristic && uniform() < m_params.exploit) {
            auto target = exploitationTarget();
            if (!target) {
                stop(QStringLiteral("every strategy of the space is evaluated"));
                return std::nullopt;
            }
            return propose(*target, SearchMove::Exploit, parent, -1);
        }
        return propose(child, heuristic ? SearchMove::Explore : SearchMove::Mutate, parent,
                       parent.firstDifference(child));
    }
}

std::optional<SearchProposal> HpssSearch::advanceGreedy()
{
    if (m_batch.isEmpty()) {
        // The best so far (first of the highest) with an unevaluated neighbour; usually the best itself.
        QVector<PromptStrategy> ranked;
        for (const SearchRecord &rec : std::as_const(m_records))
            ranked.append(rec.proposal.strategy);
        std::stable_sort(ranked.begin(), ranked.end(), [this](const PromptStrategy &x, const PromptStrategy &y) {
            return m_scores.at(x) > m_scores.at(y);
        });
        for (const PromptStrategy &current : std::as_const(ranked)) {
            QVector<PromptStrategy> open;
            for (const PromptStrategy &n : m_params.space.neighbours(current))
                if (!isEvaluated(n))
                    open.append(n);
            if (open.isEmpty())
                continue;
            // A partial Fisher–Yates draw of up to greedyBatch distinct perturbations.
            const qsizetype take = std::min<qsizetype>(m_params.greedyBatch, open.size());
            for (qsizetype k = 0; k < take; ++k) {
                const qsizetype pick = k + qsizetype(below(quint64(open.size() - k)));
                std::swap(open[k], open[pick]);
            }
            open.resize(take);
            m_batch = open;
            m_batchParent = current;
            break;
        }
        if (m_batch.isEmpty()) {
            stop(QStringLiteral("every strategy reachable by one-factor changes is evaluated"));
            return std::nullopt;
        }
    }
    const PromptStrategy s = m_batch.takeFirst();
    return propose(s, SearchMove::Greedy, m_batchParent, m_batchParent->firstDifference(s));
}

std::optional<SearchProposal> HpssSearch::advanceStepwise()
{
    while (m_batch.isEmpty()) {
        if (m_stepFactor >= kFactorCount) {
            stop(QStringLiteral("every factor optimised"));
            return std::nullopt;
        }
        // The best so far is the strategy with the earlier factors already set to their best values.
        m_batchParent = best()->proposal.strategy;
        for (int j : m_params.space.enabledValues(Factor(m_stepFactor))) {
            const PromptStrategy s = m_batchParent->with(Factor(m_stepFactor), j);
            if (!isEvaluated(s))
                m_batch.append(s);
        }
        ++m_stepFactor;
    }
    const PromptStrategy s = m_batch.takeFirst();
    return propose(s, SearchMove::Stepwise, m_batchParent, m_batchParent->firstDifference(s));
}

std::optional<SearchProposal> HpssSearch::advanceRandom()
{
    const QVector<PromptStrategy> &all = allStrategies();
    if (qsizetype(m_scores.size()) >= all.size()) {
        stop(QStringLiteral("every strategy of the space is evaluated"));
        return std::nullopt;
    }
    for (;;) {
        const PromptStrategy &s = all.at(qsizetype(below(quint64(all.size()))));
        if (!isEvaluated(s))
            return propose(s, SearchMove::Random, std::nullopt, -1);
    }
}

const SearchRecord *HpssSearch::best() const
{
    const SearchRecord *b = nullptr;
    for (const SearchRecord &rec : m_records)
        if (!b || rec.spearman > b->spearman)
            b = &rec;
    return b;
}

QVariantMap HpssSearch::advantagesVariant() const
{
    QVariantMap out;
    for (int i = 0; i < kFactorCount; ++i) {
        QVariantMap values;
        for (int j : m_params.space.enabledValues(Factor(i)))
            values.insert(factorValues(Factor(i)).at(j), m_a[size_t(i)][j]);
        out.insert(factorName(Factor(i)), values);
    }
    return out;
}

double HpssSearch::uniform()
{
    // 53 random bits: the same double on every platform (std::uniform_real_distribution is not specified bit for bit).
    return double(m_rng() >> 11) * 0x1.0p-53;
}

quint64 HpssSearch::below(quint64 n)
{
    return m_rng() % n;
}

const QVector<PromptStrategy> &HpssSearch::allStrategies() const
{
    if (m_allCache.isEmpty())
        m_allCache = m_params.space.all();
    return m_allCache;
}

} // namespace rubric::hpss
