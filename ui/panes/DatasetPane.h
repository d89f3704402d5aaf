#pragma once

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace rubric {

class ItemsFilterModel;
class ItemsModel;
class Project;

/// The dataset pane: the items table (virtualised, filter by text, group, system and split) and
/// an item viewer with source, output and reference side by side. Binds with setProject();
/// owns its models. "Import…" is requested from the window (which owns the dialog).
class DatasetPane : public QWidget
{
    Q_OBJECT
public:
    explicit DatasetPane(QWidget *parent = nullptr);

    void setProject(Project *project);

    /// Selects the item with `id` (clearing filters that hide it: its row is selected once the
    /// unfiltered rows are read, its texts are shown at once); false when there is none.
    bool selectItem(const QString &id);
    /// Id of the item shown in the viewer, or empty.
    QString currentItemId() const { return m_currentId; }

    ItemsModel *itemsModel() const { return m_model; }
    ItemsFilterModel *filterModel() const { return m_filter; }

signals:
    void importRequested();
    void currentItemChanged(const QString &id);
    /// The project could not be read (the table shows what was read, possibly nothing).
    void problem(const QString &message);

private:
    void refillFilters();
    void updateCount();
    void showItem(const QString &id);

    QPointer<Project> m_project;
    ItemsModel *m_model;
    ItemsFilterModel *m_filter;
    QLineEdit *m_text;
    QComboBox *m_group;
    QComboBox *m_system;
    QComboBox *m_split;
    QLabel *m_count;
    QPushButton *m_import;
    QTableView *m_view;
    QLabel *m_itemTitle;
    QTextBrowser *m_source;
    QTextBrowser *m_output;
    QTextBrowser *m_reference;
    QString m_currentId;
    QString m_pendingSelect; ///< selectItem() waits for the unfiltered rows to select this item
};

} // namespace rubric
