#pragma once

#include "util/Result.h"

#include <QString>
#include <QVariantMap>
#include <QVector>

namespace rubric {

class Project;

namespace stack {

/// One stacked criterion's part in an item's score.
struct CriterionPart
{
    QString key;   ///< "judge/criterion"
    QString judge; ///< the source judge
    QString text;
    double score = 0;        ///< the source judge's score (NaN: none; the aggregator used the train mean)
    double contribution = 0; ///< its additive share of the prediction (learn::Contributions)
};

/// An item's score under a stacked judge, criterion by criterion: prediction = base + Σ contributions.
struct Explanation
{
    QString item;
    QString aspect;
    QString aggregator;
    int version = 0;
    double prediction = 0;
    double base = 0;
    double stored = 0;            ///< the judge score stored for the item (NaN: none)
    QVector<CriterionPart> parts; ///< largest |contribution| first

    QVariantMap toMap() const;
};

/// Whether `judge` is a stacked judge (its latest rubric is of the stack method).
Result<bool> isStackJudge(Project *project, const QString &judge);

/// Explains item `itemId` under the stacked judge `judge` from its stored aggregator and the
/// criterion scores it stacked; sends nothing. Fails when the judge is not a finished stacked judge
/// or the item has no stacked score.
Result<Explanation> explainItem(Project *project, const QString &judge, const QString &itemId);

} // namespace stack
} // namespace rubric
