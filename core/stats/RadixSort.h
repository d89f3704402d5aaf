#pragma once

// Internal to core/stats: a stable LSD radix sort of doubles (by an order-preserving integer
// key) for the O(n log n) kernels at large n.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace rubric::stats::detail {

// An unsigned key with the order of the double (−0.0 folded onto +0.0, which compare equal).
inline std::uint64_t orderKey(double d)
{
    const std::uint64_t b = std::bit_cast<std::uint64_t>(d + 0.0);
    return (b >> 63) ? ~b : (b | (std::uint64_t(1) << 63));
}

struct KeyIndex
{
    std::uint64_t key;
    std::uint32_t index;
};

// Stable LSD radix sort on 16-bit digits; digits that are equal everywhere are skipped.
inline void radixSort(std::vector<KeyIndex> &v)
{
    const size_t n = v.size();
    std::vector<KeyIndex> tmp(n);
    std::vector<std::uint32_t> count(65536);
    for (int shift = 0; shift < 64; shift += 16) {
        std::fill(count.begin(), count.end(), 0u);
        for (const KeyIndex &e : v)
            ++count[(e.key >> shift) & 0xFFFF];
        if (count[(v.front().key >> shift) & 0xFFFF] == n)
            continue;
        std::uint32_t sum = 0;
        for (auto &c : count) {
            const std::uint32_t t = c;
            c = sum;
            sum += t;
        }
        for (const KeyIndex &e : v)
            tmp[count[(e.key >> shift) & 0xFFFF]++] = e;
        v.swap(tmp);
    }
}

/// Below this size a comparison sort beats the radix sort's 64 Ki-entry histograms.
inline constexpr size_t kRadixThreshold = 512;

} // namespace rubric::stats::detail
