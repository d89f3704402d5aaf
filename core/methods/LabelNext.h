#pragma once

#include "learn/Acquisition.h"
#include "methods/JudgeFeatures.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace rubric {

class Project;

/// "Label next, by expected gain" for one aspect: the committee of learn::rankByExpectedGain over
/// every criterion (and judge score) the project's judges measured, fitted on the items a human
/// scored; the unlabelled items outside the test split ranked by how much a label is expected to
/// move that fit. Also the fit's cross-validated alignment on the labelled items, the figure a new
/// label moves. Reads the store; sends nothing.
struct LabelNextSuggestion
{
    QString item;       ///< the top suggestion ("" when none)
    QString reason;     ///< why, in words
    double spread = 0;  ///< the committee's sd there
    double density = 0; ///< 0…1
    QStringList ranked; ///< every candidate, best first
};

struct LabelNextState
{
    int labelled = 0; ///< items with a human score on the aspect (outside the test split)
    int features = 0; ///< criteria used
    int judges = 0;
    double cvR = 0; ///< cross-validated Pearson of the fit on the labelled items (NaN: undefined)
    QString cv;     ///< "5-fold", …
    LabelNextSuggestion next;
};

/// What the ranking fits on, as columns: the items outside the test split in import order, the
/// mean human score of the aspect and the judges' measurements of them.
struct GainColumns
{
    QStringList ids;   ///< the items' external ids, in import order
    Eigen::VectorXd y; ///< the mean of the item's annotators on the aspect; NaN where none
    Eigen::MatrixXd x; ///< items × `features` asked; NaN where there is no score
};

/// Reads GainColumns for `features` (a judge's score by item key; a criterion: the mean of its
/// scored samples), with no text and no string-keyed table per judge (one per judge with
/// criteria). Sends nothing.
Result<GainColumns> readGainColumns(Project *project, const QString &aspect, const QVector<JudgeFeature> &features);

/// The feature columns: every judge's on the aspect (availableJudgeFeatures) that has a value on at
/// least 3 of `labelled`.
QVector<JudgeFeature> usableFeatures(const JudgeFeatureTable &table, const QVector<int> &labelledRows);

/// Ranks the unlabelled non-test items of `aspect` and measures the current fit. An error when
/// the project cannot be read, no judge has scored the aspect, fewer than 3 items are labelled, or
/// more than 5,000 items are unlabelled (the density compares every pair of them). Reads columns
/// only (readGainColumns): a million items cost tens of megabytes; the studio calls it on a worker.
Result<LabelNextState> labelNextByExpectedGain(Project *project, const QString &aspect,
                                               const learn::AcquisitionSettings &settings = {});

} // namespace rubric
