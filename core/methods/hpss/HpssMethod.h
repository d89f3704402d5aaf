#pragma once

#include "methods/Method.h"
#include "methods/hpss/ApeSearch.h"
#include "methods/hpss/CloserLook.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "methods/hpss/HpssSearch.h"
#include "methods/hpss/PairwiseData.h"

#include <QSet>

#include <functional>
#include <memory>
#include <optional>

namespace rubric {

/// HPSS (Wen et al. 2025, spec hpss.md): searches the 12,960 prompting strategies for the judge
/// prompt whose scores agree best (Spearman) with the human scores on the validation items (the
/// train split with human scores), within a budget of evaluated strategies, then scores the
/// winner once on the run's items (the test split).
///
/// Phases: "auxiliary" (before the search: the evaluator's own references and metrics questions
/// per distinct validation source, criteria and AutoCoT steps per scale × criteria variant, each
/// only where an enabled factor value can use it and made once), "search" (one call per
/// validation item and strategy, streamed), "evaluate" (the winner on the run's items, after the
/// references / questions it needs for test sources the validation split lacks).
///
/// Estimate: the auxiliary and search phases are exact: the auxiliary requests and the search
/// are replayed through the judge cache (a cached evaluation's Spearman is computed from its
/// answers and the search goes on as the run's will), then each remaining evaluation costs a
/// call per validation item, up to HpssSearch::plannedEvaluations; this holds as long as the
/// search is not stopped before those (stop reason) and no answer has to be asked again.
/// "evaluate" is a range until the winner is known (0 up to 2 generations per test source the
/// validation split lacks, depending on the winner's reference and metrics values), then exact.
///
/// State: the search (HpssSearch's JSON), the auxiliaries and per-evaluation notes are written
/// to the project meta key "hpss.state.<judge>" (hpss::state) after every evaluation and every
/// auxiliary generation. A run of the same judge with the same search parameters continues from
/// it: the search goes on as if never stopped; answers already given come from the judge cache.
/// Other parameters start a new search (the old state is replaced).
///
/// A strategy whose scores are constant on the validation items has no rank correlation: it
/// counts as Spearman 0 (the summary lists how many). Example values larger than the validation
/// split are disabled in the space (no prompt could show that many distinct examples).
///
/// The rubric version stores the winner: the root aspect criterion (stats: "strategy",
/// "search", "validation_spearman", "test_spearman", "gap_warning") and one `criterion` node per
/// factor ("scale: 5", origin {"method": "hpss", "factor", "value"}).
///
/// Parameters (--set): those of hpss::SearchParams::set, plus task (summeval|topical_chat|sf|
/// hanna: the wording, default summeval), max_tokens (the scoring answers' limit, 4096 as
/// [code]) and gap_warning (see gapWarning). Decoding is greedy (temperature 0).
///
/// Transfer (the paper's Table 4): `strategy=scale:5,examples:3,…` or `transfer_from=JUDGE` (the
/// latest winner of an HPSS judge; of the project at `transfer_project=PATH` when given) runs no
/// search: the strategy's auxiliaries are made for the run's items as needed and the strategy is
/// scored on the test split. The rubric's root stats name it ("transfer_from") and carry no
/// "search". The train split is needed only for the in-context examples the strategy shows.
///
/// Auxiliary edits (hpss::artefacts) are the user's: a run never makes an edited text again, a
/// replaced judge (--replace) keeps them, and a state whose "stale_steps" an edit set searches
/// again from the start (the unchanged prompts' answers come from the judge cache).
class HpssMethod : public Method
{
    Q_OBJECT
public:
    /// The phases of a run, in run order (MethodInfo::phases): the auxiliary texts, the search on
    /// the validation split, the winner on the items to score.
    static inline const QString kPhaseAuxiliary = QStringLiteral("auxiliary");
    static inline const QString kPhaseSearch = QStringLiteral("search");
    static inline const QString kPhaseEvaluate = QStringLiteral("evaluate");

    explicit HpssMethod(RunContext *context, QObject *parent = nullptr);
    ~HpssMethod() override;

    Result<RunEstimate> estimate() override;
    /// The parameters (a bad setting, a transfer source that cannot be read) before the judge exists.
    Result<void> check() override;
    void start() override;

    static constexpr const char *rootKey = "aspect";
    /// Validation Spearman minus test Spearman above this is reported as a warning (the search
    /// may have fitted a small validation split); --set gap_warning=X changes it for a run.
    static constexpr double gapWarning = 0.10;

private:
    Result<void> readParams();
    /// Resolves transfer_from / transfer_project into m_transfer.
    Result<void> readTransfer(const QString &fromJudge, const QString &fromProject);
    /// Restores the stored state when its parameters equal the run's, else a fresh search.
    /// `starting`: called from start(), where the judge's first attempt ignores a stored state.
    Result<void> restore(bool starting);
    Result<void> persist();
    void step();
    /// What is still missing of the auxiliary texts a phase needs, given those made so far.
    using AuxNeed = std::function<hpss::MissingAux(const hpss::Auxiliaries &)>;
    /// Makes what `need` says is missing for `items` under `phase`, round by round (the self
    /// AutoCoT waits for the self criteria), persisting after each round, then calls `then`.
    /// A reference / questions are asked once per distinct source. Fails the run on an error.
    void makeAux(AuxNeed need, const QVector<Item> &items, const QString &phase, std::function<void()> then,
                 int round = 0);
    /// What the search's auxiliary phase makes: every text the enabled values can need on the
    /// validation items (missingAux(space, …)); only the origin's when the search evaluates just
    /// it (budget 1: the studio's "Send to test split").
    hpss::MissingAux searchNeeds(const hpss::Auxiliaries &aux) const;
    /// makeAux's calls replayed on `aux` through the judge cache (cached answers fill `aux`, and
    /// count in `cached`): the requests it would send.
    Result<int> auxCalls(const AuxNeed &need, const QVector<Item> &items, hpss::Auxiliaries *aux, int *cached);
    /// Gives `items` the reference / questions another item of the same source has.
    void shareBySource(hpss::Auxiliaries &aux, const QVector<Item> &items) const;
    /// The requests for what `m` lacks ("kind:arg" labels in `what`).
    Result<QVector<JudgeRequest>> auxRequests(const hpss::MissingAux &m, const hpss::Auxiliaries &aux,
                                              QStringList *what) const;
    Result<JudgeRequest> auxRequest(const QString &templ, const QVariantMap &extra) const;
    Result<JudgeRequest> scoreRequest(const hpss::PromptStrategy &strategy, const Item &item) const;
    /// OPRO-style search: the proposal request of the search's next iteration (hpss_opro, the
    /// evaluator at temperature 1 as [code]; its seed is the search's seed × 1000 + the iteration).
    /// CloserLook(+ICL): the fixed prompt for an item (HPSS's system message and one user turn).
    Result<JudgeRequest> fixedRequest(const Item &item) const;
    Result<JudgeRequest> oproRequest() const;
    /// Asks it, hands the answer to the search and goes on with step().
    void askProposal();
    void evaluate(const hpss::SearchProposal &proposal);
    /// One validation evaluation's answers (a strategy's or an APE candidate's), item by item.
    struct ValidationTally
    {
        QVector<double> scores; ///< NaN: refused or left out
        int parseFailures = 0, outOfScale = 0, refused = 0;
    };
    /// Records an item's answer read on the scale [min, max] (an unparsed one under the run's policy).
    void tallyAnswer(ValidationTally &tally, int unit, const JudgeResponse &r, int min, int max) const;
    /// The tallied scores' Spearman with the validation items' human scores at the run's level.
    double tallySpearman(const ValidationTally &tally, bool *constant) const;
    void scoreWinner();
    void finish();
    /// HPSS†: records the winner's samples of one item and their mean (the item's score).
    void recordSamples(const hpss::PromptStrategy &winner, const Item &item, const QVector<JudgeResponse> &rs);
    bool readable(const JudgeResponse &r) const;
    /// What an unparsed answer counts as under the run's policy (2.51, or NaN: left out).
    double unparsedScore() const;

    // APE-style search (HpssMethodApe.cpp; [code] baseline/ape.py): free-text candidates.
    /// The task's base prompt (ape_prompts/<task>.py) filled with the aspect, its human criteria
    /// on the task's scale, the minimum and the maximum.
    Result<QString> apeBasePrompt() const;
    /// The fields [code]'s prompt_construct passes to str.format for an item (see HpssMethodApe.cpp).
    QHash<QString, QString> apeFields(const Item &item) const;
    /// Why a candidate prompt cannot be used ([code]: its str.format raises), "" when it can.
    QString apeUnusable(const QString &prompt) const;
    Result<JudgeRequest> apeScoreRequest(const QString &prompt, const Item &item) const;
    /// The variation request of the search's next resample (resample_prompt.py, temperature 1).
    Result<JudgeRequest> apeResampleRequest(const hpss::ApeSearch &search) const;
    void stepApe();
    void askVariation();
    void evaluateApe(int candidate);
    Result<RunEstimate> estimateApe();
    /// The rubric's root stats and the run result's entries of a finished APE-style search.
    void apeStats(QVariantMap *stats, QVariantMap *result) const;

    // The pairwise setting (HpssMethodPairwise.cpp; paper App. I, E.2): --set setting=pairwise.
    /// Reads setting / pairs_per_group / pair_seed: true when `key` was one of them.
    Result<bool> readPairwiseSetting(const QString &key, const QString &value);
    /// Once the validation split is known: its pairs, the example values they cannot fill and the
    /// settings the pairwise setting cannot run with.
    Result<void> preparePairwise(const QVector<Item> &validation);
    /// The pairwise options as the state keeps them ({} for the pointwise setting): another value
    /// starts a new search.
    QVariantMap pairwiseVariant() const;
    /// The test pairs of the run's items: no item of the validation split in them.
    QVector<hpss::PreferencePair> testPairsOf(const QVector<Item> &targets) const;
    /// The request comparing a pair under a strategy (renderPairwisePrompt; free text, temperature 0).
    Result<JudgeRequest> pairRequest(const hpss::PromptStrategy &strategy, const hpss::PreferencePair &pair) const;
    /// Whether a pairwise answer can be read (only the reask policy asks an unreadable one again).
    bool readablePair(const JudgeResponse &r) const;
    void evaluatePairwise(const hpss::SearchProposal &proposal);
    void scoreWinnerPairwise(const hpss::PromptStrategy &winner, const QVector<Item> &targets);
    /// The accuracy of a strategy on the validation pairs from the judge cache alone (the estimate's
    /// replay); nullopt when an answer is missing (or would be asked again).
    Result<std::optional<double>> cachedPairAccuracy(const hpss::PromptStrategy &strategy);
    /// The verdicts on the test pairs as the rubric stores them (no per-item scores: a pair has none).
    QVariantList testVerdictList() const;

    bool m_pairwise = false;
    hpss::PairOptions m_pairOptions;
    QVector<hpss::PreferencePair> m_validationPairs;
    QVector<hpss::PreferencePair> m_testPairs;
    QVector<hpss::Verdict> m_testVerdicts; ///< parallel to m_testPairs (Unparsed for a refused request)
    QStringList m_testAnswerKeys;          ///< the judge cache key of each test pair's answer

    hpss::SearchParams m_params;
    std::optional<hpss::ApeSearch> m_ape;
    QString m_apeBase;
    int m_apeMin = 1, m_apeMax = 5;
    QString m_taskName = QStringLiteral("summeval");
    int m_maxTokens = 4096;
    int m_samples = 1;                ///< --set samples: answers per test item (HPSS†: 20), their mean scores it
    double m_sampleTemperature = 1.0; ///< their temperature
    double m_gapWarning = gapWarning; ///< --set gap_warning: the validation − test gap that warns
    std::unique_ptr<hpss::PromptBuilder> m_builder;
    std::optional<hpss::HpssSearch> m_search;
    std::optional<hpss::PromptStrategy> m_transfer; ///< a transfer's strategy (no search)
    QString m_transferFrom;                         ///< where it came from: "judge J", "judge J of P", "strategy"
    std::optional<hpss::CloserLookPrompt> m_fixed;  ///< --set prompt: a fixed prompt text, no search
    hpss::Auxiliaries m_aux;
    int m_auxGenerations = 0;
    QVariantList m_evaluations; ///< per evaluation: step, parse_failures, out_of_scale, constant
    QStringList m_notes;        ///< what the summary says about the space (disabled example values)
    QVector<double> m_validationHuman;
    QStringList m_validationGroups; ///< each validation item's source (summary-level Spearman)
    QSet<QString> m_validationIds;  ///< never in the test correlation
    // the winner on the test split
    QVector<QString> m_testIds;
    QVector<double> m_testScores, m_testHuman;
    QStringList m_testGroups;
    int m_scored = 0, m_missing = 0, m_failed = 0;
};

} // namespace rubric
