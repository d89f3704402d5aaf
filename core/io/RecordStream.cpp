#include "RecordStream.h"

#include "RecordSource.h"

#include <QCoreApplication>
#include <QFile>

#include <cstring>
#include <memory>
#include <simdjson.h>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RecordSource", text);
}

/// As RecordSource's parser refuses them (it counts the levels inside the outermost one).
constexpr size_t kMaxDepth = 513;

QVariant toVariant(simdjson::dom::element e)
{
    using simdjson::dom::element_type;
    switch (e.type()) {
    case element_type::NULL_VALUE:
        return {};
    case element_type::BOOL:
        return bool(e.get_bool().value_unsafe());
    case element_type::INT64: {
        // RecordSource's parser holds a number without sign or fraction as unsigned.
        const int64_t v = e.get_int64().value_unsafe();
        return v >= 0 ? QVariant::fromValue<qulonglong>(qulonglong(v)) : QVariant::fromValue<qlonglong>(v);
    }
    case element_type::UINT64:
        return QVariant::fromValue<qulonglong>(e.get_uint64().value_unsafe());
    case element_type::DOUBLE:
        return e.get_double().value_unsafe();
    case element_type::STRING: {
        const std::string_view s = e.get_string().value_unsafe();
        return QString::fromUtf8(s.data(), qsizetype(s.size()));
    }
    case element_type::ARRAY: {
        QVariantList list;
        simdjson::dom::array array;
        if (e.get_array().get(array) == simdjson::SUCCESS)
            for (simdjson::dom::element c : array)
                list.append(toVariant(c));
        return list;
    }
    case element_type::OBJECT: {
        QVariantMap map;
        simdjson::dom::object object;
        if (e.get_object().get(object) == simdjson::SUCCESS)
            for (simdjson::dom::key_value_pair field : object)
                map.insert(QString::fromUtf8(field.key.data(), qsizetype(field.key.size())), toVariant(field.value));
        return map;
    }
    }
    return {};
}

void valueOf(simdjson::dom::element e, FieldValue *out)
{
    std::string_view s;
    if (e.get_string().get(s) == simdjson::SUCCESS) {
        out->isText = true;
        out->text = QByteArrayView(s.data(), qsizetype(s.size()));
        out->value = QVariant();
        return;
    }
    out->isText = false;
    out->text = {};
    out->value = toVariant(e);
}

/// A record simdjson read: lookups on its parsed form, texts without a copy.
/// Dot paths of the leaves of an object, in file order (as RecordSource's records list them).
void columnsOf(simdjson::dom::object object, const QString &prefix, QStringList *out)
{
    for (simdjson::dom::key_value_pair field : object) {
        const QString key = prefix + QString::fromUtf8(field.key.data(), qsizetype(field.key.size()));
        simdjson::dom::object inner;
        if (field.value.get_object().get(inner) == simdjson::SUCCESS && inner.size() > 0)
            columnsOf(inner, key + QLatin1Char('.'), out);
        else
            out->append(key);
    }
}

class SimdView : public RecordView
{
public:
    simdjson::dom::object root;

    Record toRecord() const override
    {
        Record r;
        r.line = line;
        for (simdjson::dom::key_value_pair field : root)
            r.fields.insert(QString::fromUtf8(field.key.data(), qsizetype(field.key.size())), toVariant(field.value));
        columnsOf(root, {}, &r.columns);
        return r;
    }

    bool field(const FieldPath &path, FieldValue *out) const override
    {
        simdjson::dom::element e;
        if (root.at_key(path.key).get(e) != simdjson::SUCCESS) {
            if (path.parts.size() < 2)
                return false;
            simdjson::dom::object cur = root;
            for (size_t i = 0; i < path.parts.size(); ++i) {
                if (cur.at_key(path.parts[i]).get(e) != simdjson::SUCCESS)
                    return false;
                if (i + 1 < path.parts.size() && e.get_object().get(cur) != simdjson::SUCCESS)
                    return false;
            }
        }
        valueOf(e, out);
        return true;
    }
};

/// A record RecordSource read (CSV, or a line simdjson refused and RecordSource's parser took).
class VariantView : public RecordView
{
public:
    const QVariantMap *fields = nullptr;
    QStringList columns;

    Record toRecord() const override { return Record{line, *fields, columns}; }

    bool field(const FieldPath &path, FieldValue *out) const override
    {
        out->isText = false;
        out->text = {};
        return RecordSource::lookup(*fields, path.name, &out->value);
    }
};

/// A file read in large blocks. The bytes not yet consumed stay in the buffer, followed by
/// SIMDJSON_PADDING readable bytes (what simdjson reads past the end of a document).
class BlockReader
{
public:
    explicit BlockReader(QFile *file)
        : m_file(file)
    {
        grow(size_t(4) << 20);
    }

    const char *begin() const { return m_buffer.get() + m_pos; }
    const char *end() const { return m_buffer.get() + m_end; }
    bool atEnd() const { return m_eof; }
    bool failed() const { return m_failed; }
    void consume(size_t n) { m_pos += n; }
    /// Bytes of the file consumed so far.
    qint64 consumed() const { return m_offset + qint64(m_pos); }

    /// Reads more after what is there (kept, moved to the front; the buffer grows when it is
    /// full). False at the end of the file or on a read error.
    bool more()
    {
        if (m_eof)
            return false;
        if (m_pos > 0) {
            std::memmove(m_buffer.get(), m_buffer.get() + m_pos, m_end - m_pos);
            m_offset += qint64(m_pos);
            m_end -= m_pos;
            m_pos = 0;
        }
        if (m_end == m_capacity)
            grow(m_capacity * 2);
        const qint64 n = m_file->read(m_buffer.get() + m_end, qint64(m_capacity - m_end));
        if (n < 0)
            m_failed = true;
        if (n <= 0) {
            m_eof = true;
            return false;
        }
        m_end += size_t(n);
        std::memset(m_buffer.get() + m_end, 0, simdjson::SIMDJSON_PADDING);
        return true;
    }

    /// Skips a UTF-8 byte order mark at the start of the file.
    void skipBom()
    {
        while (m_end - m_pos < 3 && more()) {
        }
        if (m_end - m_pos >= 3 && std::memcmp(begin(), "\xEF\xBB\xBF", 3) == 0)
            m_pos += 3;
    }

private:
    void grow(size_t capacity)
    {
        auto bigger = std::make_unique<char[]>(capacity + simdjson::SIMDJSON_PADDING);
        if (m_buffer)
            std::memcpy(bigger.get(), m_buffer.get(), m_end);
        std::memset(bigger.get() + m_end, 0, capacity + simdjson::SIMDJSON_PADDING - m_end);
        m_buffer = std::move(bigger);
        m_capacity = capacity;
    }

    QFile *m_file;
    std::unique_ptr<char[]> m_buffer;
    size_t m_capacity = 0, m_pos = 0, m_end = 0;
    qint64 m_offset = 0;
    bool m_eof = false, m_failed = false;
};

using Visit = std::function<Result<bool>(const RecordView &, qint64 bytesRead)>;

/// Parses one JSON object of the file (a JSONL line, an element of a list) that starts at
/// `line`, `column`: with simdjson, else (the message, or what only it takes) RecordSource's parser.
class ObjectParser
{
public:
    explicit ObjectParser(const QString &file)
        : m_file(file)
    {
        m_ok = m_parser.allocate(size_t(1) << 16, kMaxDepth) == simdjson::SUCCESS;
    }

    /// The record, or the error; `notObject` is the message for a value that is no object.
    Result<const RecordView *> parse(const char *text, size_t size, int line, int column, const QString &notObject)
    {
        simdjson::dom::element root;
        if (m_ok && m_parser.parse(text, size, false).get(root) == simdjson::SUCCESS) {
            if (root.get_object().get(m_simd.root) != simdjson::SUCCESS)
                return makeError(notObject, m_file, line);
            m_simd.line = line;
            return static_cast<const RecordView *>(&m_simd);
        }
        // Indented as in the file, so that the parser's column is the file's.
        std::string padded(size_t(std::max(0, column - 1)), ' ');
        padded.append(text, size);
        auto parsed
                = RecordSource::parseJsonLine(QByteArrayView(padded.data(), qsizetype(padded.size())), m_file, line);
        if (!parsed) {
            if (parsed.error().message == tr("each line must hold one JSON object"))
                return makeError(notObject, m_file, line);
            return parsed.error();
        }
        m_record = std::move(parsed).value();
        m_fallback.fields = &m_record.fields;
        m_fallback.columns = m_record.columns;
        m_fallback.line = line;
        return static_cast<const RecordView *>(&m_fallback);
    }

private:
    QString m_file;
    simdjson::dom::parser m_parser;
    bool m_ok = false;
    SimdView m_simd;
    VariantView m_fallback;
    Record m_record;
};

Result<void> forEachJsonl(const QString &file, const Visit &visit)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return makeError(tr("cannot read the file: %1").arg(f.errorString()), file);
    BlockReader in(&f);
    in.skipBom();
    ObjectParser parser(file);
    const QString notObject = tr("each line must hold one JSON object");
    int line = 0;
    for (;;) {
        const char *text = in.begin();
        const auto *nl = static_cast<const char *>(std::memchr(text, '\n', size_t(in.end() - text)));
        if (!nl && !in.atEnd()) {
            in.more(); // (moves the bytes: look again)
            continue;
        }
        if (!nl && text == in.end())
            break;
        size_t size = size_t((nl ? nl : in.end()) - text);
        in.consume(size + (nl ? 1 : 0));
        ++line;
        while (size > 0 && (text[size - 1] == '\r' || text[size - 1] == '\n'))
            --size;
        if (std::string_view(text, size).find_first_not_of(" \t") == std::string_view::npos)
            continue;
        auto record = parser.parse(text, size, line, 1, notObject);
        if (!record)
            return record.error();
        auto go = visit(**record, in.consumed());
        if (!go.ok())
            return go.error();
        if (!*go)
            return {};
    }
    if (in.failed())
        return makeError(tr("cannot read the file: %1").arg(f.errorString()), file, line + 1);
    return {};
}

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// The length of the JSON value at the start of [p, end) (strings and nesting skipped, not
/// checked: the parser checks), and the newlines in it; 0 when it does not end before `end`.
size_t valueLength(const char *p, const char *end, int *newlines)
{
    int depth = 0;
    bool inString = false;
    *newlines = 0;
    for (const char *c = p; c < end; ++c) {
        if (*c == '\n')
            ++*newlines;
        if (inString) {
            if (*c == '\\')
                ++c;
            else if (*c == '"') {
                inString = false;
                if (depth == 0)
                    return size_t(c + 1 - p);
            }
            continue;
        }
        switch (*c) {
        case '"':
            inString = true;
            break;
        case '{':
        case '[':
            ++depth;
            break;
        case '}':
        case ']':
            if (depth == 0) // a scalar ends here
                return size_t(c - p);
            if (--depth == 0)
                return size_t(c + 1 - p);
            break;
        case ',':
            if (depth == 0)
                return size_t(c - p);
            break;
        default:
            if (depth == 0 && isJsonSpace(*c))
                return size_t(c - p);
            break;
        }
    }
    return 0;
}

/// A JSON file holding a list of objects, read one element at a time.
Result<void> forEachJsonElement(const QString &file, const Visit &visit)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return makeError(tr("cannot read the file: %1").arg(f.errorString()), file);
    BlockReader in(&f);
    in.skipBom();
    ObjectParser parser(file);
    int line = 1, column = 1;
    // The next byte that is not white space (read more as needed); 0 at the end of the file.
    const auto next = [&]() -> char {
        for (;;) {
            const char *p = in.begin();
            while (p < in.end() && isJsonSpace(*p)) {
                if (*p == '\n') {
                    ++line;
                    column = 1;
                } else {
                    ++column;
                }
                ++p;
            }
            in.consume(size_t(p - in.begin()));
            if (p < in.end())
                return *p;
            if (!in.more())
                return 0;
        }
    };
    const auto invalid = [&](const QString &what) {
        return makeError(tr("invalid JSON: %1").arg(what), file, line, tr("column %1").arg(column));
    };
    const char first = next();
    if (first == 0)
        return invalid(tr("the file is empty"));
    if (first != '[')
        return makeError(tr("a JSON file must hold a list of objects (for one object per line use the jsonl format)"),
                         file, 1);
    in.consume(1);
    ++column;
    const auto closed = [&]() -> Result<void> {
        in.consume(1);
        ++column;
        if (next() != 0)
            return invalid(tr("unexpected text after the list"));
        return {};
    };
    if (next() == ']')
        return closed();
    for (int k = 1;; ++k) {
        if (next() == 0)
            return invalid(tr("unexpected end of input; expected a value or ']'"));
        int newlines = 0;
        size_t size = valueLength(in.begin(), in.end(), &newlines);
        while (size == 0 && in.more())
            size = valueLength(in.begin(), in.end(), &newlines);
        if (size == 0) // the file ends inside the element: the parser says where
            size = size_t(in.end() - in.begin());
        auto record
                = parser.parse(in.begin(), size, line, column, tr("element %1 of the list is not an object").arg(k));
        if (!record)
            return record.error();
        auto go = visit(**record, in.consumed() + qint64(size));
        if (!go.ok())
            return go.error();
        if (!*go)
            return {};
        // Past the element: its lines, and the column after its last line.
        const char *last = in.begin() + size;
        const char *lineStart = last;
        while (lineStart > in.begin() && lineStart[-1] != '\n')
            --lineStart;
        column = newlines > 0 ? int(last - lineStart) + 1 : column + int(size);
        line += newlines;
        in.consume(size);
        const char after = next();
        if (after == ']')
            return closed();
        if (after != ',')
            return invalid(after == 0 ? tr("unexpected end of input; expected ',' or ']'")
                                      : tr("expected ',' or ']' after element %1 of the list").arg(k));
        in.consume(1);
        ++column;
    }
}

/// What reading one CSV/TSV row found.
enum class RowEnd { Row, NeedMore, End };

/// A CSV/TSV file (RFC 4180) read row by row as RecordSource::read() reads it whole.
class DelimitedReader
{
public:
    DelimitedReader(const QString &file, char delim)
        : m_file(file)
        , m_delim(delim)
    {
    }

    /// The column named `path` (exact names only: CSV has no nesting).
    bool field(const FieldPath &path, FieldValue *out) const
    {
        for (size_t c = 0; c < m_headerUtf8.size(); ++c)
            if (m_headerUtf8[c] == path.key) {
                out->isText = true;
                out->text = m_cells[c];
                out->value = QVariant();
                return true;
            }
        return false;
    }

    Result<void> forEach(const Visit &visit)
    {
        QFile f(m_file);
        if (!f.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
            return makeError(tr("cannot read the file: %1").arg(f.errorString()), m_file);
        BlockReader in(&f);
        in.skipBom();
        struct View : RecordView
        {
            const DelimitedReader *reader = nullptr;
            bool field(const FieldPath &path, FieldValue *out) const override { return reader->field(path, out); }
            Record toRecord() const override { return reader->toRecord(line); }
        } view;
        view.reader = this;
        for (;;) {
            const int rowLine = m_line;
            size_t used = 0;
            auto end = readRow(in.begin(), in.end(), in.atEnd(), &used);
            if (!end)
                return end.error();
            if (*end == RowEnd::NeedMore) {
                m_line = rowLine;
                if (!in.more() && !in.atEnd())
                    break;
                continue;
            }
            if (*end == RowEnd::End)
                break;
            in.consume(used);
            if (m_cells.size() == 1 && m_cells.front().isEmpty())
                continue; // an empty line
            for (QByteArray &cell : m_cells)
                if (!simdjson::validate_utf8(cell.constData(), size_t(cell.size())))
                    cell = QString::fromUtf8(cell).toUtf8(); // as a whole-file read decodes it
            if (m_header.isEmpty()) {
                if (auto h = takeHeader(rowLine); !h)
                    return h;
                continue;
            }
            if (m_cells.size() != size_t(m_header.size()))
                return makeError(
                        tr("expected %1 columns as in the header, found %2").arg(m_header.size()).arg(m_cells.size()),
                        m_file, rowLine);
            view.line = rowLine;
            auto go = visit(view, in.consumed());
            if (!go.ok())
                return go.error();
            if (!*go)
                return {};
        }
        if (in.failed())
            return makeError(tr("cannot read the file: %1").arg(f.errorString()), m_file, m_line);
        if (m_header.isEmpty())
            return makeError(tr("the file is empty (a header row is expected)"), m_file, 1);
        return {};
    }

    Record toRecord(int line) const
    {
        Record r;
        r.line = line;
        r.columns = m_header;
        for (qsizetype c = 0; c < m_header.size(); ++c)
            r.fields.insert(m_header[c], QString::fromUtf8(m_cells[size_t(c)]));
        return r;
    }

private:
    QString columnName(size_t column) const
    {
        return column < size_t(m_header.size()) ? m_header[qsizetype(column)] : tr("column %1").arg(column + 1);
    }

    /// One row from [p, end) into m_cells; `used` is the bytes it took. NeedMore when the row
    /// may go on past `end` and the file has more.
    Result<RowEnd> readRow(const char *p, const char *end, bool eof, size_t *used)
    {
        const char *start = p;
        if (p == end)
            return eof ? RowEnd::End : RowEnd::NeedMore;
        m_cells.clear();
        for (;;) {
            QByteArray cell;
            if (p < end && *p == '"') {
                const int quoteLine = m_line;
                const size_t column = m_cells.size();
                ++p;
                for (;;) {
                    if (p >= end) {
                        if (!eof)
                            return RowEnd::NeedMore;
                        return makeError(tr("unterminated quoted field (the quote opened here is never closed)"),
                                         m_file, quoteLine, columnName(column));
                    }
                    if (*p == '"') {
                        if (p + 1 >= end && !eof)
                            return RowEnd::NeedMore;
                        if (p + 1 < end && p[1] == '"') {
                            cell += '"';
                            p += 2;
                            continue;
                        }
                        ++p;
                        break;
                    }
                    const char *q = p;
                    while (q < end && *q != '"') {
                        if (*q == '\n')
                            ++m_line;
                        ++q;
                    }
                    cell.append(p, q - p);
                    p = q;
                }
                if (p >= end && !eof)
                    return RowEnd::NeedMore;
                if (p < end && *p != m_delim && *p != '\r' && *p != '\n')
                    return makeError(tr("unexpected text after a closing quote"), m_file, m_line, columnName(column));
            } else {
                const char *from = p;
                while (p < end && *p != m_delim && *p != '\r' && *p != '\n')
                    ++p;
                if (p >= end && !eof)
                    return RowEnd::NeedMore;
                cell = QByteArray(from, p - from);
            }
            m_cells.push_back(std::move(cell));
            if (p < end && *p == m_delim) {
                ++p;
                continue;
            }
            // The end of the row (or of the file): \r\n, \n or \r.
            if (p < end && *p == '\r') {
                if (p + 1 >= end && !eof)
                    return RowEnd::NeedMore;
                ++p;
            }
            if (p < end && *p == '\n')
                ++p;
            ++m_line;
            *used = size_t(p - start);
            return RowEnd::Row;
        }
    }

    Result<void> takeHeader(int rowLine)
    {
        for (size_t i = 0; i < m_cells.size(); ++i) {
            const QString name = QString::fromUtf8(m_cells[i]).trimmed();
            if (name.isEmpty())
                return makeError(tr("column %1 of the header has no name").arg(i + 1), m_file, rowLine);
            if (m_header.contains(name))
                return makeError(tr("the column name '%1' appears twice in the header").arg(name), m_file, rowLine);
            m_header.append(name);
            m_headerUtf8.push_back(name.toStdString());
        }
        return {};
    }

    QString m_file;
    char m_delim;
    int m_line = 1;
    QStringList m_header;
    std::vector<std::string> m_headerUtf8;
    std::vector<QByteArray> m_cells;
};

} // namespace

FieldPath::FieldPath(const QString &field)
    : name(field)
    , key(field.toStdString())
{
    if (field.contains(QLatin1Char('.')))
        for (const QString &part : field.split(QLatin1Char('.')))
            parts.push_back(part.toStdString());
}

Result<void> RecordStream::forEach(const QString &file, ImportFormat format, const Visit &visit)
{
    switch (format) {
    case ImportFormat::Jsonl:
        return forEachJsonl(file, visit);
    case ImportFormat::Json:
        return forEachJsonElement(file, visit);
    case ImportFormat::Csv:
        return DelimitedReader(file, ',').forEach(visit);
    case ImportFormat::Tsv:
        return DelimitedReader(file, '\t').forEach(visit);
    case ImportFormat::Auto:
        break;
    }
    return RecordSource::read(file, format).error(); // names what is missing (the format)
}

} // namespace rubric
