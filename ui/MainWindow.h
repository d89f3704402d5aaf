#pragma once

#include <QMainWindow>

#include <memory>

class QTableWidget;

namespace rubric {

class Project;

/// The studio's main window: owns the open Project and hands it to every pane.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens a project file; shows the error in the status bar and returns false on failure.
    bool openProject(const QString &path);

private:
    std::unique_ptr<Project> m_project;
    QTableWidget *m_table = nullptr;
};

} // namespace rubric
