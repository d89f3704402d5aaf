// RubricTreeModel: one uniform rubric tree (hypotheses, checklists, criteria trees, HPSS factors) for
// every view. This file is its read side (columns per method, data, flags, headers, sorting); the
// write side (edits, the undo stack, moving subtrees) is RubricTreeModelEdits.cpp.
#include "RubricTreeModel.h"

#include "PlainText.h"
#include "commands/EditCriterionTextCommand.h"
#include "commands/SetCriterionEnabledCommand.h"
#include "methods/MethodRegistry.h"
#include "methods/MethodViews.h"

#include <QColor>
#include <QFont>
#include <QIcon>
#include <QSet>

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

double figure(const QVariant &v)
{
    bool ok = false;
    const double d = (v.isValid() && !v.isNull()) ? v.toDouble(&ok) : 0.0;
    return ok ? d : std::nan("");
}

} // namespace

QList<int> RubricTreeModel::columnsFor(const QString &method)
{
    return MethodViews::forMethod(method).treeColumns(MethodRegistry::find(method));
}

QString RubricTreeModel::polarityWarning(const Criterion &c) const
{
    return m_views->criterionWarning(c);
}

RubricTreeModel::RubricTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_views(&MethodViews::forMethod(QString()))
{
}

void RubricTreeModel::setRubric(const Rubric &rubric, bool readOnly)
{
    beginResetModel();
    m_rubric = rubric;
    m_views = &MethodViews::forMethod(m_rubric.method());
    m_readOnly = readOnly;
    rebuild();
    applySort();
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
    const QString stage = o.value(QStringLiteral("stage")).toString();
    if (stage == QLatin1String("seed"))
        label = tr("seed");
    else if (stage == QLatin1String("diversification"))
        label = tr("diversification");
    else if (stage == QLatin1String("elaboration"))
        label = tr("elaboration");
    else if (source == QLatin1String("init"))
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
    if (QVariant v = m_views->treeData(m_rubric, *c, col, role, m_aspect); v.isValid())
        return v;
    if (role == Qt::CheckStateRole && col == EnabledColumn && c->kind != CriterionKind::Aspect)
        return c->enabled ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::ForegroundRole && !c->enabled)
        return QColor(Qt::gray);
    if (role == Qt::FontRole && col == OriginColumn && c->origin.contains(QStringLiteral("edited_from"))) {
        QFont f;
        f.setItalic(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole
        && (col == RewardColumn || col == TrainPearsonColumn || col == RankColumn || col == YesRateColumn
            || col == DiscriminationColumn || col == AnsweredColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        double v = std::nan("");
        if (col == RewardColumn)
            v = figure(c->stats.value(QStringLiteral("reward")));
        else if (col == TrainPearsonColumn)
            v = figure(c->stats.value(QStringLiteral("train_pearson")));
        else if (col == YesRateColumn)
            v = figure(c->stats.value(QStringLiteral("yes_rate")));
        else if (col == DiscriminationColumn)
            v = figure(c->stats.value(QStringLiteral("discrimination")));
        else if (col == AnsweredColumn)
            v = figure(c->stats.value(QStringLiteral("answered")));
        return std::isnan(v) ? QVariant() : QVariant(v);
    }
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
        case YesRateColumn:
            return number(c->stats.value(QStringLiteral("yes_rate")), 2);
        case DiscriminationColumn:
            return number(c->stats.value(QStringLiteral("discrimination")), 2);
        case AnsweredColumn:
            return c->stats.contains(QStringLiteral("answered"))
                           ? QVariant(c->stats.value(QStringLiteral("answered")).toInt())
                           : QVariant();
        case FlagsColumn:
        case LayerColumn:
        case ImportanceColumn:
        case SelectedColumn:
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
            return plain::toolTip(c->definition.isEmpty() ? c->text
                                                          : tr("%1\n\nDefinition: %2").arg(c->text, c->definition));
        case EnabledColumn:
            return c->enabled ? tr("Scored by the judge (Space to disable)") : tr("Not scored (Space to enable)");
        case OriginColumn: {
            const QString from = c->origin.value(QStringLiteral("edited_from")).toString();
            return plain::toolTip(
                    from.isEmpty() ? originLabel(*c)
                                   : tr("Edited by %1; the method's text was:\n%2")
                                             .arg(c->origin.value(QStringLiteral("edited_by")).toString(), from));
        }
        case RewardColumn:
            return tr("HypoEval's reward (accuracy and exploration bonus) when the bank was last updated");
        case TrainPearsonColumn:
            return tr("Pearson of this criterion's scores with the human scores on the train split");
        case RankColumn:
            return tr("Rank among the selected hypotheses (or the criterion's weight)");
        case YesRateColumn:
            return tr("Share of \"yes\" among the answered items");
        case DiscriminationColumn:
            return tr("Point-biserial correlation of this question's answers with the human scores on the "
                      "train split: the questions that carry the judge have the highest");
        case AnsweredColumn:
            return tr("Items on which the judge answered this question");
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
        push(new EditCriterionTextCommand(this, c->key, text));
        return true;
    }
    if (index.column() == EnabledColumn && role == Qt::CheckStateRole && c->kind != CriterionKind::Aspect) {
        const bool on = value.toInt() == Qt::Checked;
        if (on == c->enabled)
            return false;
        push(new SetCriterionEnabledCommand(this, c->key, on));
        return true;
    }
    if (role == Qt::CheckStateRole && m_views->isTreeCheckable(m_rubric, *c, index.column())) {
        QUndoCommand *command = m_views->treeCheckCommand(this, *c, index.column(), value.toInt() == Qt::Checked);
        if (!command)
            return false;
        push(command);
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
    if ((index.column() == EnabledColumn && c->kind != CriterionKind::Aspect)
        || m_views->isTreeCheckable(m_rubric, *c, index.column()))
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
        case YesRateColumn:
            return tr("Yes-rate");
        case DiscriminationColumn:
            return tr("Discrimination");
        case AnsweredColumn:
            return tr("Answered");
        case FlagsColumn:
            return tr("Flags");
        case LayerColumn:
            return tr("Layer");
        case ImportanceColumn:
            return tr("Importance");
        case SelectedColumn:
            return tr("Expand");
        case ColumnCount:
            break;
        }
    }
    return {};
}

void RubricTreeModel::sort(int column, Qt::SortOrder order)
{
    const bool figureColumn = column == RewardColumn || column == TrainPearsonColumn || column == YesRateColumn
                              || column == DiscriminationColumn || column == AnsweredColumn;
    const int to = figureColumn ? column : -1;
    if (to == m_sortColumn && (to < 0 || order == m_sortOrder))
        return;
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    QStringList keys;
    for (const QModelIndex &i : before)
        keys << keyOf(i);
    m_sortColumn = to;
    m_sortOrder = order;
    if (to < 0)
        rebuild();
    else
        applySort();
    QModelIndexList after;
    for (int i = 0; i < before.size(); ++i)
        after << indexOfKey(keys[i], before[i].column());
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

void RubricTreeModel::applySort()
{
    if (m_sortColumn < 0)
        return;
    // The figures first: data() finds rows through m_children, which is being reordered.
    QHash<QString, double> figures;
    for (auto it = m_children.cbegin(); it != m_children.cend(); ++it)
        for (const QString &key : it.value()) {
            const QVariant v = data(createIndex(0, m_sortColumn, idOf(key)), SortRole);
            figures.insert(key, v.isValid() ? v.toDouble() : std::nan(""));
        }
    const auto value = [&figures](const QString &key) { return figures.value(key); };
    for (auto it = m_children.begin(); it != m_children.end(); ++it) {
        QStringList &kids = it.value();
        std::stable_sort(kids.begin(), kids.end(), [&](const QString &a, const QString &b) {
            const double x = value(a), y = value(b);
            if (std::isnan(x) || std::isnan(y))
                return !std::isnan(x) && std::isnan(y); // missing figures last either way
            return m_sortOrder == Qt::AscendingOrder ? x < y : x > y;
        });
    }
}

void RubricTreeModel::unsort()
{
    if (m_sortColumn >= 0)
        sort(-1);
}

} // namespace rubric
