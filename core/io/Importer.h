#pragma once

#include "util/Result.h"

#include <QHash>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <functional>

namespace rubric {

class Project;

enum class ImportFormat { Auto, Json, Jsonl, Csv, Tsv };

/// Which field of a record fills what. A FIELD is a CSV/TSV column name or a dot path into a
/// JSON object (`scores.coherence`). Empty = not mapped (id then defaults to the 0-based
/// position in the file).
struct FieldMapping
{
    QString id, group, system, source, output, reference;
    QVector<QPair<QString, QString>> context;     ///< NAME → FIELD
    QVector<QPair<QString, QString>> human;       ///< ASPECT → FIELD (a list value = one score per rater)
    QHash<QString, QPair<double, double>> scales; ///< ASPECT → (min, max); default 1–5
    QHash<QString, QString> definitions;          ///< ASPECT → definition (presets fill these)
    /// The kind of text judged ("summarization", "dialogue", "story"): stored as the project's
    /// meta key `task` (prompts word themselves after it) unless the project already has one.
    QString task;
    /// A system derived from a numeric id (HANNA's story_id): when > 0 and `system` is unmapped,
    /// an item's system is systemFromIdNames[id / systemFromIdBlock]; an id that is not a whole
    /// number in range is refused.
    int systemFromIdBlock = 0;
    QStringList systemFromIdNames;
};

/// How far an import got: bytes of the file read, items written, seconds since it began.
struct ImportProgress
{
    qint64 bytesRead = 0;
    qint64 bytesTotal = 0;
    int items = 0;
    double seconds = 0;
    /// "120,000 items · 41,000 items/s, 130.2 MB/s · 40% · about 4 s left" (the rate and what is
    /// left once there is a rate to tell).
    QString text() const;
};

struct ImportSpec
{
    QString file;
    ImportFormat format = ImportFormat::Auto;
    FieldMapping mapping;
    /// Called about four times a second while Importer::run() writes, and once at the end; return
    /// false to cancel (nothing is written).
    std::function<bool(const ImportProgress &)> progress;
    /// Asked after every batch of records (a few hundred), between the progress reports: true
    /// cancels (nothing is written). Lets a Cancel pressed between two reports stop a fast import
    /// before it commits.
    std::function<bool()> cancelled;
};

/// The first rows of a file as flat records (dot paths for nested JSON), for the mapping dialog.
struct ImportPreview
{
    ImportFormat format = ImportFormat::Auto;
    QStringList fields;
    QVector<QVariantMap> rows;
};

/// Where an imported aspect's scale came from.
enum class ScaleOrigin {
    Given,    ///< FieldMapping::scales (--scale, a preset, the dialog's Min/Max)
    Project,  ///< the scale the aspect already has in the project
    Inferred, ///< the data's smallest and largest score, widened to a usual scale (Importer::inferScale)
};

struct AspectScale
{
    QString aspect;
    double min = 1.0;
    double max = 5.0;
    ScaleOrigin origin = ScaleOrigin::Given;
};

struct ImportSummary
{
    int items = 0;
    int annotations = 0;
    QStringList aspects;
    QVector<AspectScale> scales; ///< one per aspect, in the order of `aspects`
};

/// Reads datasets into a project. All-or-nothing: on any malformed input (broken JSON/CSV, a
/// missing mapped field, a non-numeric score, a score outside its aspect's scale, an id already
/// in the project) nothing is written and the Error names the file, the 1-based line and the
/// field. Everything (aspects, items, annotations) is written in one transaction.
///
/// Human scores: a scalar becomes one annotation by the annotator `imported`; a list
/// (`[4, 3, 3]`, in CSV also the text "[4, 3, 3]") becomes one annotation per rater, named
/// `rater#1`, `rater#2`, … by position in the list (the same position is taken to be the same
/// rater across aspects). An empty cell, a JSON null or a null list element means "not rated"
/// and adds no annotation; a missing field is an error.
///
/// Aspects: a mapped aspect takes its scale from FieldMapping::scales, else keeps the scale it
/// already has in the project, else infers it from the data (inferScale; 1–5 when nothing is
/// rated); the summary says which. A score outside a given or kept scale is refused with the
/// scale that would hold it. Definitions from the mapping replace the stored ones.
/// Runs on the calling thread; emits the project's change signals after the commit.
class Importer
{
public:
    static constexpr const char *scalarAnnotator = "imported";
    static QString raterName(int index) { return QStringLiteral("rater#%1").arg(index + 1); }

    /// The format from the file name (.json, .jsonl/.ndjson, .csv, .tsv/.tab); `requested` wins
    /// when it is not Auto. A .json file whose first character is `{` is read as JSONL.
    /// Auto when it cannot tell.
    static ImportFormat formatFor(const QString &file, ImportFormat requested = ImportFormat::Auto);
    static Result<ImportFormat> parseFormat(const QString &name);

    /// Mapping presets for the bundled datasets: "summeval", "topical-chat", "hanna".
    static QStringList presetNames();
    static Result<FieldMapping> preset(const QString &name);

    static Result<ImportPreview> preview(const QString &file, ImportFormat format = ImportFormat::Auto,
                                         int maxRows = 20);
    static Result<ImportSummary> run(Project &project, const ImportSpec &spec);
    /// Everything run() checks and reports (scales included), without writing to the project.
    static Result<ImportSummary> check(Project &project, const ImportSpec &spec);

    /// The scale for scores from `lo` to `hi`: the first of the usual scales 0–1, 1–3, 1–5, 1–10
    /// that holds them, else lo–hi itself (lo–lo+1 when lo == hi).
    static QPair<double, double> inferScale(double lo, double hi);
    /// "0–1" as the summaries print a scale.
    static QString scaleText(double min, double max);

    /// Long-format human scores: columns item_id, annotator, aspect, score[, note] (CSV/TSV/JSON/JSONL).
    /// Replaces an existing score of the same annotator × item × aspect. An aspect not yet in the
    /// project is created with the scale 1–5. Unknown item ids are refused. All-or-nothing.
    static Result<ImportSummary> runAnnotations(Project &project, const QString &file,
                                                ImportFormat format = ImportFormat::Auto);
};

} // namespace rubric
