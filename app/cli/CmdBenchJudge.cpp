#include "BenchRegistry.h"
#include "CliUtil.h"
#include "judge/JudgeEngine.h"
#include "judge/Provider.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <cmath>
#include <sys/resource.h>

namespace rubric::cli {
namespace {

/// Resident and peak memory of this process in KiB (Linux /proc), 0 when unknown.
std::pair<qint64, qint64> memoryKb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    qint64 rss = 0, hwm = 0;
    if (f.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.startsWith("VmRSS:"))
                rss = line.mid(6).trimmed().split(' ').value(0).toLongLong();
            else if (line.startsWith("VmHWM:"))
                hwm = line.mid(6).trimmed().split(' ').value(0).toLongLong();
        }
    }
    return {rss, hwm};
}

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double percentile(std::vector<double> sorted, double p)
{
    if (sorted.empty())
        return std::nan("");
    const size_t rank = size_t(std::ceil(p * double(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
            QStringLiteral("Measure judge-engine throughput against an endpoint, or a pool of replicas of one model "
                           "(--base-url repeated): N distinct small scoring prompts, C in flight per replica, cache "
                           "off; the requests each replica took are printed."));
    parser.addOption({QStringLiteral("base-url"),
                      QStringLiteral("Endpoint base, e.g. http://127.0.0.1:8000/v1; repeat it for replicas."),
                      QStringLiteral("URL")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("Model name."), QStringLiteral("M")});
    parser.addOption({QStringLiteral("provider"), QStringLiteral("openai (default) or anthropic."),
                      QStringLiteral("KIND"), QStringLiteral("openai")});
    parser.addOption({QStringLiteral("requests"), QStringLiteral("Number of requests."), QStringLiteral("N"),
                      QStringLiteral("1000")});
    parser.addOption({QStringLiteral("concurrency"),
                      QStringLiteral("Requests in flight per replica (times its weight)."), QStringLiteral("C"),
                      QStringLiteral("32")});
    parser.addOption({QStringLiteral("set"), QStringLiteral("pool.weights=W1,W2,…: the replicas' weights."),
                      QStringLiteral("KEY=VALUE")});
    parser.addOption({QStringLiteral("api-key-env"), QStringLiteral("Environment variable holding the API key."),
                      QStringLiteral("VAR")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON line.")});
    if (auto rc = parse(parser, QStringLiteral("bench judge"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("base-url"), io) || !require(parser, QStringLiteral("model"), io))
        return 2;
    const auto kind = Provider::kindFromName(parser.value(QStringLiteral("provider")));
    const int total = parser.value(QStringLiteral("requests")).toInt();
    const int concurrency = parser.value(QStringLiteral("concurrency")).toInt();
    if (!kind || total <= 0 || concurrency <= 0) {
        io.err << "rubric bench judge: --provider must be openai or anthropic; --requests and --concurrency positive\n";
        return 2;
    }
    QString weights;
    for (const QString &text : parser.values(QStringLiteral("set"))) {
        const auto kv = keyValue(text, QStringLiteral("set"), io);
        if (!kv)
            return 2;
        if (kv->first != QLatin1String("pool.weights")) {
            io.err << "rubric bench judge: unknown --set key '" << kv->first << "' (known: pool.weights)\n";
            return 2;
        }
        weights = kv->second;
    }
    ProviderProfile profile;
    profile.name = QStringLiteral("bench");
    profile.kind = *kind;
    if (!poolFromOptions(parser, weights, profile, io, QStringLiteral("bench judge")))
        return 2;
    profile.model = parser.value(QStringLiteral("model"));
    profile.apiKeyEnv = parser.value(QStringLiteral("api-key-env"));
    profile.concurrency = concurrency;
    profile.timeoutMs = 60000;

    JudgeEngine engine(profile, nullptr);
    engine.setCacheEnabled(false);

    // Requests are fed in windows so the engine's memory reflects its steady state, not a
    // 100k-long queue built up front.
    int inFlightMax = 0;
    for (const ReplicaStats &r : engine.replicaStats())
        inFlightMax += r.capacity;
    const int window = std::max(4 * inFlightMax, 512);
    int submitted = 0;
    auto feed = [&] {
        QVector<JudgeRequest> chunk;
        while (submitted < total && engine.pending() + chunk.size() < window) {
            JudgeRequest r;
            r.messages
                    = {{QStringLiteral("user"),
                        QStringLiteral("Rate the coherence of summary #%1 from 1 to 5. Summary: the committee met and "
                                       "agreed on the budget. Answer with the number only.")
                                .arg(submitted)}};
            r.maxTokens = 4;
            r.tag = QString::number(submitted);
            chunk.append(r);
            ++submitted;
        }
        if (!chunk.isEmpty())
            engine.submit(chunk);
    };

    std::vector<double> latencies;
    latencies.reserve(size_t(total));
    int errors = 0, answered = 0;
    QString firstError;
    qint64 rssWarm = 0;
    QObject *loop = QCoreApplication::instance(); // the application's loop, entered below (not nested)
    QObject::connect(&engine, &JudgeEngine::answered, [&](const JudgeResponse &r) {
        ++answered;
        if (r.ok())
            latencies.push_back(r.latencyMs);
        else if (errors++ == 0)
            firstError = r.error;
        if (answered == std::max(1, total / 10))
            rssWarm = memoryKb().first;
    });
    QObject::connect(&engine, &JudgeEngine::idle, loop, [&] {
        if (submitted < total)
            return;
        QCoreApplication::exit(0);
    });
    QObject::connect(&engine, &JudgeEngine::statsChanged, loop, [&] {
        if (engine.pending() < window / 2)
            feed();
    });

    const auto [rssStart, hwmStart] = memoryKb();
    const double cpuStart = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    feed();
    QCoreApplication::exec();
    const double wallS = double(wall.nsecsElapsed()) / 1e9;
    const double cpuS = cpuSeconds() - cpuStart;
    const auto [rssEnd, hwmEnd] = memoryKb();
    std::sort(latencies.begin(), latencies.end());
    const JudgeStats s = engine.stats();
    QVariantList replicas;
    for (const ReplicaStats &r : engine.replicaStats())
        replicas << QVariantMap{{QStringLiteral("url"), r.baseUrl},        {QStringLiteral("weight"), r.weight},
                                {QStringLiteral("in_flight"), r.capacity}, {QStringLiteral("sent"), r.sent},
                                {QStringLiteral("answered"), r.answered},  {QStringLiteral("failed"), r.failed},
                                {QStringLiteral("drained"), r.drained}};

    const QVariantMap result{{QStringLiteral("requests"), total},
                             {QStringLiteral("concurrency"), concurrency},
                             {QStringLiteral("in_flight_max"), inFlightMax},
                             {QStringLiteral("replicas"), replicas},
                             {QStringLiteral("wall_s"), wallS},
                             {QStringLiteral("rps"), double(total) / wallS},
                             {QStringLiteral("errors"), errors},
                             {QStringLiteral("retries"), s.retries},
                             {QStringLiteral("p50_ms"), jsonNumber(percentile(latencies, 0.50))},
                             {QStringLiteral("p99_ms"), jsonNumber(percentile(latencies, 0.99))},
                             {QStringLiteral("cpu_s"), cpuS},
                             {QStringLiteral("cpu_ms_per_request"), 1000.0 * cpuS / double(total)},
                             {QStringLiteral("connection_pools"), engine.connectionPools()},
                             {QStringLiteral("rss_start_kb"), rssStart},
                             {QStringLiteral("rss_warm_kb"), rssWarm},
                             {QStringLiteral("rss_end_kb"), rssEnd},
                             {QStringLiteral("rss_peak_kb"), std::max(hwmStart, hwmEnd)}};
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, result);
    } else {
        io.out << total << " requests, concurrency " << concurrency;
        if (replicas.size() > 1)
            io.out << " per replica × " << replicas.size() << " replicas (" << inFlightMax << " in flight)";
        io.out << ": " << QString::number(wallS, 'f', 2) << " s, " << QString::number(double(total) / wallS, 'f', 1)
               << " req/s, errors " << errors << ", retries " << s.retries << "\nlatency p50 "
               << QString::number(percentile(latencies, 0.5), 'f', 1) << " ms, p99 "
               << QString::number(percentile(latencies, 0.99), 'f', 1) << " ms\nCPU " << QString::number(cpuS, 'f', 2)
               << " s (" << QString::number(1000.0 * cpuS / total, 'f', 3) << " ms/request); RSS " << rssStart << " → "
               << rssWarm << " (10 %) → " << rssEnd << " KiB\n";
        if (replicas.size() > 1)
            for (const ReplicaStats &r : engine.replicaStats())
                io.out << "replica " << r.baseUrl << " (weight " << r.weight << ", " << r.capacity
                       << " in flight): " << r.answered << " answered, " << r.sent << " sent, " << r.failed
                       << " failed, drained " << r.drained << "×\n";
        if (errors)
            io.out << "first error: " << firstError << '\n';
    }
    return errors == 0 ? 0 : 1;
}

const BenchRegistration reg(QStringLiteral("judge"),
                            QStringLiteral("Judge-engine throughput against an endpoint (cache off)."), &run);

} // namespace
} // namespace rubric::cli
