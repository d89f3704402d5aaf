#pragma once

#include "util/Result.h"

#include <QHash>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

namespace rubric {

class Project;

enum class ImportFormat { Auto, Json, Jsonl, Csv, Tsv };

/// Which field of a record fills what. A FIELD is a CSV/TSV column name or a dot path into a
/// JSON object (`scores.coherence`). Empty = not mapped (id then defaults to the 0-based
/// position in the file).
struct FieldMapping
{
    QString id, group, system, source, output, reference;
    QVector<QPair<QString, QString>> context;          ///< NAME → FIELD
    QVector<QPair<QString, QString>> human;            ///< ASPECT → FIELD (a list value = one score per rater)
    QHash<QString, QPair<double, double>> scales;      ///< ASPECT → (min, max); default 1–5
    QHash<QString, QString> definitions;               ///< ASPECT → definition (presets fill these)
};

struct ImportSpec
{
    QString file;
    ImportFormat format = ImportFormat::Auto;
    FieldMapping mapping;
};

/// The first rows of a file as flat records (dot paths for nested JSON), for the mapping dialog.
struct ImportPreview
{
    ImportFormat format = ImportFormat::Auto;
    QStringList fields;
    QVector<QVariantMap> rows;
};

struct ImportSummary
{
    int items = 0;
    int annotations = 0;
    QStringList aspects;
};

/// Reads datasets into a project. All-or-nothing: on any malformed input (broken JSON/CSV, a
/// missing mapped field, a non-numeric score) nothing is written and the Error names the file,
/// the 1-based line and the field.
class Importer
{
public:
    /// The format from the file name (.json, .jsonl/.ndjson, .csv, .tsv/.tab).
    static ImportFormat formatFor(const QString &file, ImportFormat requested = ImportFormat::Auto);
    static Result<ImportFormat> parseFormat(const QString &name);

    /// Mapping presets for the bundled datasets: "summeval", "topical-chat", "hanna".
    static QStringList presetNames();
    static Result<FieldMapping> preset(const QString &name);

    static Result<ImportPreview> preview(const QString &file, ImportFormat format = ImportFormat::Auto, int maxRows = 20);
    static Result<ImportSummary> run(Project &project, const ImportSpec &spec);

    /// Long-format human scores: columns item_id, annotator, aspect, score[, note] (CSV/TSV/JSON/JSONL).
    static Result<ImportSummary> runAnnotations(Project &project, const QString &file,
                                                ImportFormat format = ImportFormat::Auto);
};

} // namespace rubric
