#pragma once

#include "util/Result.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

#include <Eigen/Dense>

namespace rubric {

class Project;

/// One column of what the project's judges measured on an aspect: a criterion of a judge's latest
/// rubric (its per-item mean score), or the judge's own (aggregated) score. Read by the stacked
/// judge (its features) and by the label suggestions (a committee of the judges' criteria).
struct JudgeFeature
{
    QString judge;
    QString method;       ///< the judge's method ("" for imported scores)
    QString criterionKey; ///< empty: the judge's own score
    QString text;         ///< the criterion's text, or "judge score"
    QString definition;
    /// A judge score that an aggregator fitted on the train labels (its rubric keeps an
    /// "aggregator_model"): in-sample on the train items, so a learner should not trust it there.
    bool fitted = false;

    bool isJudgeScore() const { return criterionKey.isEmpty(); }
    /// "judge/key", or "judge/score" for the judge's own score: the column's name.
    QString name() const;
    /// Parses a name() back into judge and criterion ("judge/score": the judge's score); false
    /// when it has no '/'.
    static bool parseName(const QString &name, QString *judge, QString *criterionKey);

    friend bool operator==(const JudgeFeature &, const JudgeFeature &) = default;
};

/// The judges' measurements of some items as a matrix.
struct JudgeFeatureTable
{
    QVector<JudgeFeature> features;
    QStringList items; ///< row order
    Eigen::MatrixXd x; ///< items × features; NaN where there is no score
    /// Per row and column: whether the judge recorded anything for the item (an answer without a
    /// score — unparsed, refused — counts: it was asked). False = never asked.
    Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> asked;
};

/// Every column the project's judges offer on `aspect`, judge by judge (in the project's judge
/// order), leaving out the judges named in `exclude`: each enabled criterion of a judge's latest
/// rubric that has a stored score, then the judge's own score when it has scores on the aspect.
/// A judge whose rubric is for another aspect and that has no score on this one is skipped, and so
/// is a criterion copied from another judge (origin "source_judge": a stacked judge's), counted at
/// its source.
Result<QVector<JudgeFeature>> availableJudgeFeatures(Project *project, const QString &aspect,
                                                     const QStringList &exclude = {});

/// Reads `features` for `items` (row order) from the store; sends nothing.
Result<JudgeFeatureTable> readJudgeFeatures(Project *project, const QString &aspect,
                                            const QVector<JudgeFeature> &features, const QStringList &items);

} // namespace rubric
