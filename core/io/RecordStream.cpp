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
class SimdView : public RecordView
{
public:
    simdjson::dom::object root;

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

    bool field(const FieldPath &path, FieldValue *out) const override
    {
        out->isText = false;
        out->text = {};
        return RecordSource::lookup(*fields, path.name, &out->value);
    }
};

/// Reads a file in large blocks and hands out its lines, each followed by SIMDJSON_PADDING
/// readable bytes (what simdjson reads past the end of a document).
class LineReader
{
public:
    explicit LineReader(QFile *file)
        : m_file(file)
    {
        grow(size_t(4) << 20);
    }

    /// The next line without its end (\n, \r\n); false at the end of the file or on a read error.
    bool next(const char **text, size_t *size)
    {
        for (;;) {
            const char *begin = m_buffer.get() + m_pos;
            const char *end = m_buffer.get() + m_end;
            const auto *nl = static_cast<const char *>(std::memchr(begin, '\n', size_t(end - begin)));
            if (nl || (m_eof && begin < end)) {
                const char *stop = nl ? nl : end;
                m_pos = size_t((nl ? nl + 1 : end) - m_buffer.get());
                *text = begin;
                *size = size_t(stop - begin);
                return true;
            }
            if (m_eof)
                return false;
            if (!fill())
                return false;
        }
    }

    /// Bytes of the file consumed so far (up to the end of the last line handed out).
    qint64 consumed() const { return m_offset + qint64(m_pos); }
    bool failed() const { return m_failed; }

private:
    void grow(size_t capacity)
    {
        auto bigger = std::make_unique<char[]>(capacity + simdjson::SIMDJSON_PADDING);
        if (m_buffer)
            std::memcpy(bigger.get(), m_buffer.get(), m_end);
        std::memset(bigger.get() + capacity, 0, simdjson::SIMDJSON_PADDING);
        m_buffer = std::move(bigger);
        m_capacity = capacity;
    }

    bool fill()
    {
        // Keep the unfinished line: move it to the front, or make room when it fills the buffer.
        if (m_pos > 0) {
            std::memmove(m_buffer.get(), m_buffer.get() + m_pos, m_end - m_pos);
            m_offset += qint64(m_pos);
            m_end -= m_pos;
            m_pos = 0;
        }
        if (m_end == m_capacity)
            grow(m_capacity * 2);
        const qint64 n = m_file->read(m_buffer.get() + m_end, qint64(m_capacity - m_end));
        if (n < 0) {
            m_failed = true;
            return false;
        }
        if (n == 0)
            m_eof = true;
        m_end += size_t(n);
        std::memset(m_buffer.get() + m_end, 0, simdjson::SIMDJSON_PADDING);
        return true;
    }

    QFile *m_file;
    std::unique_ptr<char[]> m_buffer;
    size_t m_capacity = 0, m_pos = 0, m_end = 0;
    qint64 m_offset = 0;
    bool m_eof = false, m_failed = false;
};

Result<void> forEachJsonl(const QString &file,
                          const std::function<Result<bool>(const RecordView &, qint64 bytesRead)> &visit)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return makeError(tr("cannot read the file: %1").arg(f.errorString()), file);
    LineReader lines(&f);
    simdjson::dom::parser parser;
    if (parser.allocate(size_t(1) << 16, kMaxDepth) != simdjson::SUCCESS)
        return makeError(tr("cannot read the file: %1").arg(tr("out of memory")), file);
    SimdView simd;
    VariantView fallback;
    int line = 0;
    const char *text = nullptr;
    size_t size = 0;
    while (lines.next(&text, &size)) {
        ++line;
        if (line == 1 && size >= 3 && std::memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
            text += 3;
            size -= 3;
        }
        while (size > 0 && (text[size - 1] == '\r' || text[size - 1] == '\n'))
            --size;
        if (std::string_view(text, size).find_first_not_of(" \t") == std::string_view::npos)
            continue;
        simdjson::dom::element root;
        const RecordView *view = nullptr;
        Record record;
        if (parser.parse(text, size, false).get(root) == simdjson::SUCCESS) {
            if (root.get_object().get(simd.root) != simdjson::SUCCESS)
                return makeError(tr("each line must hold one JSON object"), file, line);
            simd.line = line;
            view = &simd;
        } else {
            // What simdjson refuses, RecordSource's parser names (or takes: it reads a number
            // beyond 64 bits as a float, and nesting one level deeper).
            auto parsed = RecordSource::parseJsonLine(QByteArrayView(text, qsizetype(size)), file, line);
            if (!parsed)
                return parsed.error();
            record = std::move(parsed).value();
            fallback.fields = &record.fields;
            fallback.line = line;
            view = &fallback;
        }
        auto go = visit(*view, lines.consumed());
        if (!go.ok())
            return go.error();
        if (!*go)
            return {};
    }
    if (lines.failed())
        return makeError(tr("cannot read the file: %1").arg(f.errorString()), file, line + 1);
    return {};
}

} // namespace

FieldPath::FieldPath(const QString &field)
    : name(field)
    , key(field.toStdString())
{
    if (field.contains(QLatin1Char('.')))
        for (const QString &part : field.split(QLatin1Char('.')))
            parts.push_back(part.toStdString());
}

Result<void> RecordStream::forEach(const QString &file, ImportFormat format,
                                   const std::function<Result<bool>(const RecordView &, qint64)> &visit)
{
    if (format == ImportFormat::Jsonl)
        return forEachJsonl(file, visit);
    auto records = RecordSource::read(file, format);
    if (!records)
        return records.error();
    const qint64 size = QFile(file).size();
    VariantView view;
    for (qsizetype k = 0; k < records->size(); ++k) {
        view.fields = &records->at(k).fields;
        view.line = records->at(k).line;
        auto go = visit(view, size * (k + 1) / records->size());
        if (!go.ok())
            return go.error();
        if (!*go)
            break;
    }
    return {};
}

} // namespace rubric
