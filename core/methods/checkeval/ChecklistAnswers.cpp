#include "ChecklistAnswers.h"

#include "judge/AnswerParser.h"
#include "methods/checkeval/Checklist.h"

#include <QRegularExpression>
#include <QSet>

#include <cmath>

namespace rubric::checkeval {

QHash<int, bool> parseAnswers(const QString &text, int questions)
{
    const ParsedAnswer parsed = AnswerParser::parseYesNo(text);
    QHash<int, bool> out;
    for (auto it = parsed.answers.cbegin(); it != parsed.answers.cend(); ++it) {
        const int index = it.key().mid(1).toInt();
        if (index >= 1 && index <= questions)
            out.insert(index, it.value());
    }
    return out;
}

bool meetsCriterion(const Criterion &question, bool yes)
{
    return yes != Checklist::isInverted(question);
}

ItemChecklistScore scoreItem(const Rubric &rubric, const QHash<QString, double> &answers, bool missingIsNo)
{
    ItemChecklistScore s;
    for (const Criterion &q : Checklist::askedQuestions(rubric)) {
        ++s.questions;
        const double a = answers.value(q.key, std::numeric_limits<double>::quiet_NaN());
        if (std::isnan(a))
            continue;
        ++s.answered;
        if (a > 0.5)
            ++s.yes;
    }
    if (s.questions > 0)
        s.coverage = double(s.answered) / s.questions;
    const int denominator = missingIsNo ? s.questions : s.answered;
    if (s.answered > 0 && denominator > 0)
        s.score = double(s.yes) / denominator;
    return s;
}

QHash<QString, double> checklistCoverage(const Rubric &rubric, const QVector<CriterionScore> &scores)
{
    QSet<QString> enabled;
    for (const Criterion &q : Checklist::askedQuestions(rubric))
        enabled.insert(q.key);
    QHash<QString, QHash<QString, double>> byItem;
    for (const CriterionScore &s : scores)
        if (s.sample == 0 && enabled.contains(s.criterionKey))
            byItem[s.itemId].insert(s.criterionKey, s.parseStatus == QLatin1String("ok") ? s.score : std::nan(""));
    QHash<QString, double> out;
    for (auto it = byItem.cbegin(); it != byItem.cend(); ++it)
        out.insert(it.key(), scoreItem(rubric, it.value(), false).coverage);
    return out;
}

} // namespace rubric::checkeval
