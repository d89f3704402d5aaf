#pragma once

#include "data/Aspect.h"
#include "data/Item.h"
#include "methods/hpss/HpssSearch.h"
#include "methods/hpss/PromptAssembly.h"
#include "methods/hpss/PromptStrategy.h"
#include "util/Result.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QVariantMap>
#include <QVector>

namespace rubric {
class Project;
}

namespace rubric::hpss {

/// The method's name (MethodInfo::name, a judge's method): what the HPSS tools (`rubric
/// show-prompt`, the HPSS pane) check a judge was built by.
inline constexpr char kMethodName[] = "hpss";

/// The evaluator's auxiliary generations of one HPSS judge (spec hpss.md §4.5), each made once:
/// a search makes all those its enabled factor values can need for the validation items before
/// its first evaluation (as [code] precomputes them), the winner's for the test items after it:
/// - `criteria`: the self-generated criteria of the aspect ("" = not made yet);
/// - `autocot`: the AutoCoT evaluation steps per "<scale>/<human|self>" (the steps made from the
///   human criteria also serve Criteria = none, as in [code]);
/// - `references`: the self-generated reference per item id (made once per distinct source);
/// - `metrics`: the item-specific questions per item id (once per distinct source: the target
///   text is not shown).
/// They live in the judge's HPSS state (see HpssState), where the studio and `rubric show-prompt`
/// read them; each entry's answer is in the judge cache as well.
struct Auxiliaries
{
    QString criteria;
    QMap<QString, QString> autocot;
    QHash<QString, QString> references;
    QHash<QString, QString> metrics;
    /// The user's edits (see HpssArtefacts.h): entry id ("criteria", "autocot:5/human",
    /// "reference:<item>", "metrics:<item>") → the evaluator's text it replaced ("" when the
    /// user wrote the entry before the evaluator made it). An edited entry is never made again.
    QMap<QString, QString> edited;

    /// The AutoCoT key of a strategy: "5/human", "10/self".
    static QString autocotKey(const PromptStrategy &s);
    QVariantMap toVariant() const;
    static Auxiliaries fromVariant(const QVariant &value);
};

/// The persisted state of an HPSS judge: project meta key "hpss.state.<judge>", a JSON object
/// {"params": SearchParams, "search": HpssSearch state, "evaluations": [{"step", "parse_failures",
/// "out_of_scale", "constant"}], "aux": Auxiliaries, "aux_generations": n}. Written after every
/// evaluation and every auxiliary generation, so a killed run resumes exactly where it was.
/// "stale_steps": [step, …] (set by an auxiliary edit, hpss::artefacts::edit) names the evaluated
/// strategies that used an edited text: the next run searches again from the start, and every
/// answer whose prompt did not change comes from the judge cache.
namespace state {
QString metaKey(const QString &judge);
/// The stored state, or an empty map when the judge has none. A state that is not JSON is an
/// error naming the key.
Result<QVariantMap> load(const Project &project, const QString &judge);
Result<void> save(Project &project, const QString &judge, const QVariantMap &state);
} // namespace state

/// Fills PromptInputs for a strategy and an item from the project's texts and the auxiliaries:
/// the task wording, the aspect, the human criteria (the aspect definition with its anchors on the
/// strategy's scale), the in-context examples (one per integer rating, ascending, as the official
/// example files; the item itself never among them) and the auxiliary texts the strategy needs.
class PromptBuilder
{
public:
    /// `validation`: the labelled items the examples come from, with `human` their scores.
    /// `exampleSeed` draws which item stands for a rating; it is not the search's seed, so three
    /// search seeds compare searches over the same examples (the paper's "three seeds").
    PromptBuilder(TaskWording task, Aspect aspect, QVector<Item> validation, QHash<QString, double> human,
                  quint64 exampleSeed);

    /// The example set of size n (indices into the validation items), as the official example files
    /// hold it: n target ratings spread evenly over the integer ratings of the aspect's range
    /// (index round(j·(V−1)/(n−1)), halves to even: 1-5 humans and n = 3 give 1, 3, 5; n = 5 every
    /// rating; n = 10 every rating twice; 1-3 humans and n = 5 give 1, 1, 2, 3, 3), each filled by a
    /// distinct validation item whose human score is that integer (where none is, one whose score
    /// rounds to it), drawn with the example seed; a rating no item has is left out. Ordered by
    /// ascending rating.
    QVector<int> exampleSet(int n) const;
    /// The same for scoring `itemId`: the item is never its own example (the next item of its
    /// rating stands in for it).
    QVector<int> exampleSetFor(int n, const QString &itemId) const;
    /// The integer target ratings exampleSet(n) draws for (before leaving out unmatched ones): n
    /// positions spread evenly over the integer ratings, rounded half to even; on an even number of
    /// ratings the middle position of an odd n is left out (0-1: 0 1 for three, 0 0 1 1 for five),
    /// as the official example files show.
    static QVector<int> exampleTargets(double hMin, double hMax, int n);
    /// The scale's minimum in the prompt: 0 where the human range starts at 0 ([code]: Topical-Chat
    /// groundedness), else 1.
    int scaleMin() const;
    /// The inputs for `item` under `strategy`. An auxiliary text the strategy needs and `aux`
    /// lacks is an error naming it (and the item).
    Result<PromptInputs> inputs(const PromptStrategy &strategy, const Item &item, const Auxiliaries &aux) const;
    /// The rendered prompt (inputs + renderPrompt).
    Result<RenderedPrompt> render(const PromptStrategy &strategy, const Item &item, const Auxiliaries &aux) const;

    const TaskWording &task() const { return m_task; }
    const Aspect &aspect() const { return m_aspect; }
    const QVector<Item> &validation() const { return m_validation; }

private:
    TaskWording m_task;
    Aspect m_aspect;
    QVector<Item> m_validation;
    QHash<QString, double> m_human;
    quint64 m_exampleSeed = 1;
    /// The validation items per rating in draw order (made on first use).
    const QMap<int, QVector<int>> &candidates() const;
    mutable QMap<int, QVector<int>> m_candidates;
    mutable bool m_candidatesMade = false;
};

/// The fact of a Topical-Chat item: context key "fact", or "knowledge" in projects imported with
/// the Topical-Chat preset before issue 32 (the preset now writes "fact").
QString itemFact(const Item &item);

/// Which auxiliary texts a strategy (or a space of strategies) needs for a set of items and lacks.
struct MissingAux
{
    bool criteria = false;
    QStringList autocot;    ///< the AutoCoT keys still to make ("5/human", "10/self")
    QStringList references; ///< item ids
    QStringList metrics;    ///< item ids
    bool empty() const { return !criteria && autocot.isEmpty() && references.isEmpty() && metrics.isEmpty(); }
};
MissingAux missingAux(const PromptStrategy &strategy, const QVector<Item> &items, const Auxiliaries &aux);
/// What any strategy of `space` can need for `items` and `aux` lacks: the criteria when
/// criteria:self is enabled, the AutoCoT steps of every enabled scale × criteria variant ("human"
/// when criteria:human or none is enabled, "self" when criteria:self is) when autocot:on is, a
/// reference per item when reference:self is, questions per item when metrics:on is. A disabled
/// value needs nothing.
MissingAux missingAux(const StrategySpace &space, const QVector<Item> &items, const Auxiliaries &aux);

/// Spearman of the strategy's scores with the human scores; a constant score list (or fewer than
/// 3 items) has no rank correlation and counts as 0 in the search (stated in the run summary).
double searchSpearman(const QVector<double> &scores, const QVector<double> &human, bool *constant = nullptr);
/// The same at a level: Dataset is searchSpearman; Summary takes the Spearman of each group (the
/// items' source, `groups` parallel to the scores) and averages those that are defined ([code]
/// correlation_summary; paper Eq. 8). No defined group counts as constant (0).
double levelSpearman(const QVector<double> &scores, const QVector<double> &human, const QStringList &groups,
                     CorrelationLevel level, bool *constant = nullptr);
/// The task's level: summary for SummEval (paper Eq. 8), dataset for the others.
CorrelationLevel taskLevel(const TaskWording &task);

} // namespace rubric::hpss
