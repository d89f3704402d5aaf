#pragma once

#include "util/Result.h"

#include <QString>

namespace rubric {

class Project;

/// File → Export Scores: per item its id, group, system, texts, the mean human score per aspect
/// and every judge's score per aspect.
///  - `.csv` and `.jsonl`: written by the core Exporter, exactly as `rubric export` writes them;
///  - `.json`: the same objects as the JSONL lines, as one array (plus the item's split).
/// Aspects without a score are absent. The file is replaced atomically (a failed export leaves
/// an existing file untouched). Returns the number of items written.
class ScoreExport
{
public:
    static Result<int> write(const Project &project, const QString &path);
};

} // namespace rubric
