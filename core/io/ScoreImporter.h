#pragma once

#include "io/Importer.h"
#include "util/Result.h"

#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

namespace rubric {

class Project;

struct ScoreImportSpec
{
    QString file;
    ImportFormat format = ImportFormat::Auto; ///< Auto: from the file's name
    QString judge;
    QString idField;                         ///< empty: record k (0-based) scores the item whose id is "k"
    QVector<QPair<QString, QString>> scores; ///< ASPECT → FIELD
};

struct ScoreImportSummary
{
    int records = 0;
    int scores = 0;  ///< non-missing scores stored
    int missing = 0; ///< empty / null values, stored as missing
    QStringList aspects;
};

/// Imports another tool's per-item scores as the judge `spec.judge` (method "imported"; an
/// existing judge of another method is refused). Streamed, all-or-nothing: the records are read
/// one at a time (CSV, TSV, a JSON list or JSONL: RecordStream) and written in one transaction
/// that any error rolls back. Unknown aspect, missing field, non-numeric score, unknown or
/// repeated item id → an Error naming file, line and field, and the project is untouched.
/// Empty or null values are stored as missing scores.
class ScoreImporter
{
public:
    static Result<ScoreImportSummary> run(Project &project, const ScoreImportSpec &spec);
};

} // namespace rubric
