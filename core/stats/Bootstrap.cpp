#include "Bootstrap.h"

#include "Correlation.h"
#include "LevelKernel.h"
#include "ParallelChunks.h"
#include "Ranking.h"

#include <QThread>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <stop_token>

namespace rubric::stats {
namespace detail {

Interval percentileInterval(std::vector<double> &values, double confidence)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }), values.end());
    std::sort(values.begin(), values.end());
    const double tail = (1.0 - confidence) / 2.0;
    return {quantileSorted(values, tail), quantileSorted(values, 1.0 - tail)};
}

} // namespace detail

namespace {

using detail::Dense;
using detail::Workspace;

/// Per group: the three coefficients, NaN for a group the constant-group rule leaves out.
std::vector<std::array<double, 3>> perGroup(const Dense &d, ConstantGroups rule)
{
    std::vector<std::array<double, 3>> out(size_t(d.groupCount));
    Workspace ws;
    std::vector<std::vector<int>> members(size_t(d.groupCount));
    for (size_t i = 0; i < d.group.size(); ++i)
        if (d.group[i] >= 0)
            members[size_t(d.group[i])].push_back(int(i));
    for (int g = 0; g < d.groupCount; ++g) {
        const LevelCorrelation c = detail::evaluate(Level::Group, d.human, d.judge, d.group, d.system, d.groupCount,
                                                    d.systemCount, members[size_t(g)], ws, rule);
        out[size_t(g)] = {c.pearson, c.spearman, c.kendall};
    }
    return out;
}

/// Per system present: its mean human and mean judge score (systems in id order).
std::pair<std::vector<double>, std::vector<double>> systemMeans(const Dense &d)
{
    std::vector<double> h(size_t(d.systemCount), 0.0), j(size_t(d.systemCount), 0.0);
    std::vector<int> n(size_t(d.systemCount), 0);
    for (size_t i = 0; i < d.system.size(); ++i) {
        const int s = d.system[i];
        if (s < 0)
            continue;
        h[size_t(s)] += d.human[i];
        j[size_t(s)] += d.judge[i];
        ++n[size_t(s)];
    }
    std::pair<std::vector<double>, std::vector<double>> out;
    for (int s = 0; s < d.systemCount; ++s)
        if (n[size_t(s)] > 0) {
            out.first.push_back(h[size_t(s)] / n[size_t(s)]);
            out.second.push_back(j[size_t(s)] / n[size_t(s)]);
        }
    return out;
}

} // namespace

CorrelationIntervals bootstrapCorrelation(const QVector<ScoredItem> &items, Level level,
                                          const BootstrapOptions &options)
{
    CorrelationIntervals result;
    result.resamples = std::max(0, options.resamples);
    Dense d = detail::densify(items);
    // The unit of the level is what is resampled: the system level's n is the number of systems,
    // and resampling items would only show the noise in the systems' means.
    auto means = level == Level::System ? systemMeans(d) : std::pair<std::vector<double>, std::vector<double>>{};
    const int units = level == Level::Group    ? d.groupCount
                      : level == Level::System ? int(means.first.size())
                                               : int(d.human.size());
    if (units == 0 || result.resamples == 0)
        return result;
    if (options.stop.stop_requested()) { // no fan-out to wait for
        result.cancelled = true;
        return result;
    }

    // Everything the chunks read and write, on the heap (detail::forEachChunk): every replicate
    // has its own seed, every chunk its own scratch space.
    struct Job
    {
        Level level;
        int units, resamples, chunks;
        std::stop_token stop;
        unsigned coefficients;
        Dense d;
        std::vector<double> systemHuman, systemJudge;
        std::vector<std::array<double, 3>> groupValues;
        std::vector<quint64> seeds;
        std::array<std::vector<double>, 3> reps;
    };
    const auto job = std::make_shared<Job>();
    job->level = level;
    job->units = units;
    job->resamples = result.resamples;
    job->chunks = std::max(1, std::min(result.resamples, QThread::idealThreadCount() * 4));
    job->stop = options.stop;
    job->coefficients = options.coefficients;
    job->groupValues
            = level == Level::Group ? perGroup(d, options.constantGroups) : std::vector<std::array<double, 3>>{};
    job->systemHuman = std::move(means.first);
    job->systemJudge = std::move(means.second);
    job->d = std::move(d);
    std::mt19937_64 master(options.seed);
    job->seeds.resize(static_cast<size_t>(result.resamples));
    for (auto &s : job->seeds)
        s = master();
    for (auto &r : job->reps)
        r.assign(job->seeds.size(), std::numeric_limits<double>::quiet_NaN());

    detail::forEachChunk(job->chunks, [job](int chunk) {
        const Job &in = *job;
        Workspace ws;
        std::vector<int> rows(static_cast<size_t>(in.units));
        for (int i = chunk; i < in.resamples; i += in.chunks) {
            if (in.stop.stop_requested())
                return;
            std::mt19937_64 rng(in.seeds[size_t(i)]);
            if (in.level == Level::Group) {
                std::array<double, 3> sum{};
                std::array<int, 3> count{};
                for (int k = 0; k < in.units; ++k) {
                    const auto &v = in.groupValues[size_t(detail::uniformIndex(rng(), in.units))];
                    for (size_t c = 0; c < 3; ++c)
                        if (!std::isnan(v[c])) {
                            sum[c] += v[c];
                            ++count[c];
                        }
                }
                for (size_t c = 0; c < 3; ++c)
                    job->reps[c][size_t(i)] = count[c] ? sum[c] / count[c] : std::numeric_limits<double>::quiet_NaN();
            } else if (in.level == Level::System) {
                std::vector<double> &h = ws.a, &j = ws.b;
                h.resize(size_t(in.units));
                j.resize(size_t(in.units));
                for (int k = 0; k < in.units; ++k) {
                    const size_t s = size_t(detail::uniformIndex(rng(), in.units));
                    h[size_t(k)] = in.systemHuman[s];
                    j[size_t(k)] = in.systemJudge[s];
                }
                job->reps[0][size_t(i)] = pearson(h, j);
                job->reps[1][size_t(i)] = spearman(h, j);
                job->reps[2][size_t(i)] = kendallTauB(h, j);
            } else {
                for (int &r : rows)
                    r = detail::uniformIndex(rng(), in.units);
                const Dense &d = in.d;
                const LevelCorrelation c
                        = detail::evaluate(in.level, d.human, d.judge, d.group, d.system, d.groupCount, d.systemCount,
                                           rows, ws, ConstantGroups::Skip, in.coefficients);
                job->reps[0][size_t(i)] = c.pearson;
                job->reps[1][size_t(i)] = c.spearman;
                job->reps[2][size_t(i)] = c.kendall;
            }
        }
    });
    if (options.stop.stop_requested()) {
        result.cancelled = true; // a partial set of replicates is no interval
        return result;
    }
    for (size_t c = 0; c < 3; ++c) {
        if (!(options.coefficients & coefficientBit(Coefficient(c))))
            continue; // not asked for: NaN, not an interval of NaN replicates
        result.ci[c] = detail::percentileInterval(job->reps[c], options.confidence);
        result.valid[c] = int(job->reps[c].size());
    }
    return result;
}

} // namespace rubric::stats
