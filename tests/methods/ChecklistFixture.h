#pragma once
// The fixture of tests/methods/make_checkeval_reference.py (3 judges x 24 items x 6 questions)
// as a checklist and stored criterion scores, shared by the question-analytics and CLI tests.

#include "rubric/Rubric.h"
#include "store/RubricStore.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace rubric::test {

inline QJsonObject checklistReference()
{
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/tests/methods/checkeval_reference.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// The fixture's checklist: "Flow" (q1–q3) and "Facts" (q4–q6).
inline rubric::Rubric fixtureChecklist()
{
    rubric::Rubric r(QStringLiteral("checkeval"), QStringLiteral("coherence"));
    r.add({QStringLiteral("aspect"),
           {},
           rubric::CriterionKind::Aspect,
           QStringLiteral("coherence"),
           QStringLiteral("d")});
    r.add({QStringLiteral("s1"), QStringLiteral("aspect"), rubric::CriterionKind::SubAspect, QStringLiteral("Flow")});
    r.add({QStringLiteral("s2"), QStringLiteral("aspect"), rubric::CriterionKind::SubAspect, QStringLiteral("Facts")});
    const QStringList texts{QStringLiteral("Is the order of ideas logical?"),
                            QStringLiteral("Do the sentences connect smoothly?"),
                            QStringLiteral("Does each paragraph keep one topic?"),
                            QStringLiteral("Are the numbers taken from the source?"),
                            QStringLiteral("Are the names spelled as in the source?"),
                            QStringLiteral("Is every claim supported by the source?")};
    for (int i = 0; i < 6; ++i)
        r.add({QStringLiteral("q%1").arg(i + 1), i < 3 ? QStringLiteral("s1") : QStringLiteral("s2"),
               rubric::CriterionKind::Question, texts.at(i)});
    return r;
}

/// The fixture's answers of one judge as stored criterion scores. A missing answer is stored
/// as "unparsed" (NaN) for even items and left out for odd ones: both mean no answer.
inline QVector<rubric::CriterionScore> fixtureScores(const QJsonObject &ref, const QString &judge)
{
    QVector<rubric::CriterionScore> out;
    const QJsonObject byQ = ref.value(QStringLiteral("answers")).toObject().value(judge).toObject();
    for (auto q = byQ.begin(); q != byQ.end(); ++q) {
        const QJsonObject byItem = q.value().toObject();
        for (auto it = byItem.begin(); it != byItem.end(); ++it) {
            rubric::CriterionScore s;
            s.itemId = it.key();
            s.criterionKey = q.key();
            if (it.value().isNull()) {
                if (it.key().right(1).toInt() % 2 == 1)
                    continue;
                s.parseStatus = QStringLiteral("unparsed");
            } else {
                s.score = it.value().toDouble();
                s.parseStatus = QStringLiteral("ok");
            }
            out.append(s);
        }
    }
    // A second sample, the opposite of the first, is not an answer of the checklist run (sample 0 only).
    const QJsonValue first = byQ.value(QStringLiteral("q1")).toObject().value(QStringLiteral("i00"));
    out.append({QStringLiteral("i00"), QStringLiteral("q1"), 1, first.isNull() ? 1.0 : 1.0 - first.toDouble(),
                QStringLiteral("ok")});
    return out;
}

} // namespace rubric::test
