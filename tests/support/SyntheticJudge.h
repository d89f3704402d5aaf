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
/// - HPSS: a scoring prompt ("Please act as an impartial judge …", "[[rating]]") gets "Rating:
///   [[n]]" with n = the output's human score (1–5) plus noise, mapped onto the prompt's scale and
///   rounded. The noise is 1.7·size·(0.85·d_item + 0.3·d_prompt), with a size that depends on the
///   factors in an additive way (hpssNoise): 1.2, −0.45 with reference = dialectic, −0.35 with
///   metrics = on, −0.35 with order = IET; d_item is a triangular draw on ±1 from a hash of the
///   output, d_prompt a uniform draw on ±0.5 from a hash of the whole prompt. The reference, metrics, criteria and
///   AutoCoT prompts get short fixed texts with a tag from the prompt's hash.
/// - G-Eval: the steps prompt gets three steps; a score prompt gets top_logprobs over 1..5
///   peaked at the rounded human score (probabilities 0.1/0.6/0.2/0.05/0.05 style).
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
    /// The distribution the G-Eval answer for `output` carries (value → probability).
    QHash<int, double> gevalDistribution(const QString &output) const;
    /// The noise size of an HPSS scoring prompt (the rule above).
    static double hpssNoise(const QString &prompt);
    /// The HPSS score of a scoring prompt; nullopt when its output or scale is not known.
    std::optional<int> hpssScore(const QString &prompt) const;

private:
    QString outputIn(const QString &prompt) const;

    QHash<QString, double> m_human;
};

} // namespace rubric::test
