#pragma once

#include "Aggregator.h"

#include <QString>
#include <QVector>

namespace rubric::learn {

/// Which unlabelled item to label next, by expected gain: a committee of aggregators, each fitted
/// on a bootstrap resample of the labelled rows (query by committee over the judges' criteria),
/// predicts every unlabelled row; where the committee disagrees most, a label moves the fit most.
/// The spread is weighted by the row's density among the unlabelled rows (its mean similarity to
/// them in the standardised feature space), so an outlier, on which the committee disagrees for
/// want of neighbours, does not lead the list: gain = sd of the committee × density^densityPower.
struct AcquisitionSettings
{
    AcquisitionSettings() { aggregator.kind = AggregatorKind::Ridge; }

    AggregatorSettings aggregator; ///< the committee's members (ridge by default)
    int committee = 20;            ///< bootstrap fits
    double densityPower = 1.0;     ///< 0: the spread alone
    quint64 seed = 1;
};

struct AcquisitionScore
{
    int row = -1;         ///< into the matrix given
    double spread = 0;    ///< sd of the committee's predictions (the human scale)
    double density = 0;   ///< 0…1: mean similarity to the unlabelled rows
    double gain = 0;      ///< spread × density^power: the ranking figure
    double predicted = 0; ///< the committee's mean prediction
};

/// Ranks the unlabelled rows of X (n × p, NaN = missing; `y` NaN on the unlabelled rows) by
/// expected gain, largest first. Needs at least 3 labelled rows; deterministic for a seed.
Result<QVector<AcquisitionScore>> rankByExpectedGain(const Eigen::MatrixXd &x, const Eigen::VectorXd &y,
                                                     const AcquisitionSettings &settings);

} // namespace rubric::learn
