#pragma once

#include "data/Aspect.h"
#include "methods/LabelNext.h"
#include "store/Project.h"

#include <QFutureWatcher>
#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCheckBox;
class QFrame;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTextBrowser;
class QTimer;

namespace rubric {

/// The items the Annotate pane walks through, as row keys (ItemPageStore::order: 8 bytes an item,
/// no ids, no texts).
struct AnnotateQueue
{
    QVector<qint64> keys; ///< in import order
    bool isTrain = false; ///< the train split; false: every item (there is no train split)
};

class AgreementLabel;
class AspectScoreRow;
class ExpectedGainBox;
class SuggestionBox;

/// The annotate pane: one item at a time, source and output side by side, the project's aspects
/// with their definitions and scales, scored from the keyboard.
///
/// Keys (on the scoring surface, never while the note field has focus): digits score the focused
/// aspect and move to the next one, Tab / Shift+Tab (or Down / Up) change aspect, Enter saves the
/// note and goes to the next item, Left / Right move between items, Backspace clears a score,
/// N edits the note, ? shows the cheat sheet. Every score is written to the project at once
/// (Project::setAnnotation); a failed write is shown inline and the score is not shown as set.
/// The queue is the train split (all items while there is none), held as item keys; only the
/// item shown is read whole. What reads every item (the queue and the annotator's progress; the
/// suggestions, the agreement table and the expected-gain ranking below) runs on a worker thread
/// that opens the project file itself: the pane says "computing…" meanwhile and stays usable. A
/// save updates the progress in place and has the footer computed again in the background. The
/// widget itself: GUI thread only.
class AnnotatePane : public QWidget
{
    Q_OBJECT
    /// True while the queue or the footer is being read on a worker (ScrollBench waits on it).
    Q_PROPERTY(bool busy READ isBusy NOTIFY busyChanged)
public:
    explicit AnnotatePane(QWidget *parent = nullptr);
    ~AnnotatePane() override;

    void setProject(Project *project);

    /// Sets the annotator (remembered in the settings) and shows the scoring page; an empty name
    /// shows the start page that asks for one.
    void setAnnotator(const QString &name);
    QString annotator() const { return m_annotator; }

    void setBlind(bool blind);
    bool isBlind() const { return m_blind; }

    int queueSize() const { return int(m_queue.keys.size()); }
    int currentIndex() const { return m_index; }
    QString currentItemId() const;
    int activeAspect() const { return m_active; }
    /// Items of the queue that this annotator has scored on every aspect (kept up to date as
    /// scores are saved here); an error when the project cannot be read.
    Result<int> labelledCount() const;
    /// Whether the queue is being read (no item shown yet).
    bool isLoading() const { return m_loading; }
    /// Whether the queue or the footer (suggestions, agreement, expected gain) is being computed.
    bool isBusy() const { return m_loading || m_footerRunning || m_footerPending != 0; }
    /// Why the project could not be read the last time the pane read it (empty when it could).
    QString readError() const { return m_readError; }
    /// Shows the item `id` if it is in the queue.
    bool goToItem(const QString &id);

signals:
    void annotatorChanged(const QString &name);
    void busyChanged(bool busy);
    /// A routine problem (a failed write) for the window's message bar.
    void problem(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

public:
    /// What the queue's worker read (AnnotatePaneLoad.cpp).
    struct Loaded
    {
        QString error; ///< the aspects or the queue could not be read
        QVector<Aspect> aspects;
        AnnotateQueue queue;
        QString scoredError;        ///< the annotator's progress could not be read
        QHash<QString, int> scored; ///< aspects the annotator scored, per item id
        int done = 0;               ///< items of the queue scored on every aspect
    };
    /// What the footer's worker computed; a part not asked for is unset.
    struct Footer
    {
        std::optional<Result<QStringList>> suggestions;
        std::optional<QString> agreement;
        std::optional<Result<LabelNextState>> gain;
        QString gainAspect;
    };
    enum FooterPart { Suggestions = 1, Agreement = 2, Gain = 4, AllParts = 7 };

private:
    void connectWorkers();
    void reload();
    void applyLoaded(Loaded loaded);
    /// Has `parts` of the footer computed again, `delayMs` after the last call (after the run in
    /// flight, if any).
    void refreshFooter(int parts, int delayMs = 250);
    void startFooter();
    void applyFooter(const Footer &footer);
    /// The annotator's aspect count of item `id` moved from `before` to `after`.
    void countScored(const QString &id, int before, int after);
    void rebuildAspects();
    void showCurrent();
    /// This annotator's scores and note of item `id` as stored (a note being typed is kept).
    void showMine(const QString &id);
    void setActiveAspect(int index);
    void scoreActive(double score);
    void setScore(int aspectIndex, double score);
    void clearScore(int aspectIndex);
    void saveNote();
    void move(int delta);
    void updateProgress();
    void updateJudges();
    bool handleKey(QKeyEvent *event);
    /// Shows that the project cannot be read (in place of the item) and reports it.
    void readFailed(const QString &message);

    QPointer<Project> m_project;
    QString m_annotator;
    bool m_blind = true;
    QString m_readError;
    QVector<Aspect> m_aspects;
    QVector<AspectScoreRow *> m_rows;
    AnnotateQueue m_queue;
    QString m_currentId;  ///< the external id of the item shown
    QString m_gainAspect; ///< the aspect the expected gain ranks for: the one active when the item was shown
    QString m_scoredError;
    QHash<QString, int> m_scored; ///< this annotator's aspects scored per item id
    int m_done = 0;               ///< items of the queue scored on every aspect
    int m_index = -1;
    bool m_loading = false;
    bool m_footerRunning = false;
    int m_footerPending = 0;  ///< FooterPart bits asked for since the run in flight began
    quint64 m_generation = 0; ///< bumped by every reload: a worker's result of an older one is dropped
    QFutureWatcher<Loaded> m_loadWatcher;
    QFutureWatcher<Footer> m_footerWatcher;
    int m_active = 0;

    QStackedWidget *m_pages;
    // start page
    QLineEdit *m_nameEdit;
    QPushButton *m_start;
    // scoring page
    QWidget *m_surface;
    QLabel *m_who;
    QLabel *m_itemTitle;
    QLabel *m_progressLabel;
    QProgressBar *m_progress;
    QCheckBox *m_blindCheck;
    QTextBrowser *m_source;
    QTextBrowser *m_output;
    QWidget *m_aspectBox;
    QLineEdit *m_note;
    QString m_noteItem; ///< the item whose note m_note shows
    QFrame *m_cheatSheet;
    AgreementLabel *m_agreement;
    SuggestionBox *m_suggestions;
    ExpectedGainBox *m_expectedGain;
    QTimer *m_footerDelay; ///< a burst of saves asks the footer once
};

} // namespace rubric
