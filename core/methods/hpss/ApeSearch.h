#pragma once

#include "util/Result.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QVariantMap>
#include <QVector>

#include <optional>

namespace rubric::hpss {

/// Python's str.format of a prompt text, for the APE-style baseline ([code] baseline/ape.py fills its
/// base prompt and every candidate prompt with str.format): "{name}" becomes values[name], "{{" and
/// "}}" a brace. Where Python raises (a name not in `values`, a positional "{}" or numbered "{0}"
/// field, a single "{" or "}") the result is an error naming the field and its position. A field
/// with an attribute, an index, a conversion or a format spec ("{a.b}", "{a[0]}", "{a!r}",
/// "{a:>3}") is refused as well, although Python would fill some of them: candidate prompts are
/// kept to plain fields.
Result<QString> pythonFormat(const QString &text, const QHash<QString, QString> &values);

/// The APE-style base prompt of a task ([code] baseline/ape_prompts/<task>.py, resources/prompts/
/// hpss_ape/<task>.txt) filled as ape.py fills it: base_prompt.format(aspect, criteria, min, max).
/// An unknown task is an error naming it.
Result<QString> apeBasePrompt(const QString &task, const QString &aspect, const QString &criteria, int min, int max);
/// The resample prompt for a candidate ([code] resample_prompt.format(prompt=…)).
Result<QString> apeResamplePrompt(const QString &prompt);
/// The keyword arguments [code]'s prompt_construct passes to str.format when ape.py evaluates a
/// prompt on an item: the item's source and output under the task's names (summeval: document,
/// summary; topical_chat: context, fact, response; sfhot / sfres: expression, sentence; hanna:
/// prompt, story), reference, criteria, example, metrics and autocot empty (ape.py passes none of
/// those files), the aspect, min (1, or 0 for groundedness) and max "3": the inference parser's
/// default string, whatever the task's scale (its "args.max == 3" compares it with an integer).
QHash<QString, QString> apeFields(const QString &task, const QString &aspect, const QString &source,
                                  const QString &output, const QString &fact, int min);

/// One prompt text of the APE-style search and how it came to be.
struct ApeCandidate
{
    QString prompt;                 ///< the prompt, its item fields ("{document}", …) unfilled
    int parent = -1;                ///< the candidate it is a variation of (−1: the base prompt)
    int step = 0;                   ///< [code]'s cost after its evaluation (0: the base prompt)
    std::optional<double> spearman; ///< its validation Spearman, once evaluated
};

/// The APE-style search of the HPSS paper's Table 2 as [code] baseline/ape.py runs it, a step
/// machine over text candidates:
/// 1. the base prompt is evaluated on the validation split (it costs nothing of the budget);
/// 2. a pass: each prompt of the queue, in queue order, is resampled once ("Generate a variation of
///    the following instruction …"); a variation that is usable is evaluated and costs 1, and the
///    pass ends early when the cost reaches the budget; an unusable one (its str.format raises) is
///    skipped and costs nothing, as [code]'s `except: continue`;
/// 3. after each pass the queue is sorted(queue + the pass's new prompts, by validation Spearman,
///    ascending, stable)[-queueSize:];
/// 4. when the cost reaches the budget the last prompt of the queue wins.
/// [code] can loop forever where every variation is unusable (each pass is free and, with its one
/// sampling seed, the same): here the search stops after `maxUnusable` unusable variations in all,
/// with its stop reason saying so. toVariant() holds the whole state; fromVariant() continues it.
class ApeSearch
{
public:
    enum class Action {
        Evaluate, ///< evaluate candidate pendingCandidate() on the validation split, then report()
        Resample, ///< ask for a variation of resampleParent(), then acceptVariation()
        Done      ///< finished: winner()
    };

    /// `budget`: the evaluations that cost ([code] --budget: 70); `queueSize`: [code]'s batch_size 5.
    static ApeSearch create(const QString &basePrompt, int budget, int queueSize, int maxUnusable);
    static Result<ApeSearch> fromVariant(const QVariant &state);
    QVariantMap toVariant() const;

    Action next() const;
    int pendingCandidate() const { return m_pending; }
    /// The prompt to vary (Resample): the queue's entry at the pass position.
    int resampleParent() const;
    /// How many variations were asked before this one (the request's seed counts it).
    int resampleAttempt() const { return int(m_log.size()); }
    /// The variation's text; `unusable` is why it cannot be used ("" when it can).
    Result<void> acceptVariation(const QString &text, const QString &unusable);
    /// The validation Spearman of the pending candidate.
    Result<void> report(int candidate, double spearman);

    const QVector<ApeCandidate> &candidates() const { return m_candidates; }
    const QVector<int> &queue() const { return m_queue; }
    /// The winner's index (the last of the queue) once Done, else −1.
    int winner() const;
    int cost() const { return m_cost; }
    int budget() const { return m_budget; }
    /// Evaluations that still cost, and unusable variations still allowed.
    int costLeft() const { return m_done ? 0 : m_budget - m_cost; }
    int unusableLeft() const { return m_maxUnusable - m_unusable; }
    QString stopReason() const { return m_stopReason; }
    /// Every variation asked: {attempt, parent, outcome ("evaluated" | "unusable"), candidate, reason, step}.
    const QVariantList &log() const { return m_log; }

private:
    ApeSearch() = default;
    void endPass();

    QVector<ApeCandidate> m_candidates;
    QVector<int> m_queue;   ///< candidate indices, ascending by Spearman after each pass
    QVector<int> m_passNew; ///< the current pass's new candidates
    int m_passPos = 0;      ///< the queue entry the pass resamples next
    int m_pending = 0;      ///< the candidate awaiting its evaluation (−1: none)
    int m_budget = 70;
    int m_queueSize = 5;
    int m_maxUnusable = 70;
    int m_cost = 0;
    int m_unusable = 0;
    bool m_done = false;
    QString m_stopReason;
    QVariantList m_log;
};

} // namespace rubric::hpss
