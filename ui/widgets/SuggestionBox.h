#pragma once

#include "util/Result.h"

#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QListWidget;
class QPushButton;

namespace rubric {

class Project;

/// "Label next": which items an annotator should score, drawn at random and stratified by group
/// or system (LabelSuggester), seeded by the annotator's name so the order is stable for one
/// person; and, while the project has no train split, a button that makes one of 30 such items
/// (group-disjoint when asked: each suggestion brings its whole group, Splitter::wholeGroupsFrom).
class SuggestionBox : public QWidget
{
    Q_OBJECT
public:
    explicit SuggestionBox(QWidget *parent = nullptr);

    /// The suggestions for `annotator`: items of the queue (the train split, or every item) not
    /// yet fully scored (`scoredAspects[id]` < `aspectCount`), drawn by `stratum`
    /// (LabelSuggester::stratumFromName).
    /// Reads every item's label (and, for "disagreement", every judge score): the Annotate pane
    /// calls it on a worker thread (any thread with the project will do).
    static Result<QStringList> compute(const Project &project, bool queueIsTrain, bool queueEmpty,
                                       const QHash<QString, int> &scoredAspects, int aspectCount,
                                       const QString &annotator, const QString &stratum);

    /// The stratum chosen (a name for compute()).
    QString stratum() const;
    /// Says that the suggestions are being drawn.
    void showComputing(const Project *project, bool queueIsTrain, bool queueEmpty);
    /// Shows `ids` (from compute()), or why there are none.
    void showSuggestions(const Project *project, bool queueIsTrain, bool queueEmpty, const Result<QStringList> &ids);

signals:
    /// Another stratum was chosen: the suggestions are to be drawn again.
    void stratumChanged();
    void itemChosen(const QString &itemId);
    /// A failed write (the split) for the window's message bar.
    void problem(const QString &message);

private:
    void makeTrainSplit();

    QPointer<Project> m_project;
    QListWidget *m_list;
    QComboBox *m_stratum;
    QPushButton *m_makeSplit;
    QCheckBox *m_byGroup; ///< the split is group-disjoint (no source on both sides)
    void showSplitButton(const Project *project, bool queueIsTrain, bool queueEmpty);
};

} // namespace rubric
