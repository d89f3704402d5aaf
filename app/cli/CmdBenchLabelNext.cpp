// rubric bench label-next: a simulated annotator. From 10 labelled items of the train pool, each
// strategy picks the next item, its human score is revealed, the judges' learned fit (ridge over
// every criterion and judge score the project's judges measured) is fitted again, and its Pearson
// r on the test split is recorded; over seeds, as a table, a CSV and an SVG chart.
#include "BenchRegistry.h"
#include "CliUtil.h"
#include "learn/Acquisition.h"
#include "methods/LabelNext.h"
#include "stats/LabelSuggester.h"
#include "store/BrowseStore.h"
#include "util/Shuffle.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTextStream>

#include <cmath>
#include <limits>

namespace rubric::cli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Pool
{
    QStringList ids;    ///< rows of x: the train pool, then the test items
    int poolSize = 0;   ///< the first poolSize rows are the pool
    Eigen::MatrixXd x;  ///< rows × usable features
    Eigen::VectorXd y;  ///< human scores
    QStringList groups; ///< per row
    QHash<QString, double> disagreement;
    int features = 0, judges = 0;
};

/// Pearson on the test rows of a ridge fitted on `labelled` pool rows.
double testR(const Pool &p, const QVector<int> &labelled, const learn::AggregatorSettings &settings)
{
    Eigen::MatrixXd xl(labelled.size(), p.x.cols()), yl(labelled.size(), 1);
    for (int i = 0; i < labelled.size(); ++i) {
        xl.row(i) = p.x.row(labelled[i]);
        yl(i, 0) = p.y[labelled[i]];
    }
    learn::Aggregator a(settings);
    if (!a.fit(xl, yl, 1).ok())
        return kNaN;
    const int nTest = int(p.ids.size()) - p.poolSize;
    auto predicted = a.predict(p.x.bottomRows(nTest));
    if (!predicted)
        return kNaN;
    return learn::pearsonPresent(predicted->col(0), p.y.tail(nTest));
}

/// The rows a static strategy asks, best first, among `open` (pool rows not yet labelled).
QVector<int> staticOrder(const QString &strategy, const Pool &p, const QVector<int> &open, quint32 seed)
{
    QVector<LabelSuggester::Candidate> candidates;
    for (int r : open)
        candidates.append({p.ids[r], p.groups[r], QString(), p.disagreement.value(p.ids[r], kNaN)});
    const auto stratum = strategy == QLatin1String("stratified")     ? LabelSuggester::Stratum::Group
                         : strategy == QLatin1String("disagreement") ? LabelSuggester::Stratum::Disagreement
                                                                     : LabelSuggester::Stratum::None;
    const QStringList order = LabelSuggester::suggest(candidates, stratum, int(candidates.size()), seed);
    QVector<int> rows;
    for (const QString &id : order)
        rows.append(int(p.ids.indexOf(id)));
    return rows;
}

/// One seed's curve of a strategy: test r at start, start+1, …, most labels.
QVector<double> curve(const QString &strategy, const Pool &p, const QVector<int> &start, int most, quint64 seed,
                      const learn::AcquisitionSettings &acq)
{
    QVector<int> labelled = start;
    QVector<int> open;
    for (int r = 0; r < p.poolSize; ++r)
        if (!labelled.contains(r))
            open.append(r);
    QVector<double> out{testR(p, labelled, acq.aggregator)};
    QVector<int> order;
    if (strategy != QLatin1String("expected-gain"))
        order = staticOrder(strategy, p, open, quint32(seed));
    for (int step = 0; labelled.size() < most && !open.isEmpty(); ++step) {
        int next = -1;
        if (strategy == QLatin1String("expected-gain")) {
            QVector<int> rows = labelled + open;
            Eigen::MatrixXd x(rows.size(), p.x.cols());
            Eigen::VectorXd y(rows.size());
            for (int i = 0; i < rows.size(); ++i) {
                x.row(i) = p.x.row(rows[i]);
                y[i] = i < labelled.size() ? p.y[rows[i]] : kNaN;
            }
            learn::AcquisitionSettings s = acq;
            s.seed = seed * 1000 + quint64(step);
            auto ranked = learn::rankByExpectedGain(x, y, s);
            next = ranked && !ranked->isEmpty() ? rows[ranked->first().row] : open.first();
        } else {
            next = order[step];
        }
        labelled.append(next);
        open.removeOne(next);
        out.append(testR(p, labelled, acq.aggregator));
    }
    return out;
}

QString svgChart(const QStringList &strategies, const QHash<QString, QVector<double>> &mean, int start, double target)
{
    const int w = 640, h = 400, left = 60, right = 160, top = 30, bottom = 50;
    double lo = 1, hi = -1;
    int most = start;
    for (const QString &s : strategies)
        for (int i = 0; i < mean[s].size(); ++i)
            if (std::isfinite(mean[s][i])) {
                lo = std::min(lo, mean[s][i]);
                hi = std::max(hi, mean[s][i]);
                most = std::max(most, start + i);
            }
    if (hi <= lo)
        hi = lo + 0.1;
    const double step = hi - lo > 0.1 ? 0.05 : 0.01; // a gridline every step
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    const auto px = [&](int labels) {
        return left + double(labels - start) / std::max(1, most - start) * (w - left - right);
    };
    const auto py = [&](double r) { return top + (hi - r) / (hi - lo) * (h - top - bottom); };
    const char *const colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"};
    QString svg;
    QTextStream o(&svg);
    o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h
      << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
    o << "<text x='" << left
      << "' y='18'>Test Pearson r of the judges' ridge fit vs labels used (mean over seeds)</text>\n";
    for (double r = lo; r <= hi + 1e-9; r += step) {
        o << "<line x1='" << left << "' x2='" << w - right << "' y1='" << py(r) << "' y2='" << py(r)
          << "' stroke='#ddd'/>\n<text x='" << left - 6 << "' y='" << py(r) + 4 << "' text-anchor='end'>"
          << QString::number(r, 'f', 2) << "</text>\n";
    }
    for (int n = start; n <= most; n += 5)
        o << "<text x='" << px(n) << "' y='" << h - bottom + 16 << "' text-anchor='middle'>" << n << "</text>\n";
    o << "<text x='" << (left + w - right) / 2 << "' y='" << h - 12 << "' text-anchor='middle'>labels used</text>\n";
    if (std::isfinite(target))
        o << "<line x1='" << left << "' x2='" << w - right << "' y1='" << py(target) << "' y2='" << py(target)
          << "' stroke='#888' stroke-dasharray='4 3'/>\n<text x='" << left + 4 << "' y='" << py(target) - 4
          << "' fill='#555'>random's r at 30</text>\n";
    for (int k = 0; k < strategies.size(); ++k) {
        const QVector<double> &m = mean[strategies[k]];
        QStringList points;
        for (int i = 0; i < m.size(); ++i)
            if (std::isfinite(m[i]))
                points << QStringLiteral("%1,%2").arg(px(start + i), 0, 'f', 1).arg(py(m[i]), 0, 'f', 1);
        o << "<polyline fill='none' stroke-width='2' stroke='" << colours[k % 5] << "' points='"
          << points.join(QLatin1Char(' ')) << "'/>\n<text x='" << w - right + 4 << "' y='" << top + 16 * (k + 2)
          << "' fill='" << colours[k % 5] << "'>" << strategies[k] << "</text>\n";
    }
    o << "</svg>\n";
    return svg;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Simulated annotator: from --start labelled items of the train pool (the items outside the test\n"
            "split with a human score; the same random start for every strategy of a seed), each strategy picks\n"
            "the next item, its human score is revealed and the judges' learned fit (ridge over every criterion\n"
            "and judge score the project's judges measured on the aspect) is fitted again; its Pearson r on the\n"
            "test split is recorded up to --labels labels. Strategies: random, stratified (by group),\n"
            "disagreement (the judges' scores), expected-gain (a bootstrap committee's spread × density).\n"
            "Reports how many labels each needs, on the mean curve, to reach what random reaches at 30."));
    parser.addOption({QStringLiteral("project"), QStringLiteral("Project file."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("aspect"), QStringLiteral("Aspect."), QStringLiteral("A")});
    parser.addOption({QStringLiteral("seeds"), QStringLiteral("Seeds 1…N (default 5)."), QStringLiteral("N"),
                      QStringLiteral("5")});
    parser.addOption({QStringLiteral("start"), QStringLiteral("Labels to start from (default 10)."),
                      QStringLiteral("N"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("labels"), QStringLiteral("Most labels (default 40)."), QStringLiteral("N"),
                      QStringLiteral("40")});
    parser.addOption({QStringLiteral("strategies"), QStringLiteral("Comma-separated (default all four)."),
                      QStringLiteral("S,…"), QStringLiteral("random,stratified,disagreement,expected-gain")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Folder for label-next.csv and label-next.svg."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    if (auto rc = parse(parser, QStringLiteral("bench label-next"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("aspect"), io))
        return 2;
    const int seeds = parser.value(QStringLiteral("seeds")).toInt(),
              start = parser.value(QStringLiteral("start")).toInt(),
              most = parser.value(QStringLiteral("labels")).toInt();
    const QStringList strategies
            = parser.value(QStringLiteral("strategies")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &s : strategies)
        if (!QStringList{QStringLiteral("random"), QStringLiteral("stratified"), QStringLiteral("disagreement"),
                         QStringLiteral("expected-gain")}
                     .contains(s)) {
            io.err << "rubric bench label-next: --strategies: unknown '" << s << "'\n";
            return 2;
        }
    if (seeds < 1 || start < 3 || most <= start) {
        io.err << "rubric bench label-next: need --seeds ≥ 1, --start ≥ 3 and --labels > --start\n";
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const QString aspect = parser.value(QStringLiteral("aspect"));

    // The pool and the test items, their judge features.
    Pool p;
    auto items = project->readItems();
    auto split = project->readSplit();
    auto human = project->readHumanScores(aspect);
    auto features = availableJudgeFeatures(project.get(), aspect);
    if (!items || !split || !human || !features) {
        io.err << "rubric: the project cannot be read\n";
        return 1;
    }
    features->removeIf([](const JudgeFeature &f) { return f.fitted; }); // fitted on the project's own train labels
    QStringList pool, test;
    QHash<QString, QString> groupOf;
    for (const Item &it : std::as_const(*items)) {
        groupOf.insert(it.id, it.group);
        if (!human->contains(it.id))
            continue;
        (split->value(it.id) == SplitRole::Test ? test : pool) << it.id;
    }
    p.ids = pool + test;
    p.poolSize = int(pool.size());
    if (p.poolSize < most || test.size() < 3) {
        io.err << "rubric bench label-next: the pool has " << p.poolSize
               << " labelled items outside the test split (--labels " << most << " needs as many) and the test split "
               << test.size() << '\n';
        return 1;
    }
    auto table = readJudgeFeatures(project.get(), aspect, *features, p.ids);
    if (!table) {
        io.err << "rubric: " << table.errorString() << '\n';
        return 1;
    }
    QVector<int> poolRows;
    for (int r = 0; r < p.poolSize; ++r)
        poolRows.append(r);
    const QVector<JudgeFeature> usable = usableFeatures(*table, poolRows);
    if (usable.isEmpty()) {
        io.err << "rubric bench label-next: no judge has scored '" << aspect << "' on the pool\n";
        return 1;
    }
    p.x.resize(p.ids.size(), usable.size());
    QSet<QString> judges;
    for (int c = 0; c < usable.size(); ++c) {
        p.x.col(c) = table->x.col(int(table->features.indexOf(usable[c])));
        judges.insert(usable[c].judge);
    }
    p.features = int(usable.size());
    p.judges = int(judges.size());
    p.y.resize(p.ids.size());
    for (int r = 0; r < p.ids.size(); ++r) {
        p.y[r] = human->value(p.ids[r]);
        p.groups << groupOf.value(p.ids[r]);
    }
    QVector<LabelSuggester::JudgeScore> scores;
    if (const auto stored = BrowseStore(project.get()).judgeScores(); stored)
        for (const ItemJudgeScore &s : *stored)
            scores.append({s.itemId, s.judge, s.aspect, s.score});
    p.disagreement = LabelSuggester::disagreement(scores);

    const learn::AcquisitionSettings acq;
    QHash<QString, QVector<QVector<double>>> curves; // strategy → seed → curve
    for (int seed = 1; seed <= seeds; ++seed) {
        QVector<int> order = poolRows;
        SeededRng rng{quint64(seed)};
        seededShuffle(order, rng);
        const QVector<int> first = order.mid(0, start);
        for (const QString &s : strategies)
            curves[s].append(curve(s, p, first, most, quint64(seed), acq));
    }
    const int points = most - start + 1;
    QHash<QString, QVector<double>> mean;
    for (const QString &s : strategies) {
        QVector<double> m(points, 0.0);
        for (int i = 0; i < points; ++i) {
            int k = 0;
            for (const QVector<double> &c : curves[s])
                if (i < c.size() && std::isfinite(c[i])) {
                    m[i] += c[i];
                    ++k;
                }
            m[i] = k ? m[i] / k : kNaN;
        }
        mean.insert(s, m);
    }
    const int at30 = 30 - start;
    const double target = curves.contains(QStringLiteral("random")) && at30 >= 0 && at30 < points
                                  ? mean[QStringLiteral("random")][at30]
                                  : kNaN;
    // Labels to reach random's r at 30: on the mean curve, and per seed (censored at most + 1).
    QVariantMap reach, reachPerSeed;
    for (const QString &s : strategies) {
        int n = -1;
        for (int i = 0; i < points && n < 0; ++i)
            if (std::isfinite(target) && mean[s][i] >= target)
                n = start + i;
        reach.insert(s, n < 0 ? QVariant() : QVariant(n));
        // Per seed: the labels to reach that seed's random r at 30; a seed that never does counts as
        // one more than the most labels (censored), so a strategy is not flattered by its failures.
        double sum = 0;
        int reached = 0;
        for (int k = 0; k < curves[s].size(); ++k) {
            const double own = curves.contains(QStringLiteral("random"))
                                       ? curves[QStringLiteral("random")][k].value(at30, kNaN)
                                       : kNaN;
            int need = most + 1;
            for (int i = 0; i < curves[s][k].size(); ++i)
                if (std::isfinite(own) && curves[s][k][i] >= own) {
                    need = start + i;
                    ++reached;
                    break;
                }
            sum += need;
        }
        reachPerSeed.insert(s, QVariantMap{{QStringLiteral("mean_labels"),
                                            curves[s].isEmpty() ? QVariant() : QVariant(sum / curves[s].size())},
                                           {QStringLiteral("seeds_reaching"), reached},
                                           {QStringLiteral("not_reached_counts_as"), most + 1}});
    }

    if (parser.isSet(QStringLiteral("out"))) {
        const QDir dir(parser.value(QStringLiteral("out")));
        QDir().mkpath(dir.path());
        QFile csv(dir.filePath(QStringLiteral("label-next.csv")));
        QFile svg(dir.filePath(QStringLiteral("label-next.svg")));
        if (!csv.open(QIODevice::WriteOnly) || !svg.open(QIODevice::WriteOnly)) {
            io.err << "rubric bench label-next: cannot write into " << dir.path() << '\n';
            return 1;
        }
        QTextStream c(&csv);
        c << "strategy,seed,labels,test_r\n";
        for (const QString &s : strategies)
            for (int k = 0; k < curves[s].size(); ++k)
                for (int i = 0; i < curves[s][k].size(); ++i)
                    c << s << ',' << k + 1 << ',' << start + i << ',' << curves[s][k][i] << '\n';
        svg.write(svgChart(strategies, mean, start, target).toUtf8());
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QVariantMap m;
        for (const QString &s : strategies) {
            QVariantList l;
            for (double v : mean[s])
                l << jsonNumber(v);
            m.insert(s, l);
        }
        printJson(io, QVariantMap{{QStringLiteral("aspect"), aspect},
                                  {QStringLiteral("pool"), p.poolSize},
                                  {QStringLiteral("test"), int(test.size())},
                                  {QStringLiteral("features"), p.features},
                                  {QStringLiteral("judges"), p.judges},
                                  {QStringLiteral("seeds"), seeds},
                                  {QStringLiteral("start"), start},
                                  {QStringLiteral("mean_test_r"), m},
                                  {QStringLiteral("random_at_30"), jsonNumber(target)},
                                  {QStringLiteral("labels_to_reach_random_at_30"), reach},
                                  {QStringLiteral("per_seed"), reachPerSeed}});
        return 0;
    }
    io.out << "aspect " << aspect << ": pool " << p.poolSize << ", test " << test.size() << ", " << p.features
           << " criteria of " << p.judges << " judges, " << seeds << " seeds, start " << start << "\n";
    io.out << "mean test r by labels used\nlabels";
    for (const QString &s : strategies)
        io.out << '\t' << s;
    io.out << '\n';
    for (int i = 0; i < points; i += (i + start) % 5 == 0 ? 5 : 5 - (i + start) % 5) {
        io.out << start + i;
        for (const QString &s : strategies)
            io.out << '\t' << QString::number(mean[s][i], 'f', 3);
        io.out << '\n';
    }
    io.out << "labels to reach random's r at 30 (" << QString::number(target, 'f', 3)
           << "): on the mean curve / mean over seeds of reaching that seed's random r at 30 (never: " << most + 1
           << "):\n";
    for (const QString &s : strategies) {
        const QVariantMap ps = reachPerSeed.value(s).toMap();
        io.out << "  " << s << ": "
               << (reach.value(s).isNull() ? QStringLiteral("not within %1").arg(most) : reach.value(s).toString())
               << " / "
               << (ps.value(QStringLiteral("mean_labels")).isNull()
                           ? QStringLiteral("—")
                           : QString::number(ps.value(QStringLiteral("mean_labels")).toDouble(), 'f', 1))
               << " (" << ps.value(QStringLiteral("seeds_reaching")).toInt() << " of " << seeds << " seeds reach it)\n";
    }
    return 0;
}

const BenchRegistration
        reg(QStringLiteral("label-next"),
            QStringLiteral("Simulated annotator: test alignment vs labels used per label-next strategy."), &run);

} // namespace
} // namespace rubric::cli
