#include "DatasetPane.h"

#include "PlainText.h"
#include "models/ItemsFilterModel.h"
#include "models/ItemsModel.h"
#include "store/Project.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <utility>

namespace rubric {
namespace {

QTextBrowser *makeTextView(const QString &objectName, QWidget *parent)
{
    auto *view = new QTextBrowser(parent);
    view->setObjectName(objectName);
    view->setOpenLinks(false);
    view->setLineWrapMode(QTextEdit::WidgetWidth);
    view->document()->setDocumentMargin(10);
    QFont f = view->font();
    f.setPointSizeF(f.pointSizeF() * 1.08);
    view->setFont(f);
    return view;
}

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto *label = new QLabel(title, box);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

} // namespace

DatasetPane::DatasetPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new ItemsModel(this))
    , m_filter(new ItemsFilterModel(this))
    , m_text(new QLineEdit(this))
    , m_group(new QComboBox(this))
    , m_system(new QComboBox(this))
    , m_split(new QComboBox(this))
    , m_count(new QLabel(this))
    , m_import(new QPushButton(tr("Import…"), this))
    , m_view(new QTableView(this))
    , m_itemTitle(new QLabel(this))
    , m_source(makeTextView(QStringLiteral("sourceView"), this))
    , m_output(makeTextView(QStringLiteral("outputView"), this))
    , m_reference(makeTextView(QStringLiteral("referenceView"), this))
{
    setObjectName(QStringLiteral("datasetPane"));
    m_filter->setItemsModel(m_model);

    m_text->setObjectName(QStringLiteral("filterEdit"));
    m_text->setPlaceholderText(tr("Filter by id, group, system or text…"));
    m_text->setClearButtonEnabled(true);
    m_group->setObjectName(QStringLiteral("groupFilter"));
    m_system->setObjectName(QStringLiteral("systemFilter"));
    m_split->setObjectName(QStringLiteral("splitFilter"));
    m_count->setObjectName(QStringLiteral("countLabel"));
    m_import->setObjectName(QStringLiteral("importButton"));
    // Group ids can be 40-character hashes: the combos must not size to them.
    for (QComboBox *c : {m_group, m_system}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
    }
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(QStringLiteral("100,000 of 100,000 items")));
    m_split->addItem(tr("All splits"), QString());
    m_split->addItem(tr("Train"), QStringLiteral("train"));
    m_split->addItem(tr("Test"), QStringLiteral("test"));
    m_split->addItem(tr("Unassigned"), QStringLiteral("none"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_text, 1);
    bar->addWidget(m_group);
    bar->addWidget(m_system);
    bar->addWidget(m_split);
    bar->addWidget(m_count);
    bar->addWidget(m_import);

    m_view->setObjectName(QStringLiteral("itemsView"));
    m_view->setModel(m_filter);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setAlternatingRowColors(true);
    // Uniform row heights: the view never measures 100k rows.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setHighlightSections(false);

    m_itemTitle->setObjectName(QStringLiteral("itemTitle"));
    m_itemTitle->setTextFormat(Qt::PlainText); // ids, groups and systems come from the dataset
    m_itemTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_itemTitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *texts = new QSplitter(Qt::Horizontal, this);
    texts->setObjectName(QStringLiteral("datasetTextsSplitter"));
    texts->addWidget(titled(tr("Source"), m_source, texts));
    texts->addWidget(titled(tr("Output"), m_output, texts));
    texts->addWidget(titled(tr("Reference"), m_reference, texts));
    texts->setStretchFactor(0, 3);
    texts->setStretchFactor(1, 2);
    texts->setStretchFactor(2, 2);
    auto *viewer = new QWidget(this);
    auto *viewerLayout = new QVBoxLayout(viewer);
    viewerLayout->setContentsMargins(0, 6, 0, 0);
    viewerLayout->addWidget(m_itemTitle);
    viewerLayout->addWidget(texts, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("datasetSplitter"));
    split->addWidget(m_view);
    split->addWidget(viewer);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_text, &QLineEdit::textChanged, m_filter, &ItemsFilterModel::setText);
    connect(m_group, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setGroup(m_group->currentData().toString()); });
    connect(m_system, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setSystem(m_system->currentData().toString()); });
    connect(m_split, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setSplit(m_split->currentData().toString()); });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &DatasetPane::updateCount);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &DatasetPane::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &DatasetPane::updateCount);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &DatasetPane::updateCount);
    // The group and system choices follow the items, not the filter: a filter's rows come as a
    // reset, and refilling a combo with a million items' 62,500 groups took seconds each time.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &DatasetPane::refillFilters);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showItem(current.data(ItemsModel::ItemIdRole).toString()); });
    connect(m_import, &QPushButton::clicked, this, &DatasetPane::importRequested);
    connect(m_model, &ItemsModel::loadFailed, this, &DatasetPane::problem);
    // A sort or filter is read on the thread pool: the count says so meanwhile, and an item asked
    // for while its filters were being cleared is selected once the rows are there.
    connect(m_model, &ItemsModel::busyChanged, this, [this](bool busy) {
        updateCount();
        if (!busy && !m_pendingSelect.isEmpty())
            selectItem(std::exchange(m_pendingSelect, QString()));
    });
    setProject(nullptr);
}

void DatasetPane::setProject(Project *project)
{
    m_pendingSelect.clear();
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    m_model->setProject(project);
    refillFilters();
    if (m_project) // after the model's own handler (connected in setProject above)
        connect(m_project, &Project::itemsChanged, this, &DatasetPane::refillFilters);
    m_import->setEnabled(project != nullptr);
    m_view->resizeColumnToContents(ItemsModel::IdColumn);
    m_view->setColumnWidth(ItemsModel::GroupColumn, 100);
    m_view->setColumnWidth(ItemsModel::SystemColumn, 70);
    m_view->setColumnWidth(ItemsModel::SplitColumn, 56);
    m_view->setColumnWidth(ItemsModel::SourceColumn, 240);
    m_view->setColumnWidth(ItemsModel::OutputColumn, 290);
    for (int c = ItemsModel::FirstAspectColumn; c < m_model->columnCount(); ++c)
        m_view->resizeColumnToContents(c);
    showItem({});
    if (m_filter->rowCount() > 0)
        m_view->selectRow(0);
}

void DatasetPane::refillFilters()
{
    const auto refill = [](QComboBox *combo, const QString &all, const QStringList &values) {
        const QString keep = combo->currentData().toString();
        QSignalBlocker block(combo);
        combo->clear();
        combo->addItem(all, QString());
        for (const QString &v : values)
            combo->addItem(v, v);
        const int i = combo->findData(keep);
        combo->setCurrentIndex(i < 0 ? 0 : i);
    };
    // A project that cannot be read says so (problem) rather than offering no groups.
    const auto values = [this](const Result<QStringList> &read) {
        if (!read)
            emit problem(read.errorString());
        return read ? *read : QStringList();
    };
    refill(m_group, tr("All groups"), m_project ? values(m_project->readGroups()) : QStringList());
    refill(m_system, tr("All systems"), m_project ? values(m_project->readSystems()) : QStringList());
    m_filter->setGroup(m_group->currentData().toString());
    m_filter->setSystem(m_system->currentData().toString());
    updateCount();
}

void DatasetPane::updateCount()
{
    const QLocale locale;
    // The model holds the filtered rows; the project counts them all.
    const int total = m_project ? m_project->itemCount() : 0;
    if (m_model->busy()) // the rows shown are still those of the previous filter or sort
        m_count->setText(tr("Searching %1 items…").arg(locale.toString(total)));
    else
        m_count->setText(tr("%1 of %2 items").arg(locale.toString(m_filter->rowCount()), locale.toString(total)));
}

bool DatasetPane::selectItem(const QString &id)
{
    int row = m_model->rowOf(id);
    if (row < 0) { // not in the project, or hidden by a filter: shown once the filters are cleared
        if (!m_model->contains(id))
            return false;
        m_text->clear();
        m_group->setCurrentIndex(0);
        m_system->setCurrentIndex(0);
        m_split->setCurrentIndex(0);
        if (m_model->busy()) { // the unfiltered rows are being read: selected when they are shown
            m_pendingSelect = id;
            showItem(id);
            return true;
        }
        row = m_model->rowOf(id);
        if (row < 0)
            return false;
    }
    const QModelIndex proxy = m_filter->mapFromSource(m_model->index(row, 0));
    m_view->setCurrentIndex(proxy);
    m_view->selectRow(proxy.row());
    m_view->scrollTo(proxy, QAbstractItemView::PositionAtCenter);
    showItem(id);
    return true;
}

void DatasetPane::showItem(const QString &id)
{
    if (id == m_currentId && !id.isEmpty())
        return;
    m_currentId = id;
    std::optional<Item> item;
    QString error;
    if (m_project && !id.isEmpty()) {
        auto read = m_project->readItem(id);
        if (read)
            item = std::move(read).value();
        else
            error = tr("Cannot read item %1: %2").arg(id, read.errorString());
    }
    if (!item) {
        m_itemTitle->setText(!error.isEmpty() ? error
                             : m_project      ? tr("Select an item to read it in full.")
                                              : tr("No project open."));
        if (!error.isEmpty())
            emit problem(error);
        m_source->clear();
        m_output->clear();
        m_reference->clear();
        emit currentItemChanged({});
        return;
    }
    // Isolated so that a right-to-left override in an id cannot reorder the rest of the line.
    const auto field = [](const QString &s) { return plain::isolate(plain::elide(s, 200)); };
    QStringList meta{tr("Item %1").arg(field(item->id))};
    if (!item->group.isEmpty())
        meta << tr("group %1").arg(field(item->group));
    if (!item->system.isEmpty())
        meta << tr("system %1").arg(field(item->system));
    m_itemTitle->setText(meta.join(QStringLiteral(" · ")));
    QString source = item->source;
    for (auto it = item->context.begin(); it != item->context.end(); ++it)
        source += QStringLiteral("\n\n[") + it.key() + QStringLiteral("]\n") + it.value().toString();
    m_source->setPlainText(plain::forViewer(source));
    m_output->setPlainText(plain::forViewer(item->output));
    m_reference->setPlainText(item->reference.isEmpty() ? tr("(no reference)") : plain::forViewer(item->reference));
    emit currentItemChanged(id);
}

} // namespace rubric
