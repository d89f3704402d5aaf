#include "MainWindow.h"

#include "store/Project.h"

#include <QHeaderView>
#include <QStatusBar>
#include <QTableWidget>

namespace rubric {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_table(new QTableWidget(this))
{
    setWindowTitle(tr("Rubric Studio"));
    m_table->setObjectName(QStringLiteral("itemsTable"));
    setCentralWidget(m_table);
    resize(1200, 800);
}

MainWindow::~MainWindow() = default;

bool MainWindow::openProject(const QString &path)
{
    auto p = Project::open(path, Project::OpenMode::OpenExisting);
    if (!p) {
        statusBar()->showMessage(p.errorString());
        return false;
    }
    m_project = std::move(p).value();
    const auto items = m_project->items();
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("Id"), tr("Group"), tr("System"), tr("Output")});
    m_table->setRowCount(int(items.size()));
    for (int r = 0; r < items.size(); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(items[r].id));
        m_table->setItem(r, 1, new QTableWidgetItem(items[r].group));
        m_table->setItem(r, 2, new QTableWidgetItem(items[r].system));
        m_table->setItem(r, 3, new QTableWidgetItem(items[r].output));
    }
    m_table->horizontalHeader()->setStretchLastSection(true);
    setWindowTitle(tr("%1 — Rubric Studio").arg(path));
    return true;
}

} // namespace rubric
