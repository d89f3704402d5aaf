#include "SyntheticData.h"
#include "learn/CrossValidation.h"

#include <QHash>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace rubric::learn;
using namespace rubric::learn::testing;

class TestCrossValidation : public QObject
{
    Q_OBJECT

private slots:
    void foldsAreBalancedAndSeeded();
    void sameSeedSameResult_data();
    void sameSeedSameResult();
    void leaveOneOutOfLeastSquaresIsThePressResidual();
    void kFoldAndLeaveOneOutBothRun();
    void warningFiresOnPureNoise();
    void noWarningOnAStrongSignal();
    void missingTargetsAreLeftOutOfR();
    void badFoldCountsAreRefused();
    void groupsStayInOneFold();
};

void TestCrossValidation::foldsAreBalancedAndSeeded()
{
    const QVector<int> a = foldAssignment(33, 5, 7), b = foldAssignment(33, 5, 7), c = foldAssignment(33, 5, 8);
    QCOMPARE(a, b);
    QVERIFY(a != c);
    QVector<int> sizes(5, 0);
    for (int f : a)
        ++sizes[f];
    QCOMPARE(*std::max_element(sizes.begin(), sizes.end()) - *std::min_element(sizes.begin(), sizes.end()), 1);
    QCOMPARE(std::accumulate(sizes.begin(), sizes.end(), 0), 33);
}

void TestCrossValidation::sameSeedSameResult_data()
{
    QTest::addColumn<QString>("kind");
    for (const QString &k : aggregatorKindNames())
        QTest::newRow(qPrintable(k)) << k;
}

void TestCrossValidation::sameSeedSameResult()
{
    QFETCH(QString, kind);
    const Eigen::MatrixXd x = nodeScores(30, 12, 1);
    const Eigen::MatrixXd y = nonlinearTarget(x, 2);
    AggregatorSettings s;
    s.kind = parseAggregatorKind(kind).value();
    CvSettings cv;
    cv.seed = 9;
    const auto a = crossValidate(s, x, y, cv), b = crossValidate(s, x, y, cv);
    QVERIFY2(a.ok(), qPrintable(a.errorString()));
    QVERIFY(b.ok());
    QVERIFY(a->predictions == b->predictions);
    QCOMPARE(a->cvR, b->cvR);
    QCOMPARE(a->trainR, b->trainR);
    QCOMPARE(a->folds, 5);
    QVERIFY(a->predictions.allFinite());
    cv.seed = 10;
    const auto c = crossValidate(s, x, y, cv);
    QVERIFY(c.ok());
    QVERIFY(c->fold != a->fold);
    if (s.kind != AggregatorKind::Mean) // the mean learns nothing, so its out-of-fold predictions ignore the folds
        QVERIFY(c->predictions != a->predictions);
}

void TestCrossValidation::leaveOneOutOfLeastSquaresIsThePressResidual()
{
    // For least squares the left-out residual is e_i / (1 − h_ii) (the PRESS identity), computed
    // here from the hat matrix of the full fit, independently of the refits the code does.
    const int n = 30, p = 5;
    const Eigen::MatrixXd x = nodeScores(n, p, 3);
    const Eigen::VectorXd y = x * Eigen::VectorXd::LinSpaced(p, -1, 1) + noise(n, 0.5, 4);
    Eigen::MatrixXd design(n, p + 1);
    design << Eigen::VectorXd::Ones(n), x;
    const Eigen::MatrixXd hat = design * (design.transpose() * design).inverse() * design.transpose();
    const Eigen::VectorXd residual = y - hat * y;
    AggregatorSettings s;
    s.kind = AggregatorKind::Linear;
    CvSettings cv;
    cv.leaveOneOut = true;
    const auto r = crossValidate(s, x, y, cv);
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QCOMPARE(r->folds, n);
    for (int i = 0; i < n; ++i) {
        const double expected = y[i] - residual[i] / (1 - hat(i, i));
        QVERIFY2(std::abs(r->predictions(i, 0) - expected) < 1e-9,
                 qPrintable(QStringLiteral("item %1: %2 vs %3").arg(i).arg(r->predictions(i, 0)).arg(expected)));
    }
}

void TestCrossValidation::kFoldAndLeaveOneOutBothRun()
{
    const Eigen::MatrixXd x = nodeScores(30, 8, 5);
    const Eigen::VectorXd y = 0.8 * x.col(0) + 0.4 * x.col(1) + noise(30, 0.5, 6);
    AggregatorSettings s;
    s.kind = AggregatorKind::Ridge;
    CvSettings k5, loo;
    loo.leaveOneOut = true;
    const auto a = crossValidate(s, x, y, k5), b = crossValidate(s, x, y, loo);
    QVERIFY(a.ok());
    QVERIFY(b.ok());
    QCOMPARE(a->folds, 5);
    QCOMPARE(b->folds, 30);
    QCOMPARE(a->trainR, b->trainR); // the same full fit
    qInfo("ridge on 30 × 8: train r %.3f, 5-fold r %.3f, LOO r %.3f", a->trainR[0], a->cvR[0], b->cvR[0]);
    QVERIFY(a->cvR[0] > 0.6);
    QVERIFY(b->cvR[0] > 0.6);
    QVERIFY(a->cvR[0] <= a->trainR[0]);
    QVERIFY(a->predictions != b->predictions);
}

void TestCrossValidation::warningFiresOnPureNoise()
{
    // 30 items, 25 noise nodes, a noise target: least squares fits the training items well and
    // predicts nothing.
    const Eigen::MatrixXd x = nodeScores(30, 25, 7);
    const Eigen::VectorXd y = noise(30, 1.0, 8);
    AggregatorSettings s;
    s.kind = AggregatorKind::Linear;
    const auto r = crossValidate(s, x, y, {});
    QVERIFY(r.ok());
    qInfo("pure noise, linear on 30 × 25: train r %.3f, CV r %.3f", r->trainR[0], r->cvR[0]);
    QVERIFY(r->trainR[0] > 0.9);
    QVERIFY(r->trainR[0] - r->cvR[0] > 0.2);
    QVERIFY(r->warning[0]);
}

void TestCrossValidation::noWarningOnAStrongSignal()
{
    const Eigen::MatrixXd x = nodeScores(30, 3, 9);
    const Eigen::VectorXd y = x.col(0) + x.col(1) + noise(30, 0.3, 10);
    AggregatorSettings s;
    s.kind = AggregatorKind::Linear;
    const auto r = crossValidate(s, x, y, {});
    QVERIFY(r.ok());
    qInfo("strong signal, linear on 30 × 3: train r %.3f, CV r %.3f", r->trainR[0], r->cvR[0]);
    QVERIFY(!r->warning[0]);
}

void TestCrossValidation::missingTargetsAreLeftOutOfR()
{
    const Eigen::MatrixXd x = nodeScores(30, 4, 11);
    Eigen::MatrixXd y = x.col(0) + noise(30, 0.5, 12);
    y(3, 0) = std::nan("");
    y(17, 0) = std::nan("");
    AggregatorSettings s;
    const auto r = crossValidate(s, x, y, {});
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QVERIFY(r->predictions.allFinite()); // the items are still predicted
    QVERIFY(std::isfinite(r->cvR[0]));
}

void TestCrossValidation::badFoldCountsAreRefused()
{
    const Eigen::MatrixXd x = nodeScores(4, 2, 1);
    const Eigen::VectorXd y = x.col(0);
    CvSettings cv;
    cv.folds = 5;
    auto r = crossValidate({}, x, y, cv);
    QVERIFY(!r.ok());
    QVERIFY(r.errorString().contains(QStringLiteral("2 ≤ folds ≤ items (folds 5, items 4)")));
    cv.folds = 1;
    QVERIFY(!crossValidate({}, x, y, cv).ok());
}

void TestCrossValidation::groupsStayInOneFold()
{
    // 30 rows in 10 groups of 1 to 5 rows (SummEval: an article's summaries), one row without a group.
    QStringList groups;
    for (int g = 0; g < 10; ++g)
        for (int r = 0; r <= g % 5; ++r)
            groups << QStringLiteral("doc%1").arg(g);
    groups << QString();
    const int n = int(groups.size());
    const QVector<int> fold = groupFoldAssignment(groups, 5, 3);
    QCOMPARE(fold.size(), n);
    QHash<QString, int> foldOf;
    QVector<int> size(5, 0);
    for (int i = 0; i < n; ++i) {
        ++size[fold[i]];
        if (groups[i].isEmpty())
            continue;
        QCOMPARE(foldOf.value(groups[i], fold[i]), fold[i]); // every row of a group in one fold
        foldOf.insert(groups[i], fold[i]);
    }
    // Greedy by size: no fold more than the largest group (5 rows) above another.
    QVERIFY(*std::max_element(size.cbegin(), size.cend()) - *std::min_element(size.cbegin(), size.cend()) <= 5);
    QCOMPARE(groupFoldAssignment(groups, 5, 3), fold); // seeded
    QCOMPARE(groupCount(groups), 11);

    // crossValidate with groups uses them: a model never scores a group it was fitted on.
    const Eigen::MatrixXd x = nodeScores(n, 4, 11);
    Eigen::MatrixXd y(n, 1);
    y.col(0) = x.col(0) + noise(n, 0.3, 12);
    AggregatorSettings s;
    s.kind = AggregatorKind::Linear;
    CvSettings cv;
    cv.folds = 5;
    cv.seed = 3;
    cv.groups = groups;
    auto r = crossValidate(s, x, y, cv);
    QVERIFY2(r, qPrintable(r.errorString()));
    QCOMPARE(r->fold, fold);
    // Fewer groups than folds: as many folds as groups.
    cv.groups = QStringList(n, QStringLiteral("a"));
    for (int i = 0; i < n / 2; ++i)
        cv.groups[i] = QStringLiteral("b");
    auto two = crossValidate(s, x, y, cv);
    QVERIFY2(two, qPrintable(two.errorString()));
    QCOMPARE(two->folds, 2);
}

QTEST_GUILESS_MAIN(TestCrossValidation)
#include "TestCrossValidation.moc"
