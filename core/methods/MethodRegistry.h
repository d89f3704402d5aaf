#pragma once

#include "io/Exporter.h"
#include "methods/RunTypes.h"
#include "rubric/Criterion.h"

#include <QStringList>
#include <QVariant>
#include <QVector>

#include <functional>
#include <memory>

namespace rubric {

class Method;
class Project;
class RunContext;
class Rubric;

/// One parameter of a method: what `rubric run --set KEY=VALUE` accepts and what the Judge &
/// Run pane shows as a field (label and tooltip from here, translated in the context
/// "rubric::MethodParams"). Every parameter is a RunSpec::settings entry under its key (see
/// methodParamValue()/setMethodParamValue()); a few also have a `rubric run` option of their own
/// (MethodInfo::runOptions).
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
    /// What a run does when its spec leaves the parameter unset, where that is not `defaultValue`
    /// (G-Eval's logprobs: off without --logprobs, while the run pane's form starts on). Invalid:
    /// `defaultValue`.
    QVariant unsetValue;
    /// runs.config keeps the parameter at its top level under `key` rather than in "settings"
    /// (where versions that had it as a RunSpec field of its own wrote it: G-Eval's logprobs and
    /// samples, HypoEval's literature), typed by `type`. RunConfig reads it back into the settings,
    /// so configurations written by those versions load, resume and compare as before.
    bool topLevel = false;

    /// The value a spec that leaves the parameter unset runs with (`unsetValue`, else `defaultValue`).
    QVariant unsetOrDefault() const { return unsetValue.isValid() ? unsetValue : defaultValue; }
    /// Whether `text` is a value of the parameter as declared: an Int a whole number and a Double a
    /// number from `min` to `max`, a Choice one of `choices`, a Bool true, false, on, off, 1 or 0;
    /// any text for the others. A method's settings reader checks its declared parameters with it,
    /// so a range is written once, here in the descriptor.
    bool accepts(const QString &text) const;
};

/// A `rubric run` option of a method that sets one of its parameters (G-Eval's --logprobs and
/// --samples N, HypoEval's --literature DIR). A flag (no `valueName`) sets a Bool parameter to true
/// when given and leaves it unset otherwise; an option with a value sets the parameter to it when
/// given, else to `defaultValue` where that is not empty.
struct RunOption
{
    QString name;                    ///< the option, without the dashes
    QString param;                   ///< the MethodParam::key it sets
    const char *help = nullptr;      ///< the option's help line (`rubric run --help`, not translated)
    const char *valueName = nullptr; ///< "N", "DIR"; nullptr: a flag
    QString defaultValue;            ///< what --help shows and an option not given sets (empty: nothing)
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
    /// The method's own `rubric run` options (parsed for every method; applied to the settings of
    /// a run of this one). --resume refuses them, as it refuses every configuration option.
    QVector<RunOption> runOptions;
    /// Keys of the stats of the rubric's root criterion ("aspect") that the JSON export
    /// (RubricExport::toJson) lifts to its top (HPSS: the winning strategy, its search, the
    /// validation and test Spearman, …). See exportedRootStats().
    QStringList exportedStats;
    /// The method judges several aspects at once: `rubric run --aspect A,B` or `--aspect all`
    /// makes the first the run's aspect and passes the list as the setting "aspects" (HD-Eval's
    /// layer 1). Other methods refuse a list.
    bool multiAspect = false;
    /// What the method's views flag on a criterion of its rubric, for scripts (`show-rubric --json`
    /// adds it to each criterion as "flags"); unset: no flags (CheckEval: polarity, constant,
    /// near-duplicate, inverted).
    std::function<QVariantMap(const Rubric &, const Criterion &)> criterionFlags;
    /// What the score exports add to a judge of this method (Exporter's ScoreNotes: how a missing
    /// answer counts, answered and asked per item); unset: nothing (CheckEval sets it).
    std::function<Result<std::optional<ScoreNotes>>(Project &, const QString &judge)> scoreNotes;

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
/// MethodInfo::exportedStats of the method named `name` (empty when there is none).
QStringList exportedRootStats(const QString &name);
/// The exports' notes per judge of `project` (MethodInfo::scoreNotes of the judge's method).
ScoreNotesFor scoreNotesFor(Project &project);

} // namespace MethodRegistry

/// The value `spec` has for a parameter of its method (MethodParam::unsetOrDefault() when unset).
QVariant methodParamValue(const RunSpec &spec, const MethodParam &param);
/// Sets a parameter of `spec`'s method: its settings entry (a Double as text with up to 10
/// significant digits, a Folder trimmed, anything else as text).
void setMethodParamValue(RunSpec &spec, const MethodParam &param, const QVariant &value);

/// The descriptors of the methods core/methods/CMakeLists.txt lists (RUBRIC_METHODS), in that order:
/// generated, it calls each folder's `MethodInfo <name>Descriptor()`. MethodRegistry::all() reads it.
QVector<MethodInfo> registeredMethods();

} // namespace rubric
