#include "Acquisition.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <random>

namespace rubric::learn {

Result<QVector<AcquisitionScore>> rankByExpectedGain(const Eigen::MatrixXd &x, const Eigen::VectorXd &y,
                                                     const AcquisitionSettings &settings)
{
    const int n = int(x.rows()), p = int(x.cols());
    if (y.size() != n)
        return makeError(
                QCoreApplication::translate("Acquisition", "%1 rows of features, %2 labels").arg(n).arg(y.size()));
    QVector<int> labelled, open;
    for (int r = 0; r < n; ++r)
        (std::isfinite(y[r]) ? labelled : open).append(r);
    if (labelled.size() < 3)
        return makeError(QCoreApplication::translate("Acquisition",
                                                     "at least 3 labelled items are needed to rank the others (%1)")
                                 .arg(labelled.size()));
    if (open.isEmpty() || p == 0)
        return QVector<AcquisitionScore>{};

    // Columns imputed and standardised over all rows (the density's space; the fits impute themselves).
    Eigen::MatrixXd z = x;
    for (int c = 0; c < p; ++c) {
        double sum = 0, sq = 0;
        int k = 0;
        for (int r = 0; r < n; ++r)
            if (std::isfinite(x(r, c))) {
                sum += x(r, c);
                sq += x(r, c) * x(r, c);
                ++k;
            }
        const double mean = k ? sum / k : 0, var = k ? sq / k - mean * mean : 0;
        const double sd = var > 1e-12 ? std::sqrt(var) : 1.0;
        for (int r = 0; r < n; ++r)
            z(r, c) = std::isfinite(x(r, c)) ? (x(r, c) - mean) / sd : 0.0;
    }
    Eigen::MatrixXd open2(open.size(), p);
    for (int i = 0; i < open.size(); ++i)
        open2.row(i) = z.row(open[i]);

    // The committee: fits on bootstrap resamples of the labelled rows (a resample whose fit fails,
    // such as one with a constant column of labels, is drawn again, at most 5 times per member).
    std::mt19937_64 rng(settings.seed);
    std::uniform_int_distribution<int> pick(0, int(labelled.size()) - 1);
    Eigen::MatrixXd xOpen(open.size(), p);
    for (int i = 0; i < open.size(); ++i)
        xOpen.row(i) = x.row(open[i]);
    QVector<Eigen::VectorXd> votes;
    for (int m = 0; m < settings.committee; ++m)
        for (int attempt = 0; attempt < 5; ++attempt) {
            Eigen::MatrixXd xs(labelled.size(), p), ys(labelled.size(), 1);
            for (int i = 0; i < labelled.size(); ++i) {
                const int r = labelled[pick(rng)];
                xs.row(i) = x.row(r);
                ys(i, 0) = y[r];
            }
            Aggregator member(settings.aggregator);
            if (!member.fit(xs, ys, settings.seed + quint64(m)).ok())
                continue;
            auto predicted = member.predict(xOpen);
            if (!predicted)
                continue;
            votes.append(predicted->col(0));
            break;
        }
    if (votes.size() < 2)
        return makeError(QCoreApplication::translate(
                "Acquisition", "the committee could not be fitted on the labelled items (too few, or all alike)"));

    // Density: mean Gaussian similarity to the other unlabelled rows, the bandwidth the median
    // squared distance; scaled to 0…1 by the largest.
    const int m = int(open.size());
    Eigen::MatrixXd d2(m, m);
    std::vector<double> all;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            d2(i, j) = (open2.row(i) - open2.row(j)).squaredNorm();
            if (i < j)
                all.push_back(d2(i, j));
        }
    double bandwidth = 1.0;
    if (!all.empty()) {
        std::nth_element(all.begin(), all.begin() + long(all.size() / 2), all.end());
        bandwidth = std::max(all[all.size() / 2], 1e-9);
    }
    Eigen::VectorXd density = Eigen::VectorXd::Ones(m);
    if (m > 1) {
        for (int i = 0; i < m; ++i) {
            double s = 0;
            for (int j = 0; j < m; ++j)
                if (j != i)
                    s += std::exp(-d2(i, j) / bandwidth);
            density[i] = s / (m - 1);
        }
        const double top = density.maxCoeff();
        if (top > 0)
            density /= top;
    }

    QVector<AcquisitionScore> out;
    for (int i = 0; i < m; ++i) {
        double mean = 0;
        for (const Eigen::VectorXd &v : votes)
            mean += v[i];
        mean /= votes.size();
        double var = 0;
        for (const Eigen::VectorXd &v : votes)
            var += (v[i] - mean) * (v[i] - mean);
        AcquisitionScore s;
        s.row = open[i];
        s.spread = std::sqrt(var / (votes.size() - 1));
        s.density = density[i];
        s.gain = s.spread * std::pow(std::max(s.density, 0.0), settings.densityPower);
        s.predicted = mean;
        out.append(s);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const AcquisitionScore &a, const AcquisitionScore &b) { return a.gain > b.gain; });
    return out;
}

} // namespace rubric::learn
