#pragma once

// The stacked judge's tests' source judges (TestStackMethod, TestStackViews): judges written
// straight into the store, each criterion the human score plus seeded noise, no endpoint.

#include "store/Project.h"
#include "store/RubricStore.h"

#include <algorithm>
#include <cmath>

namespace rubric::test {

/// A seeded noise in [-1, 1] per (item, criterion): the source judges' imperfect scores.
inline double noise(const QString &item, const QString &criterion)
{
    const quint32 h = qHash(item + QLatin1Char('|') + criterion, 7u);
    return (double(h % 20001) / 10000.0) - 1.0;
}

inline Criterion node(const QString &key, const QString &parent, CriterionKind kind, const QString &text)
{
    Criterion c;
    c.key = key;
    c.parentKey = parent;
    c.kind = kind;
    c.text = text;
    return c;
}

/// A judge of `method` with the given criteria (root "aspect" plus `keys`) scored on `items`: a
/// criterion's score is the human score plus noise (yes/no criteria: above the noisy median), the
/// judge score the mean of its criteria. `fitted` marks the root as an aggregator's (HD-Eval's).
inline bool addJudge(Project &p, const QString &judge, const QString &method, const QStringList &keys,
                     const QStringList &items, bool yesNo, bool fitted = false)
{
    RubricStore store(&p);
    if (!p.ensureJudge(judge, method))
        return false;
    Rubric r(method, QStringLiteral("coherence"));
    Criterion root = node(QStringLiteral("aspect"), {}, CriterionKind::Aspect, QStringLiteral("Coherence"));
    if (fitted)
        root.stats.insert(QStringLiteral("aggregator_model"),
                          QVariantMap{{QStringLiteral("format"), QStringLiteral("x")}});
    r.add(root);
    for (const QString &k : keys)
        if (k != root.key) // G-Eval scores its root
            r.add(node(k, QStringLiteral("aspect"), CriterionKind::Criterion, QStringLiteral("criterion %1").arg(k)));
    if (auto saved = store.saveVersion(judge, r); !saved) {
        qWarning("%s", qPrintable(saved.errorString()));
        return false;
    }
    const QHash<QString, double> human = p.humanScores(QStringLiteral("coherence"));
    QVector<CriterionScore> rows;
    QHash<QString, double> scores;
    for (const QString &id : items) {
        double sum = 0;
        for (int k = 0; k < keys.size(); ++k) {
            CriterionScore s;
            s.itemId = id;
            s.criterionKey = keys[k];
            const double raw = human.value(id) + (1.0 + k) * noise(id, judge + keys[k]);
            s.score = yesNo ? (raw > 3.2 ? 1.0 : 0.0) : std::clamp(std::round(raw), 1.0, 5.0);
            s.parseStatus = QStringLiteral("ok");
            rows.append(s);
            sum += s.score;
        }
        scores.insert(id, sum / keys.size());
    }
    if (auto w = store.writeCriterionScores(judge, rows); !w.ok()) {
        qWarning("%s", qPrintable(w.errorString()));
        return false;
    }
    auto s = p.setJudgeScores(judge, QStringLiteral("coherence"), scores);
    if (!s.ok())
        qWarning("%s", qPrintable(s.errorString()));
    return s.ok();
}

} // namespace rubric::test
