#pragma once

#include "methods/RunTypes.h"
#include "rubric/Criterion.h"

#include <QStringList>
#include <QVariant>
#include <QVector>

#include <functional>
#include <memory>

namespace rubric {

class Method;
class RunContext;

/// One parameter of a method: what `rubric run --set KEY=VALUE` accepts and what the Judge &
/// Run pane shows as a field (label and tooltip from here, translated in the context
/// "rubric::MethodParams"). Most parameters are RunSpec::settings entries; a few are RunSpec
/// fields of their own (G-Eval's "logprobs" and "samples", HypoEval's "literature"), which
/// methodParamValue()/setMethodParamValue() map.
struct MethodParam
{
    /// Folder / File: a path (line edit and a browse button; a File field also takes a typed value
    /// such as CheckEval's "preset:…"); Text: a line edit.
    enum class Type { Int, Double, Bool, Choice, Folder, File, Text };

    QString key;
    Type type = Type::Int;
    QVariant defaultValue; ///< the paper's value (or the inferred one the help names)
    double min = 0;        ///< Int, Double
    double max = 0;
    int decimals = 0;            ///< Double
    QStringList choices;         ///< Choice: the values, as --set takes them
    const char *label = nullptr; ///< short field label (QT_TRANSLATE_NOOP("rubric::MethodParams", …))
    const char *help = nullptr;  ///< what it does and the paper's value (same context)
    /// A Bool parameter whose being on makes this one irrelevant (G-Eval's samples with logprobs).
    QString unusedWhen;
};

/// What the studio and the CLI know of a judge-building method: one entry per method, in the
/// order the run pane lists them. Adding a method is adding its folder and its name to RUBRIC_METHODS
/// (core/methods/CMakeLists.txt); the CLI's --method, the run pane's method list and parameter form, the Rubric pane's
/// kind of a hand-written criterion and the phase order of estimates all read it.
struct MethodInfo
{
    QString name;                  ///< "geval": --method, runs.config's method, a rubric's method
    QString title;                 ///< "G-Eval"
    const char *summary = nullptr; ///< a line for tooltips and `rubric run --help` (context rubric::MethodParams)
    std::function<std::unique_ptr<Method>(RunContext *)> create;
    QVector<MethodParam> params;
    /// The kinds of the method's rubric tree from the root down (G-Eval: aspect → step;
    /// CheckEval: aspect → sub-aspect → question).
    QVector<CriterionKind> kinds;
    QStringList phases; ///< the phases of a run, in run order (as in RunEstimate::perPhase)

    const MethodParam *param(const QString &key) const;
    /// The kind of a criterion a user adds under a node of kind `parent` (the next kind down;
    /// the leaf kind under a leaf's parent).
    CriterionKind childKind(CriterionKind parent) const;
};

namespace MethodRegistry {

/// Every method, in display order.
const QVector<MethodInfo> &all();
/// The method named `name`; nullptr when there is none.
const MethodInfo *find(const QString &name);
QStringList names();

} // namespace MethodRegistry

/// The value `spec` has for a parameter of its method (the parameter's default when unset).
QVariant methodParamValue(const RunSpec &spec, const MethodParam &param);
/// Sets a parameter of `spec`'s method (a settings entry, or the RunSpec field it stands for).
void setMethodParamValue(RunSpec &spec, const MethodParam &param, const QVariant &value);

/// The descriptors of the methods core/methods/CMakeLists.txt lists (RUBRIC_METHODS), in that order:
/// generated, it calls each folder's `MethodInfo <name>Descriptor()`. MethodRegistry::all() reads it.
QVector<MethodInfo> registeredMethods();

} // namespace rubric
