#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;

namespace rubric {

class Project;
class RubricTreeModel;

/// Under the stacked judge's tree: what the fit measured (aggregator, train r, cross-validated r
/// with its overfitting warning, test r beside the best single criterion chosen on the train split)
/// and which judge scores were left out and why.
class StackPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StackPanel(RubricTreeModel *model, QWidget *parent = nullptr);

    void setProject(Project *project) { m_project = project; }
    /// Shows the figures of the rubric the model holds (judge `judge`).
    void refresh(const QString &judge);
    QString text() const;

private:
    RubricTreeModel *m_model;
    QPointer<Project> m_project;
    QLabel *m_figures;
};

} // namespace rubric
