#include "ScrollBench.h"

#include "MainWindow.h"
#include "models/ItemsModel.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPointer>
#include <QScrollBar>
#include <QStringList>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <sys/resource.h>
#include <unistd.h>

namespace rubric {
namespace {

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

/// The memory in use now (resident), in MiB; 0 where /proc cannot be read.
double rssNowMiB()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? double(fields[1].toLongLong()) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : 0;
}

/// The visible scroll area of the current pane with the longest vertical range (the table or grid
/// that pages through the items), or null.
QAbstractScrollArea *mainScrollArea(MainWindow &window)
{
    QAbstractScrollArea *best = nullptr;
    for (QAbstractScrollArea *area : window.findChildren<QAbstractScrollArea *>()) {
        if (!area->isVisible())
            continue;
        if (!best || area->verticalScrollBar()->maximum() > best->verticalScrollBar()->maximum())
            best = area;
    }
    return best;
}

/// The event loop's longest gap while it runs: a 2 ms precise timer notes how long each of its
/// ticks came after the one before (a blocked GUI thread shows as one long gap).
class GapProbe : public QObject
{
public:
    GapProbe()
    {
        m_tick.setTimerType(Qt::PreciseTimer);
        m_tick.setInterval(2);
        connect(&m_tick, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_maxGapNs = std::max(m_maxGapNs, now - m_lastTick);
            m_lastTick = now;
        });
    }

    void start()
    {
        m_clock.start();
        m_lastTick = 0;
        m_tick.start();
    }
    void stop() { m_tick.stop(); }
    double maxGapMs() const { return double(m_maxGapNs) / 1e6; }
    qint64 elapsedNs() const { return m_clock.nsecsElapsed(); }
    qint64 elapsedMs() const { return m_clock.elapsed(); }

private:
    QTimer m_tick;
    QElapsedTimer m_clock;
    qint64 m_lastTick = 0, m_maxGapNs = 0;
};

/// Scrolls one view and measures the event loop's longest gap meanwhile.
class Scroller : public QObject
{
public:
    Scroller(MainWindow &window, QString pane, std::function<void(QJsonObject)> done)
        : m_window(window)
        , m_pane(std::move(pane))
        , m_done(std::move(done))
    {
        m_step.setInterval(16); // a frame: what a wheel or a held key sends at most
        connect(&m_step, &QTimer::timeout, this, [this] { step(); });
    }

    void start()
    {
        QElapsedTimer open;
        open.start();
        if (!m_window.showPane(m_pane)) {
            finish(QStringLiteral("no pane named %1").arg(m_pane));
            return;
        }
        QApplication::processEvents();
        (void)m_window.grab(); // drawn: every visible row painted once
        m_openMs = double(open.nsecsElapsed()) / 1e6;
        std::fprintf(stderr, "bench-scroll: %s shown in %.1f ms, peak %.1f MiB\n", qPrintable(m_pane), m_openMs,
                     peakRssMiB());
        m_area = mainScrollArea(m_window);
        if (!m_area) {
            finish(QStringLiteral("the %1 pane shows no scrolling view").arg(m_pane));
            return;
        }
        QScrollBar *bar = m_area->verticalScrollBar();
        // 150 pages down from the top, then 150 jumps anywhere (a drag of the scroll bar's thumb).
        std::mt19937 rng(34);
        int value = 0;
        for (int i = 0; i < 150; ++i) {
            value = std::min(bar->maximum(), value + std::max(1, bar->pageStep()));
            m_positions.push_back(value);
        }
        std::uniform_int_distribution<int> anywhere(0, std::max(0, bar->maximum()));
        for (int i = 0; i < 150; ++i)
            m_positions.push_back(anywhere(rng));
        m_probe.start();
        m_step.start();
    }

private:
    void step()
    {
        if (!m_area) {
            finish(QStringLiteral("the view went away"));
            return;
        }
        if (m_next >= m_positions.size()) {
            finish({});
            return;
        }
        m_area->verticalScrollBar()->setValue(m_positions[m_next++]);
    }

    void finish(const QString &error)
    {
        m_probe.stop();
        m_step.stop();
        QJsonObject o{{QStringLiteral("open_ms"), m_openMs},
                      {QStringLiteral("max_gap_ms"), m_probe.maxGapMs()},
                      {QStringLiteral("steps"), int(m_next)},
                      {QStringLiteral("scroll_range"), m_area ? m_area->verticalScrollBar()->maximum() : 0}};
        if (!error.isEmpty())
            o.insert(QStringLiteral("error"), error);
        m_done(o);
    }

    MainWindow &m_window;
    QString m_pane;
    std::function<void(QJsonObject)> m_done;
    QPointer<QAbstractScrollArea> m_area;
    GapProbe m_probe;
    QTimer m_step;
    double m_openMs = 0;
    std::vector<int> m_positions;
    size_t m_next = 0;
};

/// After a pane is shown: waits until none of its widgets that say they are busy (a `busy`
/// property, as the Annotate pane's workers set it) still is, at most two minutes, and measures
/// the event loop's longest gap meanwhile: what a user feels while the pane computes.
class Settler : public QObject
{
public:
    Settler(MainWindow &window, std::function<void(double settleMs, double maxGapMs, bool timedOut)> done)
        : m_done(std::move(done))
    {
        for (QWidget *w : window.findChildren<QWidget *>())
            if (w->metaObject()->indexOfProperty("busy") >= 0)
                m_watched.append(w);
        m_check.setInterval(20);
        connect(&m_check, &QTimer::timeout, this, [this] { check(); });
    }

    void start()
    {
        m_probe.start();
        m_check.start();
        check();
    }

private:
    void check()
    {
        bool busy = false;
        for (const QPointer<QWidget> &w : std::as_const(m_watched))
            busy = busy || (w && w->isVisible() && w->property("busy").toBool());
        const bool timedOut = m_probe.elapsedMs() > 120000;
        if (busy && !timedOut)
            return;
        m_probe.stop();
        m_check.stop();
        m_done(double(m_probe.elapsedNs()) / 1e6, m_probe.maxGapMs(), timedOut);
        deleteLater();
    }

    std::function<void(double, double, bool)> m_done;
    QList<QPointer<QWidget>> m_watched;
    GapProbe m_probe;
    QTimer m_check;
};

/// RUBRIC_BENCH_SEARCH=TEXT: the Dataset pane filtered by TEXT, then sorted by its output column
/// (descending), then the filter cleared, each as a user would (the edit, a header click) while
/// a 2 ms timer measures the event loop's longest gap until the rows are shown; calls `done` with
/// {filter_ms, sort_ms, clear_ms, rows, max_gap_ms}.
class SearchBench : public QObject
{
public:
    SearchBench(MainWindow &window, QString text, std::function<void(QJsonObject)> done)
        : m_window(window)
        , m_text(std::move(text))
        , m_done(std::move(done))
    {
    }

    void start()
    {
        m_window.showPane(QStringLiteral("dataset"));
        m_model = m_window.findChild<ItemsModel *>();
        m_edit = m_window.findChild<QLineEdit *>(QStringLiteral("filterEdit"));
        m_view = m_window.findChild<QTableView *>(QStringLiteral("itemsView"));
        if (!m_model || !m_edit || !m_view) {
            m_done({{QStringLiteral("error"), QStringLiteral("no Dataset pane")}});
            return;
        }
        connect(m_model, &ItemsModel::busyChanged, this, [this](bool busy) {
            if (!busy)
                QTimer::singleShot(0, this, [this] { next(); });
        });
        m_probe.start();
        next();
    }

private:
    void next()
    {
        if (m_step > 0)
            m_result.insert(m_names[m_step - 1], double(m_probe.elapsedNs() - m_stepStart) / 1e6);
        if (m_step == 2)
            m_result.insert(QStringLiteral("rows"), m_model->rowCount());
        if (m_step == 3) {
            m_probe.stop();
            m_result.insert(QStringLiteral("max_gap_ms"), m_probe.maxGapMs());
            m_done(m_result);
            return;
        }
        m_stepStart = m_probe.elapsedNs();
        const int step = m_step++;
        if (step == 0)
            m_edit->setText(m_text);
        else if (step == 1)
            m_view->sortByColumn(ItemsModel::OutputColumn, Qt::DescendingOrder);
        else
            m_edit->clear();
        if (!m_model->busy()) // answered at once (nothing to read)
            QTimer::singleShot(0, this, [this] { next(); });
    }

    MainWindow &m_window;
    QString m_text;
    std::function<void(QJsonObject)> m_done;
    QPointer<ItemsModel> m_model;
    QPointer<QLineEdit> m_edit;
    QPointer<QTableView> m_view;
    GapProbe m_probe;
    qint64 m_stepStart = 0;
    int m_step = 0;
    const QStringList m_names{QStringLiteral("filter_ms"), QStringLiteral("sort_ms"), QStringLiteral("clear_ms")};
    QJsonObject m_result;
};

/// Opens every other pane in turn (shown and drawn) and notes the time each took and the peak
/// memory after it, then the time until its background work is done (settle_ms), the longest
/// event-loop gap meanwhile and the peak memory then; calls `done` with {key: {…}}.
void openPanes(MainWindow &window, QStringList keys, QJsonObject opened, std::function<void(QJsonObject)> done)
{
    if (keys.isEmpty()) {
        done(opened);
        return;
    }
    const QString key = keys.takeFirst();
    QElapsedTimer open;
    open.start();
    if (!window.showPane(key)) {
        QTimer::singleShot(0, &window, [&window, keys, opened, done] { openPanes(window, keys, opened, done); });
        return;
    }
    QApplication::processEvents();
    (void)window.grab();
    const double openMs = double(open.nsecsElapsed()) / 1e6, openPeak = peakRssMiB();
    // A line per pane as it goes: a pane that hangs is named before the bench's timeout.
    std::fprintf(stderr, "bench-scroll: %s shown in %.1f ms, peak %.1f MiB\n", qPrintable(key), openMs, openPeak);
    auto *settler = new Settler(window, [&window, key, keys, opened, done, openMs,
                                         openPeak](double settleMs, double maxGapMs, bool timedOut) mutable {
        std::fprintf(stderr,
                     "bench-scroll: %s settled after %.1f ms%s, longest event-loop gap %.1f ms, peak %.1f MiB, "
                     "%.1f MiB in use\n",
                     qPrintable(key), settleMs, timedOut ? " (timed out)" : "", maxGapMs, peakRssMiB(), rssNowMiB());
        opened.insert(key, QJsonObject{{QStringLiteral("open_ms"), openMs},
                                       {QStringLiteral("peak_rss_mib"), openPeak},
                                       {QStringLiteral("settle_ms"), settleMs},
                                       {QStringLiteral("settle_timed_out"), timedOut},
                                       {QStringLiteral("settle_max_gap_ms"), maxGapMs},
                                       {QStringLiteral("settled_peak_rss_mib"), peakRssMiB()},
                                       {QStringLiteral("settled_rss_mib"), rssNowMiB()}});
        // The next pane after the event loop has run (queued work of this one included).
        QTimer::singleShot(0, &window, [&window, keys, opened, done] { openPanes(window, keys, opened, done); });
    });
    settler->setParent(&window);
    settler->start();
}

} // namespace

void startScrollBench(MainWindow &window, const QElapsedTimer &sinceStart, const QString &file)
{
    // The first pane is drawn once the event loop has run the show and paint events.
    QTimer::singleShot(0, &window, [&window, sinceStart, file] {
        (void)window.grab();
        auto result = std::make_shared<QJsonObject>();
        result->insert(QStringLiteral("first_pane"), window.currentPaneKey());
        result->insert(QStringLiteral("first_pane_ms"), double(sinceStart.nsecsElapsed()) / 1e6);
        result->insert(QStringLiteral("first_pane_peak_rss_mib"), peakRssMiB());
        std::fprintf(stderr, "bench-scroll: first pane (%s) drawn after %.1f ms, peak %.1f MiB\n",
                     qPrintable(window.currentPaneKey()), double(sinceStart.nsecsElapsed()) / 1e6, peakRssMiB());
        auto write = [result, file] {
            result->insert(QStringLiteral("peak_rss_mib"), peakRssMiB());
            QFile out(file);
            const bool ok = out.open(QIODevice::WriteOnly)
                            && out.write(QJsonDocument(*result).toJson(QJsonDocument::Compact)) > 0;
            QApplication::exit(ok ? 0 : 1);
        };
        const auto openOthers = [&window, result, write] {
            QStringList others = window.paneKeys();
            // RUBRIC_BENCH_PANES=a,b,… opens only those (a pane that takes minutes at a million
            // items can be left out to time the rest).
            if (const QString only = qEnvironmentVariable("RUBRIC_BENCH_PANES"); !only.isNull()) {
                const QStringList wanted = only.split(QLatin1Char(','), Qt::SkipEmptyParts);
                others.removeIf([&wanted](const QString &k) { return !wanted.contains(k); });
            }
            others.removeAll(QStringLiteral("dataset"));
            others.removeAll(QStringLiteral("heatmap"));
            openPanes(window, others, {}, [&window, result, write](const QJsonObject &panes) {
                result->insert(QStringLiteral("panes"), panes);
                const QString text = qEnvironmentVariable("RUBRIC_BENCH_SEARCH");
                if (text.isEmpty()) {
                    write();
                    return;
                }
                auto *search = new SearchBench(window, text, [result, write](const QJsonObject &o) {
                    result->insert(QStringLiteral("search"), o);
                    std::fprintf(stderr, "bench-scroll: search %s\n",
                                 QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
                    write();
                });
                search->setParent(&window);
                search->start();
            });
        };
        // RUBRIC_BENCH_SCROLL=0 leaves out the scrolling of the Dataset and Heatmap panes (the
        // other panes' figures, peak memory included, are then their own).
        if (qEnvironmentVariable("RUBRIC_BENCH_SCROLL") == QLatin1String("0")) {
            openOthers();
            return;
        }
        auto *heatmap = new Scroller(window, QStringLiteral("heatmap"), [result, openOthers](const QJsonObject &o) {
            result->insert(QStringLiteral("heatmap"), o);
            openOthers();
        });
        heatmap->setParent(&window);
        auto *dataset = new Scroller(window, QStringLiteral("dataset"), [result, heatmap](const QJsonObject &o) {
            result->insert(QStringLiteral("dataset"), o);
            QTimer::singleShot(0, heatmap, [heatmap] { heatmap->start(); });
        });
        dataset->setParent(&window);
        dataset->start();
    });
}

} // namespace rubric
