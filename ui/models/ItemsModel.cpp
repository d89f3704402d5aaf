#include "ItemsModel.h"

#include "PlainText.h"
#include "store/BrowseStore.h"
#include "store/Project.h"

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

QString collapse(const QString &text)
{
    return text.simplified();
}

} // namespace

ItemsModel::ItemsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ItemsModel::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project) {
        connect(m_project, &Project::itemsChanged, this, &ItemsModel::reloadItems);
        connect(m_project, &Project::aspectsChanged, this, &ItemsModel::resetAll);
        connect(m_project, &Project::annotationChanged, this, &ItemsModel::onAnnotationChanged);
        connect(m_project, &Project::annotationsReset, this, &ItemsModel::reloadHumanScores);
        connect(m_project, &Project::splitChanged, this, &ItemsModel::reloadSplit);
    }
    resetAll();
}

Result<QVector<ItemsModel::Row>> ItemsModel::readRows(int fromIndex) const
{
    QVector<Row> out;
    if (!m_project)
        return out;
    // Rows without texts, with their split and human means, in one pass: a million of them stay
    // small (the previews are read page by page).
    auto rows = BrowseStore(m_project).itemList(m_aspects);
    if (!rows)
        return makeError(tr("cannot read the items from the project: %1").arg(rows.error().message), m_project->path());
    out.reserve(std::max<qsizetype>(0, rows->size() - fromIndex));
    for (qsizetype k = fromIndex; k < rows->size(); ++k) {
        ItemListRow &p = (*rows)[k];
        Row r;
        r.id = std::move(p.id);
        r.group = std::move(p.group);
        r.system = std::move(p.system);
        r.split = p.split == SplitRole::None ? QString() : splitRoleName(p.split);
        r.position = p.position;
        r.human = std::move(p.human);
        out.append(std::move(r));
    }
    return out;
}

const QVector<QPair<QString, QString>> *ItemsModel::page(int number) const
{
    if (const auto it = m_pages.constFind(number); it != m_pages.constEnd()) {
        m_pageOrder.removeOne(number);
        m_pageOrder.append(number);
        return &*it;
    }
    if (!m_project)
        return nullptr;
    const int first = number * kPageRows;
    const int last = std::min<int>(int(m_rows.size()), first + kPageRows) - 1;
    if (first > last)
        return nullptr;
    // The page's positions: rows are in position order, so the first and last row bound them.
    auto read = BrowseStore(m_project).itemPreviewsBetween(previewLength, m_rows.at(first).position,
                                                           m_rows.at(last).position);
    QVector<QPair<QString, QString>> texts(last - first + 1);
    if (read) {
        QHash<QString, const ItemPreview *> byId;
        for (const ItemPreview &p : std::as_const(*read))
            byId.insert(p.id, &p);
        for (int r = first; r <= last; ++r)
            if (const ItemPreview *p = byId.value(m_rows.at(r).id))
                texts[r - first] = {collapse(p->source), collapse(p->output)};
    }
    // An unreadable page shows empty cells; the next reset reads it again.
    if (m_pageOrder.size() >= kPagesKept)
        m_pages.remove(m_pageOrder.takeFirst());
    m_pageOrder.append(number);
    return &*m_pages.insert(number, std::move(texts));
}

QString ItemsModel::preview(int r, Column column) const
{
    if (r < 0 || r >= m_rows.size())
        return {};
    const auto *p = page(r / kPageRows);
    if (!p)
        return {};
    const auto &texts = p->at(r % kPageRows);
    return column == SourceColumn ? texts.first : column == OutputColumn ? texts.second : QString();
}

Result<QVector<bool>> ItemsModel::rowsContaining(const QString &text) const
{
    QVector<bool> out(m_rows.size(), text.isEmpty());
    if (text.isEmpty() || !m_project)
        return out;
    const auto ids = BrowseStore(m_project).itemsContaining(text);
    if (!ids)
        return makeError(tr("cannot search the items' texts: %1").arg(ids.error().message), m_project->path());
    for (const QString &id : *ids)
        if (const int r = rowOf(id); r >= 0)
            out[r] = true;
    return out;
}

bool ItemsModel::report(const Error &error)
{
    m_loadError = error.toString();
    emit loadFailed(m_loadError);
    return true;
}

void ItemsModel::reindex()
{
    m_rowById.clear();
    m_rowById.reserve(m_rows.size());
    for (int i = 0; i < m_rows.size(); ++i)
        m_rowById.insert(m_rows[i].id, i);
}

void ItemsModel::resetAll()
{
    beginResetModel();
    m_aspects.clear();
    m_rows.clear();
    m_pages.clear();
    m_pageOrder.clear();
    m_loadError.clear();
    // Reads everything; the first read that fails leaves the model empty with the error said.
    const auto load = [this]() -> Result<void> {
        if (!m_project)
            return {};
        const auto aspects = m_project->readAspects();
        if (!aspects)
            return aspects.error();
        for (const Aspect &a : *aspects)
            m_aspects.append(a.name);
        auto rows = readRows(0);
        if (!rows)
            return rows.error();
        m_rows = std::move(rows).value(); // with their human means and split
        return {};
    };
    const Result<void> loaded = load();
    if (!loaded) {
        m_aspects.clear();
        m_rows.clear();
    }
    reindex();
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
    const auto readIds = m_project->readItemIds();
    if (failed(readIds))
        return;
    const QStringList &ids = *readIds;
    const int old = m_rows.size();
    bool oldIsPrefix = ids.size() >= old;
    for (int i = 0; oldIsPrefix && i < old; ++i)
        oldIsPrefix = ids[i] == m_rows[i].id;
    if (oldIsPrefix && ids.size() > old) {
        auto read = readRows(old);
        if (failed(read))
            return;
        QVector<Row> added = std::move(read).value();
        if (added.size() != ids.size() - old) {
            resetAll();
            return;
        }
        beginInsertRows({}, old, old + int(added.size()) - 1);
        m_rows.append(added);
        m_pages.clear(); // the last page was short
        m_pageOrder.clear();
        reindex();
        endInsertRows();
        reloadHumanScores();
        reloadSplit();
        return;
    }
    if (oldIsPrefix)
        return; // unchanged
    bool newIsPrefix = ids.size() < old;
    for (int i = 0; newIsPrefix && i < ids.size(); ++i)
        newIsPrefix = ids[i] == m_rows[i].id;
    if (newIsPrefix) {
        beginRemoveRows({}, int(ids.size()), old - 1);
        m_rows.resize(ids.size());
        m_pages.clear();
        m_pageOrder.clear();
        reindex();
        endRemoveRows();
        return;
    }
    resetAll();
}

void ItemsModel::onAnnotationChanged(const QString &itemId, const QString &aspect)
{
    const int r = rowOf(itemId);
    const int a = int(m_aspects.indexOf(aspect));
    if (r < 0 || a < 0 || !m_project)
        return;
    // One item × aspect changed: a single mean, read straight from the table.
    const auto mean = BrowseStore(m_project).humanScore(itemId, aspect);
    if (!mean) {
        report(makeError(tr("cannot read the human scores from the project: %1").arg(mean.error().message),
                         m_project->path()));
        return;
    }
    m_rows[r].human[a] = *mean;
    const QModelIndex i = index(r, FirstAspectColumn + a);
    emit dataChanged(i, i);
}

void ItemsModel::reloadHumanScores()
{
    if (!m_project || m_aspects.isEmpty() || m_rows.isEmpty())
        return;
    for (Row &row : m_rows)
        row.human.fill(kMissing);
    for (int a = 0; a < m_aspects.size(); ++a) {
        const auto scores = m_project->readHumanScores(m_aspects[a]);
        if (failed(scores))
            break; // the scores read so far are shown; the message says the rest is missing
        for (auto it = scores->begin(); it != scores->end(); ++it)
            if (const int r = rowOf(it.key()); r >= 0)
                m_rows[r].human[a] = it.value();
    }
    emit dataChanged(index(0, FirstAspectColumn), index(rowCount() - 1, columnCount() - 1));
}

void ItemsModel::reloadSplit()
{
    if (!m_project || m_rows.isEmpty())
        return;
    for (Row &row : m_rows)
        row.split.clear();
    const auto roles = m_project->readSplit();
    if (!failed(roles))
        for (auto it = roles->begin(); it != roles->end(); ++it)
            if (const int r = rowOf(it.key()); r >= 0)
                m_rows[r].split = splitRoleName(it.value());
    emit dataChanged(index(0, SplitColumn), index(rowCount() - 1, SplitColumn));
}

int ItemsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ItemsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstAspectColumn + int(m_aspects.size());
}

QVariant ItemsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows.at(index.row());
    const int c = index.column();
    if (role == ItemIdRole)
        return r.id;
    if (c >= FirstAspectColumn) {
        const double v = r.human.value(c - FirstAspectColumn, kMissing);
        switch (role) {
        case Qt::DisplayRole:
            return std::isnan(v) ? QString() : QString::number(v, 'f', 2);
        case SortRole:
            return std::isnan(v) ? std::numeric_limits<double>::infinity() : v;
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) // dataset text: shown literally, however it looks
        return plain::toolTip(data(index, Qt::DisplayRole).toString());
    if (role == Qt::DisplayRole || role == SortRole) {
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
        case OutputColumn:
            return preview(index.row(), Column(c));
        default:
            break;
        }
    }
    return {};
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
