#include "Agreement.h"

#include "Correlation.h"
#include "Ranking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rubric::stats {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

AlphaResult::AlphaResult()
    : alpha(kNaN)
{
}
KappaResult::KappaResult()
    : kappa(kNaN)
{
}
CeilingEntry::CeilingEntry()
    : pearson(kNaN)
    , spearman(kNaN)
    , kendall(kNaN)
{
}
HumanCeiling::HumanCeiling()
    : pearson(kNaN)
    , spearman(kNaN)
    , kendall(kNaN)
{
}

QString alphaLevelName(AlphaLevel level)
{
    switch (level) {
    case AlphaLevel::Nominal:
        return QStringLiteral("nominal");
    case AlphaLevel::Ordinal:
        return QStringLiteral("ordinal");
    case AlphaLevel::Interval:
        return QStringLiteral("interval");
    case AlphaLevel::Ratio:
        return QStringLiteral("ratio");
    }
    return {};
}

std::optional<AlphaLevel> parseAlphaLevel(const QString &name)
{
    for (AlphaLevel l : {AlphaLevel::Nominal, AlphaLevel::Ordinal, AlphaLevel::Interval, AlphaLevel::Ratio})
        if (alphaLevelName(l) == name)
            return l;
    return std::nullopt;
}

AlphaResult krippendorffAlpha(const ReliabilityData &data, AlphaLevel level)
{
    AlphaResult out;
    // Distinct values, sorted: the coincidence matrix is indexed by them.
    std::vector<double> values;
    for (const auto &unit : data)
        for (double v : unit)
            if (!std::isnan(v))
                values.push_back(v);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    const size_t V = values.size();
    const auto indexOf
            = [&](double v) { return size_t(std::lower_bound(values.begin(), values.end(), v) - values.begin()); };

    std::vector<double> o(V * V, 0.0);
    std::vector<double> inUnit(V, 0.0);
    for (const auto &unit : data) {
        std::fill(inUnit.begin(), inUnit.end(), 0.0);
        int m = 0;
        for (double v : unit)
            if (!std::isnan(v)) {
                inUnit[indexOf(v)] += 1.0;
                ++m;
            }
        if (m < 2)
            continue;
        ++out.units;
        out.values += m;
        // Each ordered pair of values from different coders in the unit adds 1/(m−1).
        for (size_t c = 0; c < V; ++c) {
            if (inUnit[c] == 0)
                continue;
            for (size_t k = 0; k < V; ++k)
                if (inUnit[k] != 0)
                    o[c * V + k] += inUnit[c] * (inUnit[k] - (c == k ? 1.0 : 0.0)) / double(m - 1);
        }
    }
    std::vector<double> nc(V, 0.0);
    for (size_t c = 0; c < V; ++c)
        for (size_t k = 0; k < V; ++k)
            nc[c] += o[c * V + k];
    const double n = double(out.values);
    if (n < 2)
        return out;

    const auto delta2 = [&](size_t c, size_t k) -> double {
        if (c == k)
            return 0.0;
        switch (level) {
        case AlphaLevel::Nominal:
            return 1.0;
        case AlphaLevel::Ordinal: {
            const size_t lo = std::min(c, k), hi = std::max(c, k);
            double s = 0;
            for (size_t g = lo; g <= hi; ++g)
                s += nc[g];
            s -= (nc[lo] + nc[hi]) / 2.0;
            return s * s;
        }
        case AlphaLevel::Interval: {
            const double d = values[c] - values[k];
            return d * d;
        }
        case AlphaLevel::Ratio: {
            const double sum = values[c] + values[k];
            if (sum == 0)
                return 0.0;
            const double d = (values[c] - values[k]) / sum;
            return d * d;
        }
        }
        return 0.0;
    };
    double observed = 0, expected = 0;
    for (size_t c = 0; c < V; ++c)
        for (size_t k = 0; k < V; ++k) {
            if (c == k)
                continue;
            const double d2 = delta2(c, k);
            observed += o[c * V + k] * d2;
            expected += nc[c] * nc[k] * d2;
        }
    if (expected <= 0)
        return out;
    out.alpha = 1.0 - (n - 1.0) * observed / expected;
    return out;
}

double fleissKappaCounts(const std::vector<std::vector<int>> &counts)
{
    if (counts.empty())
        return kNaN;
    const size_t K = counts.front().size();
    double raters = 0;
    for (int c : counts.front())
        raters += c;
    if (raters < 2)
        return kNaN;
    std::vector<double> total(K, 0.0);
    double pBar = 0;
    for (const auto &row : counts) {
        double sumSq = 0, rowSum = 0;
        for (size_t j = 0; j < K && j < row.size(); ++j) {
            sumSq += double(row[j]) * row[j];
            rowSum += row[j];
            total[j] += row[j];
        }
        if (rowSum != raters)
            return kNaN; // Fleiss' kappa needs the same number of ratings per item
        pBar += (sumSq - raters) / (raters * (raters - 1));
    }
    const double N = double(counts.size());
    pBar /= N;
    double pe = 0;
    for (double t : total) {
        const double p = t / (N * raters);
        pe += p * p;
    }
    if (pe >= 1.0)
        return kNaN;
    return (pBar - pe) / (1.0 - pe);
}

KappaResult fleissKappa(const ReliabilityData &data)
{
    KappaResult out;
    std::vector<const std::vector<double> *> rows;
    for (const auto &unit : data)
        if (!unit.empty() && std::none_of(unit.begin(), unit.end(), [](double v) { return std::isnan(v); }))
            rows.push_back(&unit);
    if (rows.empty())
        return out;
    std::map<double, size_t> category;
    for (const auto *r : rows)
        for (double v : *r)
            category.emplace(v, 0);
    size_t next = 0;
    for (auto &[value, index] : category)
        index = next++;
    std::vector<std::vector<int>> counts(rows.size(), std::vector<int>(category.size(), 0));
    for (size_t i = 0; i < rows.size(); ++i)
        for (double v : *rows[i])
            ++counts[i][category[v]];
    out.items = int(rows.size());
    out.raters = int(rows.front()->size());
    out.kappa = fleissKappaCounts(counts);
    return out;
}

HumanCeiling humanCeiling(const ReliabilityData &data, const QStringList &coders)
{
    HumanCeiling out;
    const size_t m = size_t(coders.size());
    std::vector<double> p, s, k;
    for (size_t a = 0; a < m; ++a) {
        std::vector<double> mine, others;
        for (const auto &unit : data) {
            if (a >= unit.size() || std::isnan(unit[a]))
                continue;
            double sum = 0;
            int count = 0;
            for (size_t b = 0; b < unit.size(); ++b)
                if (b != a && !std::isnan(unit[b])) {
                    sum += unit[b];
                    ++count;
                }
            if (count == 0)
                continue;
            mine.push_back(unit[a]);
            others.push_back(sum / count);
        }
        CeilingEntry e;
        e.annotator = coders.at(qsizetype(a));
        e.n = int(mine.size());
        e.pearson = pearson(mine, others);
        e.spearman = spearman(mine, others);
        e.kendall = kendallTauB(mine, others);
        p.push_back(e.pearson);
        s.push_back(e.spearman);
        k.push_back(e.kendall);
        out.annotators.append(e);
    }
    out.pearson = meanSkippingNaN(p);
    out.spearman = meanSkippingNaN(s);
    out.kendall = meanSkippingNaN(k);
    return out;
}

} // namespace rubric::stats
