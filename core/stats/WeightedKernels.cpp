#include "WeightedKernels.h"

#include "Correlation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace rubric::stats::detail {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A centred sum of squares this small next to the uncentred one means a side is constant or
/// nearly so: the sums cannot be trusted, the ordinary kernels decide.
constexpr double kTooFlat = 1e-9;

/// Each value's index among the sorted distinct values of `v`.
std::vector<int> distinctIndex(std::span<const double> v, int &count)
{
    std::vector<double> sorted(v.begin(), v.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    count = int(sorted.size());
    std::vector<int> out(v.size());
    for (size_t i = 0; i < v.size(); ++i)
        out[i] = int(std::lower_bound(sorted.begin(), sorted.end(), v[i]) - sorted.begin());
    return out;
}

double mean(std::span<const double> v)
{
    double s = 0;
    for (double d : v)
        s += d;
    return v.empty() ? 0.0 : s / double(v.size());
}

template <typename W> std::span<const W> weightsOf(const ResampleCounts &c);
template <> std::span<const std::uint8_t> weightsOf(const ResampleCounts &c)
{
    return c.narrow;
}
template <> std::span<const std::uint32_t> weightsOf(const ResampleCounts &c)
{
    return c.wide;
}

/// The drawn items' values, for the ordinary kernels.
void gather(const WeightedData &d, const ResampleCounts &counts, WeightedWorkspace &ws)
{
    counts.rows(ws.rows);
    ws.kernel.a.resize(ws.rows.size());
    ws.kernel.b.resize(ws.rows.size());
    for (size_t k = 0; k < ws.rows.size(); ++k) {
        ws.kernel.a[k] = d.x[size_t(ws.rows[k])];
        ws.kernel.b[k] = d.y[size_t(ws.rows[k])];
    }
}

/// Centred average ranks of the distinct values of one side: value t of the drawn multiset takes
/// rank (drawn below t) + (drawn at t + 1) / 2, minus the mean rank (N + 1) / 2.
void centredRanks(const std::vector<std::uint64_t> &weight, std::uint64_t total, std::vector<double> &out)
{
    out.resize(weight.size());
    std::uint64_t below = 0;
    const double mid = 0.5 * double(total + 1);
    for (size_t t = 0; t < weight.size(); ++t) {
        out[t] = double(below) + 0.5 * double(weight[t] + 1) - mid;
        below += weight[t];
    }
}

template <typename W>
double spearmanOf(const WeightedData &d, std::span<const W> w, std::uint64_t total, WeightedWorkspace &ws)
{
    centredRanks(ws.wx, total, ws.rx);
    centredRanks(ws.wy, total, ws.ry);
    double sxx = 0, syy = 0;
    for (size_t t = 0; t < ws.wx.size(); ++t)
        sxx += double(ws.wx[t]) * ws.rx[t] * ws.rx[t];
    for (size_t t = 0; t < ws.wy.size(); ++t)
        syy += double(ws.wy[t]) * ws.ry[t] * ws.ry[t];
    if (!(sxx > 0) || !(syy > 0))
        return kNaN; // a side with one distinct value drawn: every rank is the mean rank
    double sxy = 0;
    const int *tx = d.tx.data(), *ty = d.ty.data();
    for (size_t i = 0; i < w.size(); ++i)
        if (w[i])
            sxy += double(w[i]) * ws.rx[size_t(tx[i])] * ws.ry[size_t(ty[i])];
    return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

/// Kendall's τ-b from the weighted table of distinct values: concordant minus discordant pairs
/// counted exactly (each unordered pair of drawn items with different human values once, from the
/// cell of the lower one), ties from the margins and the cells, as kendallTauB.
template <typename W>
double kendallOf(const WeightedData &d, std::span<const W> w, std::uint64_t total, WeightedWorkspace &ws)
{
    const size_t kx = size_t(d.kx), ky = size_t(d.ky);
    ws.table.assign(kx * ky, 0);
    for (size_t i = 0; i < w.size(); ++i)
        ws.table[size_t(d.tx[i]) * ky + size_t(d.ty[i])] += w[i];
    std::uint64_t tiesX = 0, tiesY = 0, tiesXY = 0;
    const auto pairs = [](std::uint64_t c) { return c > 1 ? c * (c - 1) / 2 : 0; };
    for (std::uint64_t c : ws.wx)
        tiesX += pairs(c);
    for (std::uint64_t c : ws.wy)
        tiesY += pairs(c);
    for (std::uint32_t c : ws.table)
        tiesXY += pairs(c);
    const std::uint64_t n0 = total * (total - 1) / 2;
    if (total < 2 || tiesX == n0 || tiesY == n0)
        return kNaN;
    // Rows (human values) from the highest down; `below[b]` holds the drawn items of the higher
    // rows with judge value b. A cell's items pair concordantly with the higher rows' items of a
    // larger judge value and discordantly with those of a smaller one.
    ws.below.assign(ky, 0);
    std::int64_t s = 0;
    std::uint64_t higher = 0; // items in higher rows
    for (size_t a = kx; a-- > 0;) {
        const std::uint32_t *row = ws.table.data() + a * ky;
        std::uint64_t lower = 0; // higher rows' items with a smaller judge value than b
        for (size_t b = 0; b < ky; ++b) {
            if (row[b]) {
                const std::uint64_t greater = higher - lower - ws.below[b];
                s += std::int64_t(row[b]) * (std::int64_t(greater) - std::int64_t(lower));
            }
            lower += ws.below[b];
        }
        for (size_t b = 0; b < ky; ++b) {
            ws.below[b] += row[b];
            higher += row[b];
        }
    }
    const double denom = std::sqrt(double(n0 - tiesX)) * std::sqrt(double(n0 - tiesY));
    return std::clamp(double(s) / denom, -1.0, 1.0);
}

template <typename W>
LevelCorrelation coefficientsOf(const WeightedData &d, const ResampleCounts &counts, unsigned coefficients,
                                WeightedWorkspace &ws)
{
    const std::span<const W> w = weightsOf<W>(counts);
    LevelCorrelation out;
    std::uint64_t total = 0;
    for (W c : w)
        total += c;
    out.n = int(total);
    const bool wantP = coefficients & coefficientBit(Coefficient::Pearson);
    const bool wantS = coefficients & coefficientBit(Coefficient::Spearman);
    const bool wantK = coefficients & coefficientBit(Coefficient::Kendall);
    if (wantP) {
        // Four lanes of sums (items i ≡ l mod 4), added up in a fixed order at the end: the
        // additions overlap instead of waiting on one another, and the result is the same
        // whatever thread runs it.
        constexpr size_t L = 4;
        const size_t n = w.size();
        double lx[L]{}, ly[L]{}, lxx[L]{}, lyy[L]{}, lxy[L]{};
        const double *dx = d.dx.data(), *dy = d.dy.data();
        const auto add = [&](size_t i, size_t l) {
            const double wi = double(w[i]);
            const double wx = wi * dx[i], wy = wi * dy[i];
            lx[l] += wx;
            ly[l] += wy;
            lxx[l] += wx * dx[i];
            lyy[l] += wy * dy[i];
            lxy[l] += wx * dy[i];
        };
        size_t i = 0;
        for (; i + L <= n; i += L)
            for (size_t l = 0; l < L; ++l)
                add(i + l, l);
        for (; i < n; ++i)
            add(i, 0);
        const auto sum = [](const double(&v)[L]) { return (v[0] + v[1]) + (v[2] + v[3]); };
        const double sx = sum(lx), sy = sum(ly), sxx = sum(lxx), syy = sum(lyy), sxy = sum(lxy);
        const double t = double(total);
        const double cxx = sxx - sx * sx / t, cyy = syy - sy * sy / t, cxy = sxy - sx * sy / t;
        if (cxx > kTooFlat * sxx && cyy > kTooFlat * syy) {
            out.pearson = std::clamp(cxy / std::sqrt(cxx * cyy), -1.0, 1.0);
        } else {
            gather(d, counts, ws);
            out.pearson = pearson(ws.kernel.a, ws.kernel.b);
        }
    }
    if (wantS || wantK) {
        ws.wx.assign(size_t(d.kx), 0);
        ws.wy.assign(size_t(d.ky), 0);
        for (size_t i = 0; i < w.size(); ++i) {
            ws.wx[size_t(d.tx[i])] += w[i];
            ws.wy[size_t(d.ty[i])] += w[i];
        }
    }
    if (wantS)
        out.spearman = spearmanOf(d, w, total, ws);
    if (wantK) {
        if (size_t(d.kx) * size_t(d.ky) <= kMaxTableCells) {
            out.kendall = kendallOf(d, w, total, ws);
        } else {
            gather(d, counts, ws);
            out.kendall = kendallTauB(ws.kernel.a, ws.kernel.b);
        }
    }
    return out;
}

} // namespace

WeightedData prepareWeighted(std::span<const double> x, std::span<const double> y, unsigned coefficients)
{
    WeightedData d;
    d.x = x;
    d.y = y;
    const double mx = mean(x), my = mean(y);
    d.dx.resize(x.size());
    d.dy.resize(y.size());
    for (size_t i = 0; i < x.size(); ++i) {
        d.dx[i] = x[i] - mx;
        d.dy[i] = y[i] - my;
    }
    if (coefficients & (coefficientBit(Coefficient::Spearman) | coefficientBit(Coefficient::Kendall))) {
        d.tx = distinctIndex(x, d.kx);
        d.ty = distinctIndex(y, d.ky);
    }
    return d;
}

LevelCorrelation weightedCoefficients(const WeightedData &data, const ResampleCounts &counts, unsigned coefficients,
                                      WeightedWorkspace &ws)
{
    return counts.isWide ? coefficientsOf<std::uint32_t>(data, counts, coefficients, ws)
                         : coefficientsOf<std::uint8_t>(data, counts, coefficients, ws);
}

PermutationData preparePermutation(std::span<const double> x, std::span<const double> a, std::span<const double> b)
{
    PermutationData p;
    p.x = x;
    p.a = a;
    p.b = b;
    const size_t n = x.size();
    p.d.resize(n);
    p.q.resize(n);
    p.xd.resize(n);
    for (size_t k = 0; k < n; ++k) {
        p.d[k] = b[k] - a[k];
        p.q[k] = b[k] * b[k] - a[k] * a[k];
        p.xd[k] = x[k] * p.d[k];
        p.sx += x[k];
        p.sxx += x[k] * x[k];
        p.sa += a[k];
        p.sb += b[k];
        p.saa += a[k] * a[k];
        p.sbb += b[k] * b[k];
        p.sxa += x[k] * a[k];
        p.sxb += x[k] * b[k];
    }
    return p;
}

std::pair<double, double> permutedPearson(const PermutationData &p, std::span<const quint64> bits,
                                          std::vector<double> &pa, std::vector<double> &pb)
{
    // Item k moves d = b − a into the first judge where its bit is set: the permuted sums are the
    // unpermuted ones plus the swapped items' d, b² − a² and x·d (the second judge's minus them).
    constexpr size_t L = 4;
    const size_t n = p.x.size();
    double l1[L]{}, l2[L]{}, l3[L]{};
    for (size_t k = 0; k < n; ++k) {
        const double m = double((bits[k >> 6] >> (k & 63)) & 1);
        const size_t l = k & (L - 1);
        l1[l] += m * p.d[k];
        l2[l] += m * p.q[k];
        l3[l] += m * p.xd[k];
    }
    const auto sum = [](const double(&v)[L]) { return (v[0] + v[1]) + (v[2] + v[3]); };
    const double t1 = sum(l1), t2 = sum(l2), t3 = sum(l3);
    const double t = double(n);
    const double sa = p.sa + t1, sb = p.sb - t1, saa = p.saa + t2, sbb = p.sbb - t2, sxa = p.sxa + t3, sxb = p.sxb - t3;
    const double cxx = p.sxx - p.sx * p.sx / t, caa = saa - sa * sa / t, cbb = sbb - sb * sb / t;
    if (cxx > kTooFlat * p.sxx && caa > kTooFlat * saa && cbb > kTooFlat * sbb)
        return {std::clamp((sxa - p.sx * sa / t) / std::sqrt(cxx * caa), -1.0, 1.0),
                std::clamp((sxb - p.sx * sb / t) / std::sqrt(cxx * cbb), -1.0, 1.0)};
    pa.resize(n);
    pb.resize(n);
    for (size_t k = 0; k < n; ++k) {
        const bool swap = (bits[k >> 6] >> (k & 63)) & 1;
        pa[k] = swap ? p.b[k] : p.a[k];
        pb[k] = swap ? p.a[k] : p.b[k];
    }
    return {pearson(p.x, pa), pearson(p.x, pb)};
}

} // namespace rubric::stats::detail
