#pragma once

#include "util/Result.h"

#include <QPair>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

namespace rubric {
class Project;
}

namespace rubric::stats {

/// One record of a score file with the 1-based line it starts on.
struct ScoreRecord
{
    int line = 0;
    QVariantMap fields;
};

/// Reads CSV, TSV (header row first), JSON (a list of objects) or JSONL (one object per line),
/// chosen by the file's extension (.csv, .tsv/.tab, .json, .jsonl/.ndjson). Errors name the file
/// and the line.
Result<QVector<ScoreRecord>> readScoreRecords(const QString &file);

/// A field of a record: the key itself, or else a dot path into nested objects ("scores.coherence").
/// Returns an invalid QVariant when absent.
QVariant recordField(const QVariantMap &fields, const QString &field);

struct ScoreImportSpec
{
    QString file;
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

/// Imports another tool's per-item scores as the judge `spec.judge` (method "imported", created
/// through Project::ensureJudge; an existing judge of another method is refused). Everything is
/// checked before anything is written: unknown aspect, missing field, non-numeric score, unknown
/// or repeated item id → an Error naming file, line and field, and the project is untouched.
/// Empty or null values are stored as missing scores.
Result<ScoreImportSummary> importJudgeScores(Project &project, const ScoreImportSpec &spec);

} // namespace rubric::stats
