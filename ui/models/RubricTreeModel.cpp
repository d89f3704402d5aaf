#include "RubricTreeModel.h"

#include "commands/EditCriterionTextCommand.h"
#include "commands/SetCriterionEnabledCommand.h"

#include <QColor>
#include <QFont>
#include <QSet>
#include <QUndoStack>

#include <cmath>

namespace rubric {
namespace {

QString number(const QVariant &v, int decimals = 3)
{
    if (!v.isValid() || v.isNull())
        return {};
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (!ok || std::isnan(d))
        return {};
    return QString::number(d, 'f', decimals);
}

} // namespace

RubricTreeModel::RubricTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void RubricTreeModel::setRubric(const Rubric &rubric, bool readOnly)
{
    beginResetModel();
    m_rubric = rubric;
    m_readOnly = readOnly;
    rebuild();
    endResetModel();
}

void RubricTreeModel::rebuild()
{
    // Children lists from the stored positions (stable for equal positions); a criterion whose
    // parent is missing is shown as a root. Then the vector is put in pre-order and renumbered.
    QVector<Criterion> &all = m_rubric.criteria();
    std::stable_sort(all.begin(), all.end(),
                     [](const Criterion &a, const Criterion &b) { return a.position < b.position; });
    QSet<QString> keys;
    for (const Criterion &c : std::as_const(all))
        keys.insert(c.key);
    m_children.clear();
    for (Criterion &c : all) {
        if (!c.parentKey.isEmpty() && !keys.contains(c.parentKey))
            c.parentKey.clear();
        m_children[c.parentKey].append(c.key);
    }
    QVector<Criterion> ordered;
    ordered.reserve(all.size());
    QHash<QString, int> at;
    for (int i = 0; i < all.size(); ++i)
        at.insert(all[i].key, i);
    std::function<void(const QString &)> visit = [&](const QString &parent) {
        for (const QString &k : m_children.value(parent)) {
            ordered.append(all[at.value(k)]);
            ordered.last().position = int(ordered.size()) - 1;
            visit(k);
        }
    };
    visit(QString());
    all = ordered;
}

quintptr RubricTreeModel::idOf(const QString &key) const
{
    auto it = m_ids.constFind(key);
    if (it != m_ids.constEnd())
        return *it;
    const quintptr id = quintptr(m_ids.size()) + 1;
    m_ids.insert(key, id);
    m_keys.insert(id, key);
    return id;
}

QString RubricTreeModel::keyOfId(quintptr id) const
{
    return m_keys.value(id);
}

int RubricTreeModel::rowOf(const QString &key) const
{
    const Criterion *c = m_rubric.find(key);
    return c ? int(m_children.value(c->parentKey).indexOf(key)) : -1;
}

QModelIndex RubricTreeModel::indexOfKey(const QString &key, int column) const
{
    const int row = rowOf(key);
    return row < 0 ? QModelIndex() : createIndex(row, column, idOf(key));
}

QString RubricTreeModel::keyOf(const QModelIndex &index) const
{
    return index.isValid() ? keyOfId(index.internalId()) : QString();
}

QString RubricTreeModel::freshKey(const QString &prefix) const
{
    for (int n = int(m_rubric.criteria().size()) + 1;; ++n) {
        const QString key = prefix + QString::number(n);
        if (!m_rubric.find(key))
            return key;
    }
}

void RubricTreeModel::setText(const QString &key, const QString &text, const QVariantMap &origin)
{
    Criterion *c = m_rubric.find(key);
    if (!c)
        return;
    c->text = text;
    c->origin = origin;
    const QModelIndex first = indexOfKey(key, 0);
    emit dataChanged(first, first.siblingAtColumn(ColumnCount - 1));
    emit rubricEdited();
}

void RubricTreeModel::setEnabled(const QString &key, bool enabled)
{
    Criterion *c = m_rubric.find(key);
    if (!c)
        return;
    c->enabled = enabled;
    const QModelIndex first = indexOfKey(key, 0);
    emit dataChanged(first, first.siblingAtColumn(ColumnCount - 1));
    emit rubricEdited();
}

QVector<Criterion> RubricTreeModel::takeSubtree(const QString &key, int *row)
{
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
    if (!c || (delta != -1 && delta != 1))
        return false;
    const int to = rowOf(key) + delta;
    return to >= 0 && to < m_children.value(c->parentKey).size();
}

bool RubricTreeModel::move(const QString &key, int delta)
{
    const Criterion *c = m_rubric.find(key);
    if (!c || (delta != -1 && delta != 1))
        return false;
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

QModelIndex RubricTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0 || (parent.isValid() && parent.column() != 0))
        return {};
    const QStringList &keys = m_children.value(keyOf(parent));
    if (row >= keys.size())
        return {};
    return createIndex(row, column, idOf(keys[row]));
}

QModelIndex RubricTreeModel::parent(const QModelIndex &child) const
{
    const Criterion *c = child.isValid() ? m_rubric.find(keyOf(child)) : nullptr;
    if (!c || c->parentKey.isEmpty())
        return {};
    return indexOfKey(c->parentKey);
}

int RubricTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(m_children.value(keyOf(parent)).size());
}

int RubricTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QString RubricTreeModel::originLabel(const Criterion &c)
{
    const QVariantMap &o = c.origin;
    QString label;
    const QString source = o.value(QStringLiteral("source")).toString();
    if (source == QLatin1String("init"))
        label = tr("initial");
    else if (source == QLatin1String("wrong-bank")) {
        const int refinements = std::max(0, int(o.value(QStringLiteral("chain")).toList().size()) - 1);
        label = refinements > 0 ? tr("wrong-bank refine %1").arg(refinements) : tr("wrong-bank");
    } else if (source == QLatin1String("literature"))
        label = tr("literature");
    else if (source == QLatin1String("added"))
        label = tr("added");
    else if (!source.isEmpty())
        label = source;
    else if (o.value(QStringLiteral("step")).toString() == QLatin1String("auto-cot"))
        label = tr("auto-CoT step");
    else if (o.value(QStringLiteral("step")).toString() == QLatin1String("aspect"))
        label = tr("aspect");
    else
        label = o.value(QStringLiteral("method")).toString();
    if (o.contains(QStringLiteral("edited_from")))
        label = label.isEmpty() ? tr("edited") : tr("edited (%1)").arg(label);
    return label;
}

QVariant RubricTreeModel::data(const QModelIndex &index, int role) const
{
    const Criterion *c = index.isValid() ? m_rubric.find(keyOf(index)) : nullptr;
    if (!c)
        return {};
    if (role == KeyRole)
        return c->key;
    const int col = index.column();
    if (role == Qt::CheckStateRole && col == EnabledColumn && c->kind != CriterionKind::Aspect)
        return c->enabled ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::ForegroundRole && !c->enabled)
        return QColor(Qt::gray);
    if (role == Qt::FontRole && col == OriginColumn && c->origin.contains(QStringLiteral("edited_from"))) {
        QFont f;
        f.setItalic(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole && (col == RewardColumn || col == TrainPearsonColumn || col == RankColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (Column(col)) {
        case TextColumn:
            return c->text;
        case KindColumn:
            return criterionKindName(c->kind);
        case EnabledColumn:
            return {};
        case OriginColumn:
            return originLabel(*c);
        case RewardColumn:
            return number(c->stats.value(QStringLiteral("reward")));
        case TrainPearsonColumn:
            return number(c->stats.value(QStringLiteral("train_pearson")));
        case RankColumn: {
            const int rank = c->stats.value(QStringLiteral("selected_rank")).toInt();
            if (rank > 0)
                return rank;
            if (c->kind != CriterionKind::Hypothesis && c->kind != CriterionKind::Aspect && c->weight != 1.0)
                return QString::number(c->weight, 'g', 3);
            return {};
        }
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(col)) {
        case TextColumn:
            return c->definition.isEmpty() ? c->text : tr("%1\n\nDefinition: %2").arg(c->text, c->definition);
        case EnabledColumn:
            return c->enabled ? tr("Scored by the judge (Space to disable)") : tr("Not scored (Space to enable)");
        case OriginColumn: {
            const QString from = c->origin.value(QStringLiteral("edited_from")).toString();
            return from.isEmpty() ? originLabel(*c)
                                  : tr("Edited by %1; the method's text was:\n%2")
                                            .arg(c->origin.value(QStringLiteral("edited_by")).toString(), from);
        }
        case RewardColumn:
            return tr("HypoEval's reward (accuracy and exploration bonus) when the bank was last updated");
        case TrainPearsonColumn:
            return tr("Pearson of this criterion's scores with the human scores on the train split");
        case RankColumn:
            return tr("Rank among the selected hypotheses (or the criterion's weight)");
        default:
            break;
        }
    }
    return {};
}

bool RubricTreeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    const Criterion *c = index.isValid() ? m_rubric.find(keyOf(index)) : nullptr;
    if (!c || m_readOnly)
        return false;
    if (index.column() == TextColumn && role == Qt::EditRole) {
        const QString text = value.toString().trimmed();
        if (text.isEmpty() || text == c->text)
            return false;
        auto *cmd = new EditCriterionTextCommand(this, c->key, text);
        if (m_stack)
            m_stack->push(cmd);
        else {
            cmd->redo();
            delete cmd;
        }
        return true;
    }
    if (index.column() == EnabledColumn && role == Qt::CheckStateRole && c->kind != CriterionKind::Aspect) {
        const bool on = value.toInt() == Qt::Checked;
        if (on == c->enabled)
            return false;
        auto *cmd = new SetCriterionEnabledCommand(this, c->key, on);
        if (m_stack)
            m_stack->push(cmd);
        else {
            cmd->redo();
            delete cmd;
        }
        return true;
    }
    return false;
}

Qt::ItemFlags RubricTreeModel::flags(const QModelIndex &index) const
{
    const Criterion *c = index.isValid() ? m_rubric.find(keyOf(index)) : nullptr;
    if (!c)
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    if (m_readOnly)
        return f;
    if (index.column() == TextColumn)
        f |= Qt::ItemIsEditable;
    if (index.column() == EnabledColumn && c->kind != CriterionKind::Aspect)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant RubricTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case TextColumn:
            return tr("Criterion");
        case KindColumn:
            return tr("Kind");
        case EnabledColumn:
            return tr("On");
        case OriginColumn:
            return tr("Origin");
        case RewardColumn:
            return tr("Reward");
        case TrainPearsonColumn:
            return tr("Train r");
        case RankColumn:
            return tr("Rank");
        case ColumnCount:
            break;
        }
    }
    return {};
}

} // namespace rubric
