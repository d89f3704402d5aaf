#pragma once

#include "learn/Aggregator.h"
#include "util/Result.h"

#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <Eigen/Dense>

namespace rubric {

class Project;

namespace hdeval {

/// One point of an efficiency curve: the test r of each seed's fit, their mean and sample sd.
struct CurvePoint
{
    int x = 0; ///< training items (data efficiency) or nodes kept (criteria efficiency)
    QVector<double> values;
    double mean = 0, sd = 0;
};

struct CurveOptions
{
    learn::AggregatorSettings aggregator; ///< the aggregator to fit at every point
    QVector<int> sizes;                   ///< training-set sizes; empty = 5, 10, 15, … up to every train item
    int seeds = 5;
    quint64 seed = 1;
    int layers = 3;
};

/// The paper's data-efficiency curve (alignment against the number of training items, several
/// seeds: each seed draws that many train items and fits) and criteria-efficiency curve (alignment
/// against the number of nodes kept, the nodes ranked by permutation importance on the whole train
/// split, the same aggregator fitted on the top k). Test r on the test items with a node score (the
/// Compare pane's items), from the stored node scores: sends nothing. Deterministic for a seed.
struct EfficiencyCurves
{
    QString aspect, aggregator;
    int nTrain = 0, nTest = 0, seeds = 0;
    QVector<CurvePoint> data, criteria;
    QStringList ranking; ///< the nodes by importance, most important first

    QVariantMap toMap() const;
};

Result<EfficiencyCurves> efficiencyCurves(Project *project, const QString &judge, const CurveOptions &options);

/// A SHAP-style summary of the stored aggregator over the test items with a node score: each node's
/// mean |contribution| and the per-item contributions with the node's score (for a beeswarm).
/// `method` names what the contributions are: exact Shapley values for the linear, ridge and mean
/// aggregators (a centred score times its weight), TreeSHAP for the trees, the DeepLIFT rescale rule
/// (an additive attribution, not Shapley values) for the MLP.
struct ContributionSummary
{
    QString aspect, aggregator, method;
    QStringList nodes;       ///< by mean |contribution|, largest first
    Eigen::VectorXd meanAbs; ///< per node (in `nodes` order)
    Eigen::MatrixXd values;  ///< items × nodes
    Eigen::MatrixXd scores;  ///< items × nodes, the node scores (NaN: imputed)
    QStringList items;

    QVariantMap toMap() const;
};

Result<ContributionSummary> contributionSummary(Project *project, const QString &judge, const QString &aspect = {});

/// The full model against each of the paper's ablations (Table 4), all fitted here on the train split
/// from the stored node scores and compared on the same test items (those with a node score): the
/// difference of test r with its paired bootstrap interval, a paired permutation p and Williams' p
/// (stats::compareJudges); and the spread of the full model's test r over seeds.
struct AblationTest
{
    QString tag; ///< "without_layer_3", "without_layers_2_3", "without_aggregator"
    double fullR = 0, ablationR = 0, difference = 0, lo = 0, hi = 0, permutationP = 0, williamsP = 0;
    int n = 0;
};

struct AblationReport
{
    QString aggregator;
    QVector<double> seedR; ///< the full model's test r per seed (1 … seeds)
    double mean = 0, sd = 0, min = 0, max = 0;
    QVector<AblationTest> tests;

    QVariantMap toMap() const;
};

Result<AblationReport> ablationReport(Project *project, const QString &judge, const learn::AggregatorSettings &full,
                                      int seeds = 5, quint64 seed = 1);

} // namespace hdeval
} // namespace rubric
