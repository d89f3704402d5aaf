#pragma once

#include "methods/LabelNext.h"

#include <QPointer>
#include <QString>
#include <QWidget>

#include <limits>

class QLabel;
class QPushButton;

namespace rubric {

class Project;

/// "Label next, by expected gain" (LabelNext.h): the unlabelled item whose label is expected to
/// move the judges' learned fit most, why it was picked, and — after a label is saved — how the
/// fit's cross-validated alignment moved. Embedded in the Annotate pane's footer.
class ExpectedGainBox : public QWidget
{
    Q_OBJECT
public:
    explicit ExpectedGainBox(QWidget *parent = nullptr);

    /// Says that the ranking for `aspect` is being computed (on a worker: labelNextByExpectedGain
    /// reads every item outside the test split); the last figures stay the "before".
    void showComputing(Project *project, const QString &aspect);
    /// Shows the ranking for `aspect` as computed (the figures of the previous one stay the
    /// "before" when it was for the same project and aspect).
    void showState(Project *project, const QString &aspect, const Result<LabelNextState> &state);

    QString suggestedItem() const { return m_item; }
    QString reasonText() const;
    QString movedText() const;

signals:
    void itemChosen(const QString &itemId);

private:
    QPointer<Project> m_project;
    QLabel *m_title;
    QLabel *m_reason;
    QLabel *m_moved;
    QPushButton *m_go;
    QString m_item;
    QString m_aspect;
    int m_labelled = -1;
    double m_cvR = std::numeric_limits<double>::quiet_NaN();
};

} // namespace rubric
