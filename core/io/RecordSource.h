#pragma once

#include "io/Importer.h"
#include "util/Result.h"

#include <QByteArrayView>
#include <QString>
#include <QVariant>
#include <QVector>

#include <functional>

namespace rubric {

/// One record of a dataset file: its fields (nested maps/lists for JSON, strings for CSV/TSV)
/// and the 1-based line where it starts in the file.
struct Record
{
    int line = 0;
    QVariantMap fields;
    QStringList columns; ///< the field names in file order (dot paths into nested JSON objects)
};

/// Reads a whole JSON (a list of objects), JSONL, CSV or TSV file into records (previews, small
/// files; the importers stream theirs with RecordStream). Stateless.
///
/// CSV/TSV follow RFC 4180: the first row names the columns, fields may be quoted with `"`
/// (embedded delimiters, newlines and doubled quotes), a UTF-8 BOM is skipped, CRLF and LF both
/// end a row, empty rows are skipped. On malformed input the Error names the file, the 1-based
/// line and, where known, the column or field; no partial result is returned.
class RecordSource
{
public:
    /// `maxRecords` > 0 stops after that many records (for previews; later damage is not seen).
    static Result<QVector<Record>> read(const QString &file, ImportFormat format, int maxRecords = 0);

    /// One line of a JSONL file as a record (the object it holds), or the error naming the file,
    /// the line and the column.
    static Result<Record> parseJsonLine(QByteArrayView text, const QString &file, int line);

    /// The value at `field`: an exact key first (CSV columns, JSON keys containing dots), then a
    /// dot path into nested objects. Returns false when the field is absent.
    static bool lookup(const QVariantMap &fields, const QString &field, QVariant *value);

    /// Flattens nested objects into dot-path keys (lists stay lists), for previews.
    static QVariantMap flatten(const QVariantMap &fields);
};

} // namespace rubric
