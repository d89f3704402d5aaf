#pragma once

// What the studio does to an HD-Eval judge outside a run, as plain functions (no widgets): re-fit
// another aggregator from the stored node scores, set the selection for expansion by hand, add a
// node, and propose children for one node through the generator. Each change is saved as a new
// rubric version of the judge (RubricStore), in the storage shape the run writes (stats "layer",
// "importance" {aspect: x}, "selected"; the aggregator in each layer-1 node's stats).

#include "HdEvalAggregate.h"
#include "HdEvalTree.h"
#include "data/JudgeTypes.h"
#include "judge/Provider.h"

#include <QObject>

#include <functional>

namespace rubric {

class Project;

namespace hdeval {

/// A re-fit: the aggregator and the figures the run would compute on the same node scores.
struct RefitOptions
{
    learn::AggregatorSettings aggregator; ///< kind and its settings
    quint64 seed = 1;
    int cvFolds = 5; ///< 0 = leave-one-out
    int importanceRepeats = 5;
    int layers = 3;                           ///< nodes of deeper layers are left out (1 and 2: the paper's ablations)
    GroupFolds groupFolds = GroupFolds::Auto; ///< cross-validation folds by the items' group
};

struct RefitOutcome
{
    int version = 0;     ///< the rubric version saved with the new aggregator
    int scoredItems = 0; ///< items with a new judge score (any node score)
    FitResult fit;       ///< figures per aspect; fit.description is show-rubric's "aggregator"
};

/// A judge's stored node scores and human scores as the fit reads them (0 calls): the train and test
/// items with a node score and a human score, every item with a node score, in FitData's shape.
struct StoredFitData
{
    Rubric tree;
    FitData data;
    QStringList train, test, all; ///< item ids of the rows of xTrain, xTest, xAll
};
/// Fails as refit() does (no HD-Eval tree, fewer than 2 annotated train items with node scores).
Result<StoredFitData> loadFitData(Project *project, const QString &judge, int layers = 3);

/// Fits `options.aggregator` on the judge's stored node scores (train split) and human scores of
/// every layer-1 aspect, cross-validates, scores the test split against the baselines, writes the
/// fit into a new rubric version (storeFit) and the predictions as the judge's scores per aspect,
/// with the alignment figures. Sends nothing. Fails when the judge has no HD-Eval tree, a node has
/// no score on the train items, or fewer than 2 train items have a human score.
Result<RefitOutcome> refit(Project *project, const QString &judge, const RefitOptions &options);

/// Marks exactly `keys` (layer-2 nodes) as selected for expansion, by hand (stats "selected",
/// "selected_by": "hand"); the next run of the judge decomposes them into layer 3 instead of
/// pruning's choice. Returns the saved version. An unknown or non-layer-2 key is an error naming it.
Result<int> setSelection(Project *project, const QString &judge, const QStringList &keys);

/// Adds a node under `parentKey` (a hand-written one, or a generator's proposal accepted in the
/// studio): a unique key from child.key / child.name (makeKey), its layer in the stats, `origin`
/// merged into the node's origin ({"method": "hdeval", "parent": …, "step": "hand"} by default).
/// Returns the new node's key; the rubric is saved as a new version. Its scores come with the
/// judge's next run (one call per item).
Result<QString> addNode(Project *project, const QString &judge, const QString &parentKey, const ProposedChild &child,
                        const QVariantMap &origin = {});

/// The generator request the run sends to decompose `parents` (the hdeval_decompose template with
/// the judge's task and aspect; one group when several are given), so a proposal made here is
/// answered from the judge cache when the run asks the same.
Result<JudgeRequest> decompositionRequest(Project *project, const QString &judge, const QVector<Criterion> &parents,
                                          int children, double temperature = 0, int maxTokens = 1024);

/// Asks `generator` for about `children` children of node `nodeKey` (one call, cached in the
/// project) and hands the proposals to `done` on the event loop, at most `children`, not added to
/// the tree (addNode adds the accepted ones). An error reaches `done` when the node is unknown, the
/// call fails or the answer holds no "Name: definition" line. The request runs under `context`'s
/// lifetime: when it is destroyed first, `done` is not called.
void proposeChildren(Project *project, const QString &judge, const QString &nodeKey, const ProviderProfile &generator,
                     int children, QObject *context, std::function<void(Result<QVector<ProposedChild>>)> done);

} // namespace hdeval
} // namespace rubric
