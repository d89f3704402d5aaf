#include "HdEvalColumns.h"

#include "methods/hdeval/HdEvalTree.h"
#include "models/RubricTreeModel.h"

#include <QCoreApplication>
#include <QFont>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace rubric::HdEvalColumns {

int layer(const Rubric &rubric, const Criterion &c)
{
    const int stored = c.stats.value(QStringLiteral("layer")).toInt();
    return stored > 0 ? stored : hdeval::layerOf(rubric, c);
}

QColor layerColour(int layer)
{
    switch (layer) {
    case 1:
        return QColor(255, 255, 255);
    case 2:
        return QColor(214, 232, 250);
    case 3:
        return QColor(253, 225, 196);
    default:
        return QColor(232, 232, 232);
    }
}

QStringList aspects(const Rubric &rubric)
{
    QSet<QString> out;
    for (const Criterion &c : rubric.criteria()) {
        const QVariantMap importances = c.stats.value(QStringLiteral("importance")).toMap();
        for (auto it = importances.cbegin(); it != importances.cend(); ++it)
            out.insert(it.key());
    }
    QStringList list(out.begin(), out.end());
    list.sort();
    return list;
}

std::optional<double> importance(const Criterion &c, const QString &aspect)
{
    const QVariantMap map = c.stats.value(QStringLiteral("importance")).toMap();
    if (map.isEmpty())
        return std::nullopt;
    const QVariant v = aspect.isEmpty() ? map.first() : map.value(aspect);
    bool ok = false;
    const double x = v.toDouble(&ok);
    if (!ok || !std::isfinite(x))
        return std::nullopt;
    return x;
}

double importanceShare(const Rubric &rubric, const Criterion &c, const QString &aspect)
{
    const auto own = importance(c, aspect);
    if (!own || *own <= 0)
        return 0;
    double largest = 0;
    for (const Criterion &other : rubric.criteria())
        if (const auto x = importance(other, aspect))
            largest = std::max(largest, *x);
    return largest > 0 ? *own / largest : 0;
}

bool isSelected(const Criterion &c)
{
    return c.stats.value(QStringLiteral("selected")).toBool();
}

QString pruningText(const Criterion &c, const QString &aspect)
{
    const bool hand = isSelected(c) && c.stats.value(QStringLiteral("selected_by")).toString() == QLatin1String("hand");
    QString figure;
    if (c.stats.value(QStringLiteral("pruning_unknown")).toBool())
        figure = QCoreApplication::translate("HdEvalColumns", "importance unknown");
    else if (const QVariantMap m = c.stats.value(QStringLiteral("pruning_importance")).toMap(); !m.isEmpty()) {
        const QVariant v = m.value(aspect.isEmpty() ? m.firstKey() : aspect);
        figure = v.isNull() ? QCoreApplication::translate("HdEvalColumns", "importance unknown")
                            : QString::number(v.toDouble(), 'f', 3);
    }
    if (hand)
        return figure.isEmpty() ? QCoreApplication::translate("HdEvalColumns", "by hand")
                                : QCoreApplication::translate("HdEvalColumns", "by hand · %1").arg(figure);
    return figure;
}

bool isSelectable(const Rubric &rubric, const Criterion &c)
{
    return c.kind != CriterionKind::Aspect && layer(rubric, c) >= 2;
}

QString label(const Criterion &c)
{
    QString out = c.key + QStringLiteral(" · ") + c.text;
    if (!c.definition.isEmpty())
        out += QStringLiteral(" — ") + c.definition;
    return out;
}

QVariant data(const Rubric &rubric, const Criterion &c, int column, int role, const QString &aspect)
{
    const int nodeLayer = layer(rubric, c);
    if (role == Qt::BackgroundRole)
        return layerColour(nodeLayer);
    if (role == Qt::ForegroundRole && c.enabled)
        return QColor(Qt::black); // on the light layer colours whatever the palette
    switch (column) {
    case RubricTreeModel::TextColumn:
        if (role == Qt::DisplayRole)
            return label(c);
        if (role == Qt::FontRole && isSelected(c)) {
            QFont f;
            f.setUnderline(true);
            return f;
        }
        break;
    case RubricTreeModel::LayerColumn:
        if (role == Qt::DisplayRole)
            return nodeLayer;
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignCenter);
        if (role == Qt::ToolTipRole)
            return QCoreApplication::translate(
                    "HdEvalColumns",
                    "Layer 1 is the aspect, layer 2 its sub-criteria, layer 3 the sub-criteria of the nodes "
                    "pruning selected");
        break;
    case RubricTreeModel::ImportanceColumn: {
        const auto x = importance(c, aspect);
        if (role == Qt::DisplayRole)
            return x ? QVariant(QString::number(*x, 'f', 3)) : QVariant();
        if (role == RubricTreeModel::ShareRole)
            return x ? QVariant(importanceShare(rubric, c, aspect)) : QVariant();
        if (role == RubricTreeModel::SortRole)
            return x ? QVariant(*x) : QVariant();
        if (role == Qt::ToolTipRole)
            return QCoreApplication::translate(
                    "HdEvalColumns",
                    "Permutation importance: how much the aggregator's fit on the train split drops when "
                    "this node's scores are shuffled");
        break;
    }
    case RubricTreeModel::SelectedColumn:
        if (role == Qt::CheckStateRole && isSelectable(rubric, c))
            return isSelected(c) ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::DisplayRole && isSelectable(rubric, c))
            return pruningText(c, aspect);
        if (role == Qt::ToolTipRole) {
            QString tip = QCoreApplication::translate(
                    "HdEvalColumns",
                    "Marked for expansion: \"Next layer\" decomposes the marked nodes (pruning marks the most "
                    "important ones; a mark set by hand is kept)");
            const QVariantMap basis = c.stats.value(QStringLiteral("pruning")).toMap();
            if (!basis.isEmpty())
                tip += QLatin1Char('\n')
                       + QCoreApplication::translate("HdEvalColumns",
                                                     "The figure is this node's importance when pruning ranked layer "
                                                     "2 (%1 permutation importance, %2, on %3 train items), not the "
                                                     "final fit's importance the bars show")
                                 .arg(basis.value(QStringLiteral("metric")).toString(),
                                      basis.value(QStringLiteral("split")).toString())
                                 .arg(basis.value(QStringLiteral("n_train")).toInt());
            return tip;
        }
        break;
    default:
        break;
    }
    return {};
}

QVariantMap aggregator(const Rubric &rubric)
{
    for (const Criterion &c : rubric.criteria())
        if (c.parentKey.isEmpty() && c.stats.contains(QStringLiteral("aggregator")))
            return c.stats.value(QStringLiteral("aggregator")).toMap();
    return {};
}

} // namespace rubric::HdEvalColumns
