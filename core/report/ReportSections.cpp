#include "ReportSections.h"

#include "methods/MethodRegistry.h"
#include "rubric/RubricExport.h"
#include "stats/Bootstrap.h"
#include "stats/ProjectData.h"
#include "stats/StableSum.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QHash>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace rubric::report {

using namespace rubric::stats;

QString fixed(double v, int decimals)
{
    return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', decimals);
}

namespace {

/// A file-name-safe stem ("coherence-G Eval" → "coherence-g-eval").
QString stem(const QStringList &parts)
{
    QString out;
    for (const QString &p : parts) {
        if (!out.isEmpty())
            out += QLatin1Char('-');
        for (const QChar ch : p.toLower())
            out += ch.isLetterOrNumber() && ch.unicode() < 128 ? ch : QLatin1Char('_');
    }
    return out;
}

QString withInterval(double v, const Interval &ci)
{
    if (std::isnan(ci.lo))
        return fixed(v, 3);
    return QStringLiteral("%1 [%2, %3]").arg(fixed(v, 3), fixed(ci.lo, 3), fixed(ci.hi, 3));
}

QString excerpt(const QString &text, int chars)
{
    QString t = text.simplified();
    return t.size() > chars ? t.left(chars) + QStringLiteral(" …") : t;
}

/// A criterion's measurements, whatever the method recorded: scalars as "key value", maps of
/// scalars as "key: a = 1, b = 2", lists by their length. No per-method code.
QString statsText(const QVariantMap &stats)
{
    QStringList parts;
    for (auto it = stats.begin(); it != stats.end(); ++it) {
        const QVariant &v = it.value();
        if (v.typeId() == QMetaType::QVariantMap) {
            QStringList inner;
            const QVariantMap m = v.toMap();
            for (auto jt = m.begin(); jt != m.end(); ++jt)
                if (jt.value().canConvert<QString>() && jt.value().typeId() != QMetaType::QVariantMap
                    && jt.value().typeId() != QMetaType::QVariantList)
                    inner << jt.key() + QStringLiteral(" = ") + jt.value().toString();
            if (!inner.isEmpty() && inner.size() == m.size())
                parts << it.key() + QStringLiteral(": ") + inner.join(QStringLiteral(", "));
            else
                parts << ReportBuilder::tr("%1: %2 entries").arg(it.key()).arg(m.size());
        } else if (v.typeId() == QMetaType::QVariantList) {
            parts << ReportBuilder::tr("%1: %2 entries").arg(it.key()).arg(v.toList().size());
        } else if (v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Float) {
            parts << it.key() + QLatin1Char(' ') + fixed(v.toDouble(), 3);
        } else if (!v.isNull()) {
            parts << it.key() + QLatin1Char(' ') + v.toString();
        }
    }
    return parts.join(QStringLiteral(" · "));
}

/// z-scores of `v` (NaN when the spread is 0).
QVector<double> zScores(const QVector<double> &v)
{
    const double n = double(v.size());
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    const double sd = std::sqrt(ss / std::max(1.0, n - 1));
    QVector<double> out;
    for (double x : v)
        out << (sd > 0 ? (x - mean) / sd : std::nan(""));
    return out;
}

/// The latest rubric version of `judge` for `aspect`, or nullopt when it has none.
Result<std::optional<Rubric>> latestRubric(RubricStore &store, const QString &judge, const QString &aspect)
{
    const auto versions = store.readVersions(judge);
    if (!versions)
        return versions.error();
    int latest = 0;
    for (const RubricVersionInfo &v : *versions)
        if (v.aspect == aspect || v.aspect.isEmpty())
            latest = std::max(latest, v.version);
    if (latest == 0)
        return std::optional<Rubric>();
    auto rubric = store.load(judge, latest);
    if (!rubric)
        return rubric.error();
    return std::optional<Rubric>(*rubric);
}

} // namespace

Result<void> judgeSection(SectionContext &ctx, const QString &aspect, const QString &judge)
{
    ReportDocument &doc = ctx.doc;
    const auto info = ctx.project.judge(judge);
    const QString method = info ? info->method : QString();
    doc.heading(
            2,
            ReportBuilder::tr("Judge %1 (%2)").arg(judge, method.isEmpty() ? ReportBuilder::tr("imported") : method));
    const QString id = stem({aspect, judge});

    auto items = gatherScores(ctx.project, aspect, judge, ctx.split);
    if (!items)
        return items.error();
    if (items->isEmpty()) {
        doc.paragraph(ReportBuilder::tr("The judge scored none of the items people scored in this split."));
        return {};
    }

    // Correlation with people at every level, each with its bootstrap intervals.
    doc.heading(3, ReportBuilder::tr("Correlation with people"));
    ReportTable corr{id + QStringLiteral("-correlation"),
                     ReportBuilder::tr("%1 against the human mean, %2 bootstrap resamples (95% percentile intervals)")
                             .arg(judge)
                             .arg(ctx.options.resamples),
                     {ReportBuilder::tr("level"), ReportBuilder::tr("n"), ReportBuilder::tr("units"),
                      QStringLiteral("Pearson"), QStringLiteral("Spearman"), QStringLiteral("Kendall τ-b")},
                     {}};
    for (Level level : {Level::Dataset, Level::Group, Level::System}) {
        const LevelCorrelation c = correlateAtLevel(*items, level);
        BootstrapOptions bo{ctx.options.resamples, ctx.options.seed, 0.95, ctx.options.stop};
        const CorrelationIntervals ci = bootstrapCorrelation(*items, level, bo);
        if (ci.cancelled)
            return makeError(ReportBuilder::tr("the report was cancelled"));
        corr.rows.append({levelName(level), QString::number(c.n),
                          level == Level::Dataset ? QString::number(c.n) : QString::number(c.groupsUsed),
                          withInterval(c.pearson, ci[Coefficient::Pearson]),
                          withInterval(c.spearman, ci[Coefficient::Spearman]),
                          withInterval(c.kendall, ci[Coefficient::Kendall])});
    }
    doc.table(std::move(corr));

    ReportChart scatter;
    scatter.id = id + QStringLiteral("-scatter");
    scatter.title
            = ReportBuilder::tr("%1: judge score against the human mean (%2 items)").arg(judge).arg(items->size());
    scatter.kind = ChartKind::Scatter;
    scatter.xLabel = ReportBuilder::tr("human mean");
    scatter.yLabel = ReportBuilder::tr("judge");
    for (const ScoredItem &s : *items) {
        scatter.x << s.human;
        scatter.y << s.judge;
    }
    doc.chart(std::move(scatter));

    // The rubric, read from the uniform tree: any criterion kind, any stat the method recorded.
    RubricStore store(const_cast<Project *>(&ctx.project));
    auto rubric = latestRubric(store, judge, aspect);
    if (!rubric)
        return rubric.error();
    QHash<QString, QHash<QString, double>> byCriterion; // criterion → item → mean
    QHash<QString, QString> reasoning;                  // item → the judge's reasoning
    QStringList criteria;                               // criteria with scores, tree order
    if (!rubric->has_value()) {
        doc.paragraph(ReportBuilder::tr(
                "This judge has no rubric (offline metric or imported scores): its scores are reported "
                "without criteria."));
    } else {
        const Rubric &r = **rubric;
        auto scores = store.readCriterionScores(judge);
        if (!scores)
            return scores.error();
        QSet<QString> inSplit;
        for (const ScoredItem &s : *items)
            inSplit.insert(s.id);
        for (const ItemCriterionScores &s : *scores) {
            if (!r.find(s.criterionKey) || !inSplit.contains(s.itemId))
                continue;
            if (!std::isnan(s.mean))
                byCriterion[s.criterionKey].insert(s.itemId, s.mean);
            const QString why = s.reasoning.isEmpty() ? s.raw : s.reasoning;
            if (!why.trimmed().isEmpty() && reasoning.value(s.itemId).size() < 1200)
                reasoning[s.itemId]
                        += (reasoning.value(s.itemId).isEmpty() ? QString() : QStringLiteral("\n")) + excerpt(why, 500);
        }
        doc.heading(3, ReportBuilder::tr("Rubric (version %1, made by %2)").arg(r.version()).arg(r.method()));
        ReportTable table{
                id + QStringLiteral("-rubric"),
                ReportBuilder::tr(
                        "Every node of the rubric in tree order; mean score on the report's items (for a yes/no "
                        "question: its yes-rate) and what the method measured"),
                {ReportBuilder::tr("criterion"), ReportBuilder::tr("kind"), ReportBuilder::tr("weight"),
                 ReportBuilder::tr("mean score / yes-rate"), ReportBuilder::tr("measured")},
                {}};
        const std::function<void(const QString &, int)> walk = [&](const QString &parent, int depth) {
            for (const Criterion &c : r.children(parent)) {
                const auto &scored = byCriterion.value(c.key);
                const double mean = stats::stableMeanOf(scored); // the hash's order changes per process
                if (!scored.isEmpty())
                    criteria << c.key;
                QString text = QString(depth * 2, QLatin1Char(' ')) + c.text;
                if (!c.enabled)
                    text += ReportBuilder::tr(" (disabled)");
                table.rows.append(
                        {text, criterionKindName(c.kind), fixed(c.weight, 2), fixed(mean, 3), statsText(c.stats)});
                walk(c.key, depth + 1);
            }
        };
        walk(QString(), 0);
        doc.table(std::move(table));
        doc.attachments.append(
                {id + QStringLiteral("-rubric.json"), ReportBuilder::tr("%1's rubric as JSON").arg(judge),
                 QJsonDocument::fromVariant(RubricExport::toJson(r, MethodRegistry::exportedRootStats(r.method())))
                         .toJson()});
        doc.attachments.append({id + QStringLiteral("-rubric.md"),
                                ReportBuilder::tr("%1's rubric as Markdown").arg(judge),
                                RubricExport::toMarkdown(r).toUtf8()});
    }

    QHash<QString, double> humanOf;
    for (const ScoredItem &s : *items)
        humanOf.insert(s.id, s.human);
    if (!criteria.isEmpty()) {
        // How each criterion alone agrees with people.
        ReportChart bars;
        bars.id = id + QStringLiteral("-criteria");
        bars.title = ReportBuilder::tr("%1: Pearson of each criterion's score with the human mean").arg(judge);
        bars.kind = ChartKind::Bars;
        bars.yLabel = QStringLiteral("Pearson");
        for (const QString &key : criteria) {
            QVector<ScoredItem> one;
            const auto &scored = byCriterion[key];
            for (auto it = scored.begin(); it != scored.end(); ++it)
                one.append({it.key(), {}, {}, humanOf.value(it.key()), it.value()});
            const LevelCorrelation c = correlateAtLevel(one, Level::Dataset);
            const Criterion *node = (**rubric).find(key);
            bars.labels << excerpt(node->text, 48);
            bars.values << c.pearson;
            bars.lo << std::nan("");
            bars.hi << std::nan("");
        }
        doc.chart(std::move(bars));
    }

    // Residuals on one scale: the judge's z-score minus the people's.
    QVector<double> h, j;
    for (const ScoredItem &s : *items) {
        h << s.human;
        j << s.judge;
    }
    const QVector<double> zh = zScores(h), zj = zScores(j);
    QVector<int> order(items->size());
    std::iota(order.begin(), order.end(), 0);
    const auto residual = [&](int i) {
        const double r = zj[i] - zh[i];
        return std::isnan(r) ? 0.0 : std::abs(r);
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return residual(a) > residual(b); });

    if (!criteria.isEmpty()) {
        ReportChart heat;
        heat.id = id + QStringLiteral("-heatmap");
        const int rows = std::min<int>(ctx.options.heatmapRows, int(order.size()));
        heat.title = rows < items->size()
                             ? ReportBuilder::tr("%1: criterion scores of the %2 items with the largest residuals")
                                       .arg(judge)
                                       .arg(rows)
                             : ReportBuilder::tr("%1: criterion scores of every item").arg(judge);
        heat.kind = ChartKind::Heatmap;
        heat.cellMin = std::numeric_limits<double>::infinity();
        heat.cellMax = -std::numeric_limits<double>::infinity();
        for (const QString &key : criteria)
            heat.columns << excerpt((**rubric).find(key)->text, 28);
        for (int r = 0; r < rows; ++r) {
            const ScoredItem &s = (*items)[order[r]];
            heat.labels << s.id;
            QVector<double> row;
            for (const QString &key : criteria) {
                const double v = byCriterion[key].value(s.id, std::nan(""));
                row << v;
                if (!std::isnan(v)) {
                    heat.cellMin = std::min(heat.cellMin, v);
                    heat.cellMax = std::max(heat.cellMax, v);
                }
            }
            heat.cells << row;
        }
        if (heat.cellMin > heat.cellMax)
            heat.cellMin = heat.cellMax = 0;
        doc.chart(std::move(heat));
    }

    doc.heading(3, ReportBuilder::tr("Where the judge and people disagree most"));
    for (int k = 0; k < std::min<int>(3, int(order.size())); ++k) {
        const ScoredItem &s = (*items)[order[k]];
        const auto item = ctx.project.item(s.id);
        doc.paragraph(ReportBuilder::tr("Item %1 (group %2, system %3): people %4, judge %5.")
                              .arg(s.id, s.group.isEmpty() ? QStringLiteral("—") : s.group,
                                   s.system.isEmpty() ? QStringLiteral("—") : s.system, fixed(s.human, 2),
                                   fixed(s.judge, 2)));
        if (item) {
            if (!item->source.isEmpty())
                doc.quote(ReportBuilder::tr("Source: %1").arg(excerpt(item->source, 400)));
            doc.quote(ReportBuilder::tr("Output: %1").arg(excerpt(item->output, 400)));
        }
        const QString why = reasoning.value(s.id);
        doc.quote(why.isEmpty() ? ReportBuilder::tr("The judge gave no reasoning for this item.")
                                : ReportBuilder::tr("Judge: %1").arg(why));
    }

    // Cost and calls from the judge's ledger (every call it made, rubric building included).
    CallStore calls(const_cast<Project *>(&ctx.project));
    const auto totals = calls.totals(judge);
    if (!totals)
        return totals.error();
    const double n = double(info ? std::max(1, info->items) : 1);
    doc.heading(3, ReportBuilder::tr("Cost and calls"));
    doc.paragraph(totals->calls == 0
                          ? ReportBuilder::tr(
                                  "No calls are recorded for this judge (offline metric, imported scores, or every "
                                  "answer came from the cache).")
                          : ReportBuilder::tr(
                                    "%1 calls (%2 failed, %3 retries), %4 tokens in and %5 out, cost $%6: %7 calls and "
                                    "$%8 per scored item.")
                                    .arg(totals->calls)
                                    .arg(totals->failed)
                                    .arg(totals->retries)
                                    .arg(totals->tokensIn)
                                    .arg(totals->tokensOut)
                                    .arg(fixed(totals->cost, 4), fixed(totals->calls / n, 2),
                                         QString::number(totals->cost / n, 'g', 6)));
    return {};
}

Result<void> reproductionSection(SectionContext &ctx, const QVector<QStringList> &judgesPerAspect)
{
    ReportDocument &doc = ctx.doc;
    doc.heading(1, ReportBuilder::tr("Reproduction"));
    doc.paragraph(
            ReportBuilder::tr("Rubric Studio %1. Intervals: percentile bootstrap, %2 resamples, seed %3. The settings "
                              "of each judge as stored with its run (API keys are never stored):")
                    .arg(ctx.options.softwareVersion.isEmpty() ? ReportBuilder::tr("(version unknown)")
                                                               : ctx.options.softwareVersion)
                    .arg(ctx.options.resamples)
                    .arg(ctx.options.seed));
    ReportTable table{QStringLiteral("reproduction"),
                      ReportBuilder::tr("Settings that reproduce each judge"),
                      {ReportBuilder::tr("judge"), ReportBuilder::tr("method"), ReportBuilder::tr("endpoint kind"),
                       ReportBuilder::tr("model"), ReportBuilder::tr("rubric version"), ReportBuilder::tr("seeds"),
                       ReportBuilder::tr("prompt templates (SHA-256, first 12)"), ReportBuilder::tr("other settings")},
                      {}};
    RubricStore store(const_cast<Project *>(&ctx.project));
    QStringList seen;
    for (const QStringList &judges : judgesPerAspect) {
        for (const QString &judge : judges) {
            if (seen.contains(judge))
                continue;
            seen << judge;
            const auto config = store.readRunConfig(judge);
            if (!config)
                return config.error();
            const auto latest = store.readLatestVersion(judge);
            if (!latest)
                return latest.error();
            const QVariantMap evaluator = config->value(QStringLiteral("evaluator")).toMap();
            const QVariantMap settings = config->value(QStringLiteral("settings")).toMap();
            QStringList seeds, other, templates;
            for (auto it = settings.begin(); it != settings.end(); ++it)
                (it.key().contains(QLatin1String("seed")) ? seeds : other)
                        << it.key() + QLatin1Char('=') + it.value().toString();
            for (const QString &key : {QStringLiteral("samples"), QStringLiteral("logprobs")})
                if (config->contains(key))
                    other << key + QLatin1Char('=') + config->value(key).toString();
            const QVariantMap tmpl = config->value(QStringLiteral("templates")).toMap();
            for (auto it = tmpl.begin(); it != tmpl.end(); ++it)
                templates << it.key() + QLatin1Char(' ')
                                     + it.value().toMap().value(QStringLiteral("hash")).toString().left(12);
            const auto info = ctx.project.judge(judge);
            table.rows.append({judge, info ? info->method : QString(),
                               evaluator.value(QStringLiteral("provider"), QStringLiteral("—")).toString(),
                               evaluator.value(QStringLiteral("model"), QStringLiteral("—")).toString(),
                               *latest > 0 ? QString::number(*latest) : QStringLiteral("—"),
                               seeds.isEmpty() ? QStringLiteral("—") : seeds.join(QStringLiteral(", ")),
                               templates.isEmpty() ? QStringLiteral("—") : templates.join(QStringLiteral(", ")),
                               other.isEmpty() ? QStringLiteral("—") : other.join(QStringLiteral(", "))});
        }
    }
    doc.table(std::move(table));
    return {};
}

} // namespace rubric::report
