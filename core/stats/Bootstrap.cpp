#include "Bootstrap.h"

#include "Correlation.h"
#include "LevelKernel.h"
#include "ParallelChunks.h"
#include "Ranking.h"
#include "Resampling.h"
#include "WeightedKernels.h"

#include <QThread>

#include <algorithm>
#include <cmath>
#include <memory>
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

namespace {

CorrelationIntervals bootstrapDense(Dense d, Level level, const BootstrapOptions &options)
{
    CorrelationIntervals result;
    result.resamples = std::max(0, options.resamples);
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
    // has its own stream, every chunk its own scratch space.
    struct Job
    {
        Level level;
        int units, resamples, chunks;
        quint64 seed;
        std::stop_token stop;
        unsigned coefficients;
        Dense d;
        detail::WeightedData weighted; // Dataset level: views of d's columns
        std::vector<double> systemHuman, systemJudge;
        std::vector<std::array<double, 3>> groupValues;
        std::array<std::vector<double>, 3> reps;
    };
    const auto job = std::make_shared<Job>();
    job->level = level;
    job->units = units;
    job->resamples = result.resamples;
    job->chunks = std::max(1, std::min(result.resamples, QThread::idealThreadCount() * 4));
    job->seed = options.seed;
    job->stop = options.stop;
    job->coefficients = options.coefficients;
    job->groupValues = level == Level::Group ? detail::groupCoefficients(d.human, d.judge, d.group, d.groupCount,
                                                                         options.constantGroups, options.coefficients)
                                             : std::vector<std::array<double, 3>>{};
    job->systemHuman = std::move(means.first);
    job->systemJudge = std::move(means.second);
    job->d = std::move(d);
    if (level == Level::Dataset)
        job->weighted = detail::prepareWeighted(job->d.human, job->d.judge, options.coefficients);
    for (auto &r : job->reps)
        r.assign(size_t(result.resamples), std::numeric_limits<double>::quiet_NaN());

    detail::forEachChunk(job->chunks, [job](int chunk) {
        const Job &in = *job;
        Workspace ws;
        detail::WeightedWorkspace weighted;
        detail::ResampleCounts counts;
        for (int i = chunk; i < in.resamples; i += in.chunks) {
            if (in.stop.stop_requested())
                return;
            const quint64 key = detail::streamKey(in.seed, detail::Stream::Bootstrap, i);
            if (in.level == Level::Group) {
                detail::SplitMix64 rng(key);
                std::array<double, 3> sum{};
                std::array<int, 3> count{};
                for (int k = 0; k < in.units; ++k) {
                    const auto &v = in.groupValues[rng.below(quint32(in.units))];
                    for (size_t c = 0; c < 3; ++c)
                        if (!std::isnan(v[c])) {
                            sum[c] += v[c];
                            ++count[c];
                        }
                }
                for (size_t c = 0; c < 3; ++c)
                    job->reps[c][size_t(i)] = count[c] ? sum[c] / count[c] : std::numeric_limits<double>::quiet_NaN();
            } else if (in.level == Level::System) {
                detail::SplitMix64 rng(key);
                std::vector<double> &h = ws.a, &j = ws.b;
                h.resize(size_t(in.units));
                j.resize(size_t(in.units));
                for (int k = 0; k < in.units; ++k) {
                    const size_t s = rng.below(quint32(in.units));
                    h[size_t(k)] = in.systemHuman[s];
                    j[size_t(k)] = in.systemJudge[s];
                }
                job->reps[0][size_t(i)] = pearson(h, j);
                job->reps[1][size_t(i)] = spearman(h, j);
                job->reps[2][size_t(i)] = kendallTauB(h, j);
            } else {
                // Items: the resample as the number of times each item was drawn.
                counts.draw(key, quint32(in.units));
                const LevelCorrelation c = detail::weightedCoefficients(in.weighted, counts, in.coefficients, weighted);
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

} // namespace

CorrelationIntervals bootstrapCorrelation(const QVector<ScoredItem> &items, Level level,
                                          const BootstrapOptions &options)
{
    return bootstrapDense(detail::densify(items), level, options);
}

std::vector<std::vector<double>> datasetReplicates(std::span<const double> human,
                                                   const std::vector<std::span<const double>> &judges,
                                                   Coefficient coefficient, int resamples, quint64 seed,
                                                   std::stop_token stop)
{
    struct Job
    {
        std::vector<detail::WeightedData> judges;
        std::vector<std::vector<double>> reps;
        Coefficient coefficient = Coefficient::Pearson;
        unsigned coefficients = 0;
        int resamples = 0, chunks = 0;
        quint32 units = 0;
        quint64 seed = 0;
        std::stop_token stop;
    };
    const auto job = std::make_shared<Job>();
    job->coefficient = coefficient;
    job->coefficients = coefficientBit(coefficient);
    job->resamples = std::max(0, resamples);
    job->chunks = std::max(1, std::min(job->resamples, QThread::idealThreadCount() * 4));
    job->units = quint32(human.size());
    job->seed = seed;
    job->stop = stop;
    for (const auto &j : judges) {
        job->judges.push_back(detail::prepareWeighted(human, j, job->coefficients));
        job->reps.emplace_back(size_t(job->resamples), std::numeric_limits<double>::quiet_NaN());
    }
    if (job->units == 0 || job->resamples == 0 || stop.stop_requested())
        return stop.stop_requested() ? std::vector<std::vector<double>>{} : std::move(job->reps);
    detail::forEachChunk(job->chunks, [job](int chunk) {
        Job &in = *job;
        detail::WeightedWorkspace ws;
        detail::ResampleCounts counts;
        for (int i = chunk; i < in.resamples; i += in.chunks) {
            if (in.stop.stop_requested())
                return;
            counts.draw(detail::streamKey(in.seed, detail::Stream::Bootstrap, i), in.units);
            for (size_t k = 0; k < in.judges.size(); ++k) {
                const LevelCorrelation c = detail::weightedCoefficients(in.judges[k], counts, in.coefficients, ws);
                in.reps[k][size_t(i)] = c.value(in.coefficient);
            }
        }
    });
    if (stop.stop_requested())
        return {};
    return std::move(job->reps);
}

CorrelationIntervals bootstrapCorrelation(const StatsColumns &columns, int judge, Level level,
                                          const BootstrapOptions &options)
{
    return bootstrapDense(detail::densify(columns, judge), level, options);
}

} // namespace rubric::stats
