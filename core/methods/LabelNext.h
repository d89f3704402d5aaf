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

/// The feature columns: every judge's on the aspect (availableJudgeFeatures) that has a value on at
/// least 3 of `labelled`.
QVector<JudgeFeature> usableFeatures(const JudgeFeatureTable &table, const QVector<int> &labelledRows);

/// Ranks the unlabelled non-test items of `aspect` and measures the current fit. An error when
/// the project cannot be read, no judge has scored the aspect, or fewer than 3 items are labelled.
Result<LabelNextState> labelNextByExpectedGain(Project *project, const QString &aspect,
                                               const learn::AcquisitionSettings &settings = {});

} // namespace rubric
