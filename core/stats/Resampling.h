#pragma once

// Internal to core/stats: the random draws of the bootstrap and the permutation tests.
//
// Every replicate has a stream of its own, a function of the seed, what the draws are for and the
// replicate's number only, so the replicates can run on any number of threads in any order and
// give the same figures bit for bit. The stream is SplitMix64 (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", OOPSLA 2014; it passes BigCrush), and a draw of an
// index below m is Lemire's multiply-and-reject ("Fast random integer generation in an interval",
// ACM TOMACS 2019) on 32-bit halves of the stream's words (two draws a word), which is exactly
// uniform (no modulo bias). Both are a few lines of integer
// arithmetic, written out in tests/stats/make_resampling_reference.py, which draws the same
// resamples independently of this code.

#include <QtGlobal>

#include <cstdint>
#include <vector>

namespace rubric::stats::detail {

/// SplitMix64's output function (a bijection of 64-bit words).
inline quint64 mix64(quint64 z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// What a stream's draws are for: bootstrap replicates and permutations under one seed never
/// share a stream.
enum class Stream : quint64 { Bootstrap = 1, Permutation = 2 };

/// The starting state of replicate `replicate`'s stream.
inline quint64 streamKey(quint64 seed, Stream stream, int replicate)
{
    return mix64(mix64(seed ^ quint64(stream)) + quint64(replicate));
}

class SplitMix64
{
public:
    explicit SplitMix64(quint64 state)
        : m_state(state)
    {
    }
    quint64 next()
    {
        m_state += 0x9e3779b97f4a7c15ULL;
        return mix64(m_state);
    }
    /// The next 32 bits: the low half of a next() output, then its high half.
    quint32 next32()
    {
        if (m_spare) {
            m_spare = false;
            return quint32(m_word >> 32);
        }
        m_word = next();
        m_spare = true;
        return quint32(m_word);
    }
    /// Uniform in [0, m), m ≥ 1: the high half of next32() × m, a draw rejected when its low half
    /// falls in the 2^32 mod m values that would favour some results.
    quint32 below(quint32 m)
    {
        quint64 r = quint64(next32()) * m;
        auto low = quint32(r);
        if (low < m) {
            const quint32 threshold = (0u - m) % m;
            while (low < threshold) {
                r = quint64(next32()) * m;
                low = quint32(r);
            }
        }
        return quint32(r >> 32);
    }

private:
    quint64 m_state;
    quint64 m_word = 0;
    bool m_spare = false;
};

/// One bootstrap resample of n units as the number of times each unit was drawn (n draws of
/// SplitMix64::below(n) from the replicate's stream). Counts are bytes; a unit drawn 256 times or
/// more (never seen in practice: the chance is below 10^-500 per unit) switches the resample to
/// 32-bit counts, drawn again from the same stream, so the result is the same either way.
struct ResampleCounts
{
    std::vector<std::uint8_t> narrow;
    std::vector<std::uint32_t> wide;
    bool isWide = false;

    void draw(quint64 key, quint32 n)
    {
        isWide = false;
        narrow.assign(n, 0);
        SplitMix64 g(key);
        bool overflow = false;
        for (quint32 k = 0; k < n; ++k)
            overflow |= ++narrow[g.below(n)] == 0;
        if (!overflow)
            return;
        isWide = true;
        wide.assign(n, 0);
        SplitMix64 again(key);
        for (quint32 k = 0; k < n; ++k)
            ++wide[again.below(n)];
    }
    /// The drawn units in index order, each as often as it was drawn.
    void rows(std::vector<int> &out) const
    {
        out.clear();
        const size_t n = isWide ? wide.size() : narrow.size();
        for (size_t i = 0; i < n; ++i)
            for (std::uint32_t c = isWide ? wide[i] : narrow[i]; c > 0; --c)
                out.push_back(int(i));
    }
};

} // namespace rubric::stats::detail
