// Benchmark (issue 19): memory and the judge cache over a long run.
//
// Builds a synthetic summarization project (30 annotated train items and --calls test items, every
// output distinct, in a child process so its building does not count in this process's peak
// memory), starts the loopback fake endpoint (`fake-llm-server`, its own process) as the synthetic
// judge of that project, and runs G-Eval with logprobs on the test split through Run, exactly as
// `rubric run` does: one call per item, so the run makes --calls score calls (and one for the
// evaluation steps). Every --checkpoint calls it prints this process's peak RSS (VmHWM), its RSS
// split into heap (RssAnon) and mapped files (RssFile: the project file, memory-mapped by SQLite),
// SQLite's own memory and, for the calls since the last checkpoint, the judge-cache lookups the run
// made (count and mean time, measured by SQLite's profile hook on the run's own connection) and the
// SQL statements per call. At the end: the peak at the first checkpoint and at the last and the
// growth between them, the lookup time early and late, and the lookup's query plan. Asserts nothing
// about memory or time; fails only when the run fails.
//
//   bench_long_run [--calls 100000] [--checkpoint 10000] [--concurrency 32] [--latency-ms 0] [--seed 1]

#include "ProjectTestAccess.h"
#include "rubric/Rubric.h"
#include "runs/Run.h"
#include "store/Project.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QSqlDriver>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

#include <random>
#include <sqlite3.h>

using namespace rubric;

namespace {

/// Memory of this process from /proc/self/status, in KiB.
struct Memory
{
    qint64 hwm = 0, rss = 0, anon = 0, file = 0;
};

Memory memory()
{
    Memory m;
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return m;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const qint64 kb = line.mid(line.indexOf(':') + 1).trimmed().split(' ').value(0).toLongLong();
        if (line.startsWith("VmHWM:"))
            m.hwm = kb;
        else if (line.startsWith("VmRSS:"))
            m.rss = kb;
        else if (line.startsWith("RssAnon:"))
            m.anon = kb;
        else if (line.startsWith("RssFile:"))
            m.file = kb;
    }
    return m;
}

/// What SQLite's profile hook saw on the run's connection since the last reset.
struct SqlTally
{
    qint64 statements = 0;
    qint64 lookups = 0, lookupNs = 0;
    qint64 inserts = 0, insertNs = 0; ///< judge_cache and judge_ledger rows written
};

int onProfile(unsigned type, void *context, void *statement, void *nanoseconds)
{
    if (type != SQLITE_TRACE_PROFILE)
        return 0;
    auto *tally = static_cast<SqlTally *>(context);
    const char *sql = sqlite3_sql(static_cast<sqlite3_stmt *>(statement));
    const qint64 ns = *static_cast<sqlite3_int64 *>(nanoseconds);
    ++tally->statements;
    if (!sql)
        return 0;
    if (qstrncmp(sql, "SELECT response FROM judge_cache WHERE key", 42) == 0) {
        ++tally->lookups;
        tally->lookupNs += ns;
    } else if (qstrncmp(sql, "INSERT OR REPLACE INTO judge_cache", 34) == 0
               || qstrncmp(sql, "INSERT INTO judge_ledger", 24) == 0) {
        ++tally->inserts;
        tally->insertNs += ns;
    }
    return 0;
}

sqlite3 *handleOf(const QSqlDatabase &db)
{
    const QVariant v = db.driver()->handle();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(v.constData());
}

/// The child's work (--make-project): the project with 30 train and `testItems` test items.
int makeProject(const QString &path, int testItems, quint32 seed)
{
    auto opened = Project::open(path);
    if (!opened) {
        QTextStream(stderr) << opened.errorString() << '\n';
        return 1;
    }
    Project *project = opened->get();
    std::mt19937 rng(seed);
    static const char *words[] = {"council", "budget", "river",   "storm",    "school",   "minister", "vote",
                                  "market",  "league", "players", "hospital", "report",   "police",   "village",
                                  "talks",   "energy", "prices",  "court",    "festival", "museum",   "airport",
                                  "farmers", "rain",   "bridge",  "election", "research", "company",  "workers"};
    const auto sentence = [&](int n) -> QString {
        QString s;
        for (int i = 0; i < n; ++i)
            s += QLatin1String(i ? " " : "") + QLatin1String(words[rng() % std::size(words)]);
        return s + QLatin1Char('.');
    };
    QVector<QString> documents;
    for (int d = 0; d < 200; ++d)
        documents.append(sentence(20) + QLatin1Char(' ') + sentence(20) + QLatin1Char(' ') + sentence(20));
    QVector<Item> items;
    QVector<Annotation> notes;
    QHash<QString, SplitRole> split;
    const int total = 30 + testItems;
    items.reserve(total);
    for (int i = 0; i < total; ++i) {
        Item it;
        it.id = QStringLiteral("i%1").arg(i);
        it.group = QStringLiteral("d%1").arg(i % documents.size());
        it.system = QStringLiteral("s%1").arg(i % 7);
        it.source = documents[i % documents.size()];
        it.output = QStringLiteral("Summary %1: ").arg(i) + sentence(12) + QLatin1Char(' ') + sentence(12);
        it.position = i;
        items.append(it);
        notes.append(Annotation{
                it.id, QStringLiteral("coherence"), QStringLiteral("experts"), double(1 + rng() % 5), {}, {}});
        split.insert(it.id, i < 30 ? SplitRole::Train : SplitRole::Test);
    }
    const Aspect aspect{QStringLiteral("coherence"),
                        QStringLiteral("the quality of all sentences collectively, focusing on how well they fit "
                                       "together and sound natural as a whole"),
                        1, 5};
    Result<void> r = project->addItems(items);
    if (r)
        r = project->upsertAspect(aspect);
    if (r)
        r = project->addAnnotations(notes);
    if (r)
        r = project->setSplit(split);
    if (!r)
        QTextStream(stderr) << r.errorString() << '\n';
    return r ? 0 : 1;
}

std::unique_ptr<QProcess> startEndpoint(const QString &project, int latencyMs, QString *baseUrl)
{
    auto p = std::make_unique<QProcess>();
    p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p->start(QStringLiteral(FAKE_LLM_SERVER),
             {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--latency-ms"), QString::number(latencyMs),
              QStringLiteral("--synthetic-project"), project});
    if (!p->waitForStarted(10000))
        return nullptr;
    QString line;
    while (!line.contains(QLatin1String("listening on")) && p->waitForReadyRead(60000))
        line += QString::fromUtf8(p->readAllStandardOutput());
    const qsizetype at = line.indexOf(QLatin1String("http://"));
    if (at < 0)
        return nullptr;
    *baseUrl = line.mid(at).trimmed();
    return p;
}

struct Checkpoint
{
    int calls = 0;
    double wallS = 0;
    Memory mem;
    qint64 sqliteBytes = 0, pageCacheBytes = 0;
    SqlTally sql; ///< since the previous checkpoint
    int callsInWindow = 0;
};

double mib(qint64 kb)
{
    return double(kb) / 1024.0;
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
            {QStringLiteral("calls"), QStringLiteral("Score calls (test items)."), QStringLiteral("N"),
             QStringLiteral("100000")},
            {QStringLiteral("checkpoint"), QStringLiteral("Report every N calls."), QStringLiteral("N"),
             QStringLiteral("10000")},
            {QStringLiteral("concurrency"), QStringLiteral("Requests in flight."), QStringLiteral("C"),
             QStringLiteral("32")},
            {QStringLiteral("latency-ms"), QStringLiteral("Endpoint latency."), QStringLiteral("MS"),
             QStringLiteral("0")},
            {QStringLiteral("seed"), QStringLiteral("Seed of the texts and scores."), QStringLiteral("N"),
             QStringLiteral("1")},
            {QStringLiteral("make-project"), QStringLiteral("(internal) build the project and exit."),
             QStringLiteral("FILE")},
    });
    parser.process(app);
    const int calls = parser.value(QStringLiteral("calls")).toInt();
    const int step = parser.value(QStringLiteral("checkpoint")).toInt();
    const quint32 seed = parser.value(QStringLiteral("seed")).toUInt();
    if (parser.isSet(QStringLiteral("make-project")))
        return makeProject(parser.value(QStringLiteral("make-project")), calls, seed);
    QTextStream out(stdout);
    if (calls <= 0 || step <= 0) {
        out << "bench_long_run: --calls and --checkpoint must be positive\n";
        return 2;
    }

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.rubric"));
    QElapsedTimer clock;
    clock.start();
    if (QProcess::execute(QCoreApplication::applicationFilePath(),
                          {QStringLiteral("--make-project"), path, QStringLiteral("--calls"), QString::number(calls),
                           QStringLiteral("--seed"), QString::number(seed)})
        != 0) {
        out << "bench_long_run: cannot build the project\n";
        return 1;
    }
    out << "project: " << calls << " test items, built in " << QString::number(clock.elapsed() / 1000.0, 'f', 1)
        << " s\n";
    out.flush();
    QString baseUrl;
    auto endpoint = startEndpoint(path, parser.value(QStringLiteral("latency-ms")).toInt(), &baseUrl);
    if (!endpoint) {
        out << "bench_long_run: the fake endpoint did not start\n";
        return 1;
    }

    auto opened = Project::open(path, Project::OpenMode::OpenExisting);
    if (!opened) {
        out << "bench_long_run: " << opened.errorString() << '\n';
        return 1;
    }
    Project *project = opened->get();
    SqlTally tally;
    sqlite3 *db = handleOf(ProjectTestAccess::database(*project));
    if (!db) {
        out << "bench_long_run: the SQL driver gives no SQLite handle\n";
        return 1;
    }
    sqlite3_trace_v2(db, SQLITE_TRACE_PROFILE, &onProfile, &tally);

    RunSpec spec;
    spec.judge = QStringLiteral("long");
    spec.method = QStringLiteral("geval");
    spec.aspect = QStringLiteral("coherence");
    spec.settings.insert(QStringLiteral("logprobs"), true);
    spec.evaluator.name = QStringLiteral("bench");
    spec.evaluator.baseUrl = baseUrl;
    spec.evaluator.model = QStringLiteral("synthetic");
    spec.evaluator.concurrency = parser.value(QStringLiteral("concurrency")).toInt();
    spec.evaluator.maxRetries = 2;

    QVector<Checkpoint> points;
    int nextPoint = step, lastCalls = 0;
    const Memory before = memory();
    clock.restart();
    const auto takePoint = [&](int done) {
        Checkpoint c;
        c.calls = done;
        c.wallS = double(clock.nsecsElapsed()) / 1e9;
        c.mem = memory();
        c.sqliteBytes = sqlite3_memory_used();
        int used = 0, highwater = 0;
        sqlite3_db_status(db, SQLITE_DBSTATUS_CACHE_USED, &used, &highwater, 0);
        c.pageCacheBytes = used;
        c.sql = std::exchange(tally, {});
        c.callsInWindow = done - lastCalls;
        lastCalls = done;
        points.append(c);
    };

    Run run(project, spec);
    bool ok = false;
    QString error;
    QEventLoop loop;
    QObject::connect(&run, &Run::progressed, &loop, [&](const RunProgress &p) {
        // The steps call comes first: count the score calls of the evaluation only.
        const int done = p.phase == QLatin1String("evaluate") ? p.done - 1 : 0;
        while (done >= nextPoint) {
            takePoint(nextPoint);
            nextPoint += step;
        }
    });
    QObject::connect(&run, &Run::finished, &loop, [&](bool success, const QString &message) {
        ok = success;
        error = message;
        loop.quit();
    });
    if (auto started = run.start(); !started) {
        out << "bench_long_run: " << started.errorString() << '\n';
        return 1;
    }
    loop.exec();
    const double wallS = double(clock.nsecsElapsed()) / 1e9;
    sqlite3_trace_v2(db, 0, nullptr, nullptr);
    endpoint->terminate();
    endpoint->waitForFinished(5000);
    if (!ok) {
        out << "bench_long_run: the run failed: " << error << '\n';
        return 1;
    }

    out << "before the run: peak RSS " << QString::number(mib(before.hwm), 'f', 1) << " MiB, RSS "
        << QString::number(mib(before.rss), 'f', 1) << " MiB\n";
    for (qsizetype i = 0; i < points.size(); ++i) {
        const Checkpoint &c = points[i];
        const double windowS = c.wallS - (i > 0 ? points[i - 1].wallS : 0.0);
        const double lookupUs = c.sql.lookups ? double(c.sql.lookupNs) / double(c.sql.lookups) / 1000.0 : 0;
        out << QStringLiteral("calls %1: peak RSS %2 MiB (RSS %3: heap %4, mapped %5), SQLite %6 MiB (page cache %7), "
                              "%8 lookups × %9 µs, %10 SQL statements per call, %11 calls/s\n")
                        .arg(c.calls, 7)
                        .arg(mib(c.mem.hwm), 0, 'f', 1)
                        .arg(mib(c.mem.rss), 0, 'f', 1)
                        .arg(mib(c.mem.anon), 0, 'f', 1)
                        .arg(mib(c.mem.file), 0, 'f', 1)
                        .arg(double(c.sqliteBytes) / 1048576.0, 0, 'f', 1)
                        .arg(double(c.pageCacheBytes) / 1048576.0, 0, 'f', 1)
                        .arg(c.sql.lookups)
                        .arg(lookupUs, 0, 'f', 1)
                        .arg(double(c.sql.statements) / std::max(1, c.callsInWindow), 0, 'f', 2)
                        .arg(double(c.callsInWindow) / std::max(1e-9, windowS), 0, 'f', 0);
    }
    if (points.size() >= 2) {
        const Checkpoint &first = points.first(), &last = points.last();
        const auto us = [](const SqlTally &t) { return t.lookups ? double(t.lookupNs) / double(t.lookups) / 1e3 : 0; };
        // The heap without SQLite's own (its page cache is bounded by the project's cache_size).
        const auto rest = [](const Checkpoint &c) { return mib(c.mem.anon) - double(c.sqliteBytes) / 1048576.0; };
        out << QStringLiteral("peak RSS at %1 calls: %2 MiB, at %3 calls: %4 MiB, growth %5 MiB; heap %6 → %7 MiB, "
                              "of which SQLite %8 → %9 MiB and the rest %10 → %11 MiB\n")
                        .arg(first.calls)
                        .arg(mib(first.mem.hwm), 0, 'f', 1)
                        .arg(last.calls)
                        .arg(mib(last.mem.hwm), 0, 'f', 1)
                        .arg(mib(last.mem.hwm - first.mem.hwm), 0, 'f', 1)
                        .arg(mib(first.mem.anon), 0, 'f', 1)
                        .arg(mib(last.mem.anon), 0, 'f', 1)
                        .arg(double(first.sqliteBytes) / 1048576.0, 0, 'f', 1)
                        .arg(double(last.sqliteBytes) / 1048576.0, 0, 'f', 1)
                        .arg(rest(first), 0, 'f', 1)
                        .arg(rest(last), 0, 'f', 1);
        out << QStringLiteral("judge-cache lookup: %1 µs per lookup over calls 1–%2, %3 µs over the last %4 "
                              "(the cache then holding %5 answers); SQL statements per call %6 → %7\n")
                        .arg(us(first.sql), 0, 'f', 1)
                        .arg(first.calls)
                        .arg(us(last.sql), 0, 'f', 1)
                        .arg(last.callsInWindow)
                        .arg(last.calls)
                        .arg(double(first.sql.statements) / std::max(1, first.callsInWindow), 0, 'f', 2)
                        .arg(double(last.sql.statements) / std::max(1, last.callsInWindow), 0, 'f', 2);
    }
    QSqlQuery plan(ProjectTestAccess::database(*project));
    plan.prepare(QStringLiteral("EXPLAIN QUERY PLAN SELECT response FROM judge_cache WHERE key = ?"));
    plan.addBindValue(QStringLiteral("x"));
    if (plan.exec() && plan.next())
        out << "lookup plan: " << plan.value(3).toString() << '\n';
    out << "run: " << calls << " score calls in " << QString::number(wallS, 'f', 1) << " s; project file "
        << QString::number(double(QFile(path).size()) / 1048576.0, 'f', 1) << " MiB\n";
    return 0;
}
