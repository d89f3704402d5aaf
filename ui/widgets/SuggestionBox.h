#pragma once

#include <QHash>
#include <QPointer>
#include <QStringList>
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

    /// Suggests items of `queue` not yet fully scored (`scoredAspects[id]` < `aspectCount`).
    void refresh(const Project *project, const QStringList &queue, bool queueIsTrain,
                 const QHash<QString, int> &scoredAspects, int aspectCount, const QString &annotator);

signals:
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
    // What the last refresh was given, to redraw when the stratum changes.
    QStringList m_queue;
    QHash<QString, int> m_scored;
    int m_aspectCount = 0;
    QString m_annotator;
};

} // namespace rubric
