#include "ItemsModel.h"

#include "PlainText.h"
#include "ReadPool.h"
#include "store/Project.h"

#include <QtConcurrent>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

ItemView::Sort sortOfColumn(int column)
{
    switch (column) {
    case ItemsModel::IdColumn:
        return ItemView::Sort::Id;
    case ItemsModel::GroupColumn:
        return ItemView::Sort::Group;
    case ItemsModel::SystemColumn:
        return ItemView::Sort::System;
    case ItemsModel::SplitColumn:
        return ItemView::Sort::Split;
    case ItemsModel::SourceColumn:
        return ItemView::Sort::Source;
    case ItemsModel::OutputColumn:
        return ItemView::Sort::Output;
    default:
        return column >= ItemsModel::FirstAspectColumn ? ItemView::Sort::Human : ItemView::Sort::Position;
    }
}

} // namespace

ItemsModel::ItemsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    connect(&m_read, &QFutureWatcherBase::finished, this, &ItemsModel::onOrderRead);
}

ItemsModel::~ItemsModel()
{
    m_read.disconnect(this);
    dropRead();
}

void ItemsModel::setProject(Project *project)
{
    dropRead();
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project) {
        connect(m_project, &Project::itemsChanged, this, &ItemsModel::reloadItems);
        connect(m_project, &Project::aspectsChanged, this, &ItemsModel::resetAll);
        connect(m_project, &Project::annotationChanged, this, &ItemsModel::onAnnotationChanged);
        connect(m_project, &Project::annotationsReset, this,
                [this] { dropPagesAndRepaint(FirstAspectColumn, columnCount() - 1); });
        connect(m_project, &Project::splitChanged, this, &ItemsModel::onSplitChanged);
    }
    resetAll();
}

void ItemsModel::setView(const ItemView &view)
{
    const ItemView &old = m_view;
    if (view.text == old.text && view.group == old.group && view.system == old.system && view.split == old.split)
        return;
    m_view.text = view.text;
    m_view.group = view.group;
    m_view.system = view.system;
    m_view.split = view.split;
    reorder();
}

void ItemsModel::sort(int column, Qt::SortOrder order)
{
    const ItemView::Sort sort = sortOfColumn(column);
    const QString aspect = sort == ItemView::Sort::Human ? m_aspects.value(column - FirstAspectColumn) : QString();
    const bool descending = sort != ItemView::Sort::Position && order == Qt::DescendingOrder;
    if (sort == m_view.sort && aspect == m_view.sortAspect && descending == m_view.descending)
        return;
    m_view.sort = sort;
    m_view.sortAspect = aspect;
    m_view.descending = descending;
    reorder(Change::Sort);
}

void ItemsModel::setReading(bool reading)
{
    if (reading == m_reading)
        return;
    m_reading = reading;
    emit busyChanged(reading);
}

void ItemsModel::dropRead()
{
    // The read goes through the project on a pool thread: it must end before the project goes.
    if (m_read.isRunning())
        m_read.waitForFinished();
    ++m_generation;
    m_readAgain = false;
    m_filterPending = false;
    setReading(false);
}

void ItemsModel::reorder(Change change)
{
    if (change == Change::Filter)
        m_filterPending = true;
    if (!m_project) {
        m_filterPending = false;
        applyFilter({});
        return;
    }
    if (m_read.isRunning()) {
        m_readAgain = true;
        return;
    }
    startRead();
}

void ItemsModel::startRead()
{
    m_readAgain = false;
    m_readFilter = m_filterPending;
    m_filterPending = false;
    m_read.setProperty("generation", m_generation);
    const Project *project = m_project;
    // The pool thread reads on its own connection of the project (Project: any thread may read).
    m_read.setFuture(
            QtConcurrent::run(readPool(), [project, view = m_view] { return ItemPageStore(project).order(view); }));
    setReading(true);
}

void ItemsModel::onOrderRead()
{
    const bool current = m_read.property("generation").toULongLong() == m_generation;
    if (m_readAgain && m_project) {
        // The view changed meanwhile: this order is of an earlier one.
        m_filterPending = m_filterPending || (current && m_readFilter);
        startRead();
        return;
    }
    if (!current) { // the rows were replaced meanwhile (a reset, another project)
        setReading(false);
        return;
    }
    Result<QVector<qint64>> read = m_read.result();
    if (!read) {
        const Error error = makeError(
                (m_readFilter ? tr("cannot read the items from the project: %1") : tr("cannot sort the items: %1"))
                        .arg(read.error().message),
                m_project->path());
        if (m_readFilter)
            applyFilter({});
        setReading(false);
        report(error);
        return;
    }
    if (m_readFilter)
        applyFilter(std::move(read).value());
    else
        applySort(std::move(read).value());
    setReading(false);
}

void ItemsModel::applySort(QVector<qint64> order)
{
    // A sort keeps what is selected where it is in the data: a layout change.
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QVector<qint64> keys;
    keys.reserve(before.size());
    for (const QModelIndex &i : before)
        keys.append(m_order.value(i.row(), -1));
    const int oldCount = int(m_order.size());
    m_order = std::move(order);
    m_pages.clear();
    m_pageOrder.clear();
    m_loadError.clear();
    if (m_order.size() != oldCount) { // the items changed meanwhile: nothing can be kept
        emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
        beginResetModel();
        endResetModel();
        return;
    }
    QHash<qint64, int> rowOfKey;
    if (!before.isEmpty()) {
        rowOfKey.reserve(before.size());
        QHash<qint64, int> wanted;
        for (const qint64 k : std::as_const(keys))
            wanted.insert(k, -1);
        for (int r = 0; r < m_order.size(); ++r)
            if (wanted.contains(m_order[r]))
                rowOfKey.insert(m_order[r], r);
    }
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const int r = rowOfKey.value(keys[i], -1);
        after.append(r < 0 ? QModelIndex() : index(r, before[i].column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void ItemsModel::applyFilter(QVector<qint64> order)
{
    beginResetModel();
    m_pages.clear();
    m_pageOrder.clear();
    m_loadError.clear();
    m_order = std::move(order);
    endResetModel();
}

const QVector<ItemsModel::Row> *ItemsModel::page(int number) const
{
    if (const auto it = m_pages.constFind(number); it != m_pages.constEnd()) {
        if (m_pageOrder.last() != number) {
            m_pageOrder.removeOne(number);
            m_pageOrder.append(number);
        }
        return &*it;
    }
    if (!m_project)
        return nullptr;
    const int first = number * kPageRows;
    const int count = std::min<int>(int(m_order.size()) - first, kPageRows);
    if (count <= 0)
        return nullptr;
    const QVector<qint64> keys = m_order.mid(first, count);
    const auto read = ItemPageStore(m_project).rows(keys, m_aspects, previewLength);
    // An unreadable page shows empty rows and says why once; the next reset reads it again.
    QVector<Row> rows(count);
    if (!read) {
        const_cast<ItemsModel *>(this)->report(makeError(
                tr("cannot read the items from the project: %1").arg(read.error().message), m_project->path()));
    } else {
        int k = 0;
        for (const ItemPageRow &p : *read) {
            while (k < count && keys[k] != p.key)
                ++k; // an item deleted meanwhile
            if (k == count)
                break;
            Row &r = rows[k++];
            r.id = p.id;
            r.group = p.group;
            r.system = p.system;
            r.split = p.split == SplitRole::None ? QString() : splitRoleName(p.split);
            r.human = p.human;
            r.source = p.source.simplified();
            r.output = p.output.simplified();
        }
    }
    if (m_pageOrder.size() >= kPagesKept)
        m_pages.remove(m_pageOrder.takeFirst());
    m_pageOrder.append(number);
    return &*m_pages.insert(number, std::move(rows));
}

ItemsModel::Row ItemsModel::row(int r) const
{
    if (r < 0 || r >= m_order.size())
        return {};
    const auto *p = page(r / kPageRows);
    return p ? p->at(r % kPageRows) : Row();
}

QString ItemsModel::preview(int r, Column column) const
{
    if (r < 0 || r >= m_order.size())
        return {};
    const auto *p = page(r / kPageRows);
    if (!p)
        return {};
    const Row &row = p->at(r % kPageRows);
    return column == SourceColumn ? row.source : column == OutputColumn ? row.output : QString();
}

int ItemsModel::rowOf(const QString &id) const
{
    if (!m_project || id.isEmpty())
        return -1;
    const auto key = ItemPageStore(m_project).keyOf(id);
    if (!key || *key < 0)
        return -1;
    return int(m_order.indexOf(*key));
}

bool ItemsModel::contains(const QString &id) const
{
    if (!m_project || id.isEmpty())
        return false;
    const auto key = ItemPageStore(m_project).keyOf(id);
    return key && *key >= 0;
}

int ItemsModel::cachedRows() const
{
    int n = 0;
    for (const auto &p : std::as_const(m_pages))
        n += int(p.size());
    return n;
}

bool ItemsModel::report(const Error &error)
{
    m_loadError = error.toString();
    emit loadFailed(m_loadError);
    return true;
}

void ItemsModel::resetAll()
{
    ++m_generation; // read here with the latest view: a read in flight is of an earlier one
    beginResetModel();
    m_aspects.clear();
    m_order.clear();
    m_pages.clear();
    m_pageOrder.clear();
    m_loadError.clear();
    const auto load = [this]() -> Result<void> {
        if (!m_project)
            return {};
        const auto aspects = m_project->readAspects();
        if (!aspects)
            return aspects.error();
        for (const Aspect &a : *aspects)
            m_aspects.append(a.name);
        if (m_view.sort == ItemView::Sort::Human && !m_aspects.contains(m_view.sortAspect))
            m_view.sort = ItemView::Sort::Position;
        auto order = ItemPageStore(m_project).order(m_view);
        if (!order)
            return makeError(tr("cannot read the items from the project: %1").arg(order.error().message),
                             m_project->path());
        m_order = std::move(order).value();
        // The first page is read now: a project whose rows cannot be read shows none (and says
        // why) rather than a table of empty rows.
        if (!m_order.isEmpty()) {
            const auto first = ItemPageStore(m_project).rows(m_order.mid(0, 1), m_aspects, previewLength);
            if (!first)
                return makeError(tr("cannot read the items from the project: %1").arg(first.error().message),
                                 m_project->path());
        }
        return {};
    };
    const Result<void> loaded = load();
    if (!loaded) {
        m_aspects.clear();
        m_order.clear();
    }
    endResetModel();
    if (!loaded)
        report(loaded.error());
}

void ItemsModel::reloadItems()
{
    if (!m_project) {
        resetAll();
        return;
    }
    auto read = ItemPageStore(m_project).order(m_view);
    if (!read) {
        report(makeError(tr("cannot read the items from the project: %1").arg(read.error().message),
                         m_project->path()));
        return;
    }
    ++m_generation; // read here with the latest view: a read in flight is of an earlier one
    const QVector<qint64> &keys = *read;
    const int old = int(m_order.size());
    const int now = int(keys.size());
    const int common = std::min(old, now);
    bool samePrefix = true;
    for (int i = 0; samePrefix && i < common; ++i)
        samePrefix = keys[i] == m_order[i];
    if (!samePrefix) {
        beginResetModel();
        m_order = std::move(read).value();
        m_pages.clear();
        m_pageOrder.clear();
        endResetModel();
        return;
    }
    if (now == old)
        return; // unchanged
    // The last page was short or goes: read again when shown.
    m_pages.remove(common / kPageRows);
    m_pageOrder.removeOne(common / kPageRows);
    if (now > old) {
        beginInsertRows({}, old, now - 1);
        m_order = std::move(read).value();
        endInsertRows();
    } else {
        beginRemoveRows({}, now, old - 1);
        m_order = std::move(read).value();
        for (auto it = m_pages.begin(); it != m_pages.end();)
            if (it.key() * kPageRows >= now) {
                m_pageOrder.removeOne(it.key());
                it = m_pages.erase(it);
            } else
                ++it;
        endRemoveRows();
    }
}

void ItemsModel::onAnnotationChanged(const QString &itemId, const QString &aspect)
{
    const int a = int(m_aspects.indexOf(aspect));
    if (a < 0 || !m_project)
        return;
    const int r = rowOf(itemId);
    if (r < 0)
        return;
    // Its page is read again when shown; the row stays where it is until the next sort.
    m_pages.remove(r / kPageRows);
    m_pageOrder.removeOne(r / kPageRows);
    const QModelIndex i = index(r, FirstAspectColumn + a);
    emit dataChanged(i, i);
}

void ItemsModel::dropPagesAndRepaint(int firstColumn, int lastColumn)
{
    m_pages.clear();
    m_pageOrder.clear();
    if (!m_order.isEmpty() && lastColumn >= firstColumn)
        emit dataChanged(index(0, firstColumn), index(rowCount() - 1, lastColumn));
}

void ItemsModel::onSplitChanged()
{
    // Filtered by split, the rows shown change; otherwise only the column does.
    if (!m_view.split.isEmpty())
        reorder();
    else
        dropPagesAndRepaint(SplitColumn, SplitColumn);
}

int ItemsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_order.size());
}

int ItemsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstAspectColumn + int(m_aspects.size());
}

QVariant ItemsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != ItemIdRole && role != Qt::ToolTipRole && role != Qt::TextAlignmentRole)
        return {};
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= FirstAspectColumn ? QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter))
                                      : QVariant();
    const auto *p = page(index.row() / kPageRows);
    if (!p)
        return {};
    const Row &r = p->at(index.row() % kPageRows);
    if (role == ItemIdRole)
        return r.id;
    if (c >= FirstAspectColumn) {
        if (role != Qt::DisplayRole)
            return {};
        const double v = r.human.value(c - FirstAspectColumn, kMissing);
        return std::isnan(v) ? QString() : QString::number(v, 'f', 2);
    }
    if (role == Qt::ToolTipRole) // dataset text: shown literally, however it looks
        return plain::toolTip(data(index, Qt::DisplayRole).toString());
    switch (c) {
    case IdColumn:
        return r.id;
    case GroupColumn:
        return r.group;
    case SystemColumn:
        return r.system;
    case SplitColumn:
        return r.split;
    case SourceColumn:
        return r.source;
    case OutputColumn:
        return r.output;
    default:
        return {};
    }
}

QVariant ItemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn:
        return tr("Id");
    case GroupColumn:
        return tr("Group");
    case SystemColumn:
        return tr("System");
    case SplitColumn:
        return tr("Split");
    case SourceColumn:
        return tr("Source");
    case OutputColumn:
        return tr("Output");
    default:
        break;
    }
    if (section >= FirstAspectColumn && section < columnCount())
        return m_aspects.at(section - FirstAspectColumn);
    return {};
}

} // namespace rubric
