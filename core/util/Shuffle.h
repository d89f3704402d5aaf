#pragma once

#include <QVector>

#include <random>
#include <utility>

namespace rubric {

/// The project's seeded generator: a Mersenne Twister whose output the C++ standard fixes bit
/// for bit, so a seed gives the same draws with every standard library.
using SeededRng = std::mt19937_64;

/// Fisher–Yates with the raw engine output. std::shuffle is not used: how it turns the engine's
/// output into positions is left to the standard library, so libstdc++ and libc++ (or two
/// versions of one) order the same seed differently.
template <typename T> void seededShuffle(QVector<T> &v, SeededRng &rng)
{
    for (qsizetype i = v.size() - 1; i > 0; --i) {
        const qsizetype j = qsizetype(rng() % quint64(i + 1));
        std::swap(v[i], v[j]);
    }
}

} // namespace rubric
