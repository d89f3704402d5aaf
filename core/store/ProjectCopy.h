#pragma once

#include "util/Result.h"

namespace rubric {

class Project;

/// What a copy wrote.
struct CopyCounts
{
    int tables = 0;
    qint64 rows = 0;
};

/// Copies a whole project into another, empty one: every row of every table of the schema, ids
/// and all, so that the copy reads exactly as the original (SQLite file ↔ PostgreSQL database, or
/// file to file). The source is read in one snapshot; the target is written in one transaction
/// and refused (nothing written) when it already holds any row. Runs on the calling thread.
Result<CopyCounts> copyProject(Project &from, Project &to);

} // namespace rubric
