#include "Significance.h"

#include "Correlation.h"
#include "LevelKernel.h"
#include "ParallelChunks.h"
#include "Resampling.h"
#include "WeightedKernels.h"

#include <QThread>

#include <algorithm>
#include <array>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

namespace rubric::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Errors come back as NaN (domain) or the limit (overflow), never as exceptions.
using NoThrow
        = boost::math::policies::policy<boost::math::policies::domain_error<boost::math::policies::ignore_error>,
                                        boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
                                        boost::math::policies::evaluation_error<boost::math::policies::ignore_error>>;

struct DensePairs
{
    std::vector<double> human, a, b;
    std::vector<int> group, system;
    int groupCount = 0, systemCount = 0;
};

DensePairs densify(const QVector<PairedItem> &items)
{
    // Reuse the ScoredItem interning: judge slot carries A; B is collected alongside.
    QVector<ScoredItem> scored;
    std::vector<double> b;
    for (const PairedItem &it : items) {
        if (std::isnan(it.human) || std::isnan(it.a) || std::isnan(it.b))
            continue;
        scored.append({it.id, it.group, it.system, it.human, it.a});
        b.push_back(it.b);
    }
    detail::Dense d = detail::densify(scored);
    DensePairs p;
    p.human = std::move(d.human);
    p.a = std::move(d.judge);
    p.b = std::move(b);
    p.group = std::move(d.group);
    p.system = std::move(d.system);
    p.groupCount = d.groupCount;
    p.systemCount = d.systemCount;
    return p;
}

std::array<double, 3> diff(const LevelCorrelation &x, const LevelCorrelation &y)
{
    return {x.pearson - y.pearson, x.spearman - y.spearman, x.kendall - y.kendall};
}

void zScore(std::vector<double> &v)
{
    if (v.empty())
        return;
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    const double sd = std::sqrt(ss / double(v.size()));
    for (double &x : v)
        x = sd > 0 ? (x - mean) / sd : 0.0;
}

/// A chunk's scratch space, reused by its replicates.
struct Scratch
{
    detail::Workspace kernel;
    detail::WeightedWorkspace weighted;
    detail::ResampleCounts counts;
};

// Runs `body(i, scratch)` for replicates 0..count-1 in parallel chunks; `body` captures a heap-held
// job by value (compareJudges' Job), never the caller's frame.
template <typename Body> void forReplicates(int count, Body body)
{
    const int chunks = std::max(1, std::min(count, QThread::idealThreadCount() * 4));
    detail::forEachChunk(chunks, [count, chunks, body = std::move(body)](int chunk) {
        Scratch scratch;
        for (int i = chunk; i < count; i += chunks)
            body(i, scratch);
    });
}

} // namespace

WilliamsResult::WilliamsResult()
    : r12(kNaN)
    , r13(kNaN)
    , r23(kNaN)
    , t(kNaN)
    , p(kNaN)
{
}

// Boost.Math rather than a hand-written continued fraction: its regularised incomplete beta and
// Student-t are tested to a few ulps over the whole domain, including the tails and large df.
double incompleteBeta(double a, double b, double x)
{
    if (std::isnan(a) || std::isnan(b) || std::isnan(x) || !(a > 0) || !(b > 0))
        return kNaN;
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    return boost::math::ibeta(a, b, x, NoThrow());
}

double studentTTwoSidedP(double t, double df)
{
    if (std::isnan(t) || !(df > 0))
        return kNaN;
    if (std::isinf(t))
        return 0.0;
    const boost::math::students_t_distribution<double, NoThrow> dist(df);
    return 2.0 * boost::math::cdf(boost::math::complement(dist, std::abs(t)));
}

WilliamsResult williamsTest(double r12, double r13, double r23, int n)
{
    // Williams (1959), in the form used for MT metrics by Graham & Baldwin (2014, "Testing for
    // significance of increased correlation with human judgment", EMNLP):
    //   t(n−3) = (r12 − r13) √((n−1)(1+r23)) / √(2K (n−1)/(n−3) + ((r12+r13)²/4)(1−r23)³),
    //   K = 1 − r12² − r13² − r23² + 2 r12 r13 r23.
    WilliamsResult w;
    w.n = n;
    w.r12 = r12;
    w.r13 = r13;
    w.r23 = r23;
    w.df = std::max(0, n - 3);
    if (n <= 3 || std::isnan(r12) || std::isnan(r13) || std::isnan(r23))
        return w;
    const double k = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23;
    const double denom = 2.0 * k * (n - 1.0) / (n - 3.0) + (r12 + r13) * (r12 + r13) / 4.0 * std::pow(1.0 - r23, 3);
    if (!(denom > 0))
        return w;
    w.t = (r12 - r13) * std::sqrt((n - 1.0) * (1.0 + r23)) / std::sqrt(denom);
    w.p = studentTTwoSidedP(w.t, w.df);
    return w;
}

namespace {

JudgeComparison compareDense(DensePairs dense, Level level, const ComparisonOptions &options)
{
    // What the resampling chunks read and write lives on the heap, captured by value: the pool's
    // threads never read the calling thread's stack (see detail::forEachChunk).
    struct Job
    {
        Level level = Level::Dataset;
        ConstantGroups constantGroups = ConstantGroups::Skip;
        unsigned tested = 0; // what the resampling loops compute
        quint64 seed = 0;
        DensePairs d;
        std::vector<int> all;
        int units = 0;
        detail::WeightedData weightedA, weightedB;         // Dataset level
        std::vector<std::array<double, 3>> groupA, groupB; // Group level: per-group values
        std::array<std::vector<double>, 3> reps;           // bootstrap differences per coefficient
        std::vector<double> za, zb;                        // z-scored judges (permutations)
        std::vector<double> centredHuman;                  // permutations on Pearson alone
        detail::PermutationData permutation;               // its sums (spans into the vectors above)
        std::array<double, 3> difference{};
        std::array<std::vector<int>, 3> extreme; // permutation at least as extreme, per coefficient

        LevelCorrelation eval(const std::vector<double> &judge, std::span<const int> rows, detail::Workspace &w,
                              unsigned coefficients) const
        {
            return detail::evaluate(level, d.human, judge, d.group, d.system, d.groupCount, d.systemCount, rows, w,
                                    constantGroups, coefficients);
        }
    };
    const auto job = std::make_shared<Job>();
    job->level = level;
    job->constantGroups = options.constantGroups;
    job->tested = options.coefficients;
    job->seed = options.seed;
    job->d = std::move(dense);
    const DensePairs &d = job->d;
    const size_t n = d.human.size();
    job->all.resize(n);
    std::iota(job->all.begin(), job->all.end(), 0);

    JudgeComparison out;
    detail::Workspace ws;
    const unsigned tested = options.coefficients;
    const auto isTested = [tested](size_t c) { return (tested & coefficientBit(Coefficient(c))) != 0; };
    out.a = job->eval(d.a, job->all, ws, kAllCoefficients);
    out.b = job->eval(d.b, job->all, ws, kAllCoefficients);
    out.difference = diff(out.a, out.b);
    job->difference = out.difference;

    // Williams on Pearson at the unit of analysis.
    if (level == Level::Dataset) {
        out.williams = williamsTest(out.a.pearson, out.b.pearson, pearson(d.a, d.b), int(n));
    } else if (level == Level::System) {
        std::vector<double> h(size_t(d.systemCount), 0.0), a(h), b(h);
        std::vector<int> c(size_t(d.systemCount), 0);
        for (size_t i = 0; i < n; ++i) {
            const int s = d.system[i];
            if (s < 0)
                continue;
            h[size_t(s)] += d.human[i];
            a[size_t(s)] += d.a[i];
            b[size_t(s)] += d.b[i];
            ++c[size_t(s)];
        }
        for (size_t s = 0; s < c.size(); ++s) {
            h[s] /= c[s];
            a[s] /= c[s];
            b[s] /= c[s];
        }
        out.williams = williamsTest(pearson(h, a), pearson(h, b), pearson(a, b), d.systemCount);
    } else {
        out.williams.n = out.a.groupsUsed;
    }

    // Paired bootstrap of the difference: one resample per replicate, used for both judges.
    out.resamples = std::max(0, options.resamples);
    job->units = level == Level::Group ? d.groupCount : int(n);
    if (job->units > 0 && out.resamples > 0) {
        for (auto &r : job->reps)
            r.assign(size_t(out.resamples), kNaN);
        if (level == Level::Group) {
            // A group drawn into a replicate brings its own values, however often it is drawn.
            job->groupA
                    = detail::groupCoefficients(d.human, d.a, d.group, d.groupCount, options.constantGroups, tested);
            job->groupB
                    = detail::groupCoefficients(d.human, d.b, d.group, d.groupCount, options.constantGroups, tested);
        } else if (level == Level::Dataset) {
            job->weightedA = detail::prepareWeighted(d.human, d.a, tested);
            job->weightedB = detail::prepareWeighted(d.human, d.b, tested);
        }
        forReplicates(out.resamples, [job](int i, Scratch &w) {
            Job &in = *job;
            const int units = in.units;
            const quint64 key = detail::streamKey(in.seed, detail::Stream::Bootstrap, i);
            std::array<double, 3> dd{kNaN, kNaN, kNaN};
            if (in.level == Level::Group) {
                // A group drawn twice counts as two groups: each judge's mean over the drawn groups
                // it does not leave out.
                detail::SplitMix64 rng(key);
                std::array<double, 3> sa{}, sb{};
                std::array<int, 3> na{}, nb{};
                for (int k = 0; k < units; ++k) {
                    const quint32 g = rng.below(quint32(units));
                    for (size_t c = 0; c < 3; ++c) {
                        const double va = in.groupA[g][c], vb = in.groupB[g][c];
                        if (!std::isnan(va)) {
                            sa[c] += va;
                            ++na[c];
                        }
                        if (!std::isnan(vb)) {
                            sb[c] += vb;
                            ++nb[c];
                        }
                    }
                }
                for (size_t c = 0; c < 3; ++c)
                    dd[c] = (na[c] ? sa[c] / na[c] : kNaN) - (nb[c] ? sb[c] / nb[c] : kNaN);
            } else if (in.level == Level::Dataset) {
                w.counts.draw(key, quint32(units));
                dd = diff(detail::weightedCoefficients(in.weightedA, w.counts, in.tested, w.weighted),
                          detail::weightedCoefficients(in.weightedB, w.counts, in.tested, w.weighted));
            } else {
                // System level: items are drawn, each system's mean taken over its drawn items.
                detail::SplitMix64 rng(key);
                std::vector<int> rows(static_cast<size_t>(units));
                for (int &r : rows)
                    r = int(rng.below(quint32(units)));
                dd = diff(in.eval(in.d.a, rows, w.kernel, in.tested), in.eval(in.d.b, rows, w.kernel, in.tested));
            }
            for (size_t c = 0; c < 3; ++c)
                in.reps[c][size_t(i)] = dd[c];
        });
        for (size_t c = 0; c < 3; ++c)
            if (isTested(c))
                out.differenceCi[c] = detail::percentileInterval(job->reps[c], options.confidence);
    }

    // Paired permutation test on z-scored judges: item k's two values change places where bit k of
    // the permutation's stream is set (64 items a draw).
    out.permutations = std::max(0, options.permutations);
    if (n > 0 && out.permutations > 0) {
        job->za = d.a;
        job->zb = d.b;
        zScore(job->za);
        zScore(job->zb);
        if (level == Level::Dataset && tested == coefficientBit(Coefficient::Pearson)) {
            job->centredHuman = d.human;
            const double m = std::accumulate(d.human.begin(), d.human.end(), 0.0) / double(n);
            for (double &v : job->centredHuman)
                v -= m;
            job->permutation = detail::preparePermutation(job->centredHuman, job->za, job->zb);
        }
        for (auto &e : job->extreme)
            e.assign(size_t(out.permutations), 0);
        forReplicates(out.permutations, [job](int i, Scratch &w) {
            Job &in = *job;
            const size_t n = in.za.size();
            detail::SplitMix64 rng(detail::streamKey(in.seed, detail::Stream::Permutation, i));
            std::vector<quint64> bits((n + 63) / 64);
            for (quint64 &word : bits)
                word = rng.next();
            std::vector<double> pa, pb;
            std::array<double, 3> dd{kNaN, kNaN, kNaN};
            if (!in.centredHuman.empty()) {
                const auto [ra, rb] = detail::permutedPearson(in.permutation, bits, pa, pb);
                dd[0] = ra - rb;
            } else {
                pa.resize(n);
                pb.resize(n);
                for (size_t k = 0; k < n; ++k) {
                    const bool swap = (bits[k >> 6] >> (k & 63)) & 1;
                    pa[k] = swap ? in.zb[k] : in.za[k];
                    pb[k] = swap ? in.za[k] : in.zb[k];
                }
                dd = diff(in.eval(pa, in.all, w.kernel, in.tested), in.eval(pb, in.all, w.kernel, in.tested));
            }
            for (size_t c = 0; c < 3; ++c)
                in.extreme[c][size_t(i)] = !std::isnan(dd[c]) && std::abs(dd[c]) >= std::abs(in.difference[c]) - 1e-12;
        });
        for (size_t c = 0; c < 3; ++c) {
            if (std::isnan(out.difference[c]) || !isTested(c)) {
                out.permutationP[c] = kNaN;
                continue;
            }
            const int hits = std::accumulate(job->extreme[c].begin(), job->extreme[c].end(), 0);
            out.permutationP[c] = double(1 + hits) / double(1 + out.permutations);
        }
    }
    return out;
}

DensePairs densePairs(const StatsColumns &columns, int a, int b)
{
    DensePairs p;
    detail::Dense d = detail::densify(columns, a, b, p.b);
    p.human = std::move(d.human);
    p.a = std::move(d.judge);
    p.group = std::move(d.group);
    p.system = std::move(d.system);
    p.groupCount = d.groupCount;
    p.systemCount = d.systemCount;
    return p;
}

} // namespace

JudgeComparison compareJudges(const QVector<PairedItem> &items, Level level, const ComparisonOptions &options)
{
    return compareDense(densify(items), level, options);
}

JudgeComparison compareJudges(const StatsColumns &columns, int a, int b, Level level, const ComparisonOptions &options)
{
    return compareDense(densePairs(columns, a, b), level, options);
}

} // namespace rubric::stats
