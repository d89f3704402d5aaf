// RubricTreeModel's write side: text, enabled state and statistics of a node, the undo stack's
// entry point, and moving subtrees (take, insert, move up or down). The read side (the columns,
// data, flags, headers and sorting) is RubricTreeModel.cpp.
#include "RubricTreeModel.h"

#include <QSet>
#include <QUndoStack>

#include <algorithm>
#include <functional>

namespace rubric {

template <typename Change> void RubricTreeModel::changeNode(const QString &key, Change change)
{
    Criterion *c = m_rubric.find(key);
    if (!c)
        return;
    change(*c);
    const QModelIndex first = indexOfKey(key, 0);
    emit dataChanged(first, first.siblingAtColumn(ColumnCount - 1));
    emit rubricEdited();
}

void RubricTreeModel::setText(const QString &key, const QString &text, const QVariantMap &origin)
{
    changeNode(key, [&](Criterion &c) {
        c.text = text;
        c.origin = origin;
    });
}

void RubricTreeModel::setEnabled(const QString &key, bool enabled)
{
    changeNode(key, [&](Criterion &c) { c.enabled = enabled; });
}

void RubricTreeModel::push(QUndoCommand *command)
{
    if (m_stack) {
        m_stack->push(command);
        return;
    }
    command->redo();
    delete command;
}

void RubricTreeModel::setStats(const QString &key, const QVariantMap &stats)
{
    changeNode(key, [&](Criterion &c) { c.stats = stats; });
}

void RubricTreeModel::setImportanceAspect(const QString &aspect)
{
    m_aspect = aspect;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void RubricTreeModel::setState(const QString &key, bool enabled, const QVariantMap &origin)
{
    changeNode(key, [&](Criterion &c) {
        c.enabled = enabled;
        c.origin = origin;
    });
}

QVector<Criterion> RubricTreeModel::takeSubtree(const QString &key, int *row)
{
    unsort();
    QVector<Criterion> out;
    const Criterion *c = m_rubric.find(key);
    if (!c)
        return out;
    const QString parentKey = c->parentKey;
    const int r = rowOf(key);
    if (row)
        *row = r;
    QStringList keys;
    std::function<void(const QString &)> collect = [&](const QString &k) {
        keys.append(k);
        for (const QString &child : m_children.value(k))
            collect(child);
    };
    collect(key);
    beginRemoveRows(parentKey.isEmpty() ? QModelIndex() : indexOfKey(parentKey), r, r);
    const QSet<QString> drop(keys.begin(), keys.end());
    QVector<Criterion> kept;
    for (const Criterion &x : std::as_const(m_rubric.criteria()))
        (drop.contains(x.key) ? out : kept).append(x);
    // `out` is in position (pre-)order already: the vector is kept in pre-order.
    m_rubric.criteria() = kept;
    rebuild();
    endRemoveRows();
    emit rubricEdited();
    return out;
}

void RubricTreeModel::insertSubtree(const QVector<Criterion> &subtree, int row)
{
    if (subtree.isEmpty())
        return;
    unsort();
    const QString parentKey = subtree.first().parentKey;
    const QStringList siblings = m_children.value(parentKey);
    row = std::clamp(row, 0, int(siblings.size()));
    beginInsertRows(parentKey.isEmpty() ? QModelIndex() : indexOfKey(parentKey), row, row);
    // The vector is in pre-order with position = index: the subtree goes before the sibling now
    // at `row`, or after the last criterion of the parent's subtree.
    QVector<Criterion> &all = m_rubric.criteria();
    int at = int(all.size());
    if (row < siblings.size()) {
        at = m_rubric.find(siblings[row])->position;
    } else if (!parentKey.isEmpty()) {
        QSet<QString> inside;
        std::function<void(const QString &)> collect = [&](const QString &k) {
            inside.insert(k);
            for (const QString &child : m_children.value(k))
                collect(child);
        };
        collect(parentKey);
        at = 0;
        for (const Criterion &c : std::as_const(all))
            if (inside.contains(c.key))
                at = std::max(at, c.position + 1);
    }
    for (int i = 0; i < subtree.size(); ++i)
        all.insert(at + i, subtree[i]);
    for (int i = 0; i < all.size(); ++i)
        all[i].position = i;
    rebuild();
    endInsertRows();
    emit rubricEdited();
}

bool RubricTreeModel::canMove(const QString &key, int delta) const
{
    const Criterion *c = m_rubric.find(key);
    if (!c || (delta != -1 && delta != 1) || m_sortColumn >= 0)
        return false;
    const int to = rowOf(key) + delta;
    return to >= 0 && to < m_children.value(c->parentKey).size();
}

bool RubricTreeModel::move(const QString &key, int delta)
{
    const Criterion *c = m_rubric.find(key);
    if (!c || (delta != -1 && delta != 1))
        return false;
    unsort();
    const QString parentKey = c->parentKey;
    QStringList &siblings = m_children[parentKey];
    const int row = int(siblings.indexOf(key));
    const int to = row + delta;
    if (row < 0 || to < 0 || to >= siblings.size())
        return false;
    const QModelIndex parent = parentKey.isEmpty() ? QModelIndex() : indexOfKey(parentKey);
    if (!beginMoveRows(parent, row, row, parent, delta < 0 ? to : to + 1))
        return false;
    // Swap the two sibling subtrees in the pre-order vector.
    const QString other = siblings[to];
    QVector<Criterion> all = m_rubric.criteria();
    auto span = [&](const QString &k) {
        QSet<QString> inside;
        std::function<void(const QString &)> collect = [&](const QString &x) {
            inside.insert(x);
            for (const QString &child : m_children.value(x))
                collect(child);
        };
        collect(k);
        return inside;
    };
    const QSet<QString> first = span(delta < 0 ? other : key), second = span(delta < 0 ? key : other);
    QVector<Criterion> a, b, out;
    int firstAt = -1;
    for (int i = 0; i < all.size(); ++i) {
        if (first.contains(all[i].key)) {
            if (firstAt < 0)
                firstAt = int(out.size());
            a.append(all[i]);
        } else if (second.contains(all[i].key)) {
            b.append(all[i]);
        } else {
            out.append(all[i]);
        }
    }
    out.insert(firstAt, a.size() + b.size(), Criterion{});
    for (int i = 0; i < b.size(); ++i)
        out[firstAt + i] = b[i];
    for (int i = 0; i < a.size(); ++i)
        out[firstAt + int(b.size()) + i] = a[i];
    for (int i = 0; i < out.size(); ++i)
        out[i].position = i;
    m_rubric.criteria() = out;
    rebuild();
    endMoveRows();
    emit rubricEdited();
    return true;
}

} // namespace rubric
