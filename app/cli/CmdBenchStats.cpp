#include "BenchRegistry.h"
#include "CliUtil.h"
#include "stats/Bootstrap.h"
#include "stats/Correlation.h"

#include <QElapsedTimer>

#include <algorithm>
#include <ctime>
#include <random>
#include <vector>

namespace rubric::cli {
namespace {

using namespace rubric::stats;

struct Timing
{
    double wallMs = 0;
    double cpuMs = 0; ///< process CPU time: robust on a loaded machine for single-threaded kernels
};

// Best (smallest) times of `repeat` runs; `sink` keeps the result alive.
template <typename F> Timing best(int repeat, F f, double &sink)
{
    Timing b;
    for (int i = 0; i < repeat; ++i) {
        QElapsedTimer t;
        const std::clock_t c = std::clock();
        t.start();
        sink += f();
        const double ms = double(t.nsecsElapsed()) / 1e6;
        const double cpu = 1000.0 * double(std::clock() - c) / CLOCKS_PER_SEC;
        b.wallMs = i == 0 ? ms : std::min(b.wallMs, ms);
        b.cpuMs = i == 0 ? cpu : std::min(b.cpuMs, cpu);
    }
    return b;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Time the correlation kernels on N random pairs (y = 0.5·x + noise, seed 1; best of --repeat runs)\n"
            "and a percentile bootstrap over 1600 items in 100 groups (SummEval's shape): bootstrap_ms is the\n"
            "group level (groups resampled); the dataset- and system-level times (items resampled) are reported too.\n"
            "*_cpu_ms: process CPU time of the single-threaded kernels. Compare with tests/stats/bench_scipy.py."));
    parser.addOption({QStringLiteral("n"), QStringLiteral("Pairs for the correlation kernels (default 1000000)."),
                      QStringLiteral("N"), QStringLiteral("1000000")});
    parser.addOption({QStringLiteral("resamples"), QStringLiteral("Bootstrap resamples (default 1000)."),
                      QStringLiteral("R"), QStringLiteral("1000")});
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Runs per kernel; the best is reported (default 3)."),
                      QStringLiteral("K"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one line of JSON.")});
    if (auto rc = parse(parser, QStringLiteral("bench stats"), args, io))
        return *rc;
    bool ok1 = false, ok2 = false, ok3 = false;
    const int n = parser.value(QStringLiteral("n")).toInt(&ok1);
    const int resamples = parser.value(QStringLiteral("resamples")).toInt(&ok2);
    const int repeat = parser.value(QStringLiteral("repeat")).toInt(&ok3);
    if (!ok1 || !ok2 || !ok3 || n < 2 || resamples < 1 || repeat < 1) {
        io.err << "rubric bench stats: --n must be ≥ 2, --resamples and --repeat ≥ 1\n";
        return 2;
    }

    std::mt19937_64 rng(1);
    std::normal_distribution<double> z(0.0, 1.0);
    std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        x[size_t(i)] = z(rng);
        y[size_t(i)] = 0.5 * x[size_t(i)] + z(rng);
    }
    double sink = 0;
    const Timing p = best(
            repeat, [&] { return pearson(x, y); }, sink);
    const Timing s = best(
            repeat, [&] { return spearman(x, y); }, sink);
    const Timing k = best(
            repeat, [&] { return kendallTauB(x, y); }, sink);
    const double tau = kendallTauB(x, y);

    QVector<ScoredItem> items;
    for (int g = 0; g < 100; ++g)
        for (int s = 0; s < 16; ++s) {
            const double h = std::round(3 + z(rng));
            items.append({QStringLiteral("%1-%2").arg(g).arg(s), QStringLiteral("d%1").arg(g),
                          QStringLiteral("M%1").arg(s), h, h + z(rng)});
        }
    const auto boot = [&](Level level) {
        return best(
                       1,
                       [&] {
                           return bootstrapCorrelation(items, level, {resamples, 1, 0.95}).ci[0].lo;
                       },
                       sink)
                .wallMs;
    };
    const double groupMs = boot(Level::Group);
    const double datasetMs = boot(Level::Dataset);
    const double systemMs = boot(Level::System);

    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("n"), n},
                                  {QStringLiteral("pearson_ms"), p.wallMs},
                                  {QStringLiteral("spearman_ms"), s.wallMs},
                                  {QStringLiteral("kendall_ms"), k.wallMs},
                                  {QStringLiteral("pearson_cpu_ms"), p.cpuMs},
                                  {QStringLiteral("spearman_cpu_ms"), s.cpuMs},
                                  {QStringLiteral("kendall_cpu_ms"), k.cpuMs},
                                  {QStringLiteral("kendall_tau"), tau},
                                  {QStringLiteral("bootstrap_ms"), groupMs},
                                  {QStringLiteral("bootstrap_dataset_ms"), datasetMs},
                                  {QStringLiteral("bootstrap_system_ms"), systemMs},
                                  {QStringLiteral("bootstrap_resamples"), resamples},
                                  {QStringLiteral("bootstrap_items"), int(items.size())},
                                  {QStringLiteral("bootstrap_groups"), 100}});
        return 0;
    }
    io.out << "n = " << n << " (best of " << repeat << ")\n"
           << "  pearson   " << QString::number(p.wallMs, 'f', 2) << " ms (cpu " << QString::number(p.cpuMs, 'f', 2)
           << ")\n"
           << "  spearman  " << QString::number(s.wallMs, 'f', 2) << " ms (cpu " << QString::number(s.cpuMs, 'f', 2)
           << ")\n"
           << "  kendall   " << QString::number(k.wallMs, 'f', 2) << " ms (cpu " << QString::number(k.cpuMs, 'f', 2)
           << "; tau-b " << QString::number(tau, 'f', 6) << ")\n"
           << "bootstrap, " << resamples << " resamples over " << items.size() << " items in 100 groups:\n"
           << "  group level    " << QString::number(groupMs, 'f', 1) << " ms\n"
           << "  dataset level  " << QString::number(datasetMs, 'f', 1) << " ms\n"
           << "  system level   " << QString::number(systemMs, 'f', 1) << " ms\n";
    return sink == sink ? 0 : 0;
}

const BenchRegistration reg(QStringLiteral("stats"), QStringLiteral("Correlation kernels and bootstrap timings."),
                            &run);

} // namespace
} // namespace rubric::cli
