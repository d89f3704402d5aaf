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
    return {QStringLiteral("summary"),
            QStringLiteral("the summary to the news article"),
            QStringLiteral("Article"),
            QStringLiteral("You will be given the news article, the summary and a high-quality reference summary."),
            QStringLiteral("your own summary for the news article"),
            {},
            {}};
}

TaskWording TaskWording::topicalChat()
{
    return {QStringLiteral("response"),
            QStringLiteral("the response for the next turn in the conversation"),
            QStringLiteral("Conversation History"),
            QStringLiteral("You will also be given a high-quality reference response with the conversation."),
            QStringLiteral("your own response for the next turn in the conversation"),
            QStringLiteral("The response concerns an interesting fact, which will be provided as well. "),
            QStringLiteral("Corresponding Fact")};
}

TaskWording TaskWording::dataToText()
{
    return {QStringLiteral("sentence"),
            QStringLiteral("a natural language sentence generated according to a structured data expression"),
            QStringLiteral("Structured Data Expression"),
            QStringLiteral("You will be given the structured data expression, the sentence and a high-quality "
                           "reference sentence."),
            QStringLiteral("your own sentence according to the given structured data expression"),
            {},
            {}};
}

TaskWording TaskWording::hanna()
{
    return {QStringLiteral("story"),
            QStringLiteral("the story generated according to a prompt"),
            QStringLiteral("Prompt"),
            QStringLiteral("You will be given the prompt, the generated story and a high-quality reference story."),
            QStringLiteral("your own story for the given prompt"),
            {},
            {}};
}

Result<TaskWording> TaskWording::preset(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("summeval"))
        return summEval();
    if (n == QLatin1String("topical_chat") || n == QLatin1String("topicalchat"))
        return topicalChat();
    if (n == QLatin1String("sf") || n == QLatin1String("sfhot") || n == QLatin1String("sfres"))
        return dataToText();
    if (n == QLatin1String("hanna"))
        return hanna();
    return makeError(QStringLiteral("unknown task '%1' (expected summeval|topical_chat|sf|hanna)").arg(name), {}, 0,
                     QStringLiteral("task"));
}

double mapExampleRating(double human, double hMin, double hMax, int scaleMin, int scaleMax, RatingMap map)
{
    const double t = hMax > hMin ? (human - hMin) / (hMax - hMin) : 0.0;
    if (map == RatingMap::Linear || scaleMax <= hMax)
        return scaleMin + t * (scaleMax - scaleMin);
    // [code]'s stored ratings for 1–5 humans on 1–10 / 1–100: 1, 2.5, 5, 7.5, 10 — proportional to
    // the maximum, with the bottom (0) lifted to the scale's minimum.
    return std::max(double(scaleMin), t * scaleMax);
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
    if (n > 0 && (in.examples.size() < n - 1 || in.examples.size() > n || in.examples.isEmpty()))
        return makeError(QStringLiteral("the strategy asks for %1 examples (%2 when the item is one of them), the "
                                        "inputs have %3")
                                 .arg(n)
                                 .arg(n - 1)
                                 .arg(in.examples.size()),
                         {}, 0, QStringLiteral("examples"));
    if (!task.factHeader.isEmpty() && in.fact.isEmpty())
        return missing(QStringLiteral("fact"), QStringLiteral("the item's fact (the task has a fact block)"));

    const QHash<QString, Piece::Value> words = {
            {QStringLiteral("aspect"), {aspect, std::nullopt}},
            {QStringLiteral("noun"), {noun, std::nullopt}},
            {QStringLiteral("Noun"), {Noun, std::nullopt}},
            {QStringLiteral("task"), {task.taskPhrase, std::nullopt}},
            {QStringLiteral("min"), {QString::number(in.scaleMin), std::nullopt}},
            {QStringLiteral("max"), {QString::number(s.scaleMax()), Factor::Scale}},
            {QStringLiteral("where"), {tdBeforeIc ? QStringLiteral("below") : QStringLiteral("above"), Factor::Order}},
            {QStringLiteral("object"), {task.dialecticObject, std::nullopt}},
    };
    auto fill = [&](QHash<QString, Piece::Value> extra) {
        for (auto it = words.cbegin(); it != words.cend(); ++it)
            if (!extra.contains(it.key()))
                extra.insert(it.key(), it.value());
        return extra;
    };

    // TD = INSTRUCTION + REF1 + DIALECTIC + COT
    Piece td;
    td.addTemplate(QStringLiteral("[Instruction]\nPlease act as an impartial judge and evaluate the quality of {task} "
                                  "displayed {where} on its {aspect}. "),
                   std::nullopt, words);
    td.add(task.instructionTail);
    if (reference == QLatin1String("self"))
        td.add(task.referenceIntro, Factor::Reference);
    if (reference == QLatin1String("dialectic"))
        td.addTemplate(QStringLiteral("Please generate {object} first and take into account your own {noun} to "
                                      "evaluate the quality of the given {noun}."),
                       Factor::Reference, words);
    QString cotTemplate;
    if (cot == QLatin1String("none"))
        cotTemplate = QStringLiteral("You must directly output your rating of the {noun} on a scale of {min} to {max} "
                                     "without any explanation by strictly following this format: \"[[rating]]\", for "
                                     "example: \"Rating: [[{max}]]\".");
    else if (cot == QLatin1String("prefix"))
        cotTemplate = QStringLiteral("Begin your evaluation by providing a short explanation. After providing your "
                                     "explanation, you must rate the {noun} on a scale of {min} to {max} by strictly "
                                     "following this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\".");
    else
        cotTemplate
                = QStringLiteral("You must rate the {noun} on a scale of {min} to {max} first by strictly following "
                                 "this format: \"[[rating]]\", for example: \"Rating: [[{max}]]\". And then provide "
                                 "your explanation.");
    td.addTemplate(cotTemplate, Factor::Cot, words);

    // ER = RULE + AUTOCOT
    Piece er;
    er.addTemplate(QStringLiteral("Here are some rules of the evaluation:\n1. Your evaluation should consider the "
                                  "{aspect} of the {noun}. {criteria}\n2. Be as objective as possible.\n"),
                   std::nullopt,
                   fill({{QStringLiteral("criteria"),
                          {criteria == QLatin1String("none") ? QString() : in.criteria, Factor::Criteria}}}));
    if (s.valueName(Factor::AutoCot) == QLatin1String("on"))
        er.addTemplate(QStringLiteral("\nEvaluation Steps:\n{steps}\n"), Factor::AutoCot,
                       fill({{QStringLiteral("steps"), {in.autocot, Factor::AutoCot}}}));

    // IC = EXAMPLES "\n" SOURCE_BLOCK "\n" METRICS "\n" [FACT_BLOCK "\n"] REF2 "\n" TARGET_BLOCK
    Piece ic;
    if (n > 0) {
        Piece list;
        for (qsizetype k = 0; k < in.examples.size(); ++k) {
            const ExampleItem &e = in.examples[k];
            if (k > 0)
                list.add(QStringLiteral("\n\n"), Factor::Examples);
            const double rating = mapExampleRating(e.humanScore, in.humanMin, in.humanMax, in.scaleMin, s.scaleMax(),
                                                   options.ratingMap);
            list.addTemplate(QStringLiteral("# Example {n}\n[{header}]\n{src}\n\n[The Start of the {Noun}]\n{tgt}\n"
                                            "[The End of the {Noun}]\n\n[Rating]\n{rating}"),
                             Factor::Examples,
                             fill({{QStringLiteral("n"), {QString::number(k + 1), Factor::Examples}},
                                   {QStringLiteral("header"), {task.sourceHeader, Factor::Examples}},
                                   {QStringLiteral("src"), {e.source, Factor::Examples}},
                                   {QStringLiteral("tgt"), {e.output, Factor::Examples}},
                                   {QStringLiteral("rating"), {formatRating(rating), Factor::Examples}}}));
        }
        Piece examples;
        examples.add(QStringLiteral("\nHere are some examples and their corresponding ratings:\n"), Factor::Examples);
        examples.append(list);
        examples.addTemplate(QStringLiteral("\n\nFollowing these examples, evaluate the quality of {task} displayed "
                                            "below on its {aspect}:"),
                             Factor::Examples,
                             fill({{QStringLiteral("task"), {task.taskPhrase, Factor::Examples}},
                                   {QStringLiteral("aspect"), {aspect, Factor::Examples}}}));
        ic.append(examples);
    }
    ic.add(QStringLiteral("\n[%1]\n").arg(task.sourceHeader));
    ic.add(in.source);
    ic.add(QStringLiteral("\n"));
    if (s.valueName(Factor::Metrics) == QLatin1String("on"))
        ic.addTemplate(
                QStringLiteral("\n[Questions about {Noun}]\nHere are some questions about the {noun}. You can do "
                               "the evaluation based on thinking about all the questions.\n{metrics}\n"),
                Factor::Metrics, fill({{QStringLiteral("metrics"), {in.metrics, Factor::Metrics}}}));
    ic.add(QStringLiteral("\n"));
    if (!task.factHeader.isEmpty()) {
        ic.add(QStringLiteral("[%1]\n").arg(task.factHeader));
        ic.add(in.fact);
        ic.add(QStringLiteral("\n"));
    }
    if (reference == QLatin1String("self"))
        ic.addTemplate(
                QStringLiteral("\n[The Start of Reference {Noun}]\n{reference}\n[The End of Reference {Noun}]\n"),
                Factor::Reference, fill({{QStringLiteral("reference"), {in.reference, Factor::Reference}}}));
    ic.add(QStringLiteral("\n[The Start of the %1]\n").arg(Noun));
    ic.add(in.output);
    ic.add(QStringLiteral("\n[The End of the %1]").arg(Noun));

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
