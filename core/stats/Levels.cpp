#include "Levels.h"

#include "Correlation.h"
#include "LevelKernel.h"
#include "Ranking.h"

#include <QCoreApplication>
#include <QHash>

#include <cmath>
#include <limits>
#include <numeric>

namespace rubric::stats {
namespace detail {

namespace {

bool constant(std::span<const double> v)
{
    for (double d : v)
        if (d != v.front())
            return false;
    return true;
}

int intern(QHash<QString, int> &index, const QString &key)
{
    if (key.isEmpty())
        return -1;
    auto f = index.constFind(key);
    if (f != index.constEnd())
        return *f;
    const int id = int(index.size());
    index.insert(key, id);
    return id;
}

} // namespace

Dense densify(const QVector<ScoredItem> &items)
{
    Dense d;
    QHash<QString, int> groups, systems;
    for (const ScoredItem &it : items) {
        if (std::isnan(it.human) || std::isnan(it.judge))
            continue;
        d.human.push_back(it.human);
        d.judge.push_back(it.judge);
        d.group.push_back(intern(groups, it.group));
        d.system.push_back(intern(systems, it.system));
    }
    d.groupCount = int(groups.size());
    d.systemCount = int(systems.size());
    return d;
}

namespace {

/// Renumbers the kept items' indices (-1 stays -1) in their order of first appearance.
int renumber(std::vector<int> &map, int old, int &count)
{
    if (old < 0)
        return -1;
    int &slot = map[size_t(old)];
    if (slot < 0)
        slot = count++;
    return slot;
}

} // namespace

Dense densify(const StatsColumns &columns, int judge)
{
    std::vector<double> none;
    return densify(columns, judge, -1, none);
}

Dense densify(const StatsColumns &columns, int a, int b, std::vector<double> &other)
{
    Dense d;
    const std::vector<double> &ja = columns.judges[size_t(a)];
    const std::vector<double> *jb = b >= 0 ? &columns.judges[size_t(b)] : nullptr;
    std::vector<int> groups(size_t(columns.groups.size()), -1), systems(size_t(columns.systems.size()), -1);
    other.clear();
    for (size_t i = 0; i < columns.size(); ++i) {
        if (std::isnan(columns.human[i]) || std::isnan(ja[i]) || (jb && std::isnan((*jb)[i])))
            continue;
        d.human.push_back(columns.human[i]);
        d.judge.push_back(ja[i]);
        if (jb)
            other.push_back((*jb)[i]);
        d.group.push_back(renumber(groups, columns.group[i], d.groupCount));
        d.system.push_back(renumber(systems, columns.system[i], d.systemCount));
    }
    return d;
}

LevelCorrelation evaluate(Level level, std::span<const double> human, std::span<const double> judge,
                          std::span<const int> group, std::span<const int> system, int groupCount, int systemCount,
                          std::span<const int> rows, Workspace &ws, ConstantGroups constantGroups,
                          unsigned coefficients)
{
    LevelCorrelation out;
    out.constantGroups = constantGroups;
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    const bool wantP = coefficients & coefficientBit(Coefficient::Pearson);
    const bool wantS = coefficients & coefficientBit(Coefficient::Spearman);
    const bool wantK = coefficients & coefficientBit(Coefficient::Kendall);
    const auto correlate = [&](std::span<const double> x, std::span<const double> y) {
        out.pearson = wantP ? pearson(x, y) : nan;
        out.spearman = wantS ? spearman(x, y) : nan;
        out.kendall = wantK ? kendallTauB(x, y) : nan;
    };
    switch (level) {
    case Level::Dataset: {
        ws.a.resize(rows.size());
        ws.b.resize(rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            ws.a[i] = human[size_t(rows[i])];
            ws.b[i] = judge[size_t(rows[i])];
        }
        out.n = int(rows.size());
        correlate(ws.a, ws.b);
        return out;
    }
    case Level::Group: {
        // Bucket rows by group (counting sort), then correlate each bucket.
        ws.count.assign(size_t(groupCount) + 1, 0);
        for (int r : rows)
            if (group[size_t(r)] >= 0)
                ++ws.count[size_t(group[size_t(r)]) + 1];
        std::partial_sum(ws.count.begin(), ws.count.end(), ws.count.begin());
        ws.offset = ws.count;
        const size_t total = size_t(ws.count.back());
        ws.a.resize(total);
        ws.b.resize(total);
        for (int r : rows) {
            const int g = group[size_t(r)];
            if (g < 0)
                continue;
            const int at = ws.offset[size_t(g)]++;
            ws.a[size_t(at)] = human[size_t(r)];
            ws.b[size_t(at)] = judge[size_t(r)];
        }
        double sp = 0, ss = 0, sk = 0;
        int np = 0, ns = 0, nk = 0;
        for (int g = 0; g < groupCount; ++g) {
            const size_t lo = size_t(ws.count[size_t(g)]), hi = size_t(ws.count[size_t(g) + 1]);
            if (hi == lo)
                continue; // not present in this sample
            const std::span<const double> h(ws.a.data() + lo, hi - lo), j(ws.b.data() + lo, hi - lo);
            if (h.size() < 2) {
                ++out.groupsTooSmall;
                ++out.groupsSkipped;
                continue;
            }
            if (constant(h)) {
                ++out.groupsHumanConstant;
                if (constantGroups == ConstantGroups::One) {
                    // PairS: people saw no difference, so any ranking of the group is a perfect one.
                    sp += 1;
                    ss += 1;
                    sk += 1;
                    np += wantP;
                    ns += wantS;
                    nk += wantK;
                    out.n += int(h.size());
                    ++out.groupsUsed;
                } else {
                    ++out.groupsSkipped;
                }
                continue;
            }
            if (constant(j)) {
                ++out.groupsJudgeConstant;
                ++out.groupsSkipped;
                continue;
            }
            // Each mean skips NaN explicitly, although a non-constant group of ≥ 2 gives none.
            const double p = wantP ? pearson(h, j) : nan, s = wantS ? spearman(h, j) : nan,
                         k = wantK ? kendallTauB(h, j) : nan;
            if (!std::isnan(p)) {
                sp += p;
                ++np;
            }
            if (!std::isnan(s)) {
                ss += s;
                ++ns;
            }
            if (!std::isnan(k)) {
                sk += k;
                ++nk;
            }
            out.n += int(h.size());
            ++out.groupsUsed;
        }
        out.pearson = np ? sp / np : nan;
        out.spearman = ns ? ss / ns : nan;
        out.kendall = nk ? sk / nk : nan;
        return out;
    }
    case Level::System: {
        ws.a.assign(size_t(systemCount), 0.0);
        ws.b.assign(size_t(systemCount), 0.0);
        ws.count.assign(size_t(systemCount), 0);
        for (int r : rows) {
            const int s = system[size_t(r)];
            if (s < 0)
                continue;
            ws.a[size_t(s)] += human[size_t(r)];
            ws.b[size_t(s)] += judge[size_t(r)];
            ++ws.count[size_t(s)];
            ++out.n;
        }
        ws.c.clear();
        ws.d.clear();
        for (int s = 0; s < systemCount; ++s) {
            if (ws.count[size_t(s)] == 0)
                continue;
            ws.c.push_back(ws.a[size_t(s)] / ws.count[size_t(s)]);
            ws.d.push_back(ws.b[size_t(s)] / ws.count[size_t(s)]);
        }
        out.groupsUsed = int(ws.c.size());
        correlate(ws.c, ws.d);
        return out;
    }
    }
    return out;
}

std::vector<std::array<double, 3>> groupCoefficients(std::span<const double> human, std::span<const double> judge,
                                                     std::span<const int> group, int groupCount,
                                                     ConstantGroups constantGroups, unsigned coefficients)
{
    // Members of each group (counting sort, item order kept), then each group as the only group of
    // a call: evaluate's work is then the group's size, not the number of groups.
    std::vector<int> start(static_cast<size_t>(groupCount) + 1, 0);
    for (int g : group)
        if (g >= 0)
            ++start[size_t(g) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<int> next(start.begin(), start.end() - 1), members(size_t(start.back()));
    for (size_t i = 0; i < group.size(); ++i)
        if (group[i] >= 0)
            members[size_t(next[size_t(group[i])]++)] = int(i);
    std::vector<std::array<double, 3>> out(static_cast<size_t>(groupCount));
    std::vector<double> h, j;
    std::vector<int> zero, rows;
    Workspace ws;
    for (int g = 0; g < groupCount; ++g) {
        const size_t lo = size_t(start[size_t(g)]), hi = size_t(start[size_t(g) + 1]);
        h.clear();
        j.clear();
        for (size_t k = lo; k < hi; ++k) {
            h.push_back(human[size_t(members[k])]);
            j.push_back(judge[size_t(members[k])]);
        }
        zero.assign(h.size(), 0);
        rows.resize(h.size());
        std::iota(rows.begin(), rows.end(), 0);
        const LevelCorrelation c
                = evaluate(Level::Group, h, j, zero, zero, 1, 0, rows, ws, constantGroups, coefficients);
        out[size_t(g)] = {c.pearson, c.spearman, c.kendall};
    }
    return out;
}

} // namespace detail

LevelCorrelation::LevelCorrelation()
    : pearson(std::numeric_limits<double>::quiet_NaN())
    , spearman(std::numeric_limits<double>::quiet_NaN())
    , kendall(std::numeric_limits<double>::quiet_NaN())
{
}

double LevelCorrelation::value(Coefficient c) const
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

QString levelName(Level level)
{
    switch (level) {
    case Level::Dataset:
        return QStringLiteral("dataset");
    case Level::Group:
        return QStringLiteral("group");
    case Level::System:
        return QStringLiteral("system");
    }
    return {};
}

std::optional<Level> parseLevel(const QString &name)
{
    for (Level l : {Level::Dataset, Level::Group, Level::System})
        if (levelName(l) == name)
            return l;
    return std::nullopt;
}

QString coefficientName(Coefficient c)
{
    switch (c) {
    case Coefficient::Pearson:
        return QStringLiteral("pearson");
    case Coefficient::Spearman:
        return QStringLiteral("spearman");
    case Coefficient::Kendall:
        return QStringLiteral("kendall");
    }
    return {};
}

QString constantGroupsName(ConstantGroups rule)
{
    return rule == ConstantGroups::One ? QStringLiteral("one") : QStringLiteral("skip");
}

std::optional<ConstantGroups> parseConstantGroups(const QString &name)
{
    for (ConstantGroups r : {ConstantGroups::Skip, ConstantGroups::One})
        if (constantGroupsName(r) == name)
            return r;
    return std::nullopt;
}

QString constantGroupsConvention(ConstantGroups rule)
{
    return rule == ConstantGroups::One
                   ? QCoreApplication::translate("rubric::stats",
                                                 "a group with constant human scores counts as 1 (PairS, HypoEval); "
                                                 "one with constant judge scores is left out")
                   : QCoreApplication::translate("rubric::stats",
                                                 "a group with constant human or judge scores is left out (G-Eval, "
                                                 "UniEval)");
}

LevelCorrelation correlateAtLevel(const StatsColumns &columns, int judge, Level level, ConstantGroups constantGroups)
{
    const detail::Dense d = detail::densify(columns, judge);
    std::vector<int> rows(d.human.size());
    std::iota(rows.begin(), rows.end(), 0);
    detail::Workspace ws;
    return detail::evaluate(level, d.human, d.judge, d.group, d.system, d.groupCount, d.systemCount, rows, ws,
                            constantGroups);
}

LevelCorrelation correlateAtLevel(const QVector<ScoredItem> &items, Level level, ConstantGroups constantGroups)
{
    const detail::Dense d = detail::densify(items);
    std::vector<int> rows(d.human.size());
    std::iota(rows.begin(), rows.end(), 0);
    detail::Workspace ws;
    return detail::evaluate(level, d.human, d.judge, d.group, d.system, d.groupCount, d.systemCount, rows, ws,
                            constantGroups);
}

} // namespace rubric::stats
