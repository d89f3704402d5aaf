#include "Correlation.h"

#include "RadixSort.h"
#include "Ranking.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace rubric::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Pairs with both values present (missing = NaN on either side are dropped).
void paired(std::span<const double> x, std::span<const double> y, std::vector<double> &px, std::vector<double> &py)
{
    const size_t n = std::min(x.size(), y.size());
    px.clear();
    py.clear();
    px.reserve(n);
    py.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        if (std::isnan(x[i]) || std::isnan(y[i]))
            continue;
        px.push_back(x[i]);
        py.push_back(y[i]);
    }
}

bool hasNaN(std::span<const double> v)
{
    return std::any_of(v.begin(), v.end(), [](double d) { return std::isnan(d); });
}

// Pearson on complete data. Two passes (mean first) keep it accurate for large offsets.
double pearsonComplete(std::span<const double> x, std::span<const double> y)
{
    const size_t n = x.size();
    if (n < 2)
        return kNaN;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= double(n);
    my /= double(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; ++i) {
        const double dx = x[i] - mx, dy = y[i] - my;
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if (sxx <= 0 || syy <= 0)
        return kNaN;
    // A side is constant when every value equals the first (sxx may be a rounding residue then).
    if (std::all_of(x.begin(), x.end(), [&](double v) { return v == x[0]; })
        || std::all_of(y.begin(), y.end(), [&](double v) { return v == y[0]; }))
        return kNaN;
    const double r = sxy / std::sqrt(sxx * syy);
    return std::clamp(r, -1.0, 1.0);
}

struct XY
{
    double x, y;
};

// Counts inversions of `v` (pairs i < j with v[i] > v[j]) while sorting it ascending;
// bottom-up merge sort, equal values are not inversions.
template <typename T> std::uint64_t sortCountingSwaps(std::vector<T> &v)
{
    const size_t n = v.size();
    std::vector<T> buf(n);
    std::uint64_t swaps = 0;
    T *src = v.data();
    T *dst = buf.data();
    // Small runs by insertion sort first: cheaper than merging width-1 runs.
    constexpr size_t kRun = 16;
    for (size_t lo = 0; lo < n; lo += kRun) {
        const size_t hi = std::min(n, lo + kRun);
        for (size_t i = lo + 1; i < hi; ++i) {
            const T key = src[i];
            size_t j = i;
            while (j > lo && src[j - 1] > key) {
                src[j] = src[j - 1];
                --j;
            }
            swaps += i - j;
            src[j] = key;
        }
    }
    for (size_t width = kRun; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            const size_t mid = std::min(n, lo + width);
            const size_t hi = std::min(n, lo + 2 * width);
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (src[j] < src[i]) {
                    swaps += mid - i;
                    dst[k++] = src[j++];
                } else {
                    dst[k++] = src[i++];
                }
            }
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        std::swap(src, dst);
    }
    if (src != v.data())
        std::copy(src, src + n, v.data());
    return swaps;
}

// Knight's algorithm for large n: radix sorts instead of comparison sorts, y replaced by its
// dense rank so the inversion count runs on 32-bit integers.
double kendallLarge(std::span<const double> x, std::span<const double> y)
{
    const size_t n = x.size();
    std::vector<detail::KeyIndex> byY(n);
    for (size_t i = 0; i < n; ++i)
        byY[i] = {detail::orderKey(y[i]), std::uint32_t(i)};
    detail::radixSort(byY);
    std::vector<std::uint32_t> rankY(n);
    std::uint64_t tiesY = 0;
    std::uint32_t rank = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && byY[j].key == byY[i].key)
            ++j;
        const std::uint64_t t = j - i;
        tiesY += t * (t - 1) / 2;
        for (size_t k = i; k < j; ++k)
            rankY[byY[k].index] = rank;
        ++rank;
        i = j;
    }
    // Stable sort by x of the y-sorted order: (x, y) order.
    std::vector<detail::KeyIndex> byXY(n);
    for (size_t i = 0; i < n; ++i)
        byXY[i] = {detail::orderKey(x[byY[i].index]), byY[i].index};
    byY = {};
    detail::radixSort(byXY);
    std::vector<std::uint32_t> seq(n);
    std::uint64_t tiesX = 0, tiesXY = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && byXY[j].key == byXY[i].key)
            ++j;
        const std::uint64_t t = j - i;
        tiesX += t * (t - 1) / 2;
        for (size_t a = i; a < j;) {
            size_t b = a + 1;
            while (b < j && rankY[byXY[b].index] == rankY[byXY[a].index])
                ++b;
            const std::uint64_t u = b - a;
            tiesXY += u * (u - 1) / 2;
            a = b;
        }
        for (size_t k = i; k < j; ++k)
            seq[k] = rankY[byXY[k].index];
        i = j;
    }
    byXY = {};
    const std::uint64_t swaps = sortCountingSwaps(seq);
    const std::uint64_t n0 = std::uint64_t(n) * (n - 1) / 2;
    if (tiesX == n0 || tiesY == n0)
        return kNaN;
    const std::int64_t s = std::int64_t(n0) - std::int64_t(tiesX) - std::int64_t(tiesY) + std::int64_t(tiesXY)
                           - 2 * std::int64_t(swaps);
    const double denom = std::sqrt(double(n0 - tiesX)) * std::sqrt(double(n0 - tiesY));
    return std::clamp(double(s) / denom, -1.0, 1.0);
}

double kendallComplete(std::span<const double> x, std::span<const double> y)
{
    const size_t n = x.size();
    if (n < 2)
        return kNaN;
    if (n >= detail::kRadixThreshold && n < (size_t(1) << 32))
        return kendallLarge(x, y);
    std::vector<XY> p(n);
    for (size_t i = 0; i < n; ++i)
        p[i] = {x[i], y[i]};
    std::sort(p.begin(), p.end(), [](const XY &a, const XY &b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });

    // Knight (1966): ties in x (n1) and joint ties (n3) from the (x, y)-sorted order.
    std::uint64_t tiesX = 0, tiesXY = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && p[j].x == p[i].x)
            ++j;
        const std::uint64_t t = j - i;
        tiesX += t * (t - 1) / 2;
        for (size_t a = i; a < j;) {
            size_t b = a + 1;
            while (b < j && p[b].y == p[a].y)
                ++b;
            const std::uint64_t u = b - a;
            tiesXY += u * (u - 1) / 2;
            a = b;
        }
        i = j;
    }
    std::vector<double> ys(n);
    for (size_t i = 0; i < n; ++i)
        ys[i] = p[i].y;
    const std::uint64_t swaps = sortCountingSwaps(ys);
    std::uint64_t tiesY = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && ys[j] == ys[i])
            ++j;
        const std::uint64_t t = j - i;
        tiesY += t * (t - 1) / 2;
        i = j;
    }
    const std::uint64_t n0 = std::uint64_t(n) * (n - 1) / 2;
    if (tiesX == n0 || tiesY == n0)
        return kNaN;
    // concordant − discordant = n0 − n1 − n2 + n3 − 2·swaps; exact in 64-bit integers.
    const std::int64_t s = std::int64_t(n0) - std::int64_t(tiesX) - std::int64_t(tiesY) + std::int64_t(tiesXY)
                           - 2 * std::int64_t(swaps);
    const double denom = std::sqrt(double(n0 - tiesX)) * std::sqrt(double(n0 - tiesY));
    return std::clamp(double(s) / denom, -1.0, 1.0);
}

} // namespace

double pearson(std::span<const double> x, std::span<const double> y)
{
    if (x.size() == y.size() && !hasNaN(x) && !hasNaN(y))
        return pearsonComplete(x, y);
    std::vector<double> px, py;
    paired(x, y, px, py);
    return pearsonComplete(px, py);
}

double spearman(std::span<const double> x, std::span<const double> y)
{
    std::vector<double> px, py;
    paired(x, y, px, py);
    const std::vector<double> rx = averageRanks(px);
    const std::vector<double> ry = averageRanks(py);
    return pearsonComplete(rx, ry);
}

double kendallTauB(std::span<const double> x, std::span<const double> y)
{
    if (x.size() == y.size() && !hasNaN(x) && !hasNaN(y))
        return kendallComplete(x, y);
    std::vector<double> px, py;
    paired(x, y, px, py);
    return kendallComplete(px, py);
}

} // namespace rubric::stats
