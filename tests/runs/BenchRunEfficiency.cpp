// Benchmark (issue 11): how close a run comes to the endpoint's limit.
//
// Starts the loopback fake endpoint (`fake-llm-server`, its own process) with a fixed and with a
// long-tailed (lognormal) latency, runs G-Eval on the SummEval test split and HypoEval's evaluation
// phase (a stored rubric of 5 hypotheses) through Run, exactly as `rubric run` does, and prints per
// case: the calls sent, the wall time, the limit (the latencies the endpoint applied, summed, divided
// by the concurrency: the shortest time any client can take for them) and their ratio, the
// efficiency. Asserts nothing about time; fails only when a run fails.
//
//   bench_run_efficiency [--geval-items 1516] [--hypo-items 300] [--concurrency 32] [--median-ms 200]
//                        [--sigma 1] [--seed 7] [--latency fixed|lognormal|both] [--json]

#include "SummEvalFixture.h"
#include "rubric/Rubric.h"
#include "runs/Run.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <cstdio>
#include <optional>

using namespace rubric;
using namespace rubric::test;

namespace {

struct Endpoint
{
    std::unique_ptr<QProcess> process;
    QString baseUrl;
};

std::optional<Endpoint> startEndpoint(const QString &project, int medianMs, double sigma, int seed)
{
    Endpoint e;
    e.process = std::make_unique<QProcess>();
    e.process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QStringList args{QStringLiteral("--port"),
                     QStringLiteral("0"),
                     QStringLiteral("--latency-ms"),
                     QString::number(medianMs),
                     QStringLiteral("--seed"),
                     QString::number(seed),
                     QStringLiteral("--synthetic-project"),
                     project};
    if (sigma > 0)
        args << QStringLiteral("--latency-sigma") << QString::number(sigma);
    e.process->start(QStringLiteral(FAKE_LLM_SERVER), args);
    if (!e.process->waitForStarted(10000))
        return std::nullopt;
    QString line;
    while (!line.contains(QLatin1String("listening on")) && e.process->waitForReadyRead(10000))
        line += QString::fromUtf8(e.process->readAllStandardOutput());
    const qsizetype at = line.indexOf(QLatin1String("http://"));
    if (at < 0)
        return std::nullopt;
    e.baseUrl = line.mid(at).trimmed();
    return e;
}

QJsonObject endpointStats(const QString &baseUrl)
{
    QNetworkAccessManager nam;
    QUrl url(baseUrl);
    url.setPath(QStringLiteral("/fake/stats"));
    QNetworkReply *reply = nam.get(QNetworkRequest(url));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    reply->deleteLater();
    return QJsonDocument::fromJson(reply->readAll()).object();
}

RunSpec specFor(const QString &judge, const QString &method, const QString &baseUrl, int concurrency)
{
    RunSpec s;
    s.judge = judge;
    s.method = method;
    s.aspect = QStringLiteral("coherence");
    s.evaluator.name = QStringLiteral("bench");
    s.evaluator.baseUrl = baseUrl;
    s.evaluator.model = QStringLiteral("synthetic");
    s.evaluator.concurrency = concurrency;
    s.evaluator.maxRetries = 2;
    return s;
}

struct Outcome
{
    bool ok = false;
    QString error;
    double wallS = 0;
    QVariantMap summary;
};

Outcome runOnce(Project *project, const RunSpec &spec)
{
    Outcome o;
    Run run(project, spec);
    QEventLoop loop;
    QObject::connect(&run, &Run::finished, &loop, [&](bool ok, const QString &error) {
        o.ok = ok;
        o.error = error;
        loop.quit();
    });
    QElapsedTimer clock;
    clock.start();
    if (auto started = run.start(); !started) {
        o.error = started.errorString();
        return o;
    }
    loop.exec();
    o.wallS = double(clock.nsecsElapsed()) / 1e9;
    o.summary = run.summary();
    return o;
}

/// A HypoEval rubric of five hypotheses stored under `judge`, so that a run is its evaluation only.
bool storeHypotheses(Project *project, const QString &judge)
{
    if (!project->ensureJudge(judge, QStringLiteral("hypoeval")))
        return false;
    Rubric rubric(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("aspect");
    root.kind = CriterionKind::Aspect;
    root.text = QStringLiteral("coherence");
    rubric.add(root);
    const QStringList texts{
            QStringLiteral("SIGNAL: the summary is well-structured and well-organized."),
            QStringLiteral("SIGNAL: sentences follow each other in a logical order."),
            QStringLiteral("SIGNAL: the summary builds a coherent body of information about a topic."),
            QStringLiteral("SIGNAL: there are no abrupt jumps between unrelated facts."),
            QStringLiteral("SIGNAL: references to entities are clear and consistent."),
    };
    for (int i = 0; i < texts.size(); ++i) {
        Criterion h;
        h.key = QStringLiteral("h%1").arg(i + 1);
        h.parentKey = root.key;
        h.kind = CriterionKind::Hypothesis;
        h.text = texts[i];
        rubric.add(h);
    }
    return RubricStore(project).saveVersion(judge, rubric, QStringLiteral("benchmark rubric")).ok();
}

} // namespace

int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOptions({
            {QStringLiteral("geval-items"), QStringLiteral("G-Eval test items."), QStringLiteral("N"),
             QStringLiteral("1516")},
            {QStringLiteral("hypo-items"), QStringLiteral("HypoEval test items (× 5 hypotheses)."), QStringLiteral("N"),
             QStringLiteral("300")},
            {QStringLiteral("concurrency"), QStringLiteral("Requests in flight."), QStringLiteral("C"),
             QStringLiteral("32")},
            {QStringLiteral("median-ms"), QStringLiteral("Endpoint latency (median)."), QStringLiteral("MS"),
             QStringLiteral("200")},
            {QStringLiteral("sigma"), QStringLiteral("σ of the lognormal latency."), QStringLiteral("S"),
             QStringLiteral("1")},
            {QStringLiteral("seed"), QStringLiteral("Seed of the latencies."), QStringLiteral("N"),
             QStringLiteral("7")},
            {QStringLiteral("latency"), QStringLiteral("fixed, lognormal or both."), QStringLiteral("L"),
             QStringLiteral("both")},
            {QStringLiteral("json"), QStringLiteral("One JSON line per case.")},
    });
    parser.process(app);
    const int gevalItems = parser.value(QStringLiteral("geval-items")).toInt();
    const int hypoItems = parser.value(QStringLiteral("hypo-items")).toInt();
    const int concurrency = parser.value(QStringLiteral("concurrency")).toInt();
    const int median = parser.value(QStringLiteral("median-ms")).toInt();
    const double sigma = parser.value(QStringLiteral("sigma")).toDouble();
    const int seed = parser.value(QStringLiteral("seed")).toInt();
    const QString latency = parser.value(QStringLiteral("latency"));
    const bool json = parser.isSet(QStringLiteral("json"));
    QTextStream out(stdout);

    QTemporaryDir dir;
    int failures = 0;
    for (const QString &mode : {QStringLiteral("fixed"), QStringLiteral("lognormal")}) {
        if (latency != QLatin1String("both") && latency != mode)
            continue;
        // Projects of its own for each latency: the judge cache is keyed by the request, so a second
        // latency on the same projects would be answered from the first one's cache (0 calls).
        auto geval = makeSummEvalProject(dir.filePath(QStringLiteral("geval-%1.rubric").arg(mode)), gevalItems, 1);
        auto hypo = makeSummEvalProject(dir.filePath(QStringLiteral("hypo-%1.rubric").arg(mode)), hypoItems, 1);
        if (!geval || !hypo) {
            out << "bench_run_efficiency: cannot build the SummEval projects\n";
            return 1;
        }
        const double s = mode == QLatin1String("fixed") ? 0.0 : sigma;
        auto endpoint = startEndpoint(geval->project->path(), median, s, seed);
        if (!endpoint) {
            out << "bench_run_efficiency: the fake endpoint did not start\n";
            return 1;
        }
        // G-Eval's evaluation steps come first (one call): made by a warm-up run on the train split,
        // so the measured run is the evaluation of the test split.
        RunSpec warm = specFor(QStringLiteral("warm-") + mode, QStringLiteral("geval"), endpoint->baseUrl, concurrency);
        warm.items = SplitFilter::Train;
        if (Outcome w = runOnce(geval->project.get(), warm); !w.ok) {
            out << "warm-up failed: " << w.error << '\n';
            return 1;
        }
        const QString hypoJudge = QStringLiteral("hypo-") + mode;
        if (!storeHypotheses(hypo->project.get(), hypoJudge)) {
            out << "bench_run_efficiency: cannot store the HypoEval rubric\n";
            return 1;
        }
        struct Case
        {
            QString name;
            Project *project;
            RunSpec spec;
        };
        const QVector<Case> cases{
                {QStringLiteral("geval"), geval->project.get(),
                 specFor(QStringLiteral("geval-") + mode, QStringLiteral("geval"), endpoint->baseUrl, concurrency)},
                {QStringLiteral("hypoeval-evaluate"), hypo->project.get(),
                 specFor(hypoJudge, QStringLiteral("hypoeval"), endpoint->baseUrl, concurrency)},
        };
        for (const Case &c : cases) {
            const QJsonObject before = endpointStats(endpoint->baseUrl);
            const Outcome o = runOnce(c.project, c.spec);
            const QJsonObject after = endpointStats(endpoint->baseUrl);
            if (!o.ok) {
                out << c.name << ' ' << mode << ": the run failed: " << o.error << '\n';
                ++failures;
                continue;
            }
            const int calls = after.value(QStringLiteral("requests")).toInt()
                              - before.value(QStringLiteral("requests")).toInt();
            const double sumMs = after.value(QStringLiteral("latency_sum_ms")).toDouble()
                                 - before.value(QStringLiteral("latency_sum_ms")).toDouble();
            const double limitS = sumMs / 1000.0 / concurrency;
            const double efficiency = o.wallS > 0 ? limitS / o.wallS : 0;
            if (json) {
                out << QJsonDocument(QJsonObject{{QStringLiteral("case"), c.name},
                                                 {QStringLiteral("latency"), mode},
                                                 {QStringLiteral("calls"), calls},
                                                 {QStringLiteral("concurrency"), concurrency},
                                                 {QStringLiteral("wall_s"), o.wallS},
                                                 {QStringLiteral("limit_s"), limitS},
                                                 {QStringLiteral("efficiency"), efficiency}})
                                .toJson(QJsonDocument::Compact)
                    << '\n';
            } else {
                out << QStringLiteral("%1 %2 (median %3 ms%4): %5 calls, %6 in flight: wall %7 s, limit %8 s, "
                                      "efficiency %9\n")
                                .arg(c.name, -18)
                                .arg(mode, -9)
                                .arg(median)
                                .arg(s > 0 ? QStringLiteral(", σ %1").arg(s) : QString())
                                .arg(calls)
                                .arg(concurrency)
                                .arg(o.wallS, 0, 'f', 2)
                                .arg(limitS, 0, 'f', 2)
                                .arg(efficiency, 0, 'f', 3);
            }
            out.flush();
        }
        endpoint->process->terminate();
        endpoint->process->waitForFinished(5000);
    }
    return failures == 0 ? 0 : 1;
}
