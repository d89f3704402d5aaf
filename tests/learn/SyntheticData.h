#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <random>

namespace rubric::learn::testing {

/// n × p node scores, integers 1–5 drawn from a seeded generator (the judge's scale).
inline Eigen::MatrixXd nodeScores(int n, int p, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> score(1, 5);
    Eigen::MatrixXd x(n, p);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < p; ++j)
            x(i, j) = score(rng);
    return x;
}

/// n values of N(0, sd²) from a seeded generator.
inline Eigen::VectorXd noise(int n, double sd, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z(0.0, sd);
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i)
        v[i] = z(rng);
    return v;
}

/// A nonlinear human score: a V in node 0, a step in node 1, an interaction of nodes 2 and 3.
inline Eigen::VectorXd nonlinearTarget(const Eigen::MatrixXd &x, unsigned seed)
{
    Eigen::VectorXd y(x.rows());
    const Eigen::VectorXd e = noise(int(x.rows()), 0.3, seed);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        y[i] = 1.5 * std::abs(x(i, 0) - 3) + (x(i, 1) > 3 ? 1.0 : 0.0) + (x(i, 2) > 3 && x(i, 3) > 3 ? 1.5 : 0.0)
               + e[i];
    return y;
}

} // namespace rubric::learn::testing
