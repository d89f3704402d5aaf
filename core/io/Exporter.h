#pragma once

#include "util/Result.h"

#include <QHash>
#include <QString>

#include <functional>
#include <optional>
#include <utility>

namespace rubric {

class Project;

/// Writes a project's items with their human means and judge scores to a file. Stateless.
///
/// `.jsonl`: one object per item {"id", "group", "system", "source", "output", "reference",
/// "human": {aspect: mean}, "judges": {judge: {aspect: score}}} (aspects without a score absent).
/// `.csv`: one row per item; columns id, group, system, source, output, reference,
/// human.<aspect>…, judge.<judge>.<aspect>… (empty cell = no score), RFC 4180 quoting.
/// The file is replaced atomically; on failure it is left as it was.
///
/// A judge whose score is a share of answered questions (a checklist) has notes (ScoreNotes,
/// given by the caller, who asks the judge's method: io knows no method): the CSV adds the
/// columns judge.<judge>.<aspect>.answered, .asked and .missing after the score (per item: the
/// questions answered, the questions asked, and how an unanswered question counts: "skip" = left
/// out of the share, "no" = counted as not met); the JSONL adds "coverage": {judge: {"answered",
/// "asked", "missing"}} to each item that judge scored.
struct ScoreNotes
{
    QString missing;                                   ///< "skip" or "no"
    QHash<QString, std::pair<int, int>> answeredAsked; ///< item → (answered, asked)
};
/// The notes of one judge; nullopt for a judge without (most methods).
using ScoreNotesFor = std::function<Result<std::optional<ScoreNotes>>(const QString &judge)>;

class Exporter
{
public:
    /// Returns the number of items written.
    static Result<int> write(const Project &project, const QString &file, const ScoreNotesFor &notes = {});
};

} // namespace rubric
