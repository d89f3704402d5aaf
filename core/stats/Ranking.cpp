#include "Ranking.h"

#include "RadixSort.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace rubric::stats {

std::vector<double> averageRanks(std::span<const double> v)
{
    const size_t n = v.size();
    std::vector<size_t> order(n);
    if (n >= detail::kRadixThreshold && n < (size_t(1) << 32)) {
        std::vector<detail::KeyIndex> keyed(n);
        for (size_t i = 0; i < n; ++i)
            keyed[i] = {detail::orderKey(v[i]), std::uint32_t(i)};
        detail::radixSort(keyed);
        for (size_t i = 0; i < n; ++i)
            order[i] = keyed[i].index;
    } else {
        std::iota(order.begin(), order.end(), size_t(0));
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    }
    std::vector<double> ranks(n);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && v[order[j]] == v[order[i]])
            ++j;
        // positions i..j-1 (0-based) share ranks i+1..j → mean (i + 1 + j) / 2
        const double r = 0.5 * double(i + 1 + j);
        for (size_t k = i; k < j; ++k)
            ranks[order[k]] = r;
        i = j;
    }
    return ranks;
}

double quantileSorted(std::span<const double> sorted, double q)
{
    if (sorted.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const double pos = q * double(sorted.size() - 1);
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(sorted.size() - 1, lo + 1);
    const double frac = pos - double(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double meanSkippingNaN(std::span<const double> v)
{
    double sum = 0;
    int count = 0;
    for (double d : v) {
        if (std::isnan(d))
            continue;
        sum += d;
        ++count;
    }
    return count ? sum / count : std::numeric_limits<double>::quiet_NaN();
}

} // namespace rubric::stats
