#pragma once

#include "util/Result.h"

#include <QString>

namespace rubric {

class Project;

/// Writes the project's scores from the studio: per item its id, group, system, split, the mean
/// human score per aspect and every judge's score per aspect.
///  - `.jsonl`: one object per line, the same shape as `rubric export`
///    {"id","group","system","source","output","split","human":{aspect:mean},"judges":{judge:{aspect:score}}};
///  - `.json`: those objects as one array;
///  - `.csv`: one row per item, columns id, group, system, split, human:<aspect>…, <judge>:<aspect>….
/// Missing scores are JSON null / an empty CSV cell. Reads through Project only; writes the
/// file atomically (QSaveFile), so a failed export leaves an existing file untouched.
class ScoreExport
{
public:
    static Result<int> write(const Project &project, const QString &path);
};

} // namespace rubric
