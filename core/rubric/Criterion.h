#pragma once

#include <QString>
#include <QVariantMap>

namespace rubric {

/// What a node of a rubric stands for. One uniform tree holds every method's rubric:
/// a HypoEval hypothesis list, a CheckEval checklist (aspect → sub-aspect → question),
/// an HD-Eval criteria tree, G-Eval's evaluation steps.
enum class CriterionKind { Aspect, Hypothesis, SubAspect, Question, Criterion, Step };

QString criterionKindName(CriterionKind kind);
/// Parses a kind name ("aspect", "hypothesis", "sub-aspect", "question", "criterion", "step");
/// false when unknown.
bool parseCriterionKind(const QString &name, CriterionKind *kind);

/// One node of a rubric. `key` is stable across versions of the rubric (scores refer to it);
/// `parentKey` is empty for a root. `origin` says where the node came from (method, step,
/// call key, refinement lineage, edited by whom); `stats` holds what the method measured
/// (reward history, train correlation …). Both are JSON objects kept as QVariantMap.
struct Criterion
{
    QString key;
    QString parentKey;
    CriterionKind kind = CriterionKind::Criterion;
    QString text;
    QString definition;
    bool enabled = true;
    double weight = 1.0;
    int position = 0;
    QVariantMap origin;
    QVariantMap stats;

    friend bool operator==(const Criterion &, const Criterion &) = default;
};

} // namespace rubric
