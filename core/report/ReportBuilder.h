#pragma once

#include "data/Annotation.h"
#include "report/ReportDocument.h"
#include "stats/Levels.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QStringList>

#include <functional>
#include <optional>
#include <stop_token>

namespace rubric {
class Project;
}

namespace rubric::report {

/// What goes into a report.
struct ReportOptions
{
    QStringList aspects;                        ///< empty: every aspect with human scores
    QStringList judges;                         ///< empty: every judge with scores for the aspect
    stats::Level level = stats::Level::Dataset; ///< the level of the comparison table
    std::optional<SplitFilter> split;           ///< empty: the project's default (test when it has a split)
    int resamples = 1000;                       ///< bootstrap replicates of every interval
    quint64 seed = 1;                           ///< as `rubric compare`
    int heatmapRows = 20;                       ///< the test items with the largest residuals shown in the heatmap
    QString softwareVersion;
    std::stop_token stop = {};
};

/// Reads everything a report says from a project and lays it out as one ReportDocument: the
/// project (dataset, aspects, split sizes, annotators and their agreement), per aspect the
/// comparison of the judges (from stats::compareJudges, never recomputed here), and per judge its
/// rubric as the uniform tree (any criterion kind, every stat the method recorded), correlations
/// with intervals at every level, scatter and per-criterion charts, the heatmap of the items with
/// the largest residuals, the three largest disagreements with the judge's reasoning, cost and
/// calls, and the settings that reproduce it. Texts are translated (tr) into the language loaded.
///
/// Plain reading and statistics: call it on a worker thread (the Project gives each thread its
/// own connection). Fails with a message naming the aspect or judge that cannot be reported.
class ReportBuilder
{
    Q_DECLARE_TR_FUNCTIONS(ReportBuilder)
public:
    using Progress = std::function<void(int done, int total)>;
    static Result<ReportDocument> build(const Project &project, const ReportOptions &options,
                                        const Progress &progress = {});
};

} // namespace rubric::report
