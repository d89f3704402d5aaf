#include "PermutationImportance.h"

#include "CrossValidation.h"
#include "util/Shuffle.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

namespace rubric::learn {
namespace {

double score(ImportanceMetric metric, const Eigen::VectorXd &pred, const Eigen::VectorXd &y)
{
    if (metric == ImportanceMetric::Pearson)
        return pearsonPresent(pred, y);
    double mean = 0;
    int n = 0;
    for (Eigen::Index i = 0; i < y.size(); ++i)
        if (!std::isnan(y[i]) && !std::isnan(pred[i])) {
            mean += y[i];
            ++n;
        }
    if (n < 2)
        return std::nan("");
    mean /= n;
    double sse = 0, sst = 0;
    for (Eigen::Index i = 0; i < y.size(); ++i)
        if (!std::isnan(y[i]) && !std::isnan(pred[i])) {
            sse += (y[i] - pred[i]) * (y[i] - pred[i]);
            sst += (y[i] - mean) * (y[i] - mean);
        }
    return sst > 0 ? 1 - sse / sst : std::nan("");
}

using Predictor = std::function<Result<Eigen::MatrixXd>(const Eigen::MatrixXd &)>;

/// Shuffles each column within each group of rows, scores the predictions, repeats.
Result<FeatureImportance> run(const Predictor &predict, const QVector<QVector<int>> &groups, const Eigen::MatrixXd &x,
                              const Eigen::MatrixXd &y, const ImportanceSettings &s)
{
    if (s.repeats < 1)
        return makeError(QStringLiteral("permutation importance needs at least 1 repeat"), {}, 0,
                         QStringLiteral("importance_repeats"));
    const Eigen::Index p = x.cols(), q = y.cols();
    auto base = predict(x);
    if (!base)
        return base.error();
    FeatureImportance out;
    out.baseline.resize(q);
    for (Eigen::Index a = 0; a < q; ++a)
        out.baseline[a] = score(s.metric, base->col(a), y.col(a));
    out.mean = Eigen::MatrixXd::Zero(p, q);
    out.sd = Eigen::MatrixXd::Zero(p, q);
    Eigen::MatrixXd drops(s.repeats, q);
    Eigen::MatrixXd xp = x;
    for (Eigen::Index j = 0; j < p; ++j) {
        SeededRng rng(s.seed * 0x9E3779B97F4A7C15ULL + quint64(j) + 1);
        for (int r = 0; r < s.repeats; ++r) {
            for (const QVector<int> &rows : groups) {
                QVector<int> perm = rows;
                seededShuffle(perm, rng);
                for (int k = 0; k < rows.size(); ++k)
                    xp(rows[k], j) = x(perm[k], j);
            }
            auto pred = predict(xp);
            if (!pred)
                return pred.error();
            for (Eigen::Index a = 0; a < q; ++a)
                drops(r, a) = out.baseline[a] - score(s.metric, pred->col(a), y.col(a));
        }
        xp.col(j) = x.col(j);
        for (Eigen::Index a = 0; a < q; ++a) {
            const double m = drops.col(a).mean();
            out.mean(j, a) = m;
            out.sd(j, a) = s.repeats > 1 ? std::sqrt((drops.col(a).array() - m).square().sum() / double(s.repeats - 1))
                                         : 0.0;
        }
    }
    return out;
}

} // namespace

Result<FeatureImportance> permutationImportance(const Aggregator &fitted, const Eigen::MatrixXd &x,
                                                const Eigen::MatrixXd &y, const ImportanceSettings &settings)
{
    if (x.rows() != y.rows())
        return makeError(
                QStringLiteral("the node scores have %1 rows but the human scores %2").arg(x.rows()).arg(y.rows()));
    if (y.cols() != fitted.aspectCount())
        return makeError(QStringLiteral("the aggregator has %1 aspects but the human scores %2")
                                 .arg(fitted.aspectCount())
                                 .arg(y.cols()));
    QVector<int> all(int(x.rows()));
    for (int i = 0; i < all.size(); ++i)
        all[i] = i;
    return run([&](const Eigen::MatrixXd &m) { return fitted.predict(m); }, {all}, x, y, settings);
}

Result<FeatureImportance> permutationImportance(const AggregatorSettings &aggregator, const Eigen::MatrixXd &x,
                                                const Eigen::MatrixXd &y, const ImportanceSettings &settings)
{
    if (settings.split == ImportanceSplit::Train) {
        Aggregator model(aggregator);
        if (auto ok = model.fit(x, y, settings.seed); !ok)
            return ok.error();
        return permutationImportance(model, x, y, settings);
    }
    const int n = int(x.rows());
    const bool byGroup = !settings.groups.isEmpty();
    if (byGroup && settings.groups.size() != n)
        return makeError(QStringLiteral("importance: %1 groups for %2 rows").arg(settings.groups.size()).arg(n), {}, 0,
                         QStringLiteral("groups"));
    const int folds = byGroup ? std::min(settings.folds, groupCount(settings.groups)) : settings.folds;
    if (folds < 2 || folds > n)
        return makeError(QStringLiteral("importance folds must be between 2 and the item count (%1)").arg(n), {}, 0,
                         QStringLiteral("folds"));
    const QVector<int> fold = byGroup ? groupFoldAssignment(settings.groups, folds, settings.seed)
                                      : foldAssignment(n, folds, settings.seed);
    QVector<QVector<int>> groups(folds);
    for (int i = 0; i < n; ++i)
        groups[fold[i]].append(i);
    std::vector<std::unique_ptr<Aggregator>> models;
    for (int f = 0; f < folds; ++f) {
        QVector<int> train;
        for (int i = 0; i < n; ++i)
            if (fold[i] != f)
                train.append(i);
        auto model = std::make_unique<Aggregator>(aggregator);
        if (auto ok = model->fit(selectRows(x, train), selectRows(y, train), settings.seed); !ok)
            return makeError(QStringLiteral("fold %1 of %2: %3").arg(f + 1).arg(folds).arg(ok.errorString()));
        models.push_back(std::move(model));
    }
    const Predictor outOfFold = [&](const Eigen::MatrixXd &m) -> Result<Eigen::MatrixXd> {
        Eigen::MatrixXd out(m.rows(), y.cols());
        for (int f = 0; f < folds; ++f) {
            auto pred = models[size_t(f)]->predict(selectRows(m, groups[f]));
            if (!pred)
                return pred.error();
            for (int r = 0; r < groups[f].size(); ++r)
                out.row(groups[f][r]) = pred->row(r);
        }
        return out;
    };
    return run(outOfFold, groups, x, y, settings);
}

QVector<int> topK(const FeatureImportance &importance, const QVector<int> &candidates, int k,
                  const QVector<int> &aspects)
{
    QVector<int> use = aspects;
    if (use.isEmpty())
        for (int a = 0; a < importance.mean.cols(); ++a)
            use.append(a);
    QVector<QPair<double, int>> ranked;
    for (int j : candidates) {
        if (j < 0 || j >= importance.mean.rows())
            continue;
        double sum = 0;
        for (int a : use)
            sum += importance.mean(j, a);
        const double mean = sum / double(use.size());
        // An undefined importance (a constant column, an aspect without variance) ranks last.
        ranked.append({std::isnan(mean) ? -std::numeric_limits<double>::infinity() : mean, j});
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &l, const auto &r) {
        return l.first > r.first || (l.first == r.first && l.second < r.second);
    });
    QVector<int> out;
    for (int i = 0; i < std::min<int>(k, int(ranked.size())); ++i)
        out.append(ranked[i].second);
    return out;
}

} // namespace rubric::learn
