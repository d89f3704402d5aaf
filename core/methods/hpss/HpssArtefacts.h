#pragma once

#include "methods/hpss/HpssAuxiliary.h"
#include "util/Result.h"

#include <QString>
#include <QVariantMap>
#include <QVector>

namespace rubric {
class Project;
}

/// The auxiliary artefacts of an HPSS judge as the user sees them (spec hpss.md §9.3): list, read
/// and edit each of the evaluator's auxiliary generations in the judge's stored state.
///
/// An edit is the user's: it is kept in the state (Auxiliaries::edited, with the evaluator's text
/// it replaced) and never made again by a run. An edit marks the evaluated strategies that used
/// the entry ("stale_steps" in the state); the next run of the judge searches again from the
/// start, and only the prompts that contain the edited text are new to the judge cache, so only
/// the evaluations that used it are sent again; every other answer comes from the cache.
namespace rubric::hpss::artefacts {

enum class Kind {
    Criteria,  ///< the self-generated criteria of the aspect (key "")
    AutoCot,   ///< AutoCoT steps, key "<scale>/<human|self>"
    Reference, ///< the self-generated reference of an item, key = item id
    Metrics    ///< the metrics questions of an item, key = item id
};
/// "criteria", "autocot", "reference", "metrics".
QString kindName(Kind k);
/// The kind of this name; an error naming the valid names otherwise.
Result<Kind> kindFromName(const QString &name);
/// "criteria", "autocot:5/human", "reference:<item>", "metrics:<item>" (Auxiliaries::edited's keys).
QString entryId(Kind kind, const QString &key);

/// Whether a strategy's prompts contain the entry (for an item entry: the prompts of that item).
bool uses(const PromptStrategy &strategy, Kind kind, const QString &key);

/// One auxiliary text of a judge.
struct Entry
{
    Kind kind = Kind::Criteria;
    QString key;
    QString text;
    bool edited = false;
    QString original;          ///< the evaluator's text an edit replaced ("" when none)
    QVector<int> usedBySteps;  ///< the evaluated strategies (steps) whose validation prompts used it
    bool usedByWinner = false; ///< the judge's latest winner uses it (on the test split for an item entry)
    QVariantMap toVariant() const;
};

/// Every auxiliary text the judge has, criteria first, then AutoCoT, references and metrics
/// (keys sorted). Errors when the judge is not an HPSS judge of the project or its state cannot be read.
Result<QVector<Entry>> list(Project &project, const QString &judge);
/// One entry; an error names the kind and key when the judge has no such text.
Result<Entry> read(Project &project, const QString &judge, Kind kind, const QString &key);

/// What an edit did.
struct EditOutcome
{
    Entry entry;                ///< the entry after the edit
    QVector<int> staleSteps;    ///< every step now marked stale (this edit's and earlier ones')
    bool searchRepeats = false; ///< the next run searches again (some evaluation used an edited text)
};
/// Sets the text of an entry (made or not yet made by the evaluator) as the user's edit. The text
/// is trimmed and must not be empty; an item entry needs an item of the project; an AutoCoT key
/// is "<scale>/<human|self>" with a scale of the space. Errors name the field ("text", "item",
/// "key").
Result<EditOutcome> edit(Project &project, const QString &judge, Kind kind, const QString &key, const QString &text);

/// The entries of `aux` that the user edited, alone (what a new search of a replaced judge keeps).
Auxiliaries editedOnly(const Auxiliaries &aux);

} // namespace rubric::hpss::artefacts
