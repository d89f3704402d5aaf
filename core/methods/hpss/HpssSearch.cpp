#include "methods/hpss/HpssSearch.h"

#include <QVariantList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace rubric::hpss {

namespace {

const QStringList &algorithmNames()
{
    static const QStringList names = {QStringLiteral("hpss"), QStringLiteral("greedy"), QStringLiteral("stepwise"),
                                      QStringLiteral("mutation"), QStringLiteral("random")};
    return names;
}

const QStringList &moveNames()
{
    static const QStringList names = {QStringLiteral("init"),   QStringLiteral("explore"), QStringLiteral("exploit"),
                                      QStringLiteral("mutate"), QStringLiteral("greedy"),  QStringLiteral("stepwise"),
                                      QStringLiteral("random")};
    return names;
}

Error settingError(const QString &key, const QString &message)
{
    return makeError(message, {}, 0, key);
}

Result<int> readInt(const QString &key, const QString &value, int min)
{
    bool ok = false;
    const int v = value.trimmed().toInt(&ok);
    if (!ok || v < min)
        return settingError(key, QStringLiteral("'%1' is not a whole number ≥ %2").arg(value).arg(min));
    return v;
}

Result<double> readDouble(const QString &key, const QString &value, double min, double max, bool openMin)
{
    bool ok = false;
    const double v = value.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < min || v > max || (openMin && v == min))
        return settingError(key, QStringLiteral("'%1' is not a number in %2%3, %4]")
                                         .arg(value, openMin ? QStringLiteral("(") : QStringLiteral("["))
                                         .arg(min)
                                         .arg(max));
    return v;
}

QVariantList tableToVariant(const std::array<QVector<double>, kFactorCount> &t)
{
    QVariantList out;
    for (const QVector<double> &row : t) {
        QVariantList r;
        for (double v : row)
            r.append(v);
        out.append(QVariant(r));
    }
    return out;
}

Result<std::array<QVector<double>, kFactorCount>> tableFromVariant(const QVariant &v, const QString &field)
{
    std::array<QVector<double>, kFactorCount> t;
    const QVariantList rows = v.toList();
    if (rows.size() != kFactorCount)
        return makeError(QStringLiteral("expected %1 rows").arg(kFactorCount), {}, 0, field);
    for (int i = 0; i < kFactorCount; ++i) {
        const QVariantList row = rows[i].toList();
        if (row.size() != factorValues(Factor(i)).size())
            return makeError(QStringLiteral("row %1 has %2 values, expected %3")
                                     .arg(factorName(Factor(i)))
                                     .arg(row.size())
                                     .arg(factorValues(Factor(i)).size()),
                             {}, 0, field);
        for (const QVariant &x : row)
            t[size_t(i)].append(x.toDouble());
    }
    return t;
}

QVariantList strategiesToVariant(const QVector<PromptStrategy> &list)
{
    QVariantList out;
    for (const PromptStrategy &s : list)
        out.append(s.format());
    return out;
}

Result<QVector<PromptStrategy>> strategiesFromVariant(const QVariant &v, const QString &field)
{
    QVector<PromptStrategy> out;
    for (const QVariant &x : v.toList()) {
        auto s = PromptStrategy::parse(x.toString());
        if (!s)
            return makeError(s.error().toString(), {}, 0, field);
        out.append(*s);
    }
    return out;
}

QVariantMap proposalToVariant(const SearchProposal &p)
{
    QVariantMap m;
    m.insert(QStringLiteral("strategy"), p.strategy.toVariant());
    m.insert(QStringLiteral("move"), searchMoveName(p.move));
    m.insert(QStringLiteral("parent"), p.parent ? p.parent->format() : QString());
    m.insert(QStringLiteral("changed"), p.changedFactor >= 0 ? factorName(Factor(p.changedFactor)) : QString());
    m.insert(QStringLiteral("step"), p.step);
    return m;
}

Result<SearchProposal> proposalFromVariant(const QVariantMap &m, const QString &field)
{
    SearchProposal p;
    auto s = PromptStrategy::fromVariant(m.value(QStringLiteral("strategy")));
    if (!s)
        return makeError(s.error().toString(), {}, 0, field);
    p.strategy = *s;
    const int move = moveNames().indexOf(m.value(QStringLiteral("move")).toString());
    if (move < 0)
        return makeError(QStringLiteral("unknown move '%1'").arg(m.value(QStringLiteral("move")).toString()), {}, 0,
                         field);
    p.move = SearchMove(move);
    const QString parent = m.value(QStringLiteral("parent")).toString();
    if (!parent.isEmpty()) {
        auto ps = PromptStrategy::parse(parent);
        if (!ps)
            return makeError(ps.error().toString(), {}, 0, field);
        p.parent = *ps;
    }
    const QString changed = m.value(QStringLiteral("changed")).toString();
    if (!changed.isEmpty()) {
        auto f = factorFromName(changed);
        if (!f)
            return makeError(f.error().toString(), {}, 0, field);
        p.changedFactor = int(*f);
    }
    p.step = m.value(QStringLiteral("step")).toInt();
    return p;
}

} // namespace

QString searchAlgorithmName(SearchAlgorithm a)
{
    return algorithmNames().at(int(a));
}

QString searchMoveName(SearchMove m)
{
    return moveNames().at(int(m));
}

// --- SearchParams -------------------------------------------------------------------------------

Result<void> SearchParams::set(const QString &rawKey, const QString &value)
{
    const QString key = rawKey.trimmed().toLower();
    auto assignInt = [&](int &target, int min) -> Result<void> {
        auto v = readInt(key, value, min);
        if (!v)
            return v.error();
        target = *v;
        return {};
    };
    auto assignDouble = [&](double &target, double min, double max, bool openMin) -> Result<void> {
        auto v = readDouble(key, value, min, max, openMin);
        if (!v)
            return v.error();
        target = *v;
        return {};
    };
    const double inf = std::numeric_limits<double>::max();
    if (key == QLatin1String("search")) {
        const int a = algorithmNames().indexOf(value.trimmed().toLower());
        if (a < 0)
            return settingError(key, QStringLiteral("unknown search '%1' (expected %2)")
                                             .arg(value, algorithmNames().join(QLatin1Char('|'))));
        algorithm = SearchAlgorithm(a);
        return {};
    }
    if (key == QLatin1String("budget"))
        return assignInt(budget, 1);
    if (key == QLatin1String("population"))
        return assignInt(population, 1);
    if (key == QLatin1String("mutations"))
        return assignInt(mutations, 1);
    if (key == QLatin1String("greedy_batch"))
        return assignInt(greedyBatch, 1);
    if (key == QLatin1String("max_rounds"))
        return assignInt(maxRounds, 1);
    if (key == QLatin1String("exploit"))
        return assignDouble(exploit, 0, 1, false);
    if (key == QLatin1String("temperature"))
        return assignDouble(temperature, 0, inf, true);
    if (key == QLatin1String("ucb"))
        return assignDouble(ucb, 0, inf, false);
    if (key == QLatin1String("score_scale"))
        return assignDouble(scoreScale, 0, inf, true);
    if (key == QLatin1String("seed")) {
        bool ok = false;
        const quint64 v = value.trimmed().toULongLong(&ok);
        if (!ok)
            return settingError(key, QStringLiteral("'%1' is not a whole number ≥ 0").arg(value));
        seed = v;
        return {};
    }
    if (key == QLatin1String("origin")) {
        auto s = PromptStrategy::parse(value);
        if (!s)
            return settingError(key, s.error().toString());
        origin = *s;
        return {};
    }
    if (key == QLatin1String("space")) {
        if (value.trimmed() == QLatin1String("full"))
            space = StrategySpace::full();
        else if (value.trimmed() == QLatin1String("pairwise"))
            space = StrategySpace::pairwise();
        else
            return settingError(key, QStringLiteral("unknown space '%1' (expected full|pairwise)").arg(value));
        return {};
    }
    if (key == QLatin1String("disable")) {
        // "disable=scale:3;reference:dialectic": values the search never visits
        for (const QString &item : value.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            const qsizetype colon = item.indexOf(QLatin1Char(':'));
            if (colon < 0)
                return settingError(key, QStringLiteral("'%1' is not factor:value").arg(item));
            auto f = factorFromName(item.left(colon));
            if (!f)
                return settingError(key, f.error().toString());
            if (auto r = space.disable(*f, item.mid(colon + 1).trimmed()); !r)
                return settingError(key, r.error().toString());
        }
        return {};
    }
    return settingError(key, QStringLiteral("unknown setting (expected search, budget, population, mutations, "
                                            "exploit, temperature, ucb, seed, origin, space, disable, score_scale, "
                                            "greedy_batch, max_rounds)"));
}

Result<void> SearchParams::validate() const
{
    if (!space.contains(origin))
        return settingError(QStringLiteral("origin"), QStringLiteral("%1 uses a disabled value").arg(origin.format()));
    const qint64 init = 1 + space.neighbours(origin).size();
    if ((algorithm == SearchAlgorithm::Hpss || algorithm == SearchAlgorithm::Mutation) && budget < init)
        return settingError(QStringLiteral("budget"),
                            QStringLiteral("%1 does not cover the %2 initial evaluations").arg(budget).arg(init));
    if (budget > space.size())
        return settingError(
                QStringLiteral("budget"),
                QStringLiteral("%1 is larger than the space (%2 strategies)").arg(budget).arg(space.size()));
    if (population < 1 || mutations < 1 || greedyBatch < 1 || maxRounds < 1 || budget < 1)
        return settingError(QStringLiteral("population"), QStringLiteral("counts must be at least 1"));
    if (!(temperature > 0) || !(ucb >= 0) || !(exploit >= 0 && exploit <= 1) || !(scoreScale > 0))
        return settingError(QStringLiteral("temperature"), QStringLiteral("a real setting is out of range"));
    return {};
}

QVariantMap SearchParams::toVariant() const
{
    return {{QStringLiteral("search"), searchAlgorithmName(algorithm)},
            {QStringLiteral("budget"), budget},
            {QStringLiteral("population"), population},
            {QStringLiteral("mutations"), mutations},
            {QStringLiteral("exploit"), exploit},
            {QStringLiteral("temperature"), temperature},
            {QStringLiteral("ucb"), ucb},
            {QStringLiteral("seed"), QString::number(seed)},
            {QStringLiteral("score_scale"), scoreScale},
            {QStringLiteral("greedy_batch"), greedyBatch},
            {QStringLiteral("max_rounds"), maxRounds},
            {QStringLiteral("origin"), origin.format()},
            {QStringLiteral("space"), space.toVariant()}};
}

Result<SearchParams> SearchParams::fromVariant(const QVariant &value)
{
    const QVariantMap map = value.toMap();
    SearchParams p;
    for (auto it = map.cbegin(); it != map.cend(); ++it) {
        if (it.key() == QLatin1String("space")) {
            auto space = StrategySpace::fromVariant(it.value());
            if (!space)
                return space.error();
            p.space = *space;
            continue;
        }
        // Doubles go through text with every digit, so a restored search computes the same.
        const QString text = it.value().typeId() == QMetaType::Double ? QString::number(it.value().toDouble(), 'g', 17)
                                                                      : it.value().toString();
        if (auto r = p.set(it.key(), text); !r)
            return r.error();
    }
    if (auto r = p.validate(); !r)
        return r.error();
    return p;
}

// --- HpssSearch ---------------------------------------------------------------------------------

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
    if (m_params.algorithm == SearchAlgorithm::Hpss || m_params.algorithm == SearchAlgorithm::Mutation)
        m_initList += m_params.space.neighbours(m_params.origin);
    m_initIndex = 0;
}

int HpssSearch::initCount() const
{
    return int(m_initList.size());
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

// --- State --------------------------------------------------------------------------------------

QVariantMap HpssSearch::toVariant() const
{
    std::ostringstream rng;
    rng << m_rng; // the standard fixes the text of an engine's state, and reading it back restores it
    QVariantList records;
    for (const SearchRecord &rec : m_records) {
        QVariantMap m = proposalToVariant(rec.proposal);
        m.insert(QStringLiteral("validation_spearman"), rec.spearman);
        records.append(m);
    }
    QVariantMap out;
    out.insert(QStringLiteral("version"), 1);
    out.insert(QStringLiteral("params"), m_params.toVariant());
    out.insert(QStringLiteral("phase"), m_phase == Phase::Init     ? QStringLiteral("init")
                                        : m_phase == Phase::Search ? QStringLiteral("search")
                                                                   : QStringLiteral("done"));
    out.insert(QStringLiteral("stop_reason"), m_stopReason);
    out.insert(QStringLiteral("rng"), QString::fromStdString(rng.str()));
    out.insert(QStringLiteral("evaluated"), records);
    if (m_pending)
        out.insert(QStringLiteral("pending"), proposalToVariant(*m_pending));
    out.insert(QStringLiteral("A"), tableToVariant(m_a));
    out.insert(QStringLiteral("N"), tableToVariant(m_n));
    out.insert(QStringLiteral("M"), tableToVariant(m_m));
    out.insert(QStringLiteral("init_index"), m_initIndex);
    out.insert(QStringLiteral("population"), strategiesToVariant(m_pop));
    out.insert(QStringLiteral("new_population"), strategiesToVariant(m_newPop));
    out.insert(QStringLiteral("population_index"), m_popIndex);
    out.insert(QStringLiteral("repetition"), m_rep);
    out.insert(QStringLiteral("cost"), m_cost);
    out.insert(QStringLiteral("rounds"), m_rounds);
    out.insert(QStringLiteral("round_added"), m_roundAdded);
    out.insert(QStringLiteral("batch"), strategiesToVariant(m_batch));
    out.insert(QStringLiteral("batch_parent"), m_batchParent ? m_batchParent->format() : QString());
    out.insert(QStringLiteral("step_factor"), m_stepFactor);
    return out;
}

Result<HpssSearch> HpssSearch::fromVariant(const QVariant &state)
{
    const QVariantMap map = state.toMap();
    if (map.value(QStringLiteral("version")).toInt() != 1)
        return makeError(QStringLiteral("unknown search state version '%1'")
                                 .arg(map.value(QStringLiteral("version")).toString()),
                         {}, 0, QStringLiteral("version"));
    auto params = SearchParams::fromVariant(map.value(QStringLiteral("params")));
    if (!params)
        return makeError(params.error().toString(), {}, 0, QStringLiteral("params"));
    auto created = create(*params);
    if (!created)
        return created.error();
    HpssSearch s = std::move(created).value();

    const QString phase = map.value(QStringLiteral("phase")).toString();
    if (phase == QLatin1String("init"))
        s.m_phase = Phase::Init;
    else if (phase == QLatin1String("search"))
        s.m_phase = Phase::Search;
    else if (phase == QLatin1String("done"))
        s.m_phase = Phase::Done;
    else
        return makeError(QStringLiteral("unknown phase '%1'").arg(phase), {}, 0, QStringLiteral("phase"));
    s.m_stopReason = map.value(QStringLiteral("stop_reason")).toString();

    std::istringstream rng(map.value(QStringLiteral("rng")).toString().toStdString());
    rng >> s.m_rng;
    if (rng.fail())
        return makeError(QStringLiteral("the generator state cannot be read"), {}, 0, QStringLiteral("rng"));

    const QVariantList records = map.value(QStringLiteral("evaluated")).toList();
    for (qsizetype k = 0; k < records.size(); ++k) {
        const QString field = QStringLiteral("evaluated[%1]").arg(k);
        const QVariantMap m = records[k].toMap();
        auto p = proposalFromVariant(m, field);
        if (!p)
            return p.error();
        bool ok = false;
        const double rho = m.value(QStringLiteral("validation_spearman")).toDouble(&ok);
        if (!ok || !std::isfinite(rho))
            return makeError(QStringLiteral("validation_spearman is not a number"), {}, 0, field);
        if (s.isEvaluated(p->strategy))
            return makeError(QStringLiteral("%1 is listed twice").arg(p->strategy.format()), {}, 0, field);
        s.m_records.append(SearchRecord{*p, rho});
        s.m_scores[p->strategy] = rho;
    }
    if (map.contains(QStringLiteral("pending"))) {
        auto p = proposalFromVariant(map.value(QStringLiteral("pending")).toMap(), QStringLiteral("pending"));
        if (!p)
            return p.error();
        s.m_pending = *p;
    }
    for (auto [key, table] : {std::pair{QStringLiteral("A"), &s.m_a}, std::pair{QStringLiteral("N"), &s.m_n},
                              std::pair{QStringLiteral("M"), &s.m_m}}) {
        auto t = tableFromVariant(map.value(key), key);
        if (!t)
            return t.error();
        *table = *t;
    }
    for (auto [key, list] :
         {std::pair{QStringLiteral("population"), &s.m_pop}, std::pair{QStringLiteral("new_population"), &s.m_newPop},
          std::pair{QStringLiteral("batch"), &s.m_batch}}) {
        auto l = strategiesFromVariant(map.value(key), key);
        if (!l)
            return l.error();
        *list = *l;
    }
    const QString parent = map.value(QStringLiteral("batch_parent")).toString();
    if (!parent.isEmpty()) {
        auto p = PromptStrategy::parse(parent);
        if (!p)
            return makeError(p.error().toString(), {}, 0, QStringLiteral("batch_parent"));
        s.m_batchParent = *p;
    }
    s.m_initIndex = map.value(QStringLiteral("init_index")).toInt();
    s.m_popIndex = map.value(QStringLiteral("population_index")).toInt();
    s.m_rep = map.value(QStringLiteral("repetition")).toInt();
    s.m_cost = map.value(QStringLiteral("cost")).toInt();
    s.m_rounds = map.value(QStringLiteral("rounds")).toInt();
    s.m_roundAdded = map.value(QStringLiteral("round_added")).toInt();
    s.m_stepFactor = map.value(QStringLiteral("step_factor")).toInt();
    if (s.m_initIndex < 0 || s.m_initIndex > s.initCount())
        return makeError(QStringLiteral("out of range"), {}, 0, QStringLiteral("init_index"));
    for (const PromptStrategy &p : std::as_const(s.m_pop) + s.m_newPop)
        if (!s.isEvaluated(p))
            return makeError(QStringLiteral("%1 is in the population but not evaluated").arg(p.format()), {}, 0,
                             QStringLiteral("population"));
    return s;
}

} // namespace rubric::hpss
