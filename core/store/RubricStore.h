#pragma once

#include "rubric/Rubric.h"
#include "util/Result.h"

#include <QHash>
#include <QString>
#include <QVariantMap>
#include <QVector>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace rubric {

class Project;

/// One stored judge answer for (item, criterion, sample).
struct CriterionScore
{
    QString itemId;
    QString criterionKey;
    int sample = 0;
    double score = std::numeric_limits<double>::quiet_NaN(); ///< NaN = no score (see parseStatus)
    QString parseStatus; ///< "ok", "unparsed" (answer had no score), "failed" (no answer)
    QString raw;         ///< the judge's answer text
    QString reasoning;   ///< the judge's reasoning (chain of thought) when separated from the score
    QString callKey;     ///< the judge cache key of the call that produced it
    /// A yes/no criterion's answer as the judge gave it (1 yes, 0 no; NaN none, or not a yes/no
    /// criterion). For a checklist question `score` is whether that answer meets the criterion
    /// (1 met, 0 not): the same as the answer, or its opposite when the question is inverted.
    double answer = std::numeric_limits<double>::quiet_NaN();
};

/// The samples of one (item, criterion) pair, summarised for heatmaps and editors.
struct ItemCriterionScores
{
    QString itemId;
    QString criterionKey;
    QVector<double> samples;                                ///< by sample index; NaN where a sample has no score
    double mean = std::numeric_limits<double>::quiet_NaN(); ///< mean of the scored samples
    QString parseStatus; ///< "ok" when every sample parsed, else the first other status
    QString raw;         ///< answer of sample 0
    QString reasoning;   ///< reasoning of sample 0
};

/// Persistence of rubrics (versioned criteria trees), per-criterion scores and run state
/// in the project file (tables rubric_versions, criteria, criterion_scores, runs).
///
/// A thin, copyable view over a Project (not owned; must outlive the store). Usable from any
/// thread (the Project hands each thread its own connection). Every multi-row write is one
/// transaction; after a successful write the project's `judgesChanged(judge)` is emitted.
/// Errors come back as values; readers return empty results when the judge is unknown.
/// The `read…()` readers return an error when the file cannot be read (locked, damaged, a table
/// missing), so that a broken project never reads as one without rubrics or scores; the plain
/// readers of the same data return an empty value then and are for tests and callers that have
/// just read the same data successfully.
class RubricStore
{
public:
    explicit RubricStore(Project *project);

    // --- rubric versions
    /// Saved versions of the judge's rubric, oldest first.
    Result<QVector<RubricVersionInfo>> readVersions(const QString &judge) const;
    QVector<RubricVersionInfo> versions(const QString &judge) const;
    /// Highest saved version, 0 when there is none.
    Result<int> readLatestVersion(const QString &judge) const;
    int latestVersion(const QString &judge) const;
    /// Criteria of one version (0 = latest) in position order; empty when it does not exist.
    Result<QVector<Criterion>> readCriteria(const QString &judge, int version = 0) const;
    QVector<Criterion> criteria(const QString &judge, int version = 0) const;
    /// The whole rubric of one version (0 = latest); an error when the judge has none.
    Result<Rubric> load(const QString &judge, int version = 0) const;
    /// The judge's latest rubric, or none when it has no version yet (a judge about to make its
    /// first); a project that cannot be read is an error, never "none".
    Result<std::optional<Rubric>> loadLatest(const QString &judge) const;
    /// Saves all criteria as a new version of the judge's rubric (one transaction) and returns
    /// its number (previous + 1). The judge must exist (Project::ensureJudge). Its parent is the
    /// version the rubric was loaded from (Rubric::version()), the latest for a new rubric.
    Result<int> saveVersion(const QString &judge, const Rubric &rubric, const QString &note = {},
                            std::optional<double> alignment = std::nullopt);
    /// Updates the measures (stats and weight) of the given criteria, found by key, in a saved
    /// version of the judge's rubric, in one transaction (e.g. what a method learnt from the train
    /// split after the version was saved). Emits nothing.
    Result<void> setCriterionMeasures(const QString &judge, int version, const QVector<Criterion> &criteria);
    /// Updates the alignment figure of a saved version. A non-empty `basis` (what the figure
    /// was measured on, e.g. "Pearson with the human scores on the test split, n = 40") is
    /// appended to the version's note, so the number is never shown without it.
    Result<void> setAlignment(const QString &judge, int version, double alignment, const QString &basis = {});
    /// Records the version's alignment on the test split with what it was measured on (kept
    /// apart from the train-split figure above, shown only on request).
    Result<void> setTestAlignment(const QString &judge, int version, double alignment, const QString &basis);

    // --- criterion scores
    /// Every stored sample of the judge, ordered by item position, criterion key, sample.
    Result<QVector<CriterionScore>> readSampleScores(const QString &judge) const;
    QVector<CriterionScore> sampleScores(const QString &judge) const;
    /// One row per (item, criterion) with its samples and mean.
    Result<QVector<ItemCriterionScores>> readCriterionScores(const QString &judge) const;
    QVector<ItemCriterionScores> criterionScores(const QString &judge) const;
    /// Items with a call the endpoint refused (criterion scores with status "failed"), each with
    /// the recorded reason (the first of the item's refused calls).
    Result<QHash<QString, QString>> failedItems(const QString &judge) const;
    /// Inserts or replaces rows (one transaction for the batch). Unknown item ids fail the batch.
    Result<void> writeCriterionScores(const QString &judge, const QVector<CriterionScore> &rows);
    /// Removes every criterion score of the judge (e.g. before a re-score with a new rubric).
    Result<void> clearCriterionScores(const QString &judge);
    /// Removes the stored samples for which `keep` returns false, in one transaction (e.g. the
    /// scores of criteria a new rubric version dropped, disabled or reworded). Returns how many
    /// samples were removed; emits judgesChanged when any were.
    Result<int> pruneCriterionScores(const QString &judge, const std::function<bool(const CriterionScore &)> &keep);

    // --- run state (runs.config / runs.status)
    /// The judge's stored settings (empty when there is no such judge).
    Result<QVariantMap> readRunConfig(const QString &judge) const;
    QVariantMap runConfig(const QString &judge) const;
    Result<void> setRunConfig(const QString &judge, const QVariantMap &config);
    Result<QString> readRunStatus(const QString &judge) const;
    QString runStatus(const QString &judge) const;

private:
    Error readError(const QString &what, const Result<void> &failed) const;

    Project *m_project;
};

} // namespace rubric
