#include "BenchRegistry.h"
#include "CliUtil.h"
#include "learn/CrossValidation.h"
#include "util/Shuffle.h"

#include <QElapsedTimer>

#include <cmath>

namespace rubric::cli {
namespace {

using namespace rubric::learn;

double uniform01(SeededRng &rng)
{
    return double(rng() >> 11) * (1.0 / 9007199254740992.0);
}

/// n × p node scores 1–5 and q aspects: aspect a is linear in nodes a..a+2 for even a and has a
/// V shape plus a step for odd a, with uniform noise (seeded, the same on every standard library).
void synthetic(int n, int p, int q, quint64 seed, Eigen::MatrixXd &x, Eigen::MatrixXd &y)
{
    SeededRng rng(seed);
    x.resize(n, p);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < p; ++j)
            x(i, j) = double(1 + rng() % 5);
    y.resize(n, q);
    for (int i = 0; i < n; ++i)
        for (int a = 0; a < q; ++a) {
            const int j = a % std::max(1, p - 2);
            const double signal = a % 2 == 0 ? 0.6 * x(i, j) + 0.3 * x(i, (j + 1) % p) - 0.2 * x(i, (j + 2) % p)
                                             : 1.5 * std::abs(x(i, j) - 3) + (x(i, (j + 1) % p) > 3 ? 1.0 : 0.0);
            y(i, a) = signal + (uniform01(rng) - 0.5);
        }
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Time fitting every aggregator kind (core/learn) on synthetic node scores (integers 1–5, seed 1) with\n"
            "--aspects human aspects (even ones linear in three nodes, odd ones nonlinear), then k-fold\n"
            "cross-validation (which fits k + 1 models). Wall times in ms, single-threaded (xgboost nthread 1).\n"
            "cv_r is the mean over aspects of the out-of-fold Pearson r."));
    parser.addOption({QStringLiteral("sizes"), QStringLiteral("Item counts, comma-separated (default 30,300,3000)."),
                      QStringLiteral("N,…"), QStringLiteral("30,300,3000")});
    parser.addOption({QStringLiteral("features"), QStringLiteral("Nodes per item (default 40)."), QStringLiteral("P"),
                      QStringLiteral("40")});
    parser.addOption({QStringLiteral("aspects"), QStringLiteral("Human aspects (default 4)."), QStringLiteral("Q"),
                      QStringLiteral("4")});
    parser.addOption({QStringLiteral("folds"), QStringLiteral("Cross-validation folds (default 5)."),
                      QStringLiteral("K"), QStringLiteral("5")});
    parser.addOption({QStringLiteral("kinds"), QStringLiteral("Aggregator kinds, comma-separated (default all)."),
                      QStringLiteral("KIND,…"), aggregatorKindNames().join(QLatin1Char(','))});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("bench aggregators"), args, io))
        return *rc;
    bool okP = false, okQ = false, okK = false;
    const int p = parser.value(QStringLiteral("features")).toInt(&okP);
    const int q = parser.value(QStringLiteral("aspects")).toInt(&okQ);
    const int folds = parser.value(QStringLiteral("folds")).toInt(&okK);
    if (!okP || !okQ || !okK || p < 1 || q < 1 || folds < 2) {
        io.err << "rubric bench aggregators: --features and --aspects must be ≥ 1, --folds ≥ 2\n";
        return 2;
    }
    QVector<int> sizes;
    for (const QString &s : parser.value(QStringLiteral("sizes")).split(QLatin1Char(','))) {
        bool ok = false;
        const int n = s.trimmed().toInt(&ok);
        if (!ok || n < folds) {
            io.err << "rubric bench aggregators: --sizes: '" << s << "' is not an item count ≥ the folds\n";
            return 2;
        }
        sizes.append(n);
    }
    QVector<AggregatorKind> kinds;
    for (const QString &s : parser.value(QStringLiteral("kinds")).split(QLatin1Char(','))) {
        auto kind = parseAggregatorKind(s.trimmed());
        if (!kind) {
            io.err << "rubric bench aggregators: --kinds: " << kind.errorString() << '\n';
            return 2;
        }
        kinds.append(*kind);
    }

    const bool json = parser.isSet(QStringLiteral("json"));
    QVariantList rows;
    if (!json)
        io.out << "aggregators on n items × " << p << " nodes, " << q << " aspects; " << folds
               << "-fold CV (wall ms, single thread)\n"
               << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                          .arg(QStringLiteral("kind"), -8)
                          .arg(QStringLiteral("n"), 6)
                          .arg(QStringLiteral("fit_ms"), 10)
                          .arg(QStringLiteral("cv_ms"), 10)
                          .arg(QStringLiteral("train_r"), 8)
                          .arg(QStringLiteral("cv_r"), 8);
    for (int n : sizes) {
        Eigen::MatrixXd x, y;
        synthetic(n, p, q, 1, x, y);
        for (AggregatorKind kind : kinds) {
            AggregatorSettings settings;
            settings.kind = kind;
            Aggregator agg(settings);
            QElapsedTimer t;
            t.start();
            if (auto ok = agg.fit(x, y, 1); !ok) {
                io.err << "rubric bench aggregators: " << aggregatorKindName(kind) << ": " << ok.errorString() << '\n';
                return 1;
            }
            const double fitMs = double(t.nsecsElapsed()) / 1e6;
            CvSettings cv;
            cv.folds = folds;
            t.restart();
            auto result = crossValidate(settings, x, y, cv);
            const double cvMs = double(t.nsecsElapsed()) / 1e6;
            if (!result) {
                io.err << "rubric bench aggregators: " << aggregatorKindName(kind) << ": " << result.errorString()
                       << '\n';
                return 1;
            }
            double trainR = 0, cvR = 0;
            for (int a = 0; a < q; ++a) {
                trainR += result->trainR[a] / q;
                cvR += result->cvR[a] / q;
            }
            rows.append(QVariantMap{{QStringLiteral("kind"), aggregatorKindName(kind)},
                                    {QStringLiteral("items"), n},
                                    {QStringLiteral("features"), p},
                                    {QStringLiteral("aspects"), q},
                                    {QStringLiteral("fit_ms"), fitMs},
                                    {QStringLiteral("cv_ms"), cvMs},
                                    {QStringLiteral("folds"), folds},
                                    {QStringLiteral("train_r"), trainR},
                                    {QStringLiteral("cv_r"), cvR}});
            if (!json)
                io.out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                                  .arg(aggregatorKindName(kind), -8)
                                  .arg(n, 6)
                                  .arg(fitMs, 10, 'f', 1)
                                  .arg(cvMs, 10, 'f', 1)
                                  .arg(trainR, 8, 'f', 3)
                                  .arg(cvR, 8, 'f', 3);
        }
    }
    if (json)
        printJson(io, rows);
    return 0;
}

const BenchRegistration reg(QStringLiteral("aggregators"),
                            QStringLiteral("Fit and cross-validation times of every aggregator kind (core/learn)."),
                            &run);

} // namespace
} // namespace rubric::cli
