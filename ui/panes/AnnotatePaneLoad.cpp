// The Annotate pane's reads of the whole project: the queue and the annotator's progress, and the
// footer (suggestions, agreement, expected gain), each on a worker thread that opens the project
// file itself; the results are applied on the GUI thread. The scoring surface is AnnotatePane.cpp.

#include "AnnotatePane.h"
#include "store/BrowseStore.h"
#include "store/ItemPageStore.h"
#include "widgets/AgreementLabel.h"
#include "widgets/ExpectedGainBox.h"
#include "widgets/SuggestionBox.h"

#include <QCoreApplication>
#include <QLabel>
#include <QProgressBar>
#include <QPromise>
#include <QSet>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent>

#include <functional>

namespace rubric {
namespace {

/// The pane's workers. A task still running when the application ends is waited for, once, on
/// the way out; a pane that goes away only drops its tasks' results.
QThreadPool *annotatePool()
{
    static QThreadPool pool;
    static const bool drainAtExit = [] {
        pool.setMaxThreadCount(2); // a load and a footer side by side, never more
        qAddPostRoutine([] { pool.waitForDone(); });
        return true;
    }();
    (void)drainAtExit;
    return &pool;
}

/// Runs `work` with a Project of its own for the file of `project` on annotatePool() (never the
/// pane's Project object, which may be replaced or deleted meanwhile). A team database (its
/// password is not in path()) is read on the calling thread instead, through `project`.
template <typename T> QFuture<T> runOnProject(Project *project, std::function<T(Project *, const QString &)> work)
{
    if (project->isTeamDatabase()) {
        QPromise<T> promise;
        promise.start();
        promise.addResult(work(project, QString()));
        promise.finish();
        return promise.future();
    }
    const QString path = project->path();
    return QtConcurrent::run(annotatePool(), [path, work = std::move(work)]() -> T {
        auto own = Project::open(path, Project::OpenMode::OpenExisting);
        if (!own)
            return work(nullptr, own.errorString());
        // A scan of every item through a mapped file would count its pages in the studio's memory.
        if (auto small = BrowseStore(own->get()).useSmallCache(); !small)
            return work(nullptr, small.errorString());
        return work(own->get(), QString());
    });
}

AnnotatePane::Loaded loadQueue(Project *project, const QString &error, const QString &annotator)
{
    AnnotatePane::Loaded out;
    if (!project) {
        out.error = error;
        return out;
    }
    // A project that cannot be read says so; it does not read as one without aspects or items.
    auto aspects = project->readAspects();
    if (!aspects) {
        out.error = aspects.errorString();
        return out;
    }
    // The queue as keys, in import order: the train split, or every item when there is none.
    const ItemPageStore pages(project);
    ItemView train;
    train.split = QStringLiteral("train");
    auto keys = pages.order(train);
    if (keys && keys->isEmpty())
        keys = pages.order(ItemView());
    else if (keys)
        out.queue.isTrain = true;
    if (!keys) {
        out.error = keys.errorString();
        return out;
    }
    out.aspects = std::move(aspects).value();
    out.queue.keys = std::move(keys).value();
    if (annotator.isEmpty())
        return out;
    auto scored = BrowseStore(project).scoredAspectsPerItem(annotator);
    if (!scored) {
        out.scoredError = scored.errorString();
        return out;
    }
    out.scored = std::move(scored).value();
    // The items of the queue this annotator has scored on every aspect (a person's few hundred:
    // one indexed look-up each).
    const QSet<qint64> inQueue(out.queue.keys.cbegin(), out.queue.keys.cend());
    for (auto it = out.scored.cbegin(); it != out.scored.cend(); ++it) {
        if (*it < out.aspects.size())
            continue;
        const auto key = pages.keyOf(it.key());
        if (!key) {
            out.scoredError = key.errorString();
            return out;
        }
        out.done += inQueue.contains(*key) ? 1 : 0;
    }
    return out;
}

} // namespace

AnnotatePane::~AnnotatePane()
{
    // Running reads are not waited for: their results are dropped (annotatePool() is drained
    // when the application ends).
    m_loadWatcher.disconnect(this);
    m_footerWatcher.disconnect(this);
}

void AnnotatePane::connectWorkers()
{
    m_footerDelay->setSingleShot(true);
    connect(m_footerDelay, &QTimer::timeout, this, &AnnotatePane::startFooter);
    connect(&m_loadWatcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_loadWatcher.property("generation").toULongLong() != m_generation)
            return; // superseded by a later reload
        applyLoaded(m_loadWatcher.result());
    });
    connect(&m_footerWatcher, &QFutureWatcherBase::finished, this, [this] {
        m_footerRunning = false;
        if (m_footerWatcher.property("generation").toULongLong() == m_generation)
            applyFooter(m_footerWatcher.result());
        if (m_footerPending)
            m_footerDelay->start(0);
        emit busyChanged(isBusy());
    });
}

void AnnotatePane::reload()
{
    ++m_generation;
    m_readError.clear();
    m_footerPending = 0;
    m_footerDelay->stop();
    if (!m_project) {
        m_loading = false;
        applyLoaded(Loaded());
        return;
    }
    m_loading = true;
    emit busyChanged(true);
    // The item shown stays (and can be scored) until the new queue comes; with none, the pane
    // says that it is reading.
    if (m_queue.keys.isEmpty())
        showCurrent();
    else
        updateProgress();
    m_loadWatcher.setProperty("generation", m_generation);
    m_loadWatcher.setFuture(
            runOnProject<Loaded>(m_project, [annotator = m_annotator](Project *project, const QString &error) {
                return loadQueue(project, error, annotator);
            }));
}

void AnnotatePane::applyLoaded(Loaded loaded)
{
    // The item shown stays shown when it is still in the queue.
    const qint64 keep = m_index >= 0 && m_index < m_queue.keys.size() ? m_queue.keys[m_index] : -1;
    m_loading = false;
    m_readError = loaded.error;
    m_aspects = std::move(loaded.aspects);
    m_queue = std::move(loaded.queue);
    m_scored = std::move(loaded.scored);
    m_scoredError = loaded.scoredError;
    m_done = loaded.done;
    m_index = m_queue.keys.isEmpty() ? -1 : std::max<int>(0, int(m_queue.keys.indexOf(keep)));
    rebuildAspects();
    showCurrent();
    if (m_project && m_readError.isEmpty()) {
        refreshFooter(AllParts, 0);
    } else {
        m_expectedGain->showComputing(nullptr, QString()); // clears
        m_agreement->clear();
        m_suggestions->showSuggestions(m_project, m_queue.isTrain, true, QStringList());
    }
    emit busyChanged(isBusy());
}

Result<int> AnnotatePane::labelledCount() const
{
    if (!m_scoredError.isEmpty())
        return makeError(m_scoredError);
    return m_aspects.isEmpty() ? 0 : m_done;
}

void AnnotatePane::countScored(const QString &id, int before, int after)
{
    if (after > 0)
        m_scored.insert(id, after);
    else
        m_scored.remove(id);
    const int all = int(m_aspects.size());
    if (before < all && after >= all)
        ++m_done;
    else if (before >= all && after < all)
        --m_done;
}

void AnnotatePane::updateProgress()
{
    const auto labelled = labelledCount();
    const int done = labelled ? *labelled : 0;
    const int total = int(m_queue.keys.size());
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    m_progressLabel->setText(m_loading         ? tr("reading…")
                             : !labelled       ? tr("Cannot read your progress: %1").arg(labelled.errorString())
                             : m_queue.isTrain ? tr("%1 of %2 labelled").arg(done).arg(total)
                                               : tr("%1 of %2 labelled (no train split yet)").arg(done).arg(total));
}

void AnnotatePane::refreshFooter(int parts, int delayMs)
{
    if (!m_project || m_loading || !m_readError.isEmpty())
        return;
    m_footerPending |= parts;
    const bool queueEmpty = m_queue.keys.isEmpty();
    if (parts & Suggestions)
        m_suggestions->showComputing(m_project, m_queue.isTrain, queueEmpty || !m_scoredError.isEmpty());
    if (parts & Agreement)
        m_agreement->showComputing();
    if (parts & Gain)
        m_expectedGain->showComputing(m_project, m_gainAspect);
    // A burst of keys (a score per aspect, then Enter) asks once, a moment after the last.
    if (!m_footerRunning)
        m_footerDelay->start(delayMs);
    emit busyChanged(true);
}

void AnnotatePane::startFooter()
{
    if (!m_project || m_loading || m_footerRunning || !m_footerPending)
        return;
    const int parts = std::exchange(m_footerPending, 0);
    // Everything the worker needs, copied (the containers share their data until written).
    const QVector<Aspect> aspects = m_aspects;
    const QVector<qint64> queue = m_queue.keys;
    const QHash<QString, int> scored = m_scored;
    const bool isTrain = m_queue.isTrain, blind = m_blind, progressKnown = m_scoredError.isEmpty();
    const QString annotator = m_annotator, stratum = m_suggestions->stratum();
    const QString gainAspect = m_gainAspect;
    m_footerRunning = true;
    m_footerWatcher.setProperty("generation", m_generation);
    m_footerWatcher.setFuture(runOnProject<Footer>(m_project, [=](Project *project, const QString &error) {
        Footer out;
        out.gainAspect = gainAspect;
        const Error failed = makeError(error);
        if (parts & Suggestions) {
            // Progress that cannot be read suggests nothing (the progress line shows the error):
            // an empty count would suggest items already labelled.
            if (!progressKnown)
                out.suggestions = Result<QStringList>(QStringList());
            else
                out.suggestions = project ? SuggestionBox::compute(*project, isTrain, queue.isEmpty(), scored,
                                                                   int(aspects.size()), annotator, stratum)
                                          : Result<QStringList>(failed);
        }
        if (parts & Agreement)
            out.agreement = project ? AgreementLabel::compute(project, aspects, isTrain, blind)
                                    : AnnotatePane::tr("Cannot read the project: %1").arg(error.toHtmlEscaped());
        if ((parts & Gain) && !gainAspect.isEmpty())
            out.gain = project ? labelNextByExpectedGain(project, gainAspect) : Result<LabelNextState>(failed);
        return out;
    }));
}

void AnnotatePane::applyFooter(const Footer &footer)
{
    if (footer.suggestions && !(m_footerPending & Suggestions))
        m_suggestions->showSuggestions(m_project, m_queue.isTrain, m_queue.keys.isEmpty(), *footer.suggestions);
    if (footer.agreement && !(m_footerPending & Agreement))
        m_agreement->setText(*footer.agreement);
    if (footer.gain && !(m_footerPending & Gain))
        m_expectedGain->showState(m_project, footer.gainAspect, *footer.gain);
}

} // namespace rubric
