#pragma once

#include "data/Item.h"
#include "methods/hpss/PromptAssembly.h"
#include "util/Result.h"

#include <QString>
#include <QVector>

namespace rubric::hpss {

/// CloserLook (Chiang and Lee 2023, "A Closer Look into Automatic Evaluation Using Large Language
/// Models"), the HPSS paper's human-designed baseline: their best setting "analyze-rate", a fixed
/// prompt text per task and aspect (the authors' prompts/<task>/<aspect>_analyze_rate.txt, kept
/// in resources/prompts/hpss_closerlook/ as Python's text-mode read gives them: "\r\n" → "\n").
/// The authors wrote them for SummEval and Topical-Chat only.
struct CloserLookPrompt
{
    QString name;     ///< "closerlook" or "closerlook-icl"
    QString file;     ///< the resource, e.g. "hpss_closerlook/summeval_coh.txt"
    QString text;     ///< the template with {{Document}}, {{Summary}} / {{Response}}, {{Fact}}
    int examples = 0; ///< CloserLook + ICL: the human evaluation examples shown before the item
};

/// The prompt `name` ("closerlook", "closerlook-icl") for the HPSS task and the aspect; an error
/// names the task or aspect the authors wrote no analyze-rate prompt for.
Result<CloserLookPrompt> closerLookPrompt(const QString &name, const QString &task, const QString &aspect);

/// The template filled for one item as the authors' scripts fill it (str.replace of {{Document}}
/// with the source, {{Summary}} / {{Response}} with the output, {{Fact}} with the fact). With
/// examples (CloserLook + ICL; the HPSS paper does not print its format): before the template's
/// "Example:" line, "Human evaluation examples:" and per example the template's own input section
/// filled with the example, then "Rating: <human score>".
QString renderCloserLook(const QString &templ, const QString &source, const QString &output, const QString &fact,
                         const QVector<ExampleItem> &examples);

} // namespace rubric::hpss
