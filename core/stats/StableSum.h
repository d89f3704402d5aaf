#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace rubric::stats {

/// The sum of `values` that depends only on which values they are, never on their order: sorted
/// first, then added with Neumaier's compensation (the rounding error of each addition carried
/// into the next). Sums over a QHash (whose order changes from one process to the next with its
/// random seed) or over rows a pool of threads gathered give the same figure bit for bit. NaNs
/// are summed as any other value (the sum is NaN).
inline double stableSum(std::vector<double> values)
{
    std::sort(values.begin(), values.end(), [](double a, double b) {
        // A total order (NaNs last) keeps sort well defined.
        if (std::isnan(a) || std::isnan(b))
            return !std::isnan(a) && std::isnan(b);
        return a < b;
    });
    double sum = 0.0, compensation = 0.0;
    for (double v : values) {
        const double t = sum + v;
        compensation += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
        sum = t;
    }
    return sum + compensation;
}

/// stableSum(values) / their number; NaN for none.
inline double stableMean(std::vector<double> values)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const double n = double(values.size());
    return stableSum(std::move(values)) / n;
}

/// The stable mean of a container's values (a QHash's, a QVector's).
template <typename Container> double stableMeanOf(const Container &values)
{
    return stableMean(std::vector<double>(values.begin(), values.end()));
}

} // namespace rubric::stats
