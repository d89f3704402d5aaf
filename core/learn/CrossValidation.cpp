#include "CrossValidation.h"

#include "util/Shuffle.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace rubric::learn {

QVector<int> foldAssignment(int n, int folds, quint64 seed)
{
    QVector<int> order(n);
    for (int i = 0; i < n; ++i)
        order[i] = i;
    SeededRng rng(seed);
    seededShuffle(order, rng);
    QVector<int> fold(n);
    for (int r = 0; r < n; ++r)
        fold[order[r]] = r % folds;
    return fold;
}

namespace {

/// Row indices per distinct group, in first-seen order (an empty group: one row each).
QVector<QVector<int>> groupRows(const QStringList &groups)
{
    QVector<QVector<int>> out;
    QHash<QString, int> index;
    for (int i = 0; i < groups.size(); ++i) {
        if (groups[i].isEmpty()) {
            out.append(QVector<int>{i});
            continue;
        }
        const auto it = index.constFind(groups[i]);
        if (it == index.constEnd()) {
            index.insert(groups[i], int(out.size()));
            out.append(QVector<int>{i});
        } else {
            out[*it].append(i);
        }
    }
    return out;
}

} // namespace

int groupCount(const QStringList &groups)
{
    return int(groupRows(groups).size());
}

QVector<int> groupFoldAssignment(const QStringList &groups, int folds, quint64 seed)
{
    QVector<QVector<int>> rows = groupRows(groups);
    QVector<int> order(rows.size());
    for (int g = 0; g < rows.size(); ++g)
        order[g] = g;
    SeededRng rng(seed);
    seededShuffle(order, rng);
    const int k = std::max(1, std::min(folds, int(rows.size())));
    QVector<int> size(k, 0), fold(groups.size(), 0);
    for (int g : std::as_const(order)) {
        const int f = int(std::min_element(size.cbegin(), size.cend()) - size.cbegin());
        size[f] += int(rows[g].size());
        for (int i : std::as_const(rows[g]))
            fold[i] = f;
    }
    return fold;
}

Eigen::MatrixXd selectRows(const Eigen::MatrixXd &m, const QVector<int> &rows)
{
    Eigen::MatrixXd out(rows.size(), m.cols());
    for (int r = 0; r < rows.size(); ++r)
        out.row(r) = m.row(rows[r]);
    return out;
}

Result<CvResult> crossValidate(const AggregatorSettings &settings, const Eigen::MatrixXd &x, const Eigen::MatrixXd &y,
                               const CvSettings &cv)
{
    const int n = int(x.rows());
    const bool byGroup = !cv.leaveOneOut && !cv.groups.isEmpty();
    if (byGroup && cv.groups.size() != n)
        return makeError(QStringLiteral("cross-validation: %1 groups for %2 rows").arg(cv.groups.size()).arg(n), {}, 0,
                         QStringLiteral("groups"));
    const int k = cv.leaveOneOut ? n : byGroup ? std::min(cv.folds, groupCount(cv.groups)) : cv.folds;
    if (k < 2 || k > n)
        return makeError(QStringLiteral("cross-validation needs 2 ≤ folds ≤ items (folds %1, items %2)").arg(k).arg(n),
                         {}, 0, QStringLiteral("folds"));
    CvResult out;
    out.folds = k;
    out.fold = byGroup ? groupFoldAssignment(cv.groups, k, cv.seed) : foldAssignment(n, k, cv.seed);

    Aggregator all(settings);
    if (auto ok = all.fit(x, y, cv.seed); !ok)
        return ok.error();
    auto inSample = all.predict(x);
    if (!inSample)
        return inSample.error();

    out.predictions = Eigen::MatrixXd::Constant(n, y.cols(), std::nan(""));
    for (int f = 0; f < k; ++f) {
        QVector<int> train, test;
        for (int i = 0; i < n; ++i)
            (out.fold[i] == f ? test : train).append(i);
        Aggregator model(settings);
        if (auto ok = model.fit(selectRows(x, train), selectRows(y, train), cv.seed); !ok)
            return makeError(QStringLiteral("fold %1 of %2: %3").arg(f + 1).arg(k).arg(ok.errorString()));
        auto pred = model.predict(selectRows(x, test));
        if (!pred)
            return makeError(QStringLiteral("fold %1 of %2: %3").arg(f + 1).arg(k).arg(pred.errorString()));
        for (int r = 0; r < test.size(); ++r)
            out.predictions.row(test[r]) = pred->row(r);
    }
    for (Eigen::Index a = 0; a < y.cols(); ++a) {
        const double tr = pearsonPresent(inSample->col(a), y.col(a));
        const double cr = pearsonPresent(out.predictions.col(a), y.col(a));
        out.trainR.append(tr);
        out.cvR.append(cr);
        out.warning.append(std::isnan(cr) ? !std::isnan(tr) : tr - cr > cv.warnGap);
    }
    return out;
}

} // namespace rubric::learn
