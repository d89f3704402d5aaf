#pragma once
// Pearson's r written out for tests that recompute a figure outside the project's code.

#include <QVector>

#include <cmath>

namespace rubric::test {

/// Pearson's r of the pairs (NaN when fewer than 2 or a side is constant).
inline double pearsonOf(const QVector<double> &x, const QVector<double> &y)
{
    const int n = int(x.size());
    if (n < 2 || y.size() != n)
        return std::nan("");
    double mx = 0, my = 0;
    for (int i = 0; i < n; ++i) {
        mx += x[i] / n;
        my += y[i] / n;
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : std::nan("");
}

} // namespace rubric::test
