#pragma once

namespace rubric {

/// The criterion column sets of a CheckEval judge's scores (MethodViews::scoreColumnSets, the
/// heatmap's switch): its questions (1 = yes, 0 = no), or its sub-aspects (the share of the
/// answered questions of the sub-aspect that are met: "yes", or "no" for a question whose polarity
/// the user inverted).
enum class ChecklistColumns { Questions, SubAspects };

} // namespace rubric
