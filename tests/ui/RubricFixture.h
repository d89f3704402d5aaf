#pragma once
// Rubrics for the rubric editor tests: a HypoEval hypothesis list under its aspect and
// G-Eval's evaluation steps, saved with RubricStore as the methods save them.

#include "rubric/Rubric.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QtTest>

namespace rubric::fixture {

/// Aspect root "aspect" with hypotheses h1–h5 (h1–h3 selected, h4 and h5 in the bank only).
inline Rubric hypoEvalRubric()
{
    Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("aspect");
    root.kind = CriterionKind::Aspect;
    root.text = QStringLiteral("coherence");
    root.definition = QStringLiteral("Well structured.");
    root.origin = {{QStringLiteral("method"), QStringLiteral("hypoeval")}};
    // what the run recorded: calls per phase, the literature, the parameters
    root.stats
            = {{QStringLiteral("calls"),
                QVariantMap{{QStringLiteral("init"),
                             QVariantMap{{QStringLiteral("calls"), 1}, {QStringLiteral("sent"), 1}}},
                            {QStringLiteral("selection"),
                             QVariantMap{{QStringLiteral("calls"), 300}, {QStringLiteral("sent"), 75}}}}},
               {QStringLiteral("literature"),
                QVariantList{QVariantMap{{QStringLiteral("title"), QStringLiteral("coherence-models")},
                                         {QStringLiteral("file"), QStringLiteral("coherence-models.txt")},
                                         {QStringLiteral("summary"), QStringLiteral("Entity grids predict coherence.")},
                                         {QStringLiteral("written_by"), QStringLiteral("generator")}}}},
               {QStringLiteral("params"), QVariantMap{{QStringLiteral("k"), 10}, {QStringLiteral("h_max"), 20}}}};
    r.add(root);
    const char *sources[] = {"init", "wrong-bank", "literature", "init", "wrong-bank"};
    for (int i = 0; i < 5; ++i) {
        Criterion h;
        h.key = QStringLiteral("h%1").arg(i + 1);
        h.parentKey = root.key;
        h.kind = CriterionKind::Hypothesis;
        h.text = QStringLiteral("Hypothesis %1: the summary's sentences follow from one another.").arg(i + 1);
        h.enabled = i < 3;
        h.origin = {{QStringLiteral("method"), QStringLiteral("hypoeval")},
                    {QStringLiteral("source"), QString::fromLatin1(sources[i])}};
        if (i == 1 || i == 4)
            h.origin.insert(QStringLiteral("chain"),
                            QVariantList{QVariantMap{}, QVariantMap{}, QVariantMap{}, QVariantMap{}});
        h.stats = {{QStringLiteral("reward"), 0.5 + 0.1 * i},
                   {QStringLiteral("reward_history"),
                    QVariantList{QVariantMap{{QStringLiteral("t"), 3}, {QStringLiteral("reward"), 0.4}},
                                 QVariantMap{{QStringLiteral("t"), 9}, {QStringLiteral("reward"), 0.5 + 0.1 * i}}}},
                   {QStringLiteral("train_pearson"), 0.7 - 0.1 * i},
                   {QStringLiteral("selected_rank"), i < 3 ? i + 1 : 0}};
        r.add(h);
    }
    return r;
}

/// Aspect root with three auto-CoT steps s1–s3.
inline Rubric gevalRubric()
{
    Rubric r(QStringLiteral("geval"), QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("aspect");
    root.kind = CriterionKind::Aspect;
    root.text = QStringLiteral("coherence");
    root.origin
            = {{QStringLiteral("method"), QStringLiteral("geval")}, {QStringLiteral("step"), QStringLiteral("aspect")}};
    r.add(root);
    for (int i = 0; i < 3; ++i) {
        Criterion s;
        s.key = QStringLiteral("s%1").arg(i + 1);
        s.parentKey = root.key;
        s.kind = CriterionKind::Step;
        s.text = QStringLiteral("Step %1: read the summary.").arg(i + 1);
        s.origin = {{QStringLiteral("method"), QStringLiteral("geval")},
                    {QStringLiteral("step"), QStringLiteral("auto-cot")}};
        r.add(s);
    }
    return r;
}

inline void saveJudge(Project &p, const QString &judge, const Rubric &r, const QString &note, double alignment)
{
    QVERIFY(p.ensureJudge(judge, r.method()));
    auto saved = RubricStore(&p).saveVersion(judge, r, note, alignment);
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
}

} // namespace rubric::fixture
