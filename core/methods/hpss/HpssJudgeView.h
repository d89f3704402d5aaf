#pragma once

#include "data/Item.h"
#include "methods/RunTypes.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "methods/hpss/HpssSearch.h"
#include "methods/hpss/PairwiseData.h"
#include "util/Result.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QVariantList>

#include <functional>
#include <memory>

namespace rubric {
class Project;
}

namespace rubric::hpss {

/// What an HPSS judge sent for one evaluated strategy: the calls of its validation prompts in the
/// judge's ledger (answers found in the cache send none) and what they cost.
struct StrategySpend
{
    int calls = 0;
    double cost = 0;
};

/// Reads the run configuration stored for a judge (RunConfig::load, which lives above the
/// methods: the studio and the tools pass it in).
using SpecLoader = std::function<Result<RunSpec>(Project *project, const QString &judge)>;

/// A read-only view of an HPSS judge for the studio and the tools: its persisted search state
/// (project meta "hpss.state.<judge>", see hpss::state), its run configuration, and a
/// PromptBuilder set up as the run's (the task wording, the aspect, the validation split: the
/// train items with a human score in import order, the search's seed), so any strategy renders
/// for any item with the judge's auxiliary texts. A plain value made by load(); it does not
/// follow later writes (load again to see a running search's progress).
class JudgeView
{
public:
    /// Errors (naming the judge or the key) when the judge does not exist, was not built by
    /// hpss, has no stored state yet, or its state or configuration (read by `loadSpec`) cannot be read.
    static Result<JudgeView> load(Project *project, const QString &judge, const SpecLoader &loadSpec);
    /// What an HPSS judge that ran no strategy search is, for a view that has nothing to show of
    /// it: {"kind": "prompt" (a fixed prompt: CloserLook), "transfer" (a transferred strategy) or
    /// "ape" (the APE-style search over prompt texts), "name" (the prompt's name, the strategy or
    /// where it came from), "file" (a fixed prompt's file), "evaluated", "cost" (APE-style),
    /// "validation_spearman", "test_spearman" (invalid when not known yet)}. An empty map for a
    /// judge with a strategy search (or no state yet); an error when its state cannot be read.
    static Result<QVariantMap> withoutSearch(Project *project, const QString &judge);

    const QString &judge() const { return m_judge; }
    const RunSpec &spec() const { return m_spec; }
    const HpssSearch &search() const { return *m_search; }
    const Auxiliaries &aux() const { return m_aux; }
    /// Per evaluation: {"step", "parse_failures", "out_of_scale", "refused", "constant"}.
    const QVariantList &evaluations() const { return m_evaluations; }
    const PromptBuilder &builder() const { return *m_builder; }
    /// Every item of the project, in import order (any of them renders).
    const QVector<Item> &items() const { return m_itemList; }
    /// The pairwise setting (setting=pairwise): its figures are accuracies on pairs, not Spearman.
    bool isPairwise() const { return !m_pairwise.isEmpty(); }
    /// {"pairs_per_group", "pair_seed", "validation_pairs", "metric": "accuracy"} from the state,
    /// and "validation_accuracy", "validation_n", "test_accuracy", "test_n" once the rubric has them;
    /// empty for the pointwise setting.
    const QVariantMap &pairwise() const { return m_pairwise; }
    /// A pairwise judge's pairs as its run built them: the validation pairs, then the test pairs of
    /// the test split's items (empty for the pointwise setting). pairKey() names each for render().
    const QVector<PreferencePair> &pairs() const { return m_pairs; }
    int validationPairCount() const { return m_validationPairCount; }
    static QString pairKey(const PreferencePair &pair) { return pair.a + QStringLiteral(" vs ") + pair.b; }
    /// The number of evaluations that form the initialisation (origin + its one-factor neighbours
    /// in the space; 0 for the baselines that have none).
    int initCount() const;
    /// The Spearman of the first evaluated strategy (the origin); NaN before any.
    double originSpearman() const;

    /// The prompt of `strategy` for item `itemId` (a pairwise judge: for the pair named pairKey());
    /// errors name the item or the auxiliary text the strategy needs and the judge has not made yet.
    Result<RenderedPrompt> render(const PromptStrategy &strategy, const QString &itemId) const;

    /// The validation calls and cost of every evaluated strategy, keyed by PromptStrategy::format():
    /// the judge's ledger rows whose request key is one of the strategy's validation prompts (under
    /// the judge's evaluator, temperature 0 and its max_tokens). A strategy whose prompts cannot be
    /// rendered any more is left out. The strategies in `known` are skipped (a caller that keeps
    /// what it read before: an evaluation's calls do not change later). An error when the ledger
    /// cannot be read. Empty for a pairwise judge (its prompts are per pair: not rendered here).
    Result<QHash<QString, StrategySpend>> spend(Project *project, const QSet<QString> &known = {}) const;

private:
    JudgeView() = default;

    QString m_judge;
    RunSpec m_spec;
    std::shared_ptr<HpssSearch> m_search;
    std::shared_ptr<PromptBuilder> m_builder;
    Auxiliaries m_aux;
    QVariantList m_evaluations;
    QVariantMap m_pairwise;
    QVector<PreferencePair> m_pairs;
    int m_validationPairCount = 0;
    QVector<Item> m_itemList;
    QHash<QString, int> m_items; ///< id → index into m_itemList
    int m_maxTokens = 4096;
};

/// The run that scores `strategy` once on the test split, with the judge's evaluator, task, seed
/// and auxiliary prompts: a new HPSS judge "<judge>-test-<n>" (the first free n) whose search is
/// that strategy alone (search=random, budget=1, origin=strategy). Its validation prompts and
/// auxiliary requests are the judge's, so they come from the judge cache; only the test items not
/// asked before are sent. Errors when the judge's configuration (read by `loadSpec`) cannot be read.
Result<RunSpec> testSplitSpec(Project *project, const QString &judge, const PromptStrategy &strategy,
                              const SpecLoader &loadSpec);

} // namespace rubric::hpss
