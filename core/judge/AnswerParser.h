#pragma once

#include "data/JudgeTypes.h"

#include <QMap>
#include <QString>
#include <QVariantMap>
#include <QVector>

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
    double outOf = 0;               ///< the scale the answer named with its score ("4 out of 5": 5); 0 = none
    QString rule;                   ///< which reading found the score ("[[n]]", "labelled", "lone number", …)
    QString raw;
    QString error;

    bool usedLogprobs() const { return method == Method::Logprobs; }
};

/// The named variants of the score reader, for a method whose prompt asks for its own form.
struct ScoreRules
{
    double min = qQNaN(); ///< the scale: a score outside it is no reading (NaN = any)
    double max = qQNaN();
    /// HPSS's official reader also takes a single-bracketed "[n]" as the rating.
    bool singleBrackets = false;
    /// Among lone numbers the first counts, not the last (a prompt that asks for the score first,
    /// then the reasons: HD-Eval's "Score (1-5):"); a number alone on the answer's first line also
    /// outranks an "N out of M" or "N/M" in the reasons after it ("4\nOnly 2 out of 5 points …" → 4).
    /// A labelled score or a verdict verb ("Score (1-5): 4", "I would give this a 4") still wins.
    bool firstLone = false;
};

/// One line of a generated outline (AnswerParser::parseOutline).
struct OutlineEntry
{
    /// A section header: a markdown header ("### 2. Logical Flow"), a line in bold alone
    /// ("**2. Logical Flow:**") or a line ending in a colon ("2. Logical Flow:") that asks nothing.
    bool heading = false;
    /// Its number as written, parts joined by '-': "2", "1-2", "1-2-3" ("1.2." reads "1-2");
    /// empty for a bullet or a header without a number.
    QString label;
    QString text; ///< the rest: emphasis, quotes and a closing colon removed, whitespace simplified
    int line = 0; ///< 1-based line in the answer
};

/// The one reader of judge answers: every method reads scores, yes/no lists and generated lists
/// through it. Pure functions, any thread.
///
/// Reasoning first goes (JudgeChoice::answer(): `<think>` blocks; a block cut off before it closed
/// leaves no answer). A score is then read as a careful reader reads it, strongest form first and,
/// within a form, the last one (a text that revises itself means its last word):
///  1. a JSON object (fenced or not) with a `score` / `rating` / `final_score` member;
///  2. `[[n]]` (and `[n]` with ScoreRules::singleBrackets);
///  3. a labelled score — "Final score: 4", "**Score:** 4", "Score (1-5): 4", "a score of 4 for
///     coherence", "Rating: 4/5" — or a verdict verb: "I would rate this a **4** out of 5",
///     "scoring a one", "earning a 5", "Out of 5, this gets 4";
///  4. "N out of M", "N/M", "(1/5)";
///  5. a number standing alone: a line of its own, or the last sentence ("… details. 4.").
/// Markdown emphasis, headers and code fences are read through; number words count where they
/// stand as a score ("a score of two."). A text with none of these, a verdict that names two
/// scores at once ("3 or 4", "3-4"), or a score outside ScoreRules' scale is *unparsed*, never a
/// guess: numbers in the prose ("2 or 3 slips in 1 paragraph") are not scores.
class AnswerParser
{
public:
    /// A score on any scale (ScoreRules{}).
    static ParsedAnswer parseScore(const QString &text);
    /// A score under a variant's rules (its scale, its own forms).
    static ParsedAnswer readScore(const QString &text, const ScoreRules &rules);
    /// Yes/no answers by question: `Q1: yes`, `Q1: [Yes]`, `**Q1:** Yes`, `- Q1: **No**`,
    /// `Q1. Yes`, `1) no`, `Question 2 - yes`, a JSON object {"Q1": "Yes"}; the verdict is the yes/no
    /// that opens the answer ("No, because …") or else the last one that closes a clause ("No
    /// obvious errors, so Yes"). ok when at least one answer was found.
    static ParsedAnswer parseYesNo(const QString &text);
    /// The items of a generated list (numbered "1.", "1)", "**1.**", or bulleted "-", "*", "•"), an
    /// item's continuation lines joined to it (up to a blank line), reasoning and markdown emphasis
    /// removed, whitespace simplified, in order.
    static QStringList parseList(const QString &text);
    /// A generated outline line by line — headers and numbered or bulleted entries in order, as
    /// models write them: markdown headers ("### 3. Clarity"), bold ("**2. Logical Flow:**",
    /// "- **1-2.** question"), numbering "2.", "2)", "(2)", "1-2.", "1.2.", "1-2-3." with or without
    /// a bullet before it, "Key component 2: Name". Prose lines (neither a header nor an entry)
    /// are left out; reasoning blocks are removed first.
    static QVector<OutlineEntry> parseOutline(const QString &text);
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
