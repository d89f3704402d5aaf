#include "methods/hpss/PromptAssembly.h"

#include "judge/AnswerParser.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>

namespace rubric::hpss {

namespace {

QString capitalised(const QString &s)
{
    return s.isEmpty() ? s : s.left(1).toUpper() + s.mid(1);
}

/// A piece of prompt text with the factor spans inside it (offsets relative to the piece).
class Piece
{
public:
    /// Appends plain text; `factor` tags it as that factor's snippet.
    void add(const QString &text, std::optional<Factor> factor = std::nullopt)
    {
        if (text.isEmpty())
            return;
        if (factor)
            addSpan(int(m_text.size()), int(text.size()), *factor);
        m_text += text;
    }

    /// Appends a template whose {name} placeholders come from `values`; the literal text is
    /// tagged `factor`, each filled value with its own tag or, without one, the template's.
    struct Value
    {
        QString text;
        std::optional<Factor> factor;
    };
    void addTemplate(const QString &tmpl, std::optional<Factor> factor, const QHash<QString, Value> &values)
    {
        static const QRegularExpression placeholder(QStringLiteral("\\{([A-Za-z]+)\\}"));
        qsizetype at = 0;
        for (auto it = placeholder.globalMatch(tmpl); it.hasNext();) {
            const auto m = it.next();
            add(tmpl.mid(at, m.capturedStart() - at), factor);
            const auto v = values.constFind(m.captured(1));
            Q_ASSERT_X(v != values.cend(), "addTemplate", "placeholder without a value");
            add(v->text, v->factor ? v->factor : factor);
            at = m.capturedEnd();
        }
        add(tmpl.mid(at), factor);
    }

    void append(const Piece &other)
    {
        for (const PromptSpan &s : other.m_spans)
            addSpan(int(m_text.size()) + s.start, s.length, s.factor);
        m_text += other.m_text;
    }

    const QString &text() const { return m_text; }
    const QVector<PromptSpan> &spans() const { return m_spans; }

private:
    void addSpan(int start, int length, Factor f)
    {
        // Adjacent stretches of one factor read as one highlight.
        if (!m_spans.isEmpty() && m_spans.last().factor == f && m_spans.last().start + m_spans.last().length == start)
            m_spans.last().length += length;
        else
            m_spans.append(PromptSpan{start, length, f});
    }

    QString m_text;
    QVector<PromptSpan> m_spans;
};

Error missing(const QString &field, const QString &why)
{
    return makeError(QStringLiteral("the strategy asks for %1, but the prompt inputs have none").arg(why), {}, 0,
                     field);
}

} // namespace

TaskWording TaskWording::summEval()
{
    TaskWording w;
    w.name = QStringLiteral("summeval");
    w.noun = QStringLiteral("summary");
    w.sourceHeader = QStringLiteral("Article");
    w.targetName = QStringLiteral("Summary");
    w.instructionBelow = QStringLiteral("[Instruction]\nPlease act as an impartial judge and evaluate the quality of "
                                        "the summary to the news article displayed below on its {aspect}. ");
    w.instructionAbove = QStringLiteral("[Instruction]\nPlease act as an impartial judge and evaluate the quality of "
                                        "the summary to the news article displayed above on its {aspect}.");
    w.examplesLeadOut = QStringLiteral("Following these examples, evaluate the quality of the summary to the news "
                                       "article displayed below on its {aspect}:");
    w.cotPrefix = QStringLiteral("Begin your evaluation by providing a short explanation. After providing your "
                                 "explanation, you must rate the summary on a scale of {min} to {max} by strictly "
                                 "following this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\".");
    w.cotSuffix = QStringLiteral("You must rate the summary on a scale of {min} to {max} first by strictly following "
                                 "this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\". And then provide "
                                 "your explanation.");
    w.cotFree = QStringLiteral("You must directly output your rating of the summary on a scale of {min} to {max} "
                               "without any explanation by strictly following this format: \"[[rating]]\", for "
                               "example: \"Rating: [[{max}]]\". ");
    w.referenceIntro
            = QStringLiteral("You will be given the news article, the summary and a high-quality reference summary.");
    w.dialectic = QStringLiteral("Please generate your own summary for the news article first and take into account "
                                 "your own summary to evaluate the quality of the given summary.");
    w.sourceNoun = QStringLiteral("news article");
    w.auxSourceHeader = QStringLiteral("Article");
    w.autocotPhrase = QStringLiteral("the summary of the news article");
    w.metricsPhrase = QStringLiteral("the summary of the news article");
    w.metricsGood = QStringLiteral("for a given news article");
    w.metricsWho = QStringLiteral("the aspect of the summary");
    w.metricsTarget = QStringLiteral("news article");
    w.metricsJoin = QStringLiteral(" so that");
    w.metricsPoints = QStringLiteral("the news article");
    w.referenceLead = QStringLiteral("Please summarize the following text:");
    w.referenceTail = QStringLiteral("Summary:");
    return w;
}

TaskWording TaskWording::topicalChat()
{
    TaskWording w;
    w.name = QStringLiteral("topical_chat");
    w.noun = QStringLiteral("response");
    w.sourceHeader = QStringLiteral("Conversation History");
    w.targetName = QStringLiteral("Response");
    w.factHeader = QStringLiteral("Corresponding Fact");
    w.nativeScale = 3;
    w.instructionBelow = QStringLiteral(
            "[Instruction]\nPlease act as an impartial judge and evaluate the quality of the response for the next "
            "turn in the conversation displayed below on its {aspect}. The response concerns an interesting fact, "
            "which will be provided as well. ");
    w.instructionAbove = QStringLiteral(
            "[Instruction]\nPlease act as an impartial judge and evaluate the quality of the response for the next "
            "turn in the conversation displayed above on its {aspect}. The response concerns an interesting fact, "
            "which will be provided as well. ");
    w.examplesLeadOut = QStringLiteral("Following these examples, evaluate the quality of the response for the next "
                                       "turn in the conversation displayed below on its {aspect}:");
    // Topical-Chat's CoT texts end with a space in the official template; the others do not.
    w.cotPrefix = QStringLiteral("Begin your evaluation by providing a short explanation. After providing your "
                                 "explanation, you must rate the response on a scale of {min} to {max} by strictly "
                                 "following this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\". ");
    w.cotSuffix = QStringLiteral("You must rate the response on a scale of {min} to {max} first by strictly "
                                 "following this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\". And "
                                 "then provide your explanation. ");
    w.cotFree = QStringLiteral("You must directly output your rating of the response on a scale of {min} to {max} "
                               "without any explanation by strictly following this format: \"[[rating]]\", for "
                               "example: \"Rating: [[{max}]]\". ");
    w.referenceIntro = QStringLiteral("You will also be given a high-quality reference response with the "
                                      "conversation. ");
    w.dialectic = QStringLiteral("Please generate your own response for the next turn in the conversation first and "
                                 "take into account your own response to evaluate the quality of the given response.");
    w.sourceNoun = QStringLiteral("conversation");
    w.auxSourceHeader = QStringLiteral("Conversation History");
    w.autocotPhrase = QStringLiteral("the response for the next turn in the conversation");
    w.metricsPhrase = QStringLiteral("the response for the next turn in the conversation");
    w.metricsGood = QStringLiteral("for the next turn in the given conversation");
    w.metricsWho = QStringLiteral("the aspect of the output");
    w.metricsTarget = QStringLiteral("conversation");
    w.metricsJoin = QStringLiteral(", so");
    w.metricsPoints = QStringLiteral("the conversation");
    w.referenceLead = QStringLiteral("Please output the response for the next turn in the conversation.\n"
                                     "Conversation History:");
    w.referenceTail = QStringLiteral("Response:");
    return w;
}

TaskWording TaskWording::dataToText(const QString &name)
{
    TaskWording w;
    w.name = name;
    w.noun = QStringLiteral("sentence");
    w.sourceHeader = QStringLiteral("Structured Data Experssion"); // sic: the official template's spelling
    w.targetName = QStringLiteral("Natural Language Sentence");
    w.instructionBelow = QStringLiteral(
            "[Instruction]\nPlease act as an impartial judge and evaluate the quality of a natural language sentence "
            "generated according to a structured data expression displayed below on its {aspect}. ");
    w.instructionAbove = QStringLiteral(
            "[Instruction]\nPlease act as an impartial judge and evaluate the quality of a natural language sentence "
            "generated according to a structured data expression displayed above on its {aspect}.");
    w.examplesLeadOut = QStringLiteral("Following these examples, evaluate the quality of a natural language sentence "
                                       "generated according to a structured data expression displayed below on its "
                                       "{aspect}:");
    w.cotPrefix = QStringLiteral("Begin your evaluation by providing a short explanation. After providing your "
                                 "explanation, you must rate the sentence on a scale of {min} to {max} by strictly "
                                 "following this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\".");
    w.cotSuffix = QStringLiteral("You must rate the sentence on a scale of {min} to {max} first by strictly "
                                 "following this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\". And "
                                 "then provide your explanation.");
    w.cotFree = QStringLiteral("You must directly output your rating of the sentence on a scale of {min} to {max} "
                               "without any explanation by strictly following this format: \"[[rating]]\", for "
                               "example: \"Rating: [[{max}]]\". ");
    w.referenceIntro = QStringLiteral("You will be given the structured data expression, the sentence and a "
                                      "high-quality reference sentence.");
    w.dialectic = QStringLiteral("Please generate your own sentence according to the given structured data "
                                 "expression first and take into account your own sentence to evaluate the quality "
                                 "of the given sentence.");
    w.sourceNoun = QStringLiteral("structured data expression");
    w.auxSourceHeader = QStringLiteral("Structured Data Expression");
    w.autocotPhrase = QStringLiteral("a natural language sentence generated according to a structured data "
                                     "expression displayed below");
    w.metricsPhrase = QStringLiteral("a natural language sentence generated according to a structured data "
                                     "expression");
    w.metricsGood = QStringLiteral("generated according to a given structured data expression");
    w.metricsWho = QStringLiteral("the aspects of the sentence");
    w.metricsTarget = QStringLiteral("structured data expression");
    w.metricsJoin = QStringLiteral(", so");
    w.metricsPoints = QStringLiteral("the structured data expressions");
    w.referenceLead = QStringLiteral("Please generate a natural language sentence generated according to a "
                                     "structured data expression.\nExpression:");
    w.referenceTail = QStringLiteral("Sentence:");
    return w;
}

TaskWording TaskWording::hanna()
{
    TaskWording w;
    w.name = QStringLiteral("hanna");
    w.noun = QStringLiteral("story");
    w.sourceHeader = QStringLiteral("Prompt");
    w.targetName = QStringLiteral("Story");
    w.instructionBelow = QStringLiteral("[Instruction]\nPlease act as an impartial judge and evaluate the quality of "
                                        "the story generated according to a prompt displayed below on its {aspect}. ");
    w.instructionAbove = QStringLiteral("[Instruction]\nPlease act as an impartial judge and evaluate the quality of "
                                        "the story generated according to a prompt displayed above on its {aspect}.");
    // HANNA's lead-out has no "the quality of" in the official template.
    w.examplesLeadOut = QStringLiteral("Following these examples, evaluate the story generated according to a prompt "
                                       "displayed below on its {aspect}:");
    w.cotPrefix = QStringLiteral("Begin your evaluation by providing a short explanation. After providing your "
                                 "explanation, you must rate the story on a scale of {min} to {max} by strictly "
                                 "following this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\".");
    w.cotSuffix = QStringLiteral("You must rate the story on a scale of {min} to {max} first by strictly following "
                                 "this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\". And then provide "
                                 "your explanation.");
    w.cotFree = QStringLiteral("You must directly output your rating of the story on a scale of {min} to {max} "
                               "without any explanation by strictly following this format: \"[[rating]]\", for "
                               "example: \"Rating: [[{max}]]\". ");
    w.referenceIntro = QStringLiteral("You will be given the prompt, the generated story and a high-quality reference "
                                      "story.");
    w.dialectic = QStringLiteral("Please generate your own story for the given prompt first and take into account "
                                 "your own story to evaluate the quality of the given story.");
    w.sourceNoun = QStringLiteral("prompt");
    w.auxSourceHeader = QStringLiteral("Prompt");
    w.autocotPhrase = QStringLiteral("the story generated according to a prompt displayed below");
    w.metricsPhrase = QStringLiteral("the story generated according to a prompt");
    w.metricsGood = QStringLiteral("according to a given prompt");
    w.metricsWho = QStringLiteral("the aspect of the story");
    w.metricsTarget = QStringLiteral("prompt");
    w.metricsJoin = QStringLiteral(", so");
    w.metricsPoints = QStringLiteral("the prompt");
    w.metricsNumbered = false;
    w.referenceLead = QStringLiteral("Please generate a story according to the given prompt:");
    w.referenceTail = QStringLiteral("Story:");
    return w;
}

Result<TaskWording> TaskWording::preset(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("summeval"))
        return summEval();
    if (n == QLatin1String("topical_chat") || n == QLatin1String("topicalchat"))
        return topicalChat();
    if (n == QLatin1String("sf") || n == QLatin1String("sfhot"))
        return dataToText(QStringLiteral("sfhot"));
    if (n == QLatin1String("sfres"))
        return dataToText(QStringLiteral("sfres"));
    if (n == QLatin1String("hanna"))
        return hanna();
    return makeError(QStringLiteral("unknown task '%1' (expected summeval|topical_chat|sf|hanna)").arg(name), {}, 0,
                     QStringLiteral("task"));
}

double mapExampleRating(double human, double hMin, double hMax, int scaleMin, int scaleMax, int nativeScale)
{
    if (scaleMax == nativeScale)
        return human;
    const double t = hMax > hMin ? (human - hMin) / (hMax - hMin) : 0.0;
    if (scaleMax <= 5)
        return scaleMin + t * (scaleMax - scaleMin);
    return std::max(double(scaleMin), t * scaleMax);
}

QString rescaleAnchors(const QString &definition, double hMin, double hMax, int scaleMin, int scaleMax, int nativeScale)
{
    if (scaleMax == nativeScale || !(hMax > hMin))
        return definition;
    const auto mapped = [&](const QString &number) {
        return formatRating(mapExampleRating(number.toDouble(), hMin, hMax, scaleMin, scaleMax, nativeScale));
    };
    // Each pattern: (text before)(the number)(text after, kept).
    static const QRegularExpression patterns[] = {
            QRegularExpression(QStringLiteral("(A score of )(\\d+(?:\\.\\d+)?)(\\b)")),
            QRegularExpression(QStringLiteral("((?:^|\\n)[ \\t]*(?:[-•*][ \\t]*)?)(\\d+(?:\\.\\d+)?)( — | - |: )")),
            QRegularExpression(QStringLiteral("((?:^|[\\s;,])(?<!of ))(\\d+(?:\\.\\d+)?)( \\([^)\\n]*\\) means)")),
    };
    QString text = definition;
    for (const QRegularExpression &re : patterns) {
        QString out;
        qsizetype at = 0;
        for (auto it = re.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            out += text.mid(at, m.capturedStart(2) - at) + mapped(m.captured(2));
            at = m.capturedEnd(2);
        }
        text = out + text.mid(at);
    }
    // A written range "(1-3)" of the human scale becomes the strategy's.
    static const QRegularExpression range(QStringLiteral("\\((\\d+)-(\\d+)\\)"));
    QString out;
    qsizetype at = 0;
    for (auto it = range.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        if (m.captured(1).toDouble() == hMin && m.captured(2).toDouble() == hMax)
            out += QStringLiteral("(%1-%2)").arg(scaleMin).arg(scaleMax);
        else
            out += m.captured();
        at = m.capturedEnd();
    }
    return out + text.mid(at);
}

QString formatRating(double value)
{
    return QString::number(std::round(value * 100.0) / 100.0, 'f', 2)
            .remove(QRegularExpression(QStringLiteral("\\.?0+$")));
}

Result<RenderedPrompt> renderPrompt(const PromptStrategy &s, const PromptInputs &in, const AssemblyOptions &options)
{
    const TaskWording &task = in.task;
    const QString order = s.valueName(Factor::Order);
    const bool tdBeforeIc = order.indexOf(QLatin1Char('T')) < order.indexOf(QLatin1Char('I'));
    const QString aspect = in.aspect.toLower();
    const QString noun = task.noun;
    const QString Noun = capitalised(noun);
    const QString reference = s.valueName(Factor::Reference);
    const QString criteria = s.valueName(Factor::Criteria);
    const QString cot = s.valueName(Factor::Cot);
    const int n = s.exampleCount();

    if (criteria != QLatin1String("none") && in.criteria.trimmed().isEmpty())
        return missing(QStringLiteral("criteria"), QStringLiteral("%1 criteria").arg(criteria));
    if (reference == QLatin1String("self") && in.reference.trimmed().isEmpty())
        return missing(QStringLiteral("reference"), QStringLiteral("a self-generated reference"));
    if (s.valueName(Factor::AutoCot) == QLatin1String("on") && in.autocot.trimmed().isEmpty())
        return missing(QStringLiteral("autocot"), QStringLiteral("AutoCoT evaluation steps"));
    if (s.valueName(Factor::Metrics) == QLatin1String("on") && in.metrics.trimmed().isEmpty())
        return missing(QStringLiteral("metrics"), QStringLiteral("metrics questions"));
    // Fewer than n is allowed: a rating no validation item has is left out (as the official files do),
    // and the item being scored is never its own example.
    if (n > 0 && (in.examples.size() > n || in.examples.isEmpty()))
        return makeError(QStringLiteral("the strategy asks for %1 examples (one per rating, fewer where a rating has "
                                        "no item), the inputs have %2")
                                 .arg(n)
                                 .arg(in.examples.size()),
                         {}, 0, QStringLiteral("examples"));
    if (!task.factHeader.isEmpty() && in.fact.isEmpty())
        return missing(QStringLiteral("fact"), QStringLiteral("the item's fact (the task has a fact block)"));

    const QHash<QString, Piece::Value> words = {
            {QStringLiteral("aspect"), {aspect, std::nullopt}},
            {QStringLiteral("min"), {QString::number(in.scaleMin), std::nullopt}},
            {QStringLiteral("max"), {QString::number(s.scaleMax()), Factor::Scale}},
    };
    auto fill = [&](QHash<QString, Piece::Value> extra) {
        for (auto it = words.cbegin(); it != words.cend(); ++it)
            if (!extra.contains(it.key()))
                extra.insert(it.key(), it.value());
        return extra;
    };

    // T = INSTRUCTION + REF1 + DIALECTIC + COT; the instruction says "above" when the input comes first.
    Piece td;
    // "below" / "above" is the order's word in the instruction (highlighted as the Order factor).
    QString instruction = tdBeforeIc ? task.instructionBelow : task.instructionAbove;
    instruction.replace(tdBeforeIc ? QStringLiteral("displayed below") : QStringLiteral("displayed above"),
                        QStringLiteral("displayed {where}"));
    td.addTemplate(instruction, std::nullopt,
                   fill({{QStringLiteral("where"),
                          {tdBeforeIc ? QStringLiteral("below") : QStringLiteral("above"), Factor::Order}}}));
    if (reference == QLatin1String("self"))
        td.add(task.referenceIntro, Factor::Reference);
    if (reference == QLatin1String("dialectic"))
        td.add(task.dialectic, Factor::Reference);
    const QString &cotTemplate = cot == QLatin1String("none")     ? task.cotFree
                                 : cot == QLatin1String("prefix") ? task.cotPrefix
                                                                  : task.cotSuffix;
    td.addTemplate(cotTemplate, Factor::Cot, words);

    // E = RULE + AUTOCOT
    Piece er;
    er.addTemplate(QStringLiteral("Here are some rules of the evaluation:\n1. Your evaluation should consider the "
                                  "{aspect} of the %1. {criteria}\n2. Be as objective as possible.\n")
                           .arg(noun),
                   std::nullopt,
                   fill({{QStringLiteral("criteria"),
                          {criteria == QLatin1String("none") ? QString() : in.criteria, Factor::Criteria}}}));
    if (s.valueName(Factor::AutoCot) == QLatin1String("on"))
        er.addTemplate(QStringLiteral("\nEvaluation Steps:\n{steps}\n"), Factor::AutoCot,
                       fill({{QStringLiteral("steps"), {in.autocot, Factor::AutoCot}}}));

    // I = EXAMPLES "\n" SOURCE "\n" METRICS "\n" [FACT "\n"] REF2 "\n" TARGET
    Piece ic;
    if (n > 0) {
        Piece examples;
        examples.add(QStringLiteral("\nHere are some examples and their corresponding ratings:\n"), Factor::Examples);
        for (qsizetype k = 0; k < in.examples.size(); ++k) {
            const ExampleItem &e = in.examples[k];
            if (k > 0)
                examples.add(QStringLiteral("\n\n"), Factor::Examples);
            const double rating = mapExampleRating(e.humanScore, in.humanMin, in.humanMax, in.scaleMin, s.scaleMax(),
                                                   task.nativeScale);
            // As the official example files write one: "# Example k:", the source, a blank line,
            // Topical-Chat's fact block, the target and the rating on the strategy's scale.
            QString block = QStringLiteral("# Example %1:\n[%2]\n").arg(k + 1).arg(task.sourceHeader) + e.source
                            + QStringLiteral("\n\n");
            if (!task.factHeader.isEmpty())
                block += QStringLiteral("[%1]\n").arg(task.factHeader) + e.fact + QLatin1Char('\n');
            block += QStringLiteral("[The Start of the %1]\n").arg(task.targetName) + e.output
                     + QStringLiteral("\n[The End of the %1]\n\n[Rating]\n").arg(task.targetName)
                     + formatRating(rating);
            examples.add(block, Factor::Examples);
        }
        examples.add(QStringLiteral("\n\n"), Factor::Examples);
        examples.addTemplate(task.examplesLeadOut, Factor::Examples,
                             fill({{QStringLiteral("aspect"), {aspect, Factor::Examples}}}));
        ic.append(examples);
    }
    ic.add(QStringLiteral("\n[%1]\n").arg(task.sourceHeader));
    ic.add(in.source);
    ic.add(QStringLiteral("\n"));
    if (s.valueName(Factor::Metrics) == QLatin1String("on")) {
        ic.add(QStringLiteral("\n[Questions about %1]\nHere are some questions about the %2. You can do the "
                              "evaluation based on thinking about all the questions.\n")
                       .arg(Noun, noun),
               Factor::Metrics);
        ic.add(in.metrics + QLatin1Char('\n'), Factor::Metrics);
    }
    ic.add(QStringLiteral("\n"));
    if (!task.factHeader.isEmpty()) {
        ic.add(QStringLiteral("[%1]\n").arg(task.factHeader));
        ic.add(in.fact);
        ic.add(QStringLiteral("\n"));
    }
    if (reference == QLatin1String("self")) {
        ic.add(QStringLiteral("\n[The Start of Reference %1]\n").arg(Noun), Factor::Reference);
        ic.add(in.reference, Factor::Reference);
        ic.add(QStringLiteral("\n[The End of Reference %1]\n").arg(Noun), Factor::Reference);
    }
    ic.add(QStringLiteral("\n[The Start of the %1]\n").arg(task.targetName));
    ic.add(in.output);
    ic.add(QStringLiteral("\n[The End of the %1]").arg(task.targetName));

    // The six layouts (spec §4.2): the separator after a component depends on the pair.
    const QHash<QChar, const Piece *> parts
            = {{QLatin1Char('T'), &td}, {QLatin1Char('E'), &er}, {QLatin1Char('I'), &ic}};
    auto separator = [](QChar a, QChar b) {
        // ER ends with its own "\n" (RULE) and is followed by a single "\n"; every other junction is "\n\n".
        return a == QLatin1Char('E') && b != QLatin1Char('E') ? QStringLiteral("\n") : QStringLiteral("\n\n");
    };
    RenderedPrompt out;
    Piece all;
    for (int k = 0; k < 3; ++k) {
        const QChar c = order.at(k);
        if (k > 0)
            all.add(separator(order.at(k - 1), c));
        const int start = int(all.text().size());
        all.append(*parts.value(c));
        out.components.append(ComponentSpan{start, int(all.text().size()) - start, c});
    }
    out.text = all.text();
    out.spans = all.spans();
    if (!options.systemPrompt.isEmpty())
        out.messages.append(ChatMessage{QStringLiteral("system"), options.systemPrompt});
    out.messages.append(ChatMessage{QStringLiteral("user"), out.text});
    return out;
}

ScoreReading readScore(const QString &answer, double fallback)
{
    ScoreRules rules;
    rules.singleBrackets = true;
    const ParsedAnswer p = AnswerParser::readScore(answer, rules);
    if (!p.ok)
        return ScoreReading{fallback, false, {}, true};
    return ScoreReading{p.score, true, p.rule, true};
}

ScoreReading readScore(const QString &answer, int scaleMin, int scaleMax, double fallback)
{
    ScoreReading r = readScore(answer, fallback);
    r.inScale = !r.parsed || (r.score >= scaleMin && r.score <= scaleMax);
    return r;
}

double scaleFraction(double score, int scaleMin, int scaleMax)
{
    return scaleMax > scaleMin ? (score - scaleMin) / double(scaleMax - scaleMin) : 0.0;
}

} // namespace rubric::hpss
