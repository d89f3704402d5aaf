#pragma once

#include "data/JudgeTypes.h"
#include "methods/hpss/PromptStrategy.h"
#include "util/Result.h"

#include <QString>
#include <QVector>

namespace rubric::hpss {

/// The task words that change between datasets (spec hpss.md §4.4). The studio lets a user enter
/// them for a new task; the four presets are the paper's.
struct TaskWording
{
    QString noun;            ///< "summary": the thing being rated, lower case
    QString taskPhrase;      ///< "the summary to the news article" (INSTRUCTION and EXAMPLES)
    QString sourceHeader;    ///< "Article": the SOURCE_BLOCK header, written "[Article]"
    QString referenceIntro;  ///< REF1: "You will be given the news article, the summary and …"
    QString dialecticObject; ///< "your own summary for the news article" (DIALECTIC)
    QString instructionTail; ///< text after "on its {aspect}. " (Topical-Chat's fact sentence), usually ""
    QString factHeader;      ///< "" = no FACT_BLOCK; Topical-Chat: "Corresponding Fact"

    static TaskWording summEval();
    static TaskWording topicalChat();
    static TaskWording dataToText(); ///< SFHOT / SFRES
    static TaskWording hanna();
    /// "summeval", "topical_chat", "sf" (or "sfhot"/"sfres"), "hanna"; an error lists the names otherwise.
    static Result<TaskWording> preset(const QString &name);
};

/// One in-context example: an item of the validation split with its human score.
struct ExampleItem
{
    QString source;
    QString output;
    double humanScore = 0;
};

/// Everything a prompt needs besides the strategy. The method fills it for one item from the
/// project and the cached auxiliary generations, choosing the texts that match the strategy
/// (human or self-generated criteria; the AutoCoT steps made for that scale and criteria).
/// A factor value that needs a text the inputs lack is an error, never an empty block.
struct PromptInputs
{
    TaskWording task;
    QString aspect;    ///< the aspect's name; written in lower case ("coherence")
    QString source;    ///< the item's source/context (article, conversation, expression, prompt)
    QString output;    ///< the text being rated
    QString fact;      ///< Topical-Chat's fact (used when task.factHeader is set)
    QString criteria;  ///< the aspect definition (criteria human) or the evaluator's criteria (criteria self)
    QString reference; ///< the evaluator's own reference for the item (reference self)
    QVector<ExampleItem> examples; ///< the strategy's n examples, or n−1 when the item itself was one
    double humanMin = 1;           ///< the human rating range the example scores are on
    double humanMax = 5;
    QString autocot;  ///< the evaluation steps (autocot on)
    QString metrics;  ///< the item's questions (metrics on)
    int scaleMin = 1; ///< {min}: 1 in the paper; [code] uses 0 for Topical-Chat groundedness
};

/// A highlighted stretch of the rendered prompt: which factor's snippet (or filled value) it is.
struct PromptSpan
{
    int start = 0;
    int length = 0;
    Factor factor = Factor::Scale;
};

/// One of the three components in the rendered prompt: 'T' (task description), 'E' (evaluation
/// rules) or 'I' (input content).
struct ComponentSpan
{
    int start = 0;
    int length = 0;
    QChar component;
};

struct RenderedPrompt
{
    QString text;                      ///< the user message
    QVector<ChatMessage> messages;     ///< system + one user turn ([code]: a single user turn)
    QVector<PromptSpan> spans;         ///< factor snippets, in text order, never overlapping
    QVector<ComponentSpan> components; ///< T, E and I in the order's layout
};

/// How example ratings are put on the strategy's scale (the paper is silent; spec §4.5 lists [code]'s values).
enum class RatingMap {
    Code,  ///< scale ≤ human max: linear onto [min, max]; larger: max·(h−hmin)/(hmax−hmin), at least min
    Linear ///< always linear onto [min, max]
};

struct AssemblyOptions
{
    QString systemPrompt = QStringLiteral("You are a helpful assistant.");
    RatingMap ratingMap = RatingMap::Code;
};

/// Renders the §4 template for a strategy and an item. Errors name the input a factor value needs
/// and lacks (field "criteria", "reference", "examples", "autocot", "metrics").
Result<RenderedPrompt> renderPrompt(const PromptStrategy &strategy, const PromptInputs &inputs,
                                    const AssemblyOptions &options = {});

/// A human score on [hMin, hMax] mapped onto the scale [scaleMin, scaleMax] (spec §4.5).
double mapExampleRating(double human, double hMin, double hMax, int scaleMin, int scaleMax,
                        RatingMap map = RatingMap::Code);
/// A rating as the examples write it: at most two decimals, no trailing zeros ("2.5", "10", "3.67").
QString formatRating(double value);

/// What readScore found in an answer.
struct ScoreReading
{
    double score = 0; ///< the number, or the fallback when nothing matched
    bool parsed = false;
    QString rule;        ///< the reader's rule that found it ("[[n]]", "[n]", "labelled", …), "" when nothing matched
    bool inScale = true; ///< the number lies on the strategy's scale [min, max] (readScore with a range)
};

/// Reads the rating from a free-text answer with the shared answer reader (AnswerParser::readScore),
/// HPSS's variant: [[n]] and [n] first, as the official cascade, then a labelled score ("Rating: n")
/// and the other forms a careful reader takes. Unlike the official cascade it takes no "first number"
/// of the prose (a count or a year is not a rating). Nothing found gives `fallback` ([code] 2.51)
/// with parsed = false, so a caller can count parse failures.
ScoreReading readScore(const QString &answer, double fallback = 2.51);
/// As above, and marks a number outside the strategy's scale [scaleMin, scaleMax] (kept as read:
/// Spearman needs no mapping, but the studio counts such answers beside the parse failures).
ScoreReading readScore(const QString &answer, int scaleMin, int scaleMax, double fallback = 2.51);
/// A score on [scaleMin, scaleMax] as a fraction of the scale, for showing strategies with
/// different scales side by side (0 = the minimum, 1 = the maximum).
double scaleFraction(double score, int scaleMin, int scaleMax);

} // namespace rubric::hpss
