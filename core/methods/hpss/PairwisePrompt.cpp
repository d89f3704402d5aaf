#include "methods/hpss/PairwisePrompt.h"

#include <QHash>

namespace rubric::hpss {

namespace {

QString capitalised(const QString &s)
{
    return s.isEmpty() ? s : s.left(1).toUpper() + s.mid(1);
}

Error missing(const QString &field, const QString &why)
{
    return makeError(QStringLiteral("the pairwise strategy asks for %1, but the prompt inputs have none").arg(why), {},
                     0, field);
}

} // namespace

QString pluralNoun(const QString &noun)
{
    if (noun.endsWith(QLatin1Char('y')))
        return noun.chopped(1) + QStringLiteral("ies");
    return noun + QLatin1Char('s');
}

Result<RenderedPrompt> renderPairwisePrompt(const PromptStrategy &s, const PairwiseInputs &in,
                                            const AssemblyOptions &options)
{
    const TaskWording &task = in.task;
    const QString order = s.valueName(Factor::Order);
    const bool tdBeforeIc = order.indexOf(QLatin1Char('T')) < order.indexOf(QLatin1Char('I'));
    const QString aspect = in.aspect.toLower();
    const QString noun = task.noun;
    const QString nouns = pluralNoun(noun);
    const QString reference = s.valueName(Factor::Reference);
    const QString criteria = s.valueName(Factor::Criteria);
    const QString cot = s.valueName(Factor::Cot);
    const int n = s.exampleCount();

    if (criteria == QLatin1String("self"))
        return makeError(QStringLiteral("self-generated criteria are no value of the pairwise setting (paper App. I)"),
                         {}, 0, QStringLiteral("criteria"));
    if (criteria == QLatin1String("human") && in.criteria.trimmed().isEmpty())
        return missing(QStringLiteral("criteria"), QStringLiteral("human criteria"));
    if (reference == QLatin1String("self") && in.reference.trimmed().isEmpty())
        return missing(QStringLiteral("reference"), QStringLiteral("a self-generated reference"));
    if (s.valueName(Factor::AutoCot) == QLatin1String("on") && in.autocot.trimmed().isEmpty())
        return missing(QStringLiteral("autocot"), QStringLiteral("AutoCoT evaluation steps"));
    if (s.valueName(Factor::Metrics) == QLatin1String("on") && in.metrics.trimmed().isEmpty())
        return missing(QStringLiteral("metrics"), QStringLiteral("metrics questions"));
    if (n > 0 && (in.examples.size() > n || in.examples.isEmpty()))
        return makeError(QStringLiteral("the strategy asks for %1 example pairs, the inputs have %2")
                                 .arg(n)
                                 .arg(in.examples.size()),
                         {}, 0, QStringLiteral("examples"));
    if (!task.factHeader.isEmpty() && in.fact.isEmpty())
        return missing(QStringLiteral("fact"), QStringLiteral("the item's fact (the task has a fact block)"));

    const QString verdictFormat = QStringLiteral("\"[[A]]\" if %1 A is better, \"[[B]]\" if %1 B is better, and "
                                                 "\"[[C]]\" for a tie.")
                                          .arg(noun);
    // T = INSTRUCTION [REFERENCE] COT, one space between.
    QStringList td;
    td << QStringLiteral("[Instruction]\nPlease act as an impartial judge and evaluate the quality of the two %1 to "
                         "the %2 displayed %3 on their %4. You should choose the %5 that is better on its %4. Avoid "
                         "any position biases and ensure that the order in which the %1 were presented does not "
                         "influence your decision. Do not allow the length of the %1 to influence your evaluation.")
                    .arg(nouns, task.sourceNoun, tdBeforeIc ? QStringLiteral("below") : QStringLiteral("above"), aspect,
                         noun);
    if (reference == QLatin1String("self"))
        td << QStringLiteral("You will be given the %1, the two %2 and a high-quality reference %3.")
                        .arg(task.sourceNoun, nouns, noun);
    if (reference == QLatin1String("dialectic"))
        td << QStringLiteral("Please generate your own %1 for the %2 first and take into account your own %1 to "
                             "evaluate the quality of the two %3.")
                        .arg(noun, task.sourceNoun, nouns);
    if (cot == QLatin1String("prefix"))
        td << QStringLiteral("Begin your evaluation by comparing the two %1 and provide a short explanation. After "
                             "providing your explanation, output your final verdict by strictly following this "
                             "format: ")
                                .arg(nouns)
                        + verdictFormat;
    else if (cot == QLatin1String("suffix"))
        td << QStringLiteral("You must first output your final verdict by strictly following this format: ")
                        + verdictFormat + QStringLiteral(" And then provide your explanation.");
    else
        td << QStringLiteral("You must directly output your final verdict without any explanation by strictly "
                             "following this format: ")
                        + verdictFormat;

    // E = RULE + AUTOCOT
    QString er = QStringLiteral("Here are some rules of the evaluation:\n1. Your evaluation should consider the %1 of "
                                "the %2. %3\n2. Be as objective as possible.\n")
                         .arg(aspect, nouns, criteria == QLatin1String("human") ? in.criteria : QString());
    if (s.valueName(Factor::AutoCot) == QLatin1String("on"))
        er += QStringLiteral("\nEvaluation Steps:\n") + in.autocot + QLatin1Char('\n');

    // I = EXAMPLES "\n" SOURCE "\n" METRICS "\n" [FACT "\n"] REFERENCE "\n" A "\n\n" B
    auto outputs = [&task](const QString &a, const QString &b) {
        return QStringLiteral(
                       "[The Start of %1 A]\n%2\n[The End of %1 A]\n\n[The Start of %1 B]\n%3\n[The End of %1 B]")
                .arg(task.targetName, a, b);
    };
    QString ic;
    if (n > 0) {
        ic += QStringLiteral("\nHere are some examples and their corresponding verdicts:\n");
        for (qsizetype k = 0; k < in.examples.size(); ++k) {
            const PairExample &e = in.examples[k];
            if (k > 0)
                ic += QStringLiteral("\n\n");
            ic += QStringLiteral("# Example %1:\n[%2]\n").arg(k + 1).arg(task.sourceHeader) + e.source
                  + QStringLiteral("\n\n");
            if (!task.factHeader.isEmpty())
                ic += QStringLiteral("[%1]\n").arg(task.factHeader) + e.fact + QLatin1Char('\n');
            ic += outputs(e.outputA, e.outputB) + QStringLiteral("\n\n[Verdict]\n")
                  + (e.prefersA ? QStringLiteral("[[A]]") : QStringLiteral("[[B]]"));
        }
        ic += QStringLiteral("\n\nFollowing these examples, compare the two %1 to the %2 displayed below on their %3:")
                      .arg(nouns, task.sourceNoun, aspect);
    }
    ic += QStringLiteral("\n[%1]\n").arg(task.sourceHeader) + in.source + QLatin1Char('\n');
    if (s.valueName(Factor::Metrics) == QLatin1String("on"))
        ic += QStringLiteral("\n[Questions about %1]\nHere are some questions about the %2. You can do the evaluation "
                             "based on thinking about all the questions.\n")
                      .arg(capitalised(nouns), nouns)
              + in.metrics + QLatin1Char('\n');
    ic += QLatin1Char('\n');
    if (!task.factHeader.isEmpty())
        ic += QStringLiteral("[%1]\n").arg(task.factHeader) + in.fact + QLatin1Char('\n');
    if (reference == QLatin1String("self"))
        ic += QStringLiteral("\n[The Start of Reference %1]\n").arg(capitalised(noun)) + in.reference
              + QStringLiteral("\n[The End of Reference %1]\n").arg(capitalised(noun));
    ic += QLatin1Char('\n') + outputs(in.outputA, in.outputB);

    const QHash<QChar, QString> parts
            = {{QLatin1Char('T'), td.join(QLatin1Char(' '))}, {QLatin1Char('E'), er}, {QLatin1Char('I'), ic}};
    RenderedPrompt out;
    for (int k = 0; k < 3; ++k) {
        const QChar c = order.at(k);
        if (k > 0) // as the pointwise layouts: E ends with its own "\n" and is followed by one more
            out.text += order.at(k - 1) == QLatin1Char('E') ? QStringLiteral("\n") : QStringLiteral("\n\n");
        const int start = int(out.text.size());
        out.text += parts.value(c);
        out.components.append(ComponentSpan{start, int(out.text.size()) - start, c});
    }
    if (!options.systemPrompt.isEmpty())
        out.messages.append(ChatMessage{QStringLiteral("system"), options.systemPrompt});
    out.messages.append(ChatMessage{QStringLiteral("user"), out.text});
    return out;
}

} // namespace rubric::hpss
