#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace rubric {

class IssuesModel;
class Project;

/// The issues pane: everything that went wrong in the project (failed calls, unparseable answers,
/// import problems), newest first, with "Go to item" for issues that name an item.
class IssuesPane : public QWidget
{
    Q_OBJECT
public:
    explicit IssuesPane(QWidget *parent = nullptr);

    void setProject(Project *project);
    IssuesModel *issuesModel() const { return m_model; }

signals:
    void goToItemRequested(const QString &itemId);

private:
    QString selectedItemId() const;
    void updateState();

    IssuesModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QLabel *m_summary;
    QPushButton *m_goTo;
    QPushButton *m_clear;
};

} // namespace rubric
