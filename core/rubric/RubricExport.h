#pragma once

#include "rubric/Rubric.h"

#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace rubric {

/// A rubric version written out for people and tools outside the studio: `rubric show-rubric`
/// (--json / --markdown) and the studio's Rubric pane (Export Rubric…) use the same writers.
class RubricExport
{
public:
    /// {"method", "aspect", "version", "criteria": [{"id", "parent", "kind", "text", "definition",
    ///  "enabled", "weight", "origin", "stats"}]} — criteria in tree order (parents before children).
    /// An HD-Eval rubric also has "aggregator" (from the aspect root's stats, see HdEvalMethod).
    /// The `rootStats` keys of the root criterion's ("aspect") stats are lifted to the top: the
    /// method's MethodInfo::exportedStats (MethodRegistry::exportedRootStats(rubric.method())), so an
    /// HPSS rubric adds "strategy" ({factor: value}, the winner) and "search" ({"evaluated":
    /// [{"strategy", "validation_spearman", "step", "move", …}], "advantages": {factor: {value: A}}, …}).
    static QVariantMap toJson(const Rubric &rubric, const QStringList &rootStats = {});
    /// A readable document: the aspect and its definition, then the criteria as a nested list,
    /// enabled ones first-class and disabled ones struck through, each with what the method
    /// measured (reward, train correlation, selection rank) where it did.
    static QString toMarkdown(const Rubric &rubric);
};

} // namespace rubric
