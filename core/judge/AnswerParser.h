#pragma once

#include "judge/JudgeTypes.h"

#include <QMap>
#include <QString>
#include <QVariantMap>

namespace rubric {

/// What an answer said, and how it was read.
struct ParsedAnswer
{
    enum class Method {
        None,       ///< nothing could be read (see `error`; `raw` keeps the text)
        Number,     ///< a plain number
        Rating,     ///< "Rating: [[n]]"
        FinalScore, ///< "Final score: n"
        YesNo,      ///< "Q1: yes" lists → `answers`
        Json,       ///< a JSON object → `json` (and `score` when it has one)
        Logprobs,   ///< probability-weighted over the scale's tokens (G-Eval)
        SampleMean, ///< mean of the scores of n sampled choices (no logprobs came back)
    };

    bool ok = false;
    Method method = Method::None;
    double score = qQNaN();
    QMap<QString, bool> answers; ///< question id ("Q1") → yes
    QVariantMap json;
    QMap<int, double> distribution; ///< scale value → renormalised probability (Logprobs)
    int samplesUsed = 0;            ///< SampleMean: how many choices gave a score
    QString raw;
    QString error;

    bool usedLogprobs() const { return method == Method::Logprobs; }
};

/// Reads scores and checklists out of judge answers. Pure functions, any thread.
class AnswerParser
{
public:
    /// A score: `Rating: [[n]]`, then `Final score: n`, then `score`/`rating` lines, then a lone number.
    /// Within a rule the last match counts (reasoning that quotes the scale comes before the verdict).
    static ParsedAnswer parseScore(const QString &text);
    /// `Q1: yes` / `Q2 - No` lines (also "1. yes"); ok when at least one answer was found.
    static ParsedAnswer parseYesNo(const QString &text);
    /// The first JSON object in the text (fenced or not). `scoreField` names a numeric member to
    /// copy into `score` ("" = none).
    static ParsedAnswer parseJson(const QString &text, const QString &scoreField = QStringLiteral("score"));
    /// G-Eval: at the first generated token whose alternatives include a scale value, the expected
    /// value over the scale's integer tokens min…max, probabilities renormalised over those tokens.
    static ParsedAnswer weightedScore(const JudgeChoice &choice, int min, int max);
    /// The score of a response: logprobs when they came back, else the mean of the parsed scores
    /// of its choices (n samples), else a parse failure with the raw text.
    static ParsedAnswer scoreOf(const JudgeResponse &response, int min, int max);
    /// Whether a method should ask again: the answer could not be read and attempts remain.
    static bool shouldReask(const ParsedAnswer &parsed, int attemptsSoFar, int maxAttempts);

    static QString methodName(ParsedAnswer::Method method);
    /// `text` less its reasoning blocks (JudgeChoice::answer()).
    static QString withoutReasoning(const QString &text);
};

} // namespace rubric
