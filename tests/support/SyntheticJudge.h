#pragma once

#include "FakeLlmServer.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace rubric::test {

/// The fixture of the method pipeline tests: a scripted judge for the fake server that knows
/// the human score of every output and which rubrics carry signal.
///
/// - Hypotheses whose text starts with "SIGNAL" score an output at its rounded human score;
///   "NOISE" hypotheses give a score that depends only on a hash of (hypothesis, output).
/// - A generation call proposes 5 hypotheses: 2 SIGNAL from the initial samples, 4 SIGNAL from a
///   wrong-sample bank (texts derived from a hash of the prompt, so a replay gets the same texts);
///   refinements keep each hypothesis's kind. Each states "a rubric from X to Y" with the ends of
///   the scale the generation prompt names ("when giving a score of one, two, or three").
/// - Redundancy checks answer "no" unless both hypotheses contain "TWIN".
/// - A literature paper to summarise gets "Summary: the paper finds … (tag)".
/// - HD-Eval: a decomposition prompt ("around N fine-grained evaluation critics") gets N children
///   per criterion it names, max(1, N/2) of them named "SIGNAL …" and the rest "NOISE …" (which
///   ones and their words derived from a hash of the parent's name, so a replay gets the same
///   tree), grouped under "## <parent>" when the prompt names several. A node-scoring prompt
///   ("Score (1-5):") gets hdevalNodeScore() first, then a sentence of reasoning.
/// - HPSS: a scoring prompt ("Please act as an impartial judge …", "[[rating]]") gets "Rating:
///   [[n]]" with n = the output's human score (1–5) plus noise, mapped onto the prompt's scale and
///   rounded. The noise is 1.7·size·(0.85·d_item + 0.3·d_prompt), with a size that depends on the
///   factors in an additive way (hpssNoise): 1.2, −0.45 with reference = dialectic, −0.35 with
///   metrics = on, −0.35 with order = IET; d_item is a triangular draw on ±1 from a hash of the
///   output, d_prompt a uniform draw on ±0.5 from a hash of the whole prompt. The reference, metrics, criteria and
///   AutoCoT prompts get short fixed texts with a tag from the prompt's hash.
/// - HPSS's pairwise prompt ("evaluate the quality of the two …", "[[A]]"): "[[A]]" or "[[B]]" for the
///   pair in its last two "[The Start of … A/B]" blocks: each output's graded value as an HPSS scoring
///   prompt of the same noise size draws it (the human score + 1.7·size·(0.85·d_item + 0.3·d_prompt),
///   d_prompt from the prompt's hash salted apart for A and B), unrounded; the higher one wins ("[[C]]"
///   when equal). The noise size reads the pairwise prompt as the pointwise one (dialectic, metrics, IET).
/// - HPSS's OPRO-style proposal prompt ("decide the selection strategy of different parts"): a
///   JSON strategy {"Part 0" : x, …} one part away from the best strategy of the history the
///   prompt shows, inside the ranges it lists and not in that history; which part and value from
///   a hash of the prompt and the request's seed (oproProposal: no state, so a replay gets the
///   same answer); the best itself (a repeat) when every such neighbour is shown.
/// - HPSS's APE-style resample prompt ("Generate a variation of the following instruction"): the
///   instruction after "Input: " with one graded sentence added before "Begin your evaluation" or
///   one removed (apeSentences(); which from a hash of the instruction and the request's seed);
///   one answer in 16 adds "Also weigh its {style}." instead, a placeholder the prompt cannot
///   fill (an unusable variation). In a scoring prompt each graded sentence adds its effect to the
///   noise size (−0.25 … +0.3; the size never below 0.3): the search can find better prompts.
/// - The direct score ("Answer with the score only."): "Score: n", n = the output's human score plus a
///   triangular draw on ±1 from hashes of the output, rounded and clamped to 1–5.
/// - G-Eval: the steps prompt gets three steps; a score prompt gets top_logprobs over 1..5
///   peaked at the rounded human score (probabilities 0.1/0.6/0.2/0.05/0.05 style).
/// - CheckEval answering (checkeval_answer): a "Qn: yes/no" line per question (checklistAnswer()):
///   a question with "SIGNAL" answers yes iff the output's human score is at least the first
///   number in the question (3 when none; "SIGNAL4.5": 4.5); "NOISE" (and any other question) answers from a hash of
///   (question, output); "SILENT" gets no line, ever; "SHY" gets no line in a first ask and "yes"
///   when asked again.
/// - CheckEval augmentation: diversification gives two new questions per key component plus a
///   copy of its first seed (a duplicate to drop); elaboration gives three sub-sub-questions
///   ("detail 1..3") per seed; the filter keeps every question but those with "detail 3" or
///   "DROPME" (JSON, exact texts). A filter prompt with "BADJSON" in it gets an answer that is not JSON.
class SyntheticJudge
{
public:
    /// output text → human score
    explicit SyntheticJudge(QHash<QString, double> humanByOutput);

    FakeAnswer answer(const QJsonObject &body) const;
    /// What a hypothesis scores on an output (the rule above), asked on the scale lo…hi: on the
    /// hypothesis's own rubric ("a rubric from one to five") when it states one, the human score
    /// mapped onto it.
    double hypothesisScore(const QString &hypothesis, const QString &output, int lo = 1, int hi = 5) const;
    /// HD-Eval's node score: a node named "SIGNAL…" scores the human score jittered by less than half
    /// a point (a hash of node and output) and rounded, clamped to 1–5, so every SIGNAL node is a
    /// different noisy view of it; "NOISE…" a hash of (node, output) in 1–5; any other node (the
    /// aspect itself, layer 1) the rounded human score moved by −1, 0 or +1 (a hash), clamped.
    double hdevalNodeScore(const QString &node, const QString &output) const;
    /// The distribution the G-Eval answer for `output` carries (value → probability).
    QHash<int, double> gevalDistribution(const QString &output) const;
    /// The CheckEval answer (1 yes, 0 no, -1 no line) to `question` on `output` in a first ask.
    int checklistAnswer(const QString &question, const QString &output) const;
    /// The noise size of an HPSS scoring prompt (the rule above).
    static double hpssNoise(const QString &prompt);
    /// The OPRO-style proposal (the rule above).
    static QString oproProposal(const QString &prompt, qint64 seed);
    /// APE-style's graded sentences and their effect on the noise size (the rule above).
    static const QVector<std::pair<QString, double>> &apeSentences();
    /// The APE-style variation of the instruction in a resample prompt (the rule above).
    static QString apeVariation(const QString &prompt, qint64 seed);
    /// The HPSS score of a scoring prompt; nullopt when its output or scale is not known. A sampled
    /// ask (temperature > 0; `sample` = how many times the prompt was sampled before) adds its own
    /// draw, uniform on ±0.5 × 0.6 × 1.7 × the noise size, so that the mean of samples (HPSS†) is
    /// a less noisy score.
    std::optional<int> hpssScore(const QString &prompt, int sample = -1) const;
    /// CloserLook's analyze-rate prompt (the criteria's "(lo-hi)" scale, the output after the last
    /// "Summary:" / "Response:"): the same draws as hpssScore with noise size 1.0, 0.9 when it shows
    /// human evaluation examples (CloserLook + ICL).
    std::optional<int> closerLookScore(const QString &prompt, int sample = -1) const;

    /// The pairwise verdict ('A', 'B', 'C') of a pairwise HPSS prompt; nullopt when its outputs are not known.
    std::optional<QChar> hpssVerdict(const QString &prompt) const;

private:
    QString outputIn(const QString &prompt) const;
    /// The graded value before rounding (gradedScore's draws; `promptSalt` 23 for a rating).
    double gradedValue(const QString &output, const QString &prompt, double size, quint64 promptSalt, int sample) const;
    /// The human score of `output` plus the size-scaled item, prompt and sample draws, on [lo, hi].
    int gradedScore(const QString &output, const QString &prompt, double size, int lo, int hi, int sample) const;
    FakeAnswer checkEval(const QString &prompt) const;

    QHash<QString, double> m_human;
    mutable QHash<quint64, int> m_samplesAsked; ///< sampled asks per HPSS prompt (hash)
};

} // namespace rubric::test
