#pragma once

#include "methods/hypoeval/HypoEvalParams.h"
#include "util/Shuffle.h"

#include <QHash>
#include <QMap>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <limits>

namespace rubric {

/// One hypothesis of the bank with its bookkeeping (specs/hypoeval.md §2.2–2.5).
struct HypoHypothesis
{
    QString key; ///< "h1", "h2" … in order of creation
    QString text;
    QString source;             ///< "init", "wrong-bank" or "literature"
    QVariantMap origin;         ///< event, step, refinement chain
    QMap<QString, double> seen; ///< item id → exploitation term L on that item (ordered: sums are reproducible)
    QVariantList rewardHistory; ///< {"t", "reward", "exploit", "explore", "n"} after each update
    double reward = 0;
    double trainPearson = std::numeric_limits<double>::quiet_NaN();
    double trainSpearman = std::numeric_limits<double>::quiet_NaN();
    bool inBank = true;    ///< still in the bank (false: dropped by ranking or redundancy)
    bool selected = false; ///< one of the H_ev
    QString droppedBecause;
};

/// A unit of work the algorithm asks its driver to do (one judge call).
struct HypoTask
{
    enum class Kind { Generate, RefineData, RefineLiterature, Score, Redundancy };
    Kind kind = Kind::Score;
    int id = 0;
    QString phase;               ///< "init", "init-score", "update", "wrong-generate", "refine", "wrong-score",
                                 ///< "literature-only", "redundancy", "selection"
    QStringList items;           ///< observations (Generate/RefineData) — item ids with human scores
    QStringList hypotheses;      ///< hypothesis texts (Refine*, Redundancy: two)
    QString hypothesisKey;       ///< Score: which hypothesis
    QStringList keys;            ///< Redundancy: the two hypotheses' keys
    QString itemId;              ///< Score: which item
    int count = 0;               ///< Generate/Refine: how many hypotheses to ask for
    bool withLiterature = false; ///< Generate: include the literature
    bool withData = true;        ///< Generate: include observations
};

/// The answer to one task. `ok` false stops the algorithm (the run is resumable).
struct HypoAnswer
{
    int taskId = 0;
    QStringList hypotheses;                                  ///< Generate/Refine: parsed hypotheses
    double score = std::numeric_limits<double>::quiet_NaN(); ///< Score: NaN when unparsed
    bool redundant = false;                                  ///< Redundancy
};

/// Bounds on the judge calls a HypoEval preparation has still to make, from where it stands
/// (specs/hypoeval.md §2.8). How many calls the preparation makes depends on the answers: which
/// samples are predicted wrongly (refinement events, a larger bank), how many hypotheses each
/// generation returns, which pairs are redundant. The bounds count distinct requests, i.e. what
/// is sent on a cold cache: a selection score of a hypothesis on an item it was already scored
/// on is a cache hit. They assume the judge never returns word for word a hypothesis it returned
/// before and that the train items' texts differ (identical prompts are sent once), and that the
/// preparation does not fail. Exact (min == max) from the selection on.
struct HypoCallBounds
{
    struct Range
    {
        int min = 0;
        int max = 0;
    };
    QMap<QString, Range> phases; ///< phase → calls not yet handed out
    int bankMin = 0;             ///< size of the final bank, i.e. the hypotheses that can be selected
    int bankMax = 0;

    int min() const;
    int max() const;
};

/// HypoEval's hypothesis generation and selection as a deterministic state machine: it hands
/// out batches of independent tasks (nextBatch), takes their answers (deliver) and moves on.
/// Stage A initialization, B online update with the UCB reward, wrong-sample bank and
/// alternating data/literature refinement, C literature-only bank, redundancy removal and
/// union, D selection of the H_ev hypotheses by training Pearson. Evaluation (stage E) is
/// done by the method driver with the selected hypotheses.
///
/// Deterministic for a given seed and answers, so a run replayed through the judge cache
/// asks exactly the same calls. Not thread-safe; a plain value object.
class HypoEvalAlgorithm
{
public:
    struct Sample
    {
        QString itemId;
        double score = 0;
    };

    HypoEvalAlgorithm(HypoEvalParams params, QVector<Sample> train, bool hasLiterature);

    /// The next batch of tasks; empty when finished() or failed().
    QVector<HypoTask> nextBatch();
    /// Answers for every task of the last batch (any order).
    void deliver(const QVector<HypoAnswer> &answers);

    bool finished() const { return m_phase == Phase::Done; }
    bool failed() const { return m_phase == Phase::Failed; }
    QString error() const { return m_error; }
    QString phase() const;

    const QVector<HypoHypothesis> &hypotheses() const { return m_hyps; }
    /// Keys of the selected hypotheses, best training Pearson first.
    QStringList selected() const;
    /// Bounds on the calls not yet handed out by nextBatch() (call it between batches).
    HypoCallBounds remaining() const;
    /// Calls asked per phase so far.
    QHash<QString, int> callsPerPhase() const { return m_calls; }
    /// Human-readable log of events (bank fills, refinements, drops, selection).
    const QVariantList &log() const { return m_log; }
    const HypoEvalParams &params() const { return m_p; }
    const QVector<Sample> &initSamples() const { return m_init; }
    const QVector<Sample> &updateSamples() const { return m_update; }

    /// L = a − b·(s − ŝ)², the per-sample exploitation term.
    static double exploitation(const HypoEvalParams &p, double human, double predicted);

private:
    enum class Phase {
        Init,
        InitScore,
        Update,
        WrongGenerate,
        Refine,
        WrongScore,
        LiteratureOnly,
        RedundancyWithin,
        RedundancyAcross,
        Selection,
        Done,
        Failed
    };

    HypoTask makeTask(HypoTask::Kind kind, const QString &phase);
    QString addHypothesis(const QString &text, const QString &source, const QVariantMap &origin);
    HypoHypothesis *find(const QString &key);
    void updateReward(HypoHypothesis &h, int t, int logCount, int n);
    QStringList bank() const;
    QStringList topK() const;
    void advanceAfterUpdate();
    void startRefinement();
    void mergeWrongBank();
    void startUnion();
    static QSet<QPair<QString, QString>> redundantPairs(const QVector<HypoTask> &batch,
                                                        const QHash<int, HypoAnswer> &answers);
    void finishRedundancyWithin(const QVector<HypoTask> &batch, const QHash<int, HypoAnswer> &answers);
    void finishRedundancyAcross(const QVector<HypoTask> &batch, const QHash<int, HypoAnswer> &answers);
    /// A hypothesis text with runs of white space made one space and the case folded: equal ones
    /// are the same hypothesis.
    static QString normalisedText(const QString &text);
    QStringList dedup(const QStringList &keys, const QSet<QPair<QString, QString>> &redundantPairs, const QString &why);
    void startSelection();
    void finishSelection(const QVector<HypoTask> &batch, const QHash<int, HypoAnswer> &answers);
    void fail(const QString &why);
    double humanScore(const QString &itemId) const;

    HypoEvalParams m_p;
    QVector<Sample> m_train, m_init, m_update;
    bool m_hasLiterature = false;
    SeededRng m_rng; ///< the project's generator (util/Shuffle.h): the same draws on every platform
    Phase m_phase = Phase::Init;
    QString m_error;
    QVector<HypoHypothesis> m_hyps;
    QVector<HypoTask> m_batch;
    int m_nextTask = 1;
    int m_t = 0;                  ///< update step (1-based while running)
    QStringList m_wrongBank;      ///< W (item ids)
    QStringList m_eventItems;     ///< W frozen for the running refinement event
    QStringList m_chainTexts;     ///< H_W^i texts
    QVector<QStringList> m_chain; ///< H_W^0 … H_W^i
    int m_refineStep = 0;
    int m_event = 0;
    QStringList m_topAtEvent;
    QStringList m_dataBank, m_litBank; ///< during the union
    QHash<QString, int> m_calls;
    QHash<QString, QSet<QString>> m_scored; ///< hypothesis key → items it was scored on (cached answers)
    QVariantList m_log;
};

} // namespace rubric
