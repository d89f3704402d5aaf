#pragma once

#include "data/Aspect.h"
#include "store/Project.h"

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

namespace rubric {

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
/// The queue is the train split (all items while there is none). GUI thread only.
class AnnotatePane : public QWidget
{
    Q_OBJECT
public:
    explicit AnnotatePane(QWidget *parent = nullptr);

    void setProject(Project *project);

    /// Sets the annotator (remembered in the settings) and shows the scoring page; an empty name
    /// shows the start page that asks for one.
    void setAnnotator(const QString &name);
    QString annotator() const { return m_annotator; }

    void setBlind(bool blind);
    bool isBlind() const { return m_blind; }

    QStringList queue() const { return m_queue; }
    int currentIndex() const { return m_index; }
    QString currentItemId() const;
    int activeAspect() const { return m_active; }
    /// Items of the queue that this annotator has scored on every aspect; an error when the
    /// project cannot be read.
    Result<int> labelledCount() const;
    /// Why the project could not be read the last time the pane read it (empty when it could).
    QString readError() const { return m_readError; }
    /// Shows the item `id` if it is in the queue.
    bool goToItem(const QString &id);

signals:
    void annotatorChanged(const QString &name);
    /// A routine problem (a failed write) for the window's message bar.
    void problem(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void reload();
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
    void updateSuggestions();
    void updateAgreement();
    bool handleKey(QKeyEvent *event);
    Result<QHash<QString, int>> scoredAspectsPerItem() const;
    /// Shows that the project cannot be read (in place of the item) and reports it.
    void readFailed(const QString &message);

    QPointer<Project> m_project;
    QString m_annotator;
    bool m_blind = true;
    QString m_readError;
    QVector<Aspect> m_aspects;
    QVector<AspectScoreRow *> m_rows;
    QStringList m_queue;
    bool m_queueIsTrain = false;
    int m_index = -1;
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
};

} // namespace rubric
