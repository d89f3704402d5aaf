#include "ReportSections.h"
#include "stats/Comparison.h"

#include <QJsonDocument>

#include <cmath>

namespace rubric::report {

using namespace rubric::stats;

Result<void> comparisonSection(SectionContext &ctx, const QString &aspect, const QStringList &judges)
{
    ReportDocument &doc = ctx.doc;
    CompareOptions options;
    options.aspect = aspect;
    options.judges = judges;
    options.level = ctx.options.level;
    options.split = ctx.split;
    options.bootstrap = ctx.options.resamples;
    options.seed = ctx.options.seed;
    options.stop = ctx.options.stop;
    // Every number of this section comes from compareJudges and its rounding (formatStatistic …),
    // the same as `rubric compare` prints.
    const auto comparison = compareJudges(ctx.project, options);
    if (!comparison)
        return comparison.error();
    const Comparison &c = *comparison;

    doc.heading(2, ReportBuilder::tr("Judges compared"));
    doc.paragraph(c.convention);
    QString stem = aspect.toLower();
    for (QChar &ch : stem)
        if (!ch.isLetterOrNumber() || ch.unicode() >= 128)
            ch = QLatin1Char('_');
    ReportTable table{stem + QStringLiteral("-comparison"),
                      ReportBuilder::tr("Every judge against the human mean on %1 (%2 level); the interval is the "
                                        "95% bootstrap interval of Pearson")
                              .arg(aspect, levelName(c.options.level)),
                      {ReportBuilder::tr("judge"), ReportBuilder::tr("method"), QStringLiteral("Pearson"),
                       QStringLiteral("Spearman"), QStringLiteral("Kendall τ-b"), ReportBuilder::tr("95% interval"),
                       QStringLiteral("n"), ReportBuilder::tr("calls / item"), ReportBuilder::tr("cost / item ($)")},
                      {}};
    for (const JudgeAlignment &j : c.judges)
        table.rows.append({j.judge, j.method, formatStatistic(j.pearson), formatStatistic(j.spearman),
                           formatStatistic(j.kendall),
                           QStringLiteral("[%1, %2]").arg(formatStatistic(j.lo), formatStatistic(j.hi)),
                           QString::number(j.n), formatCalls(j.callsPerItem), formatCost(j.costPerItem)});
    doc.table(std::move(table));

    if (c.ceiling.available)
        doc.paragraph(ReportBuilder::tr("Human ceiling: the %1 annotators agree with Krippendorff's α = %2 (interval "
                                        "scale) on %3 items.")
                              .arg(c.ceiling.annotators)
                              .arg(formatStatistic(c.ceiling.alpha))
                              .arg(c.ceiling.n));
    else
        doc.paragraph(ReportBuilder::tr("Human ceiling: not available (fewer than two annotators per item)."));

    if (!c.pairs.isEmpty()) {
        ReportTable pairs{stem + QStringLiteral("-pairs"),
                          ReportBuilder::tr("Is the difference real? Paired bootstrap interval of the difference in "
                                            "Pearson, paired permutation p and Williams' p"),
                          {ReportBuilder::tr("judge A"), ReportBuilder::tr("judge B"), QStringLiteral("n"),
                           ReportBuilder::tr("A − B"), ReportBuilder::tr("95% interval"), QStringLiteral("p"),
                           ReportBuilder::tr("Williams p")},
                          {}};
        for (const PairComparison &p : c.pairs)
            pairs.rows.append({p.a, p.b, QString::number(p.n), formatStatistic(p.difference),
                               QStringLiteral("[%1, %2]").arg(formatStatistic(p.lo), formatStatistic(p.hi)),
                               formatP(p.p), formatP(p.williamsP)});
        doc.table(std::move(pairs));
        for (const PairComparison &p : c.pairs)
            if (!p.plainWords.isEmpty())
                doc.paragraph(p.plainWords);
    }

    ReportChart pareto;
    pareto.id = stem + QStringLiteral("-pareto");
    pareto.title = ReportBuilder::tr("Agreement with people against cost per item (Pareto front joined)");
    pareto.kind = ChartKind::Pareto;
    pareto.xLabel = ReportBuilder::tr("cost per item ($)");
    pareto.yLabel = QStringLiteral("Pearson");
    for (const JudgeAlignment &j : c.judges) {
        if (std::isnan(j.pearson))
            continue;
        pareto.labels << j.judge;
        pareto.x << (std::isnan(j.costPerItem) ? 0.0 : j.costPerItem);
        pareto.y << j.pearson;
    }
    if (!pareto.labels.isEmpty())
        doc.chart(std::move(pareto));

    doc.attachments.append({stem + QStringLiteral("-comparison.tex"),
                            ReportBuilder::tr("the comparison of %1 as LaTeX tables (booktabs)").arg(aspect),
                            comparisonToLatex(c).toUtf8()});
    doc.attachments.append({stem + QStringLiteral("-comparison.md"),
                            ReportBuilder::tr("the comparison of %1 as Markdown tables").arg(aspect),
                            comparisonToMarkdown(c).toUtf8()});
    doc.attachments.append(
            {stem + QStringLiteral("-comparison-compare.json"),
             ReportBuilder::tr("the comparison of %1 exactly as `rubric compare --json` prints it").arg(aspect),
             QJsonDocument(comparisonToJson(c)).toJson()});
    return {};
}

} // namespace rubric::report
