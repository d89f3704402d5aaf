#pragma once

#include "report/ReportBuilder.h"

namespace rubric::report {

/// What every section of ReportBuilder reads and writes (internal to core/report).
struct SectionContext
{
    const Project &project;
    const ReportOptions &options;
    SplitFilter split;
    ReportDocument &doc;
};

/// `v` with `decimals` decimals, "—" for NaN.
QString fixed(double v, int decimals);

/// The judges side by side (stats::compareJudges): table, pairs with their significance in words,
/// the annotators' agreement, and alignment against cost per item.
Result<void> comparisonSection(SectionContext &ctx, const QString &aspect, const QStringList &judges);
/// One judge: rubric, correlations at every level, charts, heatmap, disagreements, cost.
Result<void> judgeSection(SectionContext &ctx, const QString &aspect, const QString &judge);
/// The settings that reproduce every judge of the report.
Result<void> reproductionSection(SectionContext &ctx, const QVector<QStringList> &judgesPerAspect);

} // namespace rubric::report
