#pragma once

#include "rubric/Criterion.h"

#include <QCoreApplication>
#include <QString>

namespace rubric {

class MethodViews;

/// The Rubric pane's detail text of one criterion, as HTML: kind and state, definition, origin
/// (with the method's text when the user edited it, the wrong-prediction event and refinements),
/// the figures the method measured (train correlation, reward and its history, rank, why it was
/// not selected). The method's root criterion adds what the run built it from: the calls per
/// phase, the parameters and, for HypoEval, the literature summaries (the generator's or the
/// user's).
class CriterionDetail
{
    Q_DECLARE_TR_FUNCTIONS(CriterionDetail)
public:
    /// `views`: those of the rubric's method, for the criterion's flags and warning (a checklist
    /// question's).
    static QString html(const Criterion &c, const MethodViews &views);
    /// The judge's last run as its stored configuration tells (runs.config): how the scores were
    /// made (G-Eval: logprobs or samples, and why) and the items the endpoint refused.
    static QString runHtml(const QVariantMap &runConfig);
    /// A number with three decimals; empty for null, NaN or non-numbers.
    static QString number(const QVariant &v);
};

} // namespace rubric
