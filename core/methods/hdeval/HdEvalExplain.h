#pragma once

#include "util/Result.h"

#include <QString>
#include <QVariantMap>
#include <QVector>

namespace rubric {

class Project;

namespace hdeval {

/// One node's part in an item's HD-Eval score.
struct NodeContribution
{
    QString key;
    QString text;
    int layer = 1;
    double score = 0;        ///< the judge's node score (NaN: none; the aggregator used the training mean)
    double contribution = 0; ///< its additive share of the prediction (see learn::Contributions)
};

/// An item's score under a finished HD-Eval judge, node by node: prediction = base + Σ contributions
/// (linear and ridge: weight × centred score; trees: TreeSHAP; mlp: DeepLIFT; mean: weight × score).
struct Explanation
{
    QString item;
    QString aspect;
    QString aggregator; ///< the aggregator's kind
    int version = 0;    ///< the rubric version whose aggregator explains it
    double prediction = 0;
    double base = 0;
    double stored = 0;               ///< the judge score stored for the item (NaN: none)
    QVector<NodeContribution> nodes; ///< largest |contribution| first

    QVariantMap toMap() const;
};

/// Explains item `itemId` under judge `judge` from the stored tree, aggregator and node scores;
/// sends nothing. Fails when the judge is not a finished HD-Eval judge or the item has no node score.
/// `aspect`: which layer-1 aspect's score (a tree over several aspects); empty = the judge's own.
Result<Explanation> explainItem(Project *project, const QString &judge, const QString &itemId,
                                const QString &aspect = {});

} // namespace hdeval
} // namespace rubric
