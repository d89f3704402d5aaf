#pragma once

#include "data/JudgeTypes.h"
#include "methods/hpss/PromptStrategy.h"
#include "util/Result.h"

#include <QString>
#include <QVector>

namespace rubric::hpss {

/// The texts that change between the official tasks (thu-coai/HPSS prompts/search/<task>/template.py,
/// commit 7a03f6f): each task keeps the authors' own wording, spacing and spelling (Topical-Chat's
/// trailing spaces, the data-to-text "[Structured Data Experssion]" header, HANNA's lead-out
/// without "the quality of"), so a strategy's prompt is byte for byte the official one
/// (tests/methods/hpss/official_assembly.py checks all 12,960 strategies of every task).
/// {aspect}, {min}, {max} are filled when a prompt is rendered.
struct TaskWording
{
    QString name;             ///< "summeval", "topical_chat", "sfhot", "sfres", "hanna"
    QString noun;             ///< "summary": the thing being rated, lower case (rules, questions, reference)
    QString sourceHeader;     ///< "Article": the source block's header, written "[Article]"
    QString targetName;       ///< "Summary": "[The Start of the Summary]" ("Natural Language Sentence" for SF)
    QString factHeader;       ///< "" = no fact block; Topical-Chat: "Corresponding Fact"
    int nativeScale = 5;      ///< the scale the human ratings are on (Topical-Chat: 3); the origin's scale
    QString instructionBelow; ///< the instruction when the task description comes before the input
    QString instructionAbove; ///< … and after it (EIT, ITE, IET)
    QString examplesLeadOut;  ///< after the examples: "Following these examples, evaluate … on its {aspect}:"
    QString cotPrefix;        ///< CoT prefix (explanation first)
    QString cotSuffix;        ///< CoT suffix (rating first)
    QString cotFree;          ///< no CoT
    QString referenceIntro;   ///< REF1 (reference: self)
    QString dialectic;        ///< reference: dialectic
    /// The task's words in the paper's auxiliary prompts (App. A, Tables 10, 12, 14, 16):
    QString sourceNoun;          ///< "news article", "conversation", "structured data expression", "prompt"
    QString auxSourceHeader;     ///< "## Article:", "## Conversation History:", … (metrics generation)
    QString autocotPhrase;       ///< "the summary of the news article" (AutoCoT generation's instruction)
    QString metricsPhrase;       ///< "the summary of the news article" (metrics generation's instruction)
    QString metricsGood;         ///< "for a given news article": "… is a good summary <this> on its …"
    QString metricsWho;          ///< "the aspect of the summary": "Another assistant will evaluate <this> by …"
    QString metricsTarget;       ///< "news article": "The questions should specifically target the given <this> …"
    QString metricsJoin;         ///< " so that" / "," before "the questions may revolve around key points of …"
    QString metricsPoints;       ///< "the news article": "… key points of <this>."
    bool metricsNumbered = true; ///< HANNA's requirements are not numbered "(1) (2) (3)"
    QString referenceLead;       ///< "Please summarize the following text:" (reference generation)
    QString referenceTail;       ///< "Summary:"

    static TaskWording summEval();
    static TaskWording topicalChat();
    static TaskWording dataToText(const QString &name = QStringLiteral("sfhot")); ///< SFHOT / SFRES
    static TaskWording hanna();
    /// "summeval", "topical_chat", "sf" (or "sfhot"/"sfres"), "hanna"; an error lists the names otherwise.
    static Result<TaskWording> preset(const QString &name);
};

/// The search's origin for a task: the MT-Bench strategy on the task's own scale (Topical-Chat 3).
inline PromptStrategy taskOrigin(const TaskWording &task)
{
    return PromptStrategy::mtBenchOrigin(task.nativeScale);
}

/// One in-context example: an item of the validation split with its human score.
struct ExampleItem
{
    QString source;
    QString output;
    double humanScore = 0;
    QString fact; ///< Topical-Chat: the example's fact, written in its own "[Corresponding Fact]" block
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
    int scaleMin = 1; ///< {min}: 1, or 0 where the human scale starts at 0 ([code]: Topical-Chat groundedness)
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

struct AssemblyOptions
{
    QString systemPrompt = QStringLiteral("You are a helpful assistant.");
};

/// Renders the §4 template for a strategy and an item. Errors name the input a factor value needs
/// and lacks (field "criteria", "reference", "examples", "autocot", "metrics").
Result<RenderedPrompt> renderPrompt(const PromptStrategy &strategy, const PromptInputs &inputs,
                                    const AssemblyOptions &options = {});

/// A human score on [hMin, hMax] put on the strategy's scale [scaleMin, scaleMax] as the official
/// example and criteria files write it: the task's own scale (`nativeScale`) keeps the human
/// number; a scale up to 5 maps linearly onto [scaleMin, scaleMax]; 10, 50 and 100 take
/// scaleMax·(h − hMin)/(hMax − hMin), never below scaleMin (1-5 humans at 10: 1, 2.5, 5, 7.5, 10).
double mapExampleRating(double human, double hMin, double hMax, int scaleMin, int scaleMax, int nativeScale = 5);
/// The aspect definition as a prompt at scale [scaleMin, scaleMax] shows it: the score anchors of a
/// definition written on the human range [hMin, hMax] ("A score of 2 (somewhat) …", a line "2 — …",
/// "2 (ok) means …", a range "(1-3)") put on the strategy's scale as mapExampleRating maps them, the
/// way the official per-scale criteria files (criteria_human_scale_<n>.json) write them. A definition
/// without anchors comes back unchanged.
QString rescaleAnchors(const QString &definition, double hMin, double hMax, int scaleMin, int scaleMax,
                       int nativeScale = 5);
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
