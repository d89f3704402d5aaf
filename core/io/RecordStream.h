#pragma once

#include "io/Importer.h"
#include "io/RecordSource.h"
#include "util/Result.h"

#include <QByteArrayView>
#include <QString>
#include <QVariant>

#include <functional>
#include <string>
#include <vector>

namespace rubric {

/// A field name made ready once for the lookups in every record: the exact key first (CSV
/// columns, JSON keys containing dots), then the dot path into nested objects.
struct FieldPath
{
    FieldPath() = default;
    explicit FieldPath(const QString &field);
    QString name;
    std::string key;                ///< `name` as UTF-8
    std::vector<std::string> parts; ///< its dot path (empty when it has no dot)
};

/// The value of one field of a record: text as the file's UTF-8 bytes (valid until the visit
/// returns), anything else (numbers, booleans, null, lists, objects) as RecordSource::read()
/// would hold it in a Record's fields.
struct FieldValue
{
    bool isText = false;
    QByteArrayView text; ///< when isText
    QVariant value;      ///< when not isText
};

/// One record of a streamed file.
class RecordView
{
public:
    virtual ~RecordView() = default;
    /// The value at `field`; false when the record has no such field.
    virtual bool field(const FieldPath &path, FieldValue *out) const = 0;
    /// The whole record as RecordSource::read() gives it (for previews).
    virtual Record toRecord() const = 0;
    int line = 0; ///< 1-based line where the record starts
};

/// Streams the records of a dataset file, for the importers: memory stays that of a few records
/// whatever the file's size. JSON and JSONL are read with simdjson; a record it refuses is read
/// again by RecordSource's parser, so a malformed file gets the same message naming the file,
/// line and column as RecordSource::read() gives.
class RecordStream
{
public:
    /// Hands the records to `visit` one at a time in file order, with the bytes of the file read
    /// so far; `visit` returns false to stop.
    static Result<void> forEach(const QString &file, ImportFormat format,
                                const std::function<Result<bool>(const RecordView &, qint64 bytesRead)> &visit);
};

} // namespace rubric
