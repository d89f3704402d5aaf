#pragma once

#include "methods/hpss/PromptStrategy.h"
#include "util/Result.h"
#include "util/Shuffle.h"

#include <QString>
#include <QVariantMap>
#include <QVector>

#include <array>
#include <map>
#include <optional>

namespace rubric::hpss {

/// The search algorithm: HPSS (spec hpss.md §6) or one of the baselines in the same space (§6.5–6.6).
enum class SearchAlgorithm {
    Hpss,     ///< heuristic-guided mutation: advantages, softmax exploration + UCB, exploitation
    Greedy,   ///< from the origin, a batch of random one-factor perturbations of the best so far
    Stepwise, ///< factor by factor in Table 1 order, keep the best value (1 + Σ(m_i − 1) evaluations)
    Mutation, ///< "w/o all": HPSS's population loop with uniform one-factor mutation, no advantages
    Random,   ///< the origin, then uniform random strategies of the space
    Opro,     ///< OPRO-style: HPSS's initialisation as history, then the evaluator proposes each strategy
    Ape       ///< APE-style: free-text prompts resampled by the evaluator (ApeSearch; not a strategy search)
};
QString searchAlgorithmName(SearchAlgorithm a);

/// The level a strategy's Spearman is taken at (paper Eq. 8): over all items ("dataset"), or per
/// source (an article's 16 summaries) and then averaged ("summary"; [code] correlation_summary, for
/// SummEval). A source whose Spearman is undefined (constant scores) is left out of the average.
enum class CorrelationLevel { Dataset, Summary };
QString correlationLevelName(CorrelationLevel level);

/// What an answer the reader finds no rating in counts as, on the validation and the test split
/// alike: "fallback" 2.51 after one ask (the official code, the default), "drop" left out after
/// one ask, "reask" asked again by the runner and then 2.51.
enum class UnparsedPolicy { Fallback, Drop, Reask };
QString unparsedPolicyName(UnparsedPolicy policy);
inline constexpr double kUnparsedFallback = 2.51;

/// How a strategy came to be evaluated.
enum class SearchMove { Init, Explore, Exploit, Mutate, Greedy, Stepwise, Random, Opro };
QString searchMoveName(SearchMove m);

/// Every setting of a search with the paper's defaults (spec §6.1: k = 5, g = 2, ρ = 0.2, τ = 5,
/// λ = 4, 71 evaluations; Spearman × 100 inside the formulas as in the authors' code).
struct SearchParams
{
    SearchAlgorithm algorithm = SearchAlgorithm::Hpss;
    int budget = 71;        ///< evaluated strategies in all, initialisation included
    int population = 5;     ///< k
    int mutations = 2;      ///< g, per population member and round
    double exploit = 0.2;   ///< ρ, the probability of an exploitation step
    double temperature = 5; ///< τ of the softmax
    double ucb = 4;         ///< λ, weight of the UCB bonus ([code]'s argparse says 2; paper and README 4)
    quint64 seed = 1;
    quint64 exampleSeed = 1;                            ///< draws the in-context examples; apart from `seed` (issue 32)
    CorrelationLevel level = CorrelationLevel::Dataset; ///< the method sets the task's unless --set level
    UnparsedPolicy unparsed = UnparsedPolicy::Fallback;
    double scoreScale = 100; ///< r = Spearman × this inside every formula
    int greedyBatch = 5;     ///< Greedy: perturbations of the best per iteration
    int maxRounds = 1000;    ///< [code]'s cap on population rounds
    int oproShown = 20;      ///< Opro: the top-performing strategies the proposal prompt shows ([code] show_num)
    int apeQueue = 5;        ///< Ape: the prompts kept after each pass ([code] ape.py batch_size)
    PromptStrategy origin = PromptStrategy::mtBenchOrigin();
    StrategySpace space = StrategySpace::full();

    /// Applies "key=value" settings (the CLI's --set): search, budget, population, mutations,
    /// exploit, temperature, ucb, seed, example_seed, origin, score_scale, greedy_batch, max_rounds,
    /// level (dataset|summary), unparsed (fallback|drop|reask). An unknown
    /// opro_shown, ape_queue. An unknown key or a bad value is an error naming the key.
    Result<void> set(const QString &key, const QString &value);
    /// Checks the ranges and that the origin lies in the space; errors name the setting.
    Result<void> validate() const;
    QVariantMap toVariant() const;
    static Result<SearchParams> fromVariant(const QVariant &value);
};

/// What the caller evaluates next.
struct SearchProposal
{
    PromptStrategy strategy;
    SearchMove move = SearchMove::Init;
    std::optional<PromptStrategy> parent; ///< the strategy it was derived from (none for the origin / random)
    int changedFactor = -1;               ///< the one factor changed from the parent (explore, mutate, …), else −1
    int step = 0;                         ///< 1-based number of this evaluation
};

/// An evaluated strategy with its validation Spearman and how it was reached.
struct SearchRecord
{
    SearchProposal proposal;
    double spearman = 0;
};

/// One exploration candidate of a parent: B(T) of Eq. 2 and its softmax probability (Eq. 3).
struct NeighbourScore
{
    PromptStrategy strategy;
    int factor = 0;
    int value = 0;
    double advantageGain = 0; ///< A[i][j] − A[i][c_i]
    double bonus = 0;         ///< λ·sqrt(ln t / M[i][j])
    double probability = 0;
};

/// The search as a step machine: next() names the strategy to evaluate, report() gives its
/// validation Spearman. The object never proposes a strategy twice. toVariant() after any call
/// holds the whole state (evaluated list, A, N, M, population, loop position, RNG); a search made
/// by fromVariant() continues exactly as the original would have. Not thread-safe; a plain value.
class HpssSearch
{
public:
    /// Errors when the parameters are out of range (see SearchParams::validate).
    static Result<HpssSearch> create(const SearchParams &params);
    static Result<HpssSearch> fromVariant(const QVariant &state);
    QVariantMap toVariant() const;

    /// The next strategy to evaluate; the same one again until it is reported. std::nullopt when
    /// the search is finished (budget spent, or nothing new can be reached: see stopReason()).
    std::optional<SearchProposal> next();
    /// The validation Spearman of the proposal next() returned. Errors when `strategy` is not
    /// that proposal or `spearman` is not finite (a caller decides what a constant score means).
    Result<void> report(const PromptStrategy &strategy, double spearman);

    bool finished() const { return m_phase == Phase::Done; }

    /// OPRO-style (HPSS paper App. F, [code] baseline/opro.py): after the initialisation every
    /// iteration asks the evaluator for a strategy. While this is true next() returns nothing and
    /// the caller asks the evaluator with oproHistory() in the proposal prompt, then hands its
    /// answer to acceptProposal(). budget − initialisation iterations in all; an iteration whose
    /// answer names no strategy of the space, or one already evaluated, is spent without an
    /// evaluation (as [code], whose re-evaluation of a repeat is a cache hit here).
    bool awaitingProposal() const;
    /// The proposal prompt's search history: the oproShown best entries so far (initialisation
    /// and each iteration's strategy, a repeat again), ascending by validation Spearman, each
    /// "Prompt: {'Part 0': i, …, 'Part 7': k}\nScore: ρ\n\n" with [code]'s part and value order.
    QString oproHistory() const;
    /// "[0,1,2,3,4]" …: the enabled values of [code]'s Part `part` (0–7), as the prompt lists them.
    QString oproRange(int part) const;
    /// Reads the evaluator's answer of the iteration: a JSON object {"Part 0": i, …} (the first
    /// '{' to the last '}'). A new strategy becomes the pending proposal; otherwise the iteration
    /// is logged as "repeat", "unreadable" or "outside" (a value the space disables). Errors only
    /// when no proposal is awaited.
    Result<void> acceptProposal(const QString &answer);
    /// Every iteration so far: {iteration, outcome, strategy, answer (its first 300 characters)}.
    const QVariantList &oproLog() const { return m_oproLog; }
    /// Iterations left to ask (0 for other searches).
    int oproIterationsLeft() const;
    /// [code]'s part i ("Part i") as our factor, and its value order as our value indices.
    static Factor oproFactor(int part);
    static const QVector<int> &oproValueOrder(int part);
    /// The evaluations a search of these parameters makes in all when nothing stops it before
    /// its end: the budget, or for Stepwise-Greedy at most 1 + Σ(enabled values − 1) (each
    /// factor's other values tried once). Fewer only when the reachable strategies run out
    /// first (stopReason() then says so).
    int plannedEvaluations() const;
    QString stopReason() const { return m_stopReason; }
    const SearchParams &params() const { return m_params; }
    const QVector<SearchRecord> &evaluated() const { return m_records; }
    /// The best evaluated strategy (the first of the highest Spearman); nullptr before any report.
    const SearchRecord *best() const;
    /// The current population (top-k, best first).
    const QVector<PromptStrategy> &population() const { return m_pop; }

    /// A[i][j], N[i][j], M[i][j] (values in Table 1 order; disabled values stay 0).
    double advantage(Factor f, int j) const { return m_a[size_t(f)].value(j); }
    double explorationCount(Factor f, int j) const { return m_n[size_t(f)].value(j); }
    double appearanceCount(Factor f, int j) const { return m_m[size_t(f)].value(j); }
    /// {factor: {value: A}} for the JSON report.
    QVariantMap advantagesVariant() const;
    /// The exploration table of a parent at the current search step (Eqs. 2–3).
    QVector<NeighbourScore> neighbourScores(const PromptStrategy &parent) const;

private:
    enum class Phase { Init, Search, Done };
    using Table = std::array<QVector<double>, kFactorCount>;

    HpssSearch() = default;
    void setUpInit();
    void finishInit();
    void stop(const QString &reason);
    std::optional<SearchProposal> advance();
    std::optional<SearchProposal> advancePopulation();
    std::optional<SearchProposal> advanceGreedy();
    std::optional<SearchProposal> advanceStepwise();
    std::optional<SearchProposal> advanceRandom();
    std::optional<SearchProposal> advanceOpro();
    void afterReport(const SearchRecord &record);
    SearchProposal propose(const PromptStrategy &s, SearchMove move, const std::optional<PromptStrategy> &parent,
                           int changedFactor) const;
    bool isEvaluated(const PromptStrategy &s) const { return m_scores.count(s) > 0; }
    int initCount() const;
    bool populationStalled() const;
    double r(const PromptStrategy &s) const { return m_scores.at(s) * m_params.scoreScale; }
    QVector<PromptStrategy> topK(const QVector<PromptStrategy> &candidates) const;
    std::optional<PromptStrategy> exploitationTarget() const;
    double uniform();
    quint64 below(quint64 n);
    const QVector<PromptStrategy> &allStrategies() const;

    SearchParams m_params;
    Phase m_phase = Phase::Init;
    QString m_stopReason;
    SeededRng m_rng;
    QVector<SearchRecord> m_records;
    std::map<PromptStrategy, double> m_scores; ///< E: strategy → Spearman (derived from m_records)
    std::optional<SearchProposal> m_pending;
    Table m_a, m_n, m_m;
    QVector<PromptStrategy> m_initList; ///< Init: origin + neighbours; Stepwise: the current factor's candidates
    int m_initIndex = 0;
    // Population loop (HPSS, Mutation)
    QVector<PromptStrategy> m_pop, m_newPop;
    int m_popIndex = 0, m_rep = 0, m_cost = 0, m_rounds = 0, m_roundAdded = 0;
    // Greedy: the batch of perturbations still to evaluate; Stepwise: the factor being optimised
    QVector<PromptStrategy> m_batch;
    std::optional<PromptStrategy> m_batchParent;
    int m_stepFactor = 0;
    QVariantList m_oproLog; ///< Opro: one entry per iteration
    mutable QVector<PromptStrategy> m_allCache;
};

} // namespace rubric::hpss
