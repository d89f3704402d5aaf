#pragma once

#include "rubric/Rubric.h"
#include "store/RubricStore.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace rubric {

class Project;

/// A question chosen for pruning and why.
struct PruneCandidate
{
    QString key;
    QString text;
    double discrimination = std::numeric_limits<double>::quiet_NaN(); ///< point-biserial r (NaN: constant)
    QString constant;                                                 ///< "yes"/"no" when always the same
};

/// A checklist's alignment (Pearson r of the uniform item score with the human score) before and
/// after pruning, from the stored answers: no judge is called.
struct PruneAlignment
{
    double before = std::numeric_limits<double>::quiet_NaN();
    double after = std::numeric_limits<double>::quiet_NaN();
    int items = 0; ///< items with a human score and a score under both checklists
    QString split; ///< "test", or "all" when the project has no test split
};

/// Prune by discrimination: the k asked questions that separate items least, by the figures a run
/// wrote (QuestionAnalytics: "constant", "discrimination" = point-biserial r with the human score).
class QuestionPrune
{
    Q_DECLARE_TR_FUNCTIONS(QuestionPrune)
public:
    /// The `k` least discriminating asked questions: constant ones first (they separate nothing),
    /// then by ascending discrimination (a negative r works against the human score), ties in
    /// checklist order. Questions without figures (never answered) are not candidates. Refused
    /// when k < 1, when fewer than k questions have figures, or when no question would be left.
    static Result<QVector<PruneCandidate>> leastDiscriminating(const Rubric &checklist, int k);

    /// Pearson r of the human scores with the share of met answers over `checklist`'s asked
    /// questions (CheckEval's uniform score), per item of `items` (empty: all) that has both.
    static double alignment(const Rubric &checklist, const QVector<CriterionScore> &scores,
                            const QHash<QString, double> &human, const QStringList &items, int *n = nullptr);

    /// Both alignments for `judge`'s stored answers on the test split (every item when there is
    /// none), against the mean human score of the checklist's aspect.
    static Result<PruneAlignment> compare(Project &project, const QString &judge, const Rubric &before,
                                          const Rubric &after);

    /// After a prune saved `after` as version `newVersion` of `judge` (edited from `before`, its
    /// parent version): records both versions' alignment on the test split from the stored
    /// answers (compare(): no judge is called; the old version's own test figure is kept when it
    /// has one) and the new version's on the train split, so the version list shows them side by
    /// side. The basis names the split, the items and that the figure comes from stored answers.
    static Result<PruneAlignment> recordAlignment(Project &project, const QString &judge, const Rubric &before,
                                                  int newVersion, const Rubric &after);
};

} // namespace rubric
