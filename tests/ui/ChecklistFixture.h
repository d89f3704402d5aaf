#pragma once
// CheckEval checklists for the studio tests, in the shared checklist shape (root "aspect",
// sub-aspects s1, s2, questions q1–q5 with origin stage and stats as a run writes them), and
// their answers written through RubricStore as the run writes them (answer 1 = yes, 0 = no as the
// judge said it; score 1 = meets the criterion, 0 = does not — the answer, or its opposite for an
// inverted question; NaN "unparsed" = unanswered, "failed" = refused; raw = the call's answer).

#include "rubric/Rubric.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QtTest>

#include <cmath>

namespace rubric::fixture {

/// s1 "Logical flow": q1 (seed, discriminates), q2 (diversification, always yes), q3
/// (elaboration, removed by the filter). s2 "Clarity": q4 (seed, "yes" reads as worse), q5
/// (elaboration, near-duplicate of q1).
inline Rubric checklistRubric()
{
    const QString method = QStringLiteral("checkeval");
    Rubric r(method, QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("aspect");
    root.kind = CriterionKind::Aspect;
    root.text = QStringLiteral("coherence");
    root.definition = QStringLiteral("The summary is well structured.");
    root.origin = {{QStringLiteral("method"), method}};
    r.add(root);
    const auto sub = [&](const QString &key, const QString &text) {
        Criterion s;
        s.key = key;
        s.parentKey = root.key;
        s.kind = CriterionKind::SubAspect;
        s.text = text;
        s.origin = {{QStringLiteral("method"), method}};
        r.add(s);
    };
    const auto question = [&](const QString &key, const QString &parent, const QString &text, const QString &stage,
                              const QVariantMap &stats) {
        Criterion q;
        q.key = key;
        q.parentKey = parent;
        q.kind = CriterionKind::Question;
        q.text = text;
        q.origin = {{QStringLiteral("method"), method}, {QStringLiteral("stage"), stage}};
        if (stage != QLatin1String("seed"))
            q.origin.insert(QStringLiteral("seed"), QStringLiteral("q1"));
        q.stats = stats;
        r.add(q);
    };
    sub(QStringLiteral("s1"), QStringLiteral("Logical flow"));
    question(QStringLiteral("q1"), QStringLiteral("s1"), QStringLiteral("Do the sentences follow from one another?"),
             QStringLiteral("seed"),
             {{QStringLiteral("yes_rate"), 0.5},
              {QStringLiteral("discrimination"), 0.71},
              {QStringLiteral("answered"), 6}});
    question(QStringLiteral("q2"), QStringLiteral("s1"), QStringLiteral("Is the summary written in English?"),
             QStringLiteral("diversification"),
             {{QStringLiteral("yes_rate"), 1.0},
              {QStringLiteral("discrimination"), 0.05},
              {QStringLiteral("answered"), 6},
              {QStringLiteral("constant"), QStringLiteral("yes")}});
    question(QStringLiteral("q3"), QStringLiteral("s1"), QStringLiteral("Do the sentences follow one another?"),
             QStringLiteral("elaboration"), {});
    r.criteria().last().enabled = false;
    r.criteria().last().origin.insert(QStringLiteral("filtered"), QStringLiteral("duplicate of q1"));
    sub(QStringLiteral("s2"), QStringLiteral("Clarity"));
    question(QStringLiteral("q4"), QStringLiteral("s2"),
             QStringLiteral("Does the summary contain repetitive sentences?"), QStringLiteral("seed"),
             {{QStringLiteral("yes_rate"), 0.33},
              {QStringLiteral("discrimination"), -0.4},
              {QStringLiteral("answered"), 6}});
    question(QStringLiteral("q5"), QStringLiteral("s2"), QStringLiteral("Do the sentences follow on from one another?"),
             QStringLiteral("elaboration"),
             {{QStringLiteral("yes_rate"), 0.6},
              {QStringLiteral("discrimination"), 0.35},
              {QStringLiteral("answered"), 5},
              {QStringLiteral("near_duplicate_of"), QStringLiteral("q1")}});
    return r;
}

/// One answer of a judge as it said it: 1 yes, 0 no, NaN unanswered ("unparsed") — or refused ("failed").
struct Answer
{
    Answer(const char *itemId, const char *key, double value, const QString &parseStatus = QStringLiteral("ok"))
        : item(QString::fromLatin1(itemId))
        , question(QString::fromLatin1(key))
        , score(value)
        , status(parseStatus)
    {
    }
    QString item;
    QString question;
    double score;
    QString status;
};

/// Keys written as literals ({"q1", "q2"}).
inline QStringList keys(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *k : list)
        out << QString::fromLatin1(k);
    return out;
}

/// Saves `rubric` as version 1 of `judge` (method checkeval) and writes its answers; every
/// answer's raw text is "<judge> on <item>: <question>: yes|no|?" (the call's whole answer).
inline void writeChecklistJudge(Project &p, const QString &judge, const Rubric &rubric, const QVector<Answer> &answers)
{
    QVERIFY(p.ensureJudge(judge, QStringLiteral("checkeval")));
    auto saved = RubricStore(&p).saveVersion(judge, rubric, QStringLiteral("checklist"));
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
    QVector<CriterionScore> rows;
    QHash<QString, QPair<int, int>> perItem; // yes, answered
    for (const Answer &a : answers) {
        CriterionScore s;
        s.itemId = a.item;
        s.criterionKey = a.question;
        // As CheckEvalMethod stores it: the literal answer, and whether it meets the criterion.
        const Criterion *q = rubric.find(a.question);
        const bool inverted = q && q->origin.value(QStringLiteral("inverted")).toBool();
        s.answer = a.score;
        s.score = std::isnan(a.score) ? a.score : (inverted ? 1.0 - a.score : a.score);
        s.parseStatus = std::isnan(a.score) && a.status == QLatin1String("ok") ? QStringLiteral("unparsed") : a.status;
        s.raw = QStringLiteral("%1 on %2: %3: %4")
                        .arg(judge, a.item, a.question,
                             std::isnan(a.score) ? QStringLiteral("?")
                                                 : (a.score > 0.5 ? QStringLiteral("yes") : QStringLiteral("no")));
        s.reasoning = QStringLiteral("%1 reasoned about %2").arg(judge, a.question);
        rows.append(s);
        if (!std::isnan(s.score)) {
            ++perItem[a.item].second;
            if (s.score > 0.5)
                ++perItem[a.item].first;
        }
    }
    auto written = RubricStore(&p).writeCriterionScores(judge, rows);
    QVERIFY2(written.ok(), qPrintable(written.errorString()));
    QHash<QString, double> scores;
    for (auto it = perItem.cbegin(); it != perItem.cend(); ++it)
        scores.insert(it.key(), double(it->first) / it->second);
    auto judged = p.setJudgeScores(judge, rubric.aspect(), scores);
    QVERIFY2(judged.ok(), qPrintable(judged.errorString()));
}

} // namespace rubric::fixture
