// rubric bench scale: a synthetic project of N items, timed through import, the studio and the
// statistics commands, each in a child process whose peak memory wait4 reports.
#include "BenchRegistry.h"
#include "CliUtil.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <cmath>
#include <fcntl.h>
#include <random>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace rubric::cli {
namespace {

constexpr int kSystems = 16; ///< outputs per source, as in SummEval

/// What a child process cost.
struct Step
{
    QString name;
    double ms = 0;
    double peakMiB = 0;
    int rc = 0;
    QString stdoutText, stderrText;
};

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// Runs `program args` with `env` added to this process's environment; its stdout and stderr go
/// to files in `dir`. The peak resident memory is the child's own (wait4's rusage).
Step runChild(const QString &name, const QString &program, const QStringList &args, const QString &dir,
              const QProcessEnvironment &extraEnv = {})
{
    Step step;
    step.name = name;
    const QString outPath = QDir(dir).filePath(name + QStringLiteral(".out"));
    const QString errPath = QDir(dir).filePath(name + QStringLiteral(".err"));
    std::vector<QByteArray> argStore{program.toLocal8Bit()};
    for (const QString &a : args)
        argStore.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : argStore)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(extraEnv);
    std::vector<QByteArray> envStore;
    for (const QString &kv : env.toStringList())
        envStore.push_back(kv.toLocal8Bit());
    std::vector<char *> envp;
    for (QByteArray &e : envStore)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const QByteArray outFile = outPath.toLocal8Bit(), errFile = errPath.toLocal8Bit();

    QElapsedTimer timer;
    timer.start();
    const pid_t pid = fork();
    if (pid == 0) {
        const int out = open(outFile.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(errFile.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0)
            _exit(126);
        dup2(out, 1);
        dup2(err, 2);
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    if (pid < 0) {
        step.rc = -1;
        step.stderrText = QStringLiteral("cannot start %1").arg(program);
        return step;
    }
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    step.ms = double(timer.nsecsElapsed()) / 1e6;
    step.peakMiB = double(usage.ru_maxrss) / 1024.0;
    step.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (step.rc == 127)
        step.stderrText = QStringLiteral("cannot run %1").arg(program);
    step.stdoutText = readAll(outPath);
    step.stderrText += readAll(errPath);
    return step;
}

/// Deterministic filler text: `words` words drawn from a small vocabulary by `rng`.
void appendWords(QByteArray &out, std::mt19937 &rng, int words)
{
    static const char *const vocabulary[]
            = {"the",     "council", "said",   "on",       "tuesday", "that",   "a",       "new",    "report",
               "shows",   "market",  "growth", "slowed",   "after",   "months", "of",      "rising", "prices",
               "while",   "local",   "people", "welcomed", "plans",   "for",    "school",  "and",    "hospital",
               "funding", "in",      "region", "police",   "were",    "called", "weather", "storm",  "season"};
    constexpr int n = int(sizeof(vocabulary) / sizeof(vocabulary[0]));
    std::uniform_int_distribution<int> pick(0, n - 1);
    for (int w = 0; w < words; ++w) {
        if (w)
            out += (w % 17 == 0) ? ". " : " ";
        out += vocabulary[pick(rng)];
    }
}

/// Writes N items as JSONL (one source and reference shared by kSystems outputs, one human score)
/// and a JSONL of three judges' scores (the human score plus noise of decreasing size).
Result<void> writeDataset(int items, const QString &file, const QString &judgeFile)
{
    QFile out(file), judges(judgeFile);
    if (!out.open(QIODevice::WriteOnly))
        return makeError(out.errorString(), file);
    if (!judges.open(QIODevice::WriteOnly))
        return makeError(judges.errorString(), judgeFile);
    std::mt19937 rng(20260);
    std::normal_distribution<double> noise(0.0, 1.0);
    QByteArray source, reference, line, judgeLine;
    const auto clamp = [](double v) { return std::clamp(std::round(v * 4.0) / 4.0, 1.0, 5.0); };
    for (int i = 0; i < items; ++i) {
        const int group = i / kSystems;
        if (i % kSystems == 0) {
            std::mt19937 doc(quint32(group) * 2654435761u);
            source.clear();
            appendWords(source, doc, 420); // ~2,500 characters, a news article's length
            reference.clear();
            appendWords(reference, doc, 50);
        }
        std::mt19937 own(quint32(i) * 40503u + 7u);
        const double human = clamp(3.0 + 1.1 * noise(rng));
        line.clear();
        line += "{\"id\":\"it";
        line += QByteArray::number(i);
        line += "\",\"doc_id\":\"doc";
        line += QByteArray::number(group);
        line += "\",\"system_id\":\"M";
        line += QByteArray::number(i % kSystems);
        line += "\",\"source\":\"";
        line += source;
        line += "\",\"reference\":\"";
        line += reference;
        line += "\",\"system_output\":\"";
        appendWords(line, own, 60);
        line += "\",\"scores\":{\"coherence\":";
        line += QByteArray::number(human);
        line += "}}\n";
        if (out.write(line) != line.size())
            return makeError(out.errorString(), file);
        judgeLine.clear();
        judgeLine += "{\"id\":\"it";
        judgeLine += QByteArray::number(i);
        judgeLine += "\"";
        for (const auto &[name, sd] : {std::pair{"a", 0.6}, std::pair{"b", 0.9}, std::pair{"c", 1.3}}) {
            judgeLine += ",\"";
            judgeLine += name;
            judgeLine += "\":";
            judgeLine += QByteArray::number(clamp(human + sd * noise(rng)));
        }
        judgeLine += "}\n";
        if (judges.write(judgeLine) != judgeLine.size())
            return makeError(judges.errorString(), judgeFile);
    }
    return {};
}

QString scriptPath(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("reference-script")))
        return parser.value(QStringLiteral("reference-script"));
#ifdef RUBRIC_SCRIPTS_DIR
    return QStringLiteral(RUBRIC_SCRIPTS_DIR "/import_reference.py");
#else
    return QStringLiteral("scripts/import_reference.py");
#endif
}

QString figure(double v, int decimals = 1)
{
    return QString::number(v, 'f', decimals);
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Make a synthetic project of N items (one source shared by 16 outputs, human scores, three judges) "
            "and time it: `rubric import` of its JSONL and the stdlib-Python reference on the same file "
            "(scripts/import_reference.py), the studio's first pane and the longest event-loop gap while "
            "scrolling the Dataset and Heatmap panes (offscreen), and split / correlate / compare / export. "
            "Every step runs in a child process; its peak memory is the child's own (wait4)."));
    parser.addOption({QStringLiteral("items"), QStringLiteral("Number of items (default 100000)."), QStringLiteral("N"),
                      QStringLiteral("100000")});
    parser.addOption({QStringLiteral("dir"),
                      QStringLiteral("Folder for the dataset, project and logs (kept; default a temporary one)."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("resamples"),
                      QStringLiteral("Bootstrap resamples and permutations of correlate and compare (default 1000)."),
                      QStringLiteral("R"), QStringLiteral("1000")});
    parser.addOption({QStringLiteral("reference-script"),
                      QStringLiteral("The Python import reference (default scripts/import_reference.py)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("python"), QStringLiteral("Python interpreter (default /usr/bin/python3)."),
                      QStringLiteral("EXE"), QStringLiteral("/usr/bin/python3")});
    parser.addOption({QStringLiteral("no-studio"), QStringLiteral("Skip the studio's panes.")});
    parser.addOption({QStringLiteral("no-reference"), QStringLiteral("Skip the Python reference.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("bench scale"), args, io))
        return *rc;
    bool ok = false;
    const int items = parser.value(QStringLiteral("items")).toInt(&ok);
    if (!ok || items < kSystems) {
        io.err << "rubric bench scale: --items expects a whole number of at least " << kSystems << '\n';
        return 2;
    }
    const int resamples = parser.value(QStringLiteral("resamples")).toInt(&ok);
    if (!ok || resamples < 0) {
        io.err << "rubric bench scale: --resamples expects a whole number\n";
        return 2;
    }
    QTemporaryDir temp;
    QString dir = parser.value(QStringLiteral("dir"));
    if (dir.isEmpty()) {
        if (!temp.isValid()) {
            io.err << "rubric bench scale: cannot create a temporary folder\n";
            return 1;
        }
        dir = temp.path();
    } else if (!QDir().mkpath(dir)) {
        io.err << "rubric bench scale: cannot create " << dir << '\n';
        return 1;
    }
    const QDir d(dir);
    const QString data = d.filePath(QStringLiteral("items.jsonl"));
    const QString judgeData = d.filePath(QStringLiteral("judges.jsonl"));
    const QString project = d.filePath(QStringLiteral("scale.rubric"));
    const QString reference = d.filePath(QStringLiteral("reference.sqlite"));
    for (const QString &f :
         QStringList{project, project + QStringLiteral("-wal"), project + QStringLiteral("-shm"), reference})
        QFile::remove(f);
    const QString rubric = QCoreApplication::applicationFilePath();
    const QString studio = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("rubric-studio"));

    QElapsedTimer timer;
    timer.start();
    if (auto r = writeDataset(items, data, judgeData); !r) {
        io.err << "rubric bench scale: " << r.errorString() << '\n';
        return 1;
    }
    const double generateMs = double(timer.nsecsElapsed()) / 1e6;
    const double fileMiB = double(QFileInfo(data).size()) / (1024.0 * 1024.0);

    QVector<Step> steps;
    QVariantMap figures;
    const auto fail = [&io](const Step &s) {
        io.err << "rubric bench scale: " << s.name << " failed (exit " << s.rc << "): " << s.stderrText.right(2000)
               << '\n';
        return 1;
    };
    const auto runStep = [&](const QString &name, const QString &program, const QStringList &a,
                             const QProcessEnvironment &env = {}) -> const Step * {
        steps.append(runChild(name, program, a, dir, env));
        if (!parser.isSet(QStringLiteral("json")))
            io.out << "  " << name.leftJustified(16) << figure(steps.last().ms / 1000.0, 2) << " s, peak "
                   << figure(steps.last().peakMiB) << " MiB" << Qt::endl;
        return steps.last().rc == 0 ? &steps.last() : nullptr;
    };
    if (!parser.isSet(QStringLiteral("json")))
        io.out << "rubric bench scale: " << items << " items, " << figure(fileMiB) << " MiB of JSONL (written in "
               << figure(generateMs / 1000.0, 2) << " s) in " << dir << Qt::endl;

    if (!runStep(QStringLiteral("import"), rubric,
                 {QStringLiteral("import"),      data,
                  QStringLiteral("--project"),   project,
                  QStringLiteral("--id"),        QStringLiteral("id"),
                  QStringLiteral("--group"),     QStringLiteral("doc_id"),
                  QStringLiteral("--system"),    QStringLiteral("system_id"),
                  QStringLiteral("--source"),    QStringLiteral("source"),
                  QStringLiteral("--output"),    QStringLiteral("system_output"),
                  QStringLiteral("--reference"), QStringLiteral("reference"),
                  QStringLiteral("--human"),     QStringLiteral("coherence=scores.coherence"),
                  QStringLiteral("--scale"),     QStringLiteral("coherence=1:5"),
                  QStringLiteral("--json")}))
        return fail(steps.last());
    if (!parser.isSet(QStringLiteral("no-reference"))
        && !runStep(QStringLiteral("import-python"), parser.value(QStringLiteral("python")),
                    {scriptPath(parser), data, reference}))
        return fail(steps.last());
    for (const auto &[judge, field] : {std::pair{"A", "a"}, std::pair{"B", "b"}, std::pair{"C", "c"}})
        if (!runStep(QStringLiteral("judge-") + QLatin1String(judge), rubric,
                     {QStringLiteral("import-scores"), judgeData, QStringLiteral("--project"), project,
                      QStringLiteral("--judge"), QLatin1String(judge), QStringLiteral("--id"), QStringLiteral("id"),
                      QStringLiteral("--score"), QStringLiteral("coherence=") + QLatin1String(field)}))
            return fail(steps.last());
    const QFileInfo projectFile(project);
    figures.insert(QStringLiteral("project_mib"), double(projectFile.size()) / (1024.0 * 1024.0));
    if (!runStep(QStringLiteral("info"), rubric,
                 {QStringLiteral("info"), QStringLiteral("--project"), project, QStringLiteral("--json")}))
        return fail(steps.last());
    if (!runStep(QStringLiteral("split"), rubric,
                 {QStringLiteral("split"), QStringLiteral("--project"), project, QStringLiteral("--train"),
                  QString::number(std::max(1, items / 5)), QStringLiteral("--json")}))
        return fail(steps.last());
    const QString r = QString::number(resamples);
    if (!runStep(QStringLiteral("correlate"), rubric,
                 {QStringLiteral("correlate"), QStringLiteral("--project"), project, QStringLiteral("--judge"),
                  QStringLiteral("A"), QStringLiteral("--aspect"), QStringLiteral("coherence"),
                  QStringLiteral("--level"), QStringLiteral("group"), QStringLiteral("--bootstrap"), r,
                  QStringLiteral("--json")}))
        return fail(steps.last());
    if (!runStep(QStringLiteral("compare"), rubric,
                 {QStringLiteral("compare"), QStringLiteral("--project"), project, QStringLiteral("--aspect"),
                  QStringLiteral("coherence"), QStringLiteral("--judge"), QStringLiteral("A"),
                  QStringLiteral("--judge"), QStringLiteral("B"), QStringLiteral("--bootstrap"), r,
                  QStringLiteral("--permutations"), r, QStringLiteral("--json")}))
        return fail(steps.last());
    if (!runStep(QStringLiteral("export"), rubric,
                 {QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--out"),
                  d.filePath(QStringLiteral("export.jsonl"))}))
        return fail(steps.last());

    QJsonObject studioFigures;
    if (!parser.isSet(QStringLiteral("no-studio"))) {
        QProcessEnvironment env;
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        // A settings folder of its own: the bench neither reads nor changes the user's studio.
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), d.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), d.filePath(QStringLiteral("data")));
        const QString out = d.filePath(QStringLiteral("studio.json"));
        QFile::remove(out);
        if (!runStep(QStringLiteral("studio"), studio,
                     {project, QStringLiteral("--judge"), QStringLiteral("A"), QStringLiteral("--pane"),
                      QStringLiteral("dataset"), QStringLiteral("--bench-scroll"), out},
                     env))
            return fail(steps.last());
        QFile f(out);
        if (f.open(QIODevice::ReadOnly))
            studioFigures = QJsonDocument::fromJson(f.readAll()).object();
        if (studioFigures.isEmpty()) {
            io.err << "rubric bench scale: the studio wrote no figures to " << out << '\n';
            return 1;
        }
    }

    QVariantList stepList;
    for (const Step &s : std::as_const(steps))
        stepList.append(QVariantMap{{QStringLiteral("step"), s.name},
                                    {QStringLiteral("seconds"), s.ms / 1000.0},
                                    {QStringLiteral("peak_mib"), s.peakMiB}});
    figures.insert(QStringLiteral("items"), items);
    figures.insert(QStringLiteral("jsonl_mib"), fileMiB);
    figures.insert(QStringLiteral("steps"), stepList);
    figures.insert(QStringLiteral("studio"), studioFigures.toVariantMap());
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, figures);
        return 0;
    }
    io.out << "project file " << figure(figures.value(QStringLiteral("project_mib")).toDouble()) << " MiB\n";
    if (!studioFigures.isEmpty()) {
        const QJsonObject ds = studioFigures.value(QStringLiteral("dataset")).toObject();
        const QJsonObject hm = studioFigures.value(QStringLiteral("heatmap")).toObject();
        io.out << "studio: first pane (" << studioFigures.value(QStringLiteral("first_pane")).toString() << ") in "
               << figure(studioFigures.value(QStringLiteral("first_pane_ms")).toDouble() / 1000.0, 2) << " s, peak "
               << figure(studioFigures.value(QStringLiteral("first_pane_peak_rss_mib")).toDouble())
               << " MiB then; overall peak " << figure(studioFigures.value(QStringLiteral("peak_rss_mib")).toDouble())
               << " MiB\n"
               << "  dataset: shown in " << figure(ds.value(QStringLiteral("open_ms")).toDouble()) << " ms, "
               << ds.value(QStringLiteral("steps")).toInt() << " scroll steps, longest event-loop gap "
               << figure(ds.value(QStringLiteral("max_gap_ms")).toDouble()) << " ms"
               << (ds.contains(QStringLiteral("error"))
                           ? QStringLiteral(" (%1)").arg(ds.value(QStringLiteral("error")).toString())
                           : QString())
               << '\n'
               << "  heatmap: shown in " << figure(hm.value(QStringLiteral("open_ms")).toDouble()) << " ms, "
               << hm.value(QStringLiteral("steps")).toInt() << " scroll steps, longest event-loop gap "
               << figure(hm.value(QStringLiteral("max_gap_ms")).toDouble()) << " ms"
               << (hm.contains(QStringLiteral("error"))
                           ? QStringLiteral(" (%1)").arg(hm.value(QStringLiteral("error")).toString())
                           : QString())
               << '\n';
        // Every other pane, opened in turn after the scrolling (time to be drawn, peak memory then).
        const QJsonObject panes = studioFigures.value(QStringLiteral("panes")).toObject();
        for (auto it = panes.begin(); it != panes.end(); ++it) {
            const QJsonObject p = it.value().toObject();
            io.out << "  " << it.key() << ": shown in " << figure(p.value(QStringLiteral("open_ms")).toDouble())
                   << " ms, peak " << figure(p.value(QStringLiteral("peak_rss_mib")).toDouble()) << " MiB\n";
        }
    }
    return 0;
}

const BenchRegistration reg(QStringLiteral("scale"),
                            QStringLiteral("A synthetic project of N items through import, studio and statistics "
                                           "(time, peak memory)."),
                            &run);

} // namespace
} // namespace rubric::cli
