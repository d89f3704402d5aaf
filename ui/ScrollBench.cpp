#include "ScrollBench.h"

#include "MainWindow.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QScrollBar>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <sys/resource.h>

namespace rubric {
namespace {

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
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

/// Scrolls one view and measures the event loop's longest gap meanwhile.
class Scroller : public QObject
{
public:
    Scroller(MainWindow &window, QString pane, std::function<void(QJsonObject)> done)
        : m_window(window)
        , m_pane(std::move(pane))
        , m_done(std::move(done))
    {
        m_probe.setTimerType(Qt::PreciseTimer);
        m_probe.setInterval(2);
        connect(&m_probe, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_maxGapNs = std::max(m_maxGapNs, now - m_lastTick);
            m_lastTick = now;
        });
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
        m_clock.start();
        m_lastTick = 0;
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
                      {QStringLiteral("max_gap_ms"), double(m_maxGapNs) / 1e6},
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
    QTimer m_probe, m_step;
    QElapsedTimer m_clock;
    qint64 m_lastTick = 0, m_maxGapNs = 0;
    double m_openMs = 0;
    std::vector<int> m_positions;
    size_t m_next = 0;
};

/// Waits until a pane that computes off the GUI thread (a `busy` property) has its figures,
/// measuring the event loop's longest gap meanwhile, then calls `done` with the time from
/// `since` and that gap (or at once with nothing when the pane has no such property).
class Settler : public QObject
{
public:
    Settler(QObject *pane, const QElapsedTimer &since, std::function<void(QJsonObject)> done)
        : m_pane(pane)
        , m_since(since)
        , m_done(std::move(done))
    {
        m_probe.setTimerType(Qt::PreciseTimer);
        m_probe.setInterval(2);
        connect(&m_probe, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_maxGapNs = std::max(m_maxGapNs, now - m_lastTick);
            m_lastTick = now;
            if (!m_pane || !m_pane->property("busy").toBool())
                finish();
        });
    }

    void start()
    {
        m_clock.start();
        m_lastTick = 0;
        m_probe.start();
    }

private:
    void finish()
    {
        m_probe.stop();
        const QJsonObject o{{QStringLiteral("ready_ms"), double(m_since.nsecsElapsed()) / 1e6},
                            {QStringLiteral("max_gap_ms"), double(m_maxGapNs) / 1e6}};
        auto done = std::move(m_done);
        deleteLater();
        done(o);
    }

    QPointer<QObject> m_pane;
    QElapsedTimer m_since;
    std::function<void(QJsonObject)> m_done;
    QTimer m_probe;
    QElapsedTimer m_clock;
    qint64 m_lastTick = 0, m_maxGapNs = 0;
};

/// Opens every other pane in turn (shown and drawn) and notes the time each took and the peak
/// memory after it, then calls `done` with {key: {open_ms, peak_rss_mib}}. A pane that computes
/// its figures off the GUI thread (a `busy` property: Correlation, Compare) is also waited for:
/// ready_ms (shown to figures in) and max_gap_ms (the event loop's longest gap meanwhile).
void openPanes(MainWindow &window, QStringList keys, QJsonObject opened, std::function<void(QJsonObject)> done)
{
    if (keys.isEmpty()) {
        done(opened);
        return;
    }
    const QString key = keys.takeFirst();
    QElapsedTimer open;
    open.start();
    const auto next = [&window, keys, done](const QJsonObject &opened) {
        // The next pane after the event loop has run (queued work of this one included).
        QTimer::singleShot(0, &window, [&window, keys, opened, done] { openPanes(window, keys, opened, done); });
    };
    if (!window.showPane(key)) {
        next(opened);
        return;
    }
    QApplication::processEvents();
    (void)window.grab();
    QJsonObject pane{{QStringLiteral("open_ms"), double(open.nsecsElapsed()) / 1e6},
                     {QStringLiteral("peak_rss_mib"), peakRssMiB()}};
    // A line per pane as it goes: a pane that hangs is named before the bench's timeout.
    std::fprintf(stderr, "bench-scroll: %s shown in %.1f ms, peak %.1f MiB\n", qPrintable(key),
                 double(open.nsecsElapsed()) / 1e6, peakRssMiB());
    QObject *widget = window.findChild<QWidget *>(key + QStringLiteral("Pane"));
    if (!widget || !widget->property("busy").isValid()) {
        opened.insert(key, pane);
        next(opened);
        return;
    }
    auto *settler = new Settler(widget, open, [key, pane, opened, next](const QJsonObject &o) mutable {
        pane.insert(QStringLiteral("ready_ms"), o.value(QStringLiteral("ready_ms")));
        pane.insert(QStringLiteral("max_gap_ms"), o.value(QStringLiteral("max_gap_ms")));
        pane.insert(QStringLiteral("peak_rss_mib"), peakRssMiB());
        std::fprintf(stderr, "bench-scroll: %s figures in %.1f ms, longest event-loop gap %.1f ms, peak %.1f MiB\n",
                     qPrintable(key), o.value(QStringLiteral("ready_ms")).toDouble(),
                     o.value(QStringLiteral("max_gap_ms")).toDouble(), peakRssMiB());
        opened.insert(key, pane);
        next(opened);
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
        auto *heatmap = new Scroller(window, QStringLiteral("heatmap"), [&window, result, write](const QJsonObject &o) {
            result->insert(QStringLiteral("heatmap"), o);
            QStringList others = window.paneKeys();
            // RUBRIC_BENCH_PANES=a,b,… opens only those (a pane that takes minutes at a million
            // items can be left out to time the rest).
            if (const QString only = qEnvironmentVariable("RUBRIC_BENCH_PANES"); !only.isNull()) {
                const QStringList wanted = only.split(QLatin1Char(','), Qt::SkipEmptyParts);
                others.removeIf([&wanted](const QString &k) { return !wanted.contains(k); });
            }
            others.removeAll(QStringLiteral("dataset"));
            others.removeAll(QStringLiteral("heatmap"));
            openPanes(window, others, {}, [result, write](const QJsonObject &panes) {
                result->insert(QStringLiteral("panes"), panes);
                write();
            });
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
