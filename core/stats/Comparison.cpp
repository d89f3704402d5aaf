#include "Comparison.h"

#include "Bootstrap.h"
#include "ProjectData.h"
#include "Significance.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "store/ScoreColumns.h"
#include "util/Csv.h"
#include "util/Markup.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>

#include <cmath>

namespace rubric::stats {
namespace {

// Strings go through QCoreApplication::translate with the context spelled out at each call, so
// that lupdate (scripts/update-translations.sh reads this file) finds them for the studio's German.

QJsonValue jsonValue(double v)
{
    return std::isnan(v) ? QJsonValue(QJsonValue::Null) : QJsonValue(v);
}

double roundTo(double v, int decimals)
{
    if (!std::isfinite(v))
        return v;
    // Through the decimal text, so that the value and its printed form never disagree.
    const double r = QString::number(v, 'f', decimals).toDouble();
    return r == 0.0 ? 0.0 : r; // never "-0.000"
}

QString levelInWords(Level level)
{
    switch (level) {
    case Level::Dataset:
        return QCoreApplication::translate("rubric::stats", "dataset level: one correlation over all items");
    case Level::Group:
        return QCoreApplication::translate(
                "rubric::stats",
                "group level: one correlation per group (document or prompt), averaged over the groups");
    case Level::System:
        return QCoreApplication::translate("rubric::stats",
                                           "system level: the mean score of each system, correlated over the systems");
    }
    return {};
}

QString coefficientLabel(Coefficient c)
{
    switch (c) {
    case Coefficient::Pearson:
        return QStringLiteral("Pearson");
    case Coefficient::Spearman:
        return QStringLiteral("Spearman");
    case Coefficient::Kendall:
        return QStringLiteral("Kendall τ-b");
    }
    return {};
}

/// Why a named judge cannot be compared on the aspect. A judge whose stored rubric measures accuracy
/// over pairs (a pairwise judge: verdicts on two outputs, no per-item score) says so with its
/// accuracy, instead of looking as if it had not run.
QString notScored(const Project &project, const QString &judge, const QString &aspect)
{
    const auto latest = RubricStore(const_cast<Project *>(&project)).loadLatest(judge);
    if (latest && *latest && (*latest)->aspect() == aspect)
        for (const Criterion &c : (*latest)->criteria())
            if (c.parentKey.isEmpty()
                && c.stats.value(QStringLiteral("metric")).toString() == QLatin1String("accuracy"))
                return QCoreApplication::translate("rubric::stats",
                                                   "judge '%1' judges pairs of outputs and has no per-item scores of "
                                                   "'%2' to correlate with the human scores; its accuracy on %3 "
                                                   "test pairs is %4 (rubric show-rubric --judge %1)")
                        .arg(judge, aspect)
                        .arg(c.stats.value(QStringLiteral("test_n")).toInt())
                        .arg(c.stats.value(QStringLiteral("test_accuracy")).toDouble(), 0, 'f', 3);
    return QCoreApplication::translate("rubric::stats", "judge '%1' has not scored the aspect '%2'").arg(judge, aspect);
}

/// The judges to compare: the named ones (each must exist and have scored the aspect), or every
/// judge that scored it.
Result<QVector<JudgeInfo>> chooseJudges(const Project &project, const CompareOptions &options)
{
    // Names, methods and whether each scored the aspect (not Project::readJudges, which counts
    // every judge's items: fillCost counts them for the judges whose calls are known).
    const auto all = ScoreColumnStore(&project).judgesFor(options.aspect);
    if (!all)
        return all.error();
    const auto info = [&options](const JudgeName &j) {
        JudgeInfo i;
        i.name = j.name;
        i.method = j.method;
        i.items = -1; // not counted yet
        if (j.scoredAspect)
            i.aspects = QStringList{options.aspect};
        return i;
    };
    QVector<JudgeInfo> out;
    if (options.judges.isEmpty()) {
        for (const JudgeName &j : *all)
            if (j.scoredAspect)
                out.append(info(j));
        if (out.isEmpty())
            return makeError(QCoreApplication::translate("rubric::stats", "no judge has scored the aspect '%1'")
                                     .arg(options.aspect),
                             project.path(), 0, QStringLiteral("aspect"));
        return out;
    }
    for (const QString &name : options.judges) {
        const auto found = std::find_if(all->cbegin(), all->cend(), [&](const JudgeName &j) { return j.name == name; });
        if (found == all->cend())
            return makeError(QCoreApplication::translate("rubric::stats", "unknown judge '%1'").arg(name),
                             project.path(), 0, QStringLiteral("judge"));
        if (!found->scoredAspect)
            return makeError(notScored(project, name, options.aspect), project.path(), 0, QStringLiteral("judge"));
        if (std::any_of(out.cbegin(), out.cend(), [&](const JudgeInfo &j) { return j.name == name; }))
            return makeError(QCoreApplication::translate("rubric::stats", "judge '%1' is named twice").arg(name),
                             project.path(), 0, QStringLiteral("judge"));
        out.append(info(*found));
    }
    return out;
}

Result<void> fillCost(const Project &project, const JudgeInfo &info, JudgeAlignment &row)
{
    if (info.method == QLatin1String("imported"))
        return {}; // another tool's scores: what they cost is not known (NaN)
    CallStore calls(const_cast<Project *>(&project));
    const auto totals = calls.totals(info.name);
    if (!totals)
        return totals.error();
    row.calls = totals->calls;
    row.cost = totals->cost;
    const auto items = ScoreColumnStore(&project).itemsScored(info.name);
    if (!items)
        return items.error();
    if (*items > 0) {
        row.callsPerItem = double(totals->calls) / double(*items);
        row.costPerItem = totals->cost / double(*items);
    }
    return {};
}

Result<AnnotatorCeiling> ceilingOn(const Project &project, const CompareOptions &options,
                                   const QVector<JudgeInfo> &judges)
{
    // Fewer than two annotators have no agreement to measure: the coder matrix (every item by
    // every annotator and judge) is not read at all then.
    const auto annotators = project.readAnnotators(options.aspect);
    if (!annotators)
        return annotators.error();
    if (annotators->size() < 2) {
        AnnotatorCeiling none;
        none.annotators = int(annotators->size());
        return none;
    }
    QStringList names;
    for (const JudgeInfo &j : judges)
        names.append(j.name);
    const auto m = gatherCoders(project, options.aspect, options.split, names);
    if (!m)
        return m.error();
    const int people = int(m->coders.size() - names.size());
    ReliabilityData kept;
    for (const std::vector<double> &row : m->data) {
        const bool judged = std::any_of(row.begin() + people, row.end(), [](double v) { return !std::isnan(v); });
        if (judged)
            kept.emplace_back(row.begin(), row.begin() + people);
    }
    AnnotatorCeiling c;
    c.annotators = people;
    if (people < 2)
        return c;
    const AlphaResult a = krippendorffAlpha(kept, AlphaLevel::Interval);
    c.alpha = a.alpha;
    c.n = a.units;
    c.available = a.units > 0 && !std::isnan(a.alpha);
    return c;
}

ComparisonOptions pairOptions(const CompareOptions &options)
{
    ComparisonOptions o;
    o.resamples = options.bootstrap;
    o.permutations = options.permutations;
    o.seed = options.seed;
    o.confidence = options.confidence;
    o.constantGroups = options.constantGroups;
    o.coefficients = coefficientBit(options.primary); // a pair is tested on the primary coefficient only
    return o;
}

PairComparison comparePaired(const JudgeComparison &c, const QString &a, const QString &b,
                             const CompareOptions &options)
{
    const size_t k = size_t(options.primary);
    PairComparison p;
    p.a = a;
    p.b = b;
    p.n = c.a.n;
    p.ra = c.a.value(options.primary);
    p.rb = c.b.value(options.primary);
    p.difference = c.difference[k];
    p.lo = c.differenceCi[k].lo;
    p.hi = c.differenceCi[k].hi;
    p.p = c.permutationP[k];
    if (options.primary == Coefficient::Pearson)
        p.williamsP = c.williams.p;
    p.plainWords = pairInWords(p, options.primary, options.confidence);
    return p;
}

QString csvNumber(double v)
{
    return std::isnan(v) ? QString() : QString::number(v, 'g', 15);
}

QString latexEscape(const QString &s)
{
    QString out;
    for (QChar ch : s) {
        switch (ch.unicode()) {
        case '\\':
            out += QStringLiteral("\\textbackslash{}");
            break;
        case '&':
        case '%':
        case '$':
        case '#':
        case '_':
        case '{':
        case '}':
            out += QLatin1Char('\\') + ch;
            break;
        case '~':
            out += QStringLiteral("\\textasciitilde{}");
            break;
        case '^':
            out += QStringLiteral("\\textasciicircum{}");
            break;
        default:
            out += ch;
        }
    }
    return out;
}

QString interval(double lo, double hi)
{
    if (std::isnan(lo) || std::isnan(hi))
        return QStringLiteral("n/a");
    return QStringLiteral("[%1, %2]").arg(formatStatistic(lo), formatStatistic(hi));
}

QString ceilingInWords(const AnnotatorCeiling &c)
{
    if (!c.available)
        return QCoreApplication::translate(
                "rubric::stats", "Human ceiling: not available (fewer than two annotators scored the same items).");
    return QCoreApplication::translate(
                   "rubric::stats",
                   "Human ceiling: Krippendorff's alpha (interval) between the %1 annotators is %2 on %3 items.")
            .arg(c.annotators)
            .arg(formatStatistic(c.alpha))
            .arg(c.n);
}

} // namespace

double JudgeAlignment::value(Coefficient c) const
{
    switch (c) {
    case Coefficient::Pearson:
        return pearson;
    case Coefficient::Spearman:
        return spearman;
    case Coefficient::Kendall:
        return kendall;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double roundStatistic(double v)
{
    return roundTo(v, 3);
}

double roundP(double v)
{
    if (!std::isfinite(v) || v == 0.0)
        return v;
    return QString::number(v, 'g', 3).toDouble();
}

double roundCost(double v)
{
    if (!std::isfinite(v) || v == 0.0)
        return v;
    return QString::number(v, 'g', 6).toDouble();
}

double roundCalls(double v)
{
    return roundTo(v, 2);
}

QString formatStatistic(double v)
{
    return std::isnan(v) ? QStringLiteral("n/a") : QString::number(roundStatistic(v), 'f', 3);
}

QString formatP(double v)
{
    return std::isnan(v) ? QStringLiteral("n/a") : QString::number(roundP(v), 'g', 3);
}

QString formatCost(double v)
{
    return std::isnan(v) ? QStringLiteral("n/a") : QString::number(roundCost(v), 'g', 6);
}

QString formatCalls(double v)
{
    return std::isnan(v) ? QStringLiteral("n/a") : QString::number(roundCalls(v), 'f', 2);
}

QString pairInWords(const PairComparison &pair, Coefficient coefficient, double confidence)
{
    const QString coef = coefficientLabel(coefficient);
    const QString pct = QString::number(confidence * 100.0, 'g', 3);
    if (std::isnan(pair.difference))
        return QCoreApplication::translate(
                       "rubric::stats",
                       "%1 and %2 cannot be compared on %3: a correlation is not defined on their %4 shared items.")
                .arg(pair.a, pair.b, coef)
                .arg(pair.n);
    if (pair.difference == 0.0)
        return QCoreApplication::translate(
                       "rubric::stats",
                       "%1 and %2 agree with people equally (%3 %4 each on the same %5 items): there is no difference "
                       "to test.")
                .arg(pair.a, pair.b, coef, formatStatistic(pair.ra))
                .arg(pair.n);
    const bool aBetter = pair.difference > 0;
    const QString better = aBetter ? pair.a : pair.b;
    const QString worse = aBetter ? pair.b : pair.a;
    const double rBetter = aBetter ? pair.ra : pair.rb;
    const double rWorse = aBetter ? pair.rb : pair.ra;
    const double gap = std::abs(pair.difference);
    const double from = aBetter ? pair.lo : -pair.hi;
    const double to = aBetter ? pair.hi : -pair.lo;
    const QString numbers = QCoreApplication::translate(
                                    "rubric::stats",
                                    "%1 %2 against %3 on the same %4 items, a difference of %5 (%6% interval %7 to %8)")
                                    .arg(coef, formatStatistic(rBetter), formatStatistic(rWorse))
                                    .arg(pair.n)
                                    .arg(formatStatistic(gap), pct, formatStatistic(from), formatStatistic(to));
    const bool clear = pair.p < 1.0 - confidence && !(pair.lo <= 0.0 && pair.hi >= 0.0);
    if (clear)
        return QCoreApplication::translate(
                       "rubric::stats",
                       "%1 agrees with people more than %2: %3. If the two judges were equally good, a difference this "
                       "large would turn up by chance with probability %4, so it is unlikely to be chance.")
                .arg(better, worse, numbers, formatP(pair.p));
    return QCoreApplication::translate(
                   "rubric::stats",
                   "%1 scores higher than %2 here (%3), but a difference this large turns up by chance with "
                   "probability "
                   "%4 even when two judges are equally good. The data do not show that either agrees with people "
                   "better; they do not show that the two are equal either.")
            .arg(better, worse, numbers, formatP(pair.p));
}

Result<PairComparison> compareJudgePair(const Project &project, const CompareOptions &options, const QString &a,
                                        const QString &b)
{
    const auto columns = gatherColumns(project, options.aspect, {a, b}, options.split);
    if (!columns)
        return columns.error();
    return comparePaired(compareJudges(*columns, 0, 1, options.level, pairOptions(options)), a, b, options);
}

Result<Comparison> compareJudges(const Project &project, const CompareOptions &options)
{
    Comparison out;
    out.options = options;
    const auto judges = chooseJudges(project, options);
    if (!judges)
        return judges.error();
    out.convention = levelInWords(options.level);
    if (options.level == Level::Group)
        out.convention += QStringLiteral("; ") + constantGroupsConvention(options.constantGroups);

    const auto stopped = [&]() -> Error {
        return makeError(QCoreApplication::translate("rubric::stats", "the comparison was cancelled"), project.path());
    };
    // Every judge's column in one read; each row and pair takes the items it needs from it.
    QStringList names;
    for (const JudgeInfo &info : *judges)
        names.append(info.name);
    const auto columns = gatherColumns(project, options.aspect, names, options.split);
    if (!columns)
        return columns.error();
    // At the dataset level with every judge scoring every item, replicate i draws the same items
    // for every judge's interval and every pair's difference (as each alone would): draw them once.
    const bool everyItemScored = std::all_of(columns->judges.begin(), columns->judges.end(), [](const auto &j) {
        return std::none_of(j.begin(), j.end(), [](double v) { return std::isnan(v); });
    });
    std::vector<std::vector<double>> shared;
    if (options.level == Level::Dataset && everyItemScored && options.bootstrap > 0) {
        std::vector<std::span<const double>> spans(columns->judges.begin(), columns->judges.end());
        shared = datasetReplicates(columns->human, spans, options.primary, options.bootstrap, options.seed,
                                   options.stop);
        if (shared.empty())
            return stopped();
    }
    for (int k = 0; k < judges->size(); ++k) {
        const JudgeInfo &info = judges->at(k);
        if (options.stop.stop_requested())
            return stopped();
        JudgeAlignment row;
        row.judge = info.name;
        row.method = info.method;
        const LevelCorrelation c = correlateAtLevel(*columns, k, options.level, options.constantGroups);
        row.pearson = c.pearson;
        row.spearman = c.spearman;
        row.kendall = c.kendall;
        row.n = c.n;
        row.groupsUsed = c.groupsUsed;
        Interval ci;
        if (!shared.empty()) {
            std::vector<double> reps = shared[size_t(k)];
            ci = detail::percentileInterval(reps, options.confidence);
        } else {
            BootstrapOptions b;
            b.resamples = options.bootstrap;
            b.seed = options.seed;
            b.confidence = options.confidence;
            b.stop = options.stop;
            b.constantGroups = options.constantGroups;
            b.coefficients = coefficientBit(options.primary); // the row's interval is the primary's only
            const CorrelationIntervals all = bootstrapCorrelation(*columns, k, options.level, b);
            if (all.cancelled)
                return stopped();
            ci = all[options.primary];
        }
        row.lo = ci.lo;
        row.hi = ci.hi;
        if (auto r = fillCost(project, info, row); !r)
            return r.error();
        out.judges.append(row);
    }

    auto ceiling = ceilingOn(project, options, *judges);
    if (!ceiling)
        return ceiling.error();
    out.ceiling = *ceiling;

    if (options.pairs) {
        for (int i = 0; i < judges->size(); ++i)
            for (int j = i + 1; j < judges->size(); ++j) {
                if (options.stop.stop_requested())
                    return stopped();
                ComparisonOptions o = pairOptions(options);
                if (!shared.empty())
                    o.resamples = 0; // the shared replicates' differences below
                JudgeComparison c = compareJudges(*columns, i, j, options.level, o);
                if (!shared.empty()) {
                    std::vector<double> differences(shared[size_t(i)].size());
                    for (size_t r = 0; r < differences.size(); ++r)
                        differences[r] = shared[size_t(i)][r] - shared[size_t(j)][r];
                    c.differenceCi[size_t(options.primary)]
                            = detail::percentileInterval(differences, options.confidence);
                    c.resamples = options.bootstrap;
                }
                out.pairs.append(comparePaired(c, judges->at(i).name, judges->at(j).name, options));
            }
    }
    return out;
}

QJsonObject comparisonToJson(const Comparison &c)
{
    QJsonArray judges;
    for (const JudgeAlignment &j : c.judges)
        judges.append(QJsonObject{
                {QStringLiteral("judge"), j.judge},
                {QStringLiteral("method"), j.method},
                {QStringLiteral("pearson"), jsonValue(roundStatistic(j.pearson))},
                {QStringLiteral("spearman"), jsonValue(roundStatistic(j.spearman))},
                {QStringLiteral("kendall"), jsonValue(roundStatistic(j.kendall))},
                {QStringLiteral("ci"), QJsonArray{jsonValue(roundStatistic(j.lo)), jsonValue(roundStatistic(j.hi))}},
                {QStringLiteral("n"), j.n},
                {QStringLiteral("calls"), j.calls},
                {QStringLiteral("cost"), jsonValue(roundCost(j.cost))},
                {QStringLiteral("calls_per_item"), jsonValue(roundCalls(j.callsPerItem))},
                {QStringLiteral("cost_per_item"), jsonValue(roundCost(j.costPerItem))}});
    QJsonArray pairs;
    for (const PairComparison &p : c.pairs)
        pairs.append(QJsonObject{
                {QStringLiteral("a"), p.a},
                {QStringLiteral("b"), p.b},
                {QStringLiteral("n"), p.n},
                {QStringLiteral("difference"), jsonValue(roundStatistic(p.difference))},
                {QStringLiteral("ci"), QJsonArray{jsonValue(roundStatistic(p.lo)), jsonValue(roundStatistic(p.hi))}},
                {QStringLiteral("p"), jsonValue(roundP(p.p))},
                {QStringLiteral("williams_p"), jsonValue(roundP(p.williamsP))},
                {QStringLiteral("words"), p.plainWords}});
    return QJsonObject{{QStringLiteral("aspect"), c.options.aspect},
                       {QStringLiteral("level"), levelName(c.options.level)},
                       {QStringLiteral("split"), splitFilterName(c.options.split)},
                       {QStringLiteral("coefficient"), coefficientName(c.options.primary)},
                       {QStringLiteral("confidence"), c.options.confidence},
                       {QStringLiteral("bootstrap"), c.options.bootstrap},
                       {QStringLiteral("permutations"), c.options.permutations},
                       {QStringLiteral("seed"), QString::number(c.options.seed)},
                       {QStringLiteral("convention"), c.convention},
                       {QStringLiteral("judges"), judges},
                       {QStringLiteral("pairs"), pairs},
                       {QStringLiteral("human_ceiling"),
                        QJsonObject{{QStringLiteral("alpha"), jsonValue(roundStatistic(c.ceiling.alpha))},
                                    {QStringLiteral("n"), c.ceiling.n},
                                    {QStringLiteral("annotators"), c.ceiling.annotators}}}};
}

QString comparisonToMarkdown(const Comparison &c)
{
    const QString coef = coefficientLabel(c.options.primary);
    const QString pct = QString::number(c.options.confidence * 100.0, 'g', 3);
    QString md = QStringLiteral("| %1 | %2 | Pearson | Spearman | Kendall τ-b | %3 %4% CI | n | %5 | %6 |\n")
                         .arg(QCoreApplication::translate("rubric::stats", "Judge"),
                              QCoreApplication::translate("rubric::stats", "Method"), coef, pct,
                              QCoreApplication::translate("rubric::stats", "Calls per item"),
                              QCoreApplication::translate("rubric::stats", "Cost per item ($)"));
    md += QStringLiteral("|---|---|---:|---:|---:|---|---:|---:|---:|\n");
    for (const JudgeAlignment &j : c.judges)
        md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 |\n")
                      .arg(markup::markdown(j.judge), markup::markdown(j.method), formatStatistic(j.pearson),
                           formatStatistic(j.spearman), formatStatistic(j.kendall), interval(j.lo, j.hi))
                      .arg(j.n)
                      .arg(formatCalls(j.callsPerItem), formatCost(j.costPerItem));
    if (!c.pairs.isEmpty()) {
        md += QStringLiteral("\n| A | B | n | %1 A − B | %2% CI | p |\n|---|---|---:|---:|---|---:|\n").arg(coef, pct);
        for (const PairComparison &p : c.pairs)
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                          .arg(markup::markdown(p.a), markup::markdown(p.b))
                          .arg(p.n)
                          .arg(formatStatistic(p.difference), interval(p.lo, p.hi), formatP(p.p));
    }
    md += QLatin1Char('\n') + ceilingInWords(c.ceiling) + QLatin1Char('\n');
    md += QCoreApplication::translate("rubric::stats", "Aspect %1, split %2; %3. Intervals: percentile bootstrap, %4 "
                                                       "resamples; p: paired permutation test, %5 "
                                                       "permutations; seed %6.")
                  .arg(markup::markdown(c.options.aspect), splitFilterName(c.options.split), c.convention)
                  .arg(c.options.bootstrap)
                  .arg(c.options.permutations)
                  .arg(c.options.seed)
          + QLatin1Char('\n');
    return md;
}

QString comparisonToLatex(const Comparison &c)
{
    const QString coef
            = latexEscape(coefficientLabel(c.options.primary)).replace(QStringLiteral("τ"), QStringLiteral("$\\tau$"));
    const QString pct = QString::number(c.options.confidence * 100.0, 'g', 3);
    QString tex = QStringLiteral("%% %1\n").arg(latexEscape(c.convention));
    tex += QStringLiteral("\\begin{tabular}{llrrrlrrr}\n\\toprule\n");
    tex += QStringLiteral("%1 & %2 & Pearson & Spearman & Kendall $\\tau_b$ & %3 %4\\%% CI & $n$ & %5 & %6 \\\\\n")
                   .arg(latexEscape(QCoreApplication::translate("rubric::stats", "Judge")),
                        latexEscape(QCoreApplication::translate("rubric::stats", "Method")), coef, pct,
                        latexEscape(QCoreApplication::translate("rubric::stats", "Calls per item")),
                        latexEscape(QCoreApplication::translate("rubric::stats", "Cost per item ($)")));
    tex += QStringLiteral("\\midrule\n");
    for (const JudgeAlignment &j : c.judges)
        tex += QStringLiteral("%1 & %2 & %3 & %4 & %5 & %6 & %7 & %8 & %9 \\\\\n")
                       .arg(latexEscape(j.judge), latexEscape(j.method), formatStatistic(j.pearson),
                            formatStatistic(j.spearman), formatStatistic(j.kendall), interval(j.lo, j.hi))
                       .arg(j.n)
                       .arg(formatCalls(j.callsPerItem), formatCost(j.costPerItem));
    tex += QStringLiteral("\\bottomrule\n\\end{tabular}\n");
    if (!c.pairs.isEmpty()) {
        tex += QStringLiteral("\n\\begin{tabular}{llrrlr}\n\\toprule\nA & B & $n$ & %1 A $-$ B & %2\\%% CI & $p$ "
                              "\\\\\n\\midrule\n")
                       .arg(coef, pct);
        for (const PairComparison &p : c.pairs)
            tex += QStringLiteral("%1 & %2 & %3 & %4 & %5 & %6 \\\\\n")
                           .arg(latexEscape(p.a), latexEscape(p.b))
                           .arg(p.n)
                           .arg(formatStatistic(p.difference), interval(p.lo, p.hi), formatP(p.p));
        tex += QStringLiteral("\\bottomrule\n\\end{tabular}\n");
    }
    return tex;
}

QString comparisonToCsv(const Comparison &c)
{
    QString csv = QStringLiteral("judge,method,pearson,spearman,kendall,ci_lo,ci_hi,n,calls,cost,calls_per_item,"
                                 "cost_per_item\n");
    for (const JudgeAlignment &j : c.judges)
        csv += QStringList{csv::field(j.judge),
                           csv::field(j.method),
                           csvNumber(roundStatistic(j.pearson)),
                           csvNumber(roundStatistic(j.spearman)),
                           csvNumber(roundStatistic(j.kendall)),
                           csvNumber(roundStatistic(j.lo)),
                           csvNumber(roundStatistic(j.hi)),
                           QString::number(j.n),
                           QString::number(j.calls),
                           csvNumber(roundCost(j.cost)),
                           csvNumber(roundCalls(j.callsPerItem)),
                           csvNumber(roundCost(j.costPerItem))}
                       .join(QLatin1Char(','))
               + QLatin1Char('\n');
    return csv;
}

QString comparisonPairsToCsv(const Comparison &c)
{
    QString csv = QStringLiteral("a,b,n,difference,ci_lo,ci_hi,p,williams_p\n");
    for (const PairComparison &p : c.pairs)
        csv += QStringList{csv::field(p.a),
                           csv::field(p.b),
                           QString::number(p.n),
                           csvNumber(roundStatistic(p.difference)),
                           csvNumber(roundStatistic(p.lo)),
                           csvNumber(roundStatistic(p.hi)),
                           csvNumber(roundP(p.p)),
                           csvNumber(roundP(p.williamsP))}
                       .join(QLatin1Char(','))
               + QLatin1Char('\n');
    return csv;
}

} // namespace rubric::stats
