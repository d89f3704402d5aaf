#pragma once

#include "rubric/Rubric.h"

#include <QColor>
#include <QStringList>
#include <QVariant>

namespace rubric {

/// What the Rubric pane's tree shows of an HD-Eval criteria tree (HD-Eval's views answer
/// RubricTreeModel with it): the layer of every node (and its colour: layer 1 white, 2 blue, 3 orange as in
/// the paper's Fig. 3), the permutation importance for one aspect (stats "importance" {aspect: x})
/// with its share of the largest one for the bar, and the expansion mark (stats "selected",
/// underlined, checkable on the nodes of layer 2 and below). Stateless; all functions are pure.
namespace HdEvalColumns {

/// The node's layer: stats "layer" when stored, else counted from the root (1).
int layer(const Rubric &rubric, const Criterion &c);
/// The background colour of a node of `layer` (white, light blue, light orange; deeper: grey).
QColor layerColour(int layer);
/// The aspects the tree's importances and aggregator name (sorted; empty for none).
QStringList aspects(const Rubric &rubric);
/// The node's permutation importance for `aspect` (the first aspect when empty); nullopt: none.
std::optional<double> importance(const Criterion &c, const QString &aspect);
/// importance / the largest importance of the tree for `aspect` (0…1; negative importances 0).
double importanceShare(const Rubric &rubric, const Criterion &c, const QString &aspect);
/// Whether pruning (or the user) marked the node for expansion.
bool isSelected(const Criterion &c);
/// The expansion column's text: the node's importance when pruning ranked its layer (for `aspect`;
/// "importance unknown" when undefined), "by hand" for a mark set by hand.
QString pruningText(const Criterion &c, const QString &aspect);
/// Whether the expansion mark can be set by hand: nodes below layer 1.
bool isSelectable(const Rubric &rubric, const Criterion &c);
/// The text column's display: "key · name — definition".
QString label(const Criterion &c);
/// RubricTreeModel's data for an HD-Eval node: the layer colour (background, every column), the
/// expansion mark (underlined text, the Expand check box), "key · name — definition", the layer and
/// the importance (text, ShareRole for the bar); invalid where the model's own data applies.
QVariant data(const Rubric &rubric, const Criterion &c, int column, int role, const QString &aspect);

/// The aggregator description stored on the root (kind, weights, train_r / cv_r / test_r,
/// baselines); empty when the tree has not been fitted.
QVariantMap aggregator(const Rubric &rubric);

} // namespace HdEvalColumns
} // namespace rubric
