#pragma once

#include "util/Result.h"

#include <QString>

namespace rubric {

class Project;

/// Writes a project's items with their human means and judge scores to a file. Stateless.
///
/// `.jsonl`: one object per item {"id", "group", "system", "source", "output", "reference",
/// "human": {aspect: mean}, "judges": {judge: {aspect: score}}} (aspects without a score absent).
/// `.csv`: one row per item; columns id, group, system, source, output, reference,
/// human.<aspect>…, judge.<judge>.<aspect>… (empty cell = no score), RFC 4180 quoting.
/// The file is replaced atomically; on failure it is left as it was.
class Exporter
{
public:
    /// Returns the number of items written.
    static Result<int> write(const Project &project, const QString &file);
};

} // namespace rubric
