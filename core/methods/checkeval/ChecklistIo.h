#pragma once

#include "rubric/Rubric.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace rubric {

/// Reads CheckEval checklists into a Rubric (method "checkeval") in the shared checklist shape:
/// root Aspect "aspect" (text = aspect name, definition), SubAspects "s1", "s2", … under it,
/// Questions "q1", "q2", … under their sub-aspect, each with origin {"method": "checkeval",
/// "stage", "source", and "seed" (the parent seed's key) where known}.
///
/// Three file formats:
/// - CheckEval's published YAML: `definition` (a string, or a one-entry map {dataset: text}) and
///   `sub_aspect` ({name: questions}). The questions of a sub-aspect are one string split on '?'
///   exactly like upstream's make_question_list (strip, split on '?', drop empty parts, append '?'
///   to each); a YAML list of such strings is accepted too.
/// - our JSON rubric export (RubricExport::toJson), read back criterion by criterion;
/// - our Markdown rubric export (RubricExport::toMarkdown) of a checklist; it keeps keys, kinds,
///   texts, the aspect definition and the enabled flag, not origin or stats.
///
/// All-or-nothing: any error gives an Error naming the file and (where known) the 1-based line
/// and the field, and no rubric. Pure functions; callable from any thread.
class ChecklistIo
{
    Q_DECLARE_TR_FUNCTIONS(ChecklistIo)
public:
    /// Reads `path` by its suffix (.yaml/.yml, .json, .md/.markdown) and checks that the result
    /// is a checklist (see validate). `aspect` names the aspect for YAML files; when empty it
    /// comes from the file name (`coherence_seed.yaml` → "coherence"). YAML questions get
    /// origin.source = the path and origin.stage from a `_seed` / `_diversification` /
    /// `_elaboration` file-name suffix, else "seed" (a person's own questions are seeds).
    static Result<Rubric> readFile(const QString &path, const QString &aspect = {});

    /// A checklist named the way the CLI and the run configuration name one:
    /// "preset:<dataset>/<aspect>[/<stage>]" (see preset()), or a file path (see readFile()).
    static Result<Rubric> load(const QString &spec, const QString &aspect = {});

    /// The YAML form. `fileName` is used in messages and as origin.source.
    static Result<Rubric> readYaml(const QByteArray &text, const QString &fileName, const QString &aspect,
                                   const QString &stage, const QString &source);
    /// Our JSON export (any method); positions follow the file's order.
    static Result<Rubric> readJson(const QByteArray &text, const QString &fileName);
    /// Our Markdown export of a checklist (the inverse of RubricExport::toMarkdown for it).
    static Result<Rubric> readMarkdown(const QString &text, const QString &fileName);

    /// Checks the checklist shape: one Aspect root, sub-aspects under it, questions under
    /// sub-aspects, at least one question, non-empty texts, unique keys.
    static Result<void> validate(const Rubric &rubric, const QString &fileName);

    /// The shipped presets: "<dataset>/<aspect>" (the unfiltered union of the three published
    /// stage files — not the paper's final checklist, which its filter pruned and which is not
    /// published) and "<dataset>/<aspect>/<stage>" (one upstream file), sorted.
    static QStringList presetNames();
    /// One preset by name. With a stage: that upstream file, its questions that equal a seed
    /// question marked stage "seed". Without: seed + diversification + elaboration questions,
    /// duplicates removed (a question equal to an earlier one after normaliseQuestion() is the
    /// same question, so "polite and empathetic" equals "polite, and empathetic"), each with the
    /// stage it first appeared in; sub-aspects in the seed file's order.
    static Result<Rubric> preset(const QString &name);
    /// The size of the paper's final checklist for "<dataset>/<aspect>" (Tables 17–18: after its
    /// filter), or 0 for a name the tables do not cover (a /stage preset, an unknown name).
    static int paperFinalCount(const QString &name);
    /// What a preset is, for the New checklist dialog: "unfiltered union of seed, diversification
    /// and elaboration: 39 questions; the paper's final checklist has 35 (its filter removed 4)";
    /// one file's stage and count for a /stage preset. Empty for an unknown name.
    static QString presetDescription(const QString &name);
    /// The raw YAML text of one preset file ("summeval/coherence/seed"); empty when unknown.
    static QByteArray presetYaml(const QString &name);
};

} // namespace rubric
