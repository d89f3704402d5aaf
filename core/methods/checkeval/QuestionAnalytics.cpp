#include "QuestionAnalytics.h"

#include "Checklist.h"
#include "QuestionSimilarity.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace rubric {

QVector<QuestionStats> QuestionAnalytics::analyse(const QVector<QuestionAnswers> &answers,
                                                  const QHash<QString, double> &human)
{
    QVector<QuestionStats> out;
    out.reserve(answers.size());
    for (const QuestionAnswers &qa : answers) {
        QuestionStats s;
        s.key = qa.key;
        int yes = 0;
        std::vector<double> x;
        std::vector<double> y;
        for (auto it = qa.answers.cbegin(); it != qa.answers.cend(); ++it) {
            if (std::isnan(it.value()))
                continue;
            ++s.answered;
            yes += it.value() > 0.5 ? 1 : 0;
            const auto h = human.constFind(it.key());
            if (h != human.cend() && !std::isnan(h.value())) {
                x.push_back(it.value() > 0.5 ? 1.0 : 0.0);
                y.push_back(h.value());
            }
        }
        s.correlationN = int(x.size());
        if (s.answered > 0) {
            s.yesRate = double(yes) / s.answered;
            if (yes == s.answered)
                s.constant = QStringLiteral("yes");
            else if (yes == 0)
                s.constant = QStringLiteral("no");
        }
        if (s.answered == 0)
            s.note = tr("no answers");
        else if (!s.constant.isEmpty())
            s.note = tr("always %1: a constant question does not correlate").arg(s.constant);
        else if (s.correlationN < 2)
            s.note = tr("fewer than two answered items with a human score");
        else {
            s.discrimination = stats::pearson(x, y);
            if (std::isnan(s.discrimination))
                s.note = tr("the answered items' human scores are all equal, or their answers are");
        }
        out.append(s);
    }
    return out;
}

double QuestionAnalytics::jaccard(const QString &a, const QString &b)
{
    const QStringList ta = Checklist::normaliseQuestion(a).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const QStringList tb = Checklist::normaliseQuestion(b).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const QSet<QString> sa(ta.begin(), ta.end());
    const QSet<QString> sb(tb.begin(), tb.end());
    const QSet<QString> uni = sa | sb;
    if (uni.isEmpty())
        return 0;
    return double((sa & sb).size()) / double(uni.size());
}

QVector<NearDuplicate> QuestionAnalytics::nearDuplicates(const Rubric &rubric, double threshold)
{
    QVector<Criterion> qs;
    const std::function<void(const QString &)> walk = [&](const QString &parent) {
        for (const Criterion &c : rubric.children(parent)) {
            if (c.kind == CriterionKind::Question)
                qs.append(c);
            walk(c.key);
        }
    };
    walk(QString());
    QStringList texts;
    for (const Criterion &q : std::as_const(qs))
        texts << q.text;
    const QuestionSimilarity measure(texts);
    QVector<NearDuplicate> out;
    for (int i = 0; i < qs.size(); ++i)
        for (int j = i + 1; j < qs.size(); ++j) {
            const bool identical
                    = Checklist::normaliseQuestion(qs.at(i).text) == Checklist::normaliseQuestion(qs.at(j).text);
            const double sim = measure.similarity(qs.at(i).text, qs.at(j).text);
            if (identical || sim >= threshold)
                out.append({qs.at(i).key, qs.at(j).key, sim, identical});
        }
    return out;
}

QVector<QuestionAnswers> QuestionAnalytics::answersFromScores(const Rubric &rubric,
                                                              const QVector<CriterionScore> &scores)
{
    QVector<QuestionAnswers> out;
    QHash<QString, int> index;
    for (const Criterion &q : rubric.ofKind(CriterionKind::Question)) {
        index.insert(q.key, int(out.size()));
        out.append({q.key, {}});
    }
    for (const CriterionScore &s : scores) {
        if (s.sample != 0 || s.parseStatus != QLatin1String("ok") || std::isnan(s.score))
            continue;
        const auto it = index.constFind(s.criterionKey);
        if (it != index.cend())
            out[it.value()].answers.insert(s.itemId, s.score);
    }
    return out;
}

void QuestionAnalytics::writeStats(Rubric &rubric, const QVector<QuestionStats> &stats,
                                   const QVector<NearDuplicate> &duplicates)
{
    QHash<QString, QString> duplicateOf;
    for (const NearDuplicate &d : duplicates)
        if (!duplicateOf.contains(d.second))
            duplicateOf.insert(d.second, d.first);
    QHash<QString, const QuestionStats *> byKey;
    for (const QuestionStats &s : stats)
        byKey.insert(s.key, &s);
    for (Criterion &c : rubric.criteria()) {
        if (c.kind != CriterionKind::Question)
            continue;
        for (const char *k : {"yes_rate", "discrimination", "answered", "constant", "near_duplicate_of"})
            c.stats.remove(QLatin1String(k));
        if (const QuestionStats *s = byKey.value(c.key)) {
            c.stats.insert(QStringLiteral("answered"), s->answered);
            if (!std::isnan(s->yesRate))
                c.stats.insert(QStringLiteral("yes_rate"), s->yesRate);
            if (!std::isnan(s->discrimination))
                c.stats.insert(QStringLiteral("discrimination"), s->discrimination);
            if (!s->constant.isEmpty())
                c.stats.insert(QStringLiteral("constant"), s->constant);
        }
        if (duplicateOf.contains(c.key))
            c.stats.insert(QStringLiteral("near_duplicate_of"), duplicateOf.value(c.key));
    }
}

Result<Rubric> QuestionAnalytics::forJudge(Project &project, const QString &judge, const QStringList &items)
{
    const auto known = project.readJudge(judge);
    if (!known)
        return known.error();
    if (!*known)
        return makeError(tr("no judge named '%1'").arg(judge), {}, 0, QStringLiteral("judge"));
    RubricStore store(&project);
    auto rubric = store.load(judge);
    if (!rubric)
        return rubric.error();
    if (rubric->ofKind(CriterionKind::Question).isEmpty())
        return makeError(tr("judge '%1' (method %2) has no checklist questions").arg(judge, rubric->method()), {}, 0,
                         QStringLiteral("judge"));
    auto human = project.readHumanScores(rubric->aspect());
    if (!human)
        return human.error();
    auto read = store.readSampleScores(judge);
    if (!read)
        return read.error();
    QVector<CriterionScore> scores = std::move(read).value();
    if (!items.isEmpty()) {
        const QSet<QString> keep(items.begin(), items.end());
        scores.erase(std::remove_if(scores.begin(), scores.end(),
                                    [&](const CriterionScore &s) { return !keep.contains(s.itemId); }),
                     scores.end());
    }
    writeStats(*rubric, analyse(answersFromScores(*rubric, scores), *human), nearDuplicates(*rubric));
    return rubric;
}

} // namespace rubric
