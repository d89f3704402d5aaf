#include "RecordSource.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RecordSource", text);
}

// ordered_json keeps the keys in file order, so previews list fields as the file has them.
using Json = nlohmann::ordered_json;

QVariant toVariant(const Json &j)
{
    switch (j.type()) {
    case Json::value_t::null:
    case Json::value_t::discarded:
        return {};
    case Json::value_t::boolean:
        return j.get<bool>();
    case Json::value_t::number_integer:
        return QVariant::fromValue<qlonglong>(j.get<qlonglong>());
    case Json::value_t::number_unsigned:
        return QVariant::fromValue<qulonglong>(j.get<qulonglong>());
    case Json::value_t::number_float:
        return j.get<double>();
    case Json::value_t::string:
        return QString::fromStdString(j.get_ref<const std::string &>());
    case Json::value_t::array: {
        QVariantList list;
        list.reserve(qsizetype(j.size()));
        for (const auto &e : j)
            list.append(toVariant(e));
        return list;
    }
    case Json::value_t::object: {
        QVariantMap map;
        for (auto it = j.begin(); it != j.end(); ++it)
            map.insert(QString::fromStdString(it.key()), toVariant(it.value()));
        return map;
    }
    case Json::value_t::binary:
        break;
    }
    return {};
}

/// Dot paths of the leaves of an object, in file order.
void columnsOf(const Json &j, const QString &prefix, QStringList *out)
{
    for (auto it = j.begin(); it != j.end(); ++it) {
        const QString key = prefix + QString::fromStdString(it.key());
        if (it.value().is_object() && !it.value().empty())
            columnsOf(it.value(), key + QLatin1Char('.'), out);
        else
            out->append(key);
    }
}

Record recordOf(int line, const Json &j)
{
    Record r{line, toVariant(j).toMap(), {}};
    columnsOf(j, {}, &r.columns);
    return r;
}

/// 1-based line of the byte at `offset` (0-based).
int lineAt(const std::string &bytes, size_t offset)
{
    offset = std::min(offset, bytes.size());
    int line = 1;
    for (size_t i = 0; i < offset; ++i)
        if (bytes[i] == '\n')
            ++line;
    return line;
}

/// The part of nlohmann's message after its own "parse error at line L, column C: " prefix.
QString parseReason(const char *what)
{
    const QString s = QString::fromUtf8(what);
    const qsizetype at = s.indexOf(QLatin1String("column "));
    if (at >= 0) {
        const qsizetype colon = s.indexOf(QLatin1String(": "), at);
        if (colon >= 0)
            return s.mid(colon + 2);
    }
    const qsizetype bracket = s.indexOf(QLatin1String("] "));
    return bracket >= 0 ? s.mid(bracket + 2) : s;
}

/// Records nested deeper than this are refused: toVariant() and columnsOf() recurse once per level,
/// and a file of "[[[[…" a megabyte deep must not overflow the stack.
constexpr int kMaxJsonDepth = 512;

Result<Json> parseJson(const std::string &bytes, const QString &file, int lineOffset)
{
    try {
        bool tooDeep = false;
        Json j = Json::parse(bytes, [&tooDeep](int depth, Json::parse_event_t, Json &) {
            tooDeep = tooDeep || depth > kMaxJsonDepth;
            return !tooDeep; // drop what lies deeper (the parser itself keeps no recursion)
        });
        if (tooDeep)
            return makeError(tr("invalid JSON: nested deeper than %1 levels").arg(kMaxJsonDepth), file, lineOffset);
        return j;
    } catch (const Json::out_of_range &e) {
        // A number beyond double's range ("1e999"): nlohmann reports it without a position.
        return makeError(tr("invalid JSON: %1").arg(parseReason(e.what())), file, lineOffset);
    } catch (const Json::parse_error &e) {
        // `byte` is 1-based and points at the character that broke the parse.
        const size_t at = std::min(e.byte > 0 ? size_t(e.byte - 1) : size_t(0), bytes.size());
        const size_t lineStart = at == 0 ? std::string::npos : bytes.rfind('\n', at - 1);
        const size_t column = lineStart == std::string::npos ? at + 1 : at - lineStart;
        return makeError(tr("invalid JSON: %1").arg(parseReason(e.what())), file, lineOffset + lineAt(bytes, at) - 1,
                         tr("column %1").arg(column));
    }
}

/// Lines where the elements of the top-level JSON list start (a light scan that knows strings).
std::vector<int> elementLines(const std::string &bytes)
{
    std::vector<int> lines;
    int line = 1;
    int depth = 0;
    bool inString = false, escape = false, expect = false;
    for (char c : bytes) {
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                inString = false;
            if (c == '\n')
                ++line;
            continue;
        }
        if (expect && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            expect = false;
            if (c != ']')
                lines.push_back(line);
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '[':
        case '{':
            if (depth == 0 && c == '[')
                expect = true;
            ++depth;
            break;
        case ']':
        case '}':
            --depth;
            break;
        case ',':
            if (depth == 1)
                expect = true;
            break;
        case '\n':
            ++line;
            break;
        default:
            break;
        }
    }
    return lines;
}

Result<QVector<Record>> readJson(const std::string &bytes, const QString &file, int maxRecords)
{
    auto parsed = parseJson(bytes, file, 1);
    if (!parsed)
        return parsed.error();
    const Json &root = *parsed;
    if (!root.is_array())
        return makeError(tr("a JSON file must hold a list of objects (for one object per line use the jsonl format)"),
                         file, 1);
    const std::vector<int> lines = elementLines(bytes);
    QVector<Record> out;
    out.reserve(qsizetype(root.size()));
    for (size_t k = 0; k < root.size(); ++k) {
        const int line = k < lines.size() ? lines[k] : 1;
        if (!root[k].is_object())
            return makeError(tr("element %1 of the list is not an object").arg(k + 1), file, line);
        out.append(recordOf(line, root[k]));
        if (maxRecords > 0 && out.size() >= maxRecords)
            break;
    }
    return out;
}

Result<QVector<Record>> readJsonl(const std::string &bytes, const QString &file, int maxRecords)
{
    QVector<Record> out;
    size_t start = 0;
    int line = 0;
    while (start < bytes.size()) {
        size_t end = bytes.find('\n', start);
        if (end == std::string::npos)
            end = bytes.size();
        ++line;
        std::string text = bytes.substr(start, end - start);
        start = end + 1;
        if (text.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        auto parsed = parseJson(text, file, line);
        if (!parsed)
            return parsed.error();
        if (!parsed->is_object())
            return makeError(tr("each line must hold one JSON object"), file, line);
        out.append(recordOf(line, *parsed));
        if (maxRecords > 0 && out.size() >= maxRecords)
            break;
    }
    return out;
}

struct Row
{
    int line = 0;
    QStringList cells;
};

Result<QVector<Record>> readDelimited(const QString &text, QChar delim, const QString &file, int maxRecords)
{
    QVector<Row> rows;
    QStringList header;
    const qsizetype n = text.size();
    qsizetype pos = 0;
    int line = 1;
    while (pos < n) {
        Row row;
        row.line = line;
        for (;;) {
            QString cell;
            if (pos < n && text[pos] == QLatin1Char('"')) {
                const int quoteLine = line;
                const int column = int(row.cells.size());
                ++pos;
                for (;;) {
                    if (pos >= n) {
                        const QString name = column < header.size() ? header[column] : tr("column %1").arg(column + 1);
                        return makeError(tr("unterminated quoted field (the quote opened here is never closed)"), file,
                                         quoteLine, name);
                    }
                    const QChar c = text[pos];
                    if (c == QLatin1Char('"')) {
                        if (pos + 1 < n && text[pos + 1] == QLatin1Char('"')) {
                            cell += QLatin1Char('"');
                            pos += 2;
                            continue;
                        }
                        ++pos;
                        break;
                    }
                    if (c == QLatin1Char('\n'))
                        ++line;
                    cell += c;
                    ++pos;
                }
                if (pos < n && text[pos] != delim && text[pos] != QLatin1Char('\r') && text[pos] != QLatin1Char('\n'))
                    return makeError(tr("unexpected text after a closing quote"), file, line,
                                     column < header.size() ? header[column] : tr("column %1").arg(column + 1));
            } else {
                const qsizetype from = pos;
                while (pos < n && text[pos] != delim && text[pos] != QLatin1Char('\r')
                       && text[pos] != QLatin1Char('\n'))
                    ++pos;
                cell = text.mid(from, pos - from);
            }
            row.cells.append(cell);
            if (pos < n && text[pos] == delim) {
                ++pos;
                continue;
            }
            // End of the row (or of the file).
            if (pos < n && text[pos] == QLatin1Char('\r'))
                ++pos;
            if (pos < n && text[pos] == QLatin1Char('\n'))
                ++pos;
            ++line;
            break;
        }
        if (row.cells.size() == 1 && row.cells.first().isEmpty())
            continue; // an empty line
        if (header.isEmpty()) {
            header = row.cells;
            for (qsizetype i = 0; i < header.size(); ++i) {
                header[i] = header[i].trimmed();
                if (header[i].isEmpty())
                    return makeError(tr("column %1 of the header has no name").arg(i + 1), file, row.line);
                if (header.indexOf(header[i]) < i)
                    return makeError(tr("the column name '%1' appears twice in the header").arg(header[i]), file,
                                     row.line);
            }
            continue;
        }
        if (row.cells.size() != header.size())
            return makeError(
                    tr("expected %1 columns as in the header, found %2").arg(header.size()).arg(row.cells.size()), file,
                    row.line);
        rows.append(std::move(row));
        if (maxRecords > 0 && rows.size() >= maxRecords)
            break;
    }
    if (header.isEmpty())
        return makeError(tr("the file is empty (a header row is expected)"), file, 1);
    QVector<Record> out;
    out.reserve(rows.size());
    for (const Row &row : std::as_const(rows)) {
        Record r;
        r.line = row.line;
        r.columns = header;
        for (qsizetype i = 0; i < header.size(); ++i)
            r.fields.insert(header[i], row.cells[i]);
        out.append(std::move(r));
    }
    return out;
}

void flattenInto(const QVariantMap &map, const QString &prefix, QVariantMap *out)
{
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it.value().typeId() == QMetaType::QVariantMap)
            flattenInto(it.value().toMap(), key, out);
        else
            out->insert(key, it.value());
    }
}

} // namespace

Result<QVector<Record>> RecordSource::read(const QString &file, ImportFormat format, int maxRecords)
{
    const QString name = QFileInfo(file).fileName();
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(tr("cannot read the file: %1").arg(f.errorString()), file);
    QByteArray bytes = f.readAll();
    if (bytes.startsWith("\xEF\xBB\xBF"))
        bytes.remove(0, 3);
    switch (format) {
    case ImportFormat::Json:
        return readJson(bytes.toStdString(), file, maxRecords);
    case ImportFormat::Jsonl:
        return readJsonl(bytes.toStdString(), file, maxRecords);
    case ImportFormat::Csv:
        return readDelimited(QString::fromUtf8(bytes), QLatin1Char(','), file, maxRecords);
    case ImportFormat::Tsv:
        return readDelimited(QString::fromUtf8(bytes), QLatin1Char('\t'), file, maxRecords);
    case ImportFormat::Auto:
        break;
    }
    return makeError(tr("cannot tell the format of '%1' from its name; name it (json, jsonl, csv or tsv)").arg(name),
                     file);
}

Result<Record> RecordSource::parseJsonLine(QByteArrayView text, const QString &file, int line)
{
    auto parsed = parseJson(std::string(text.data(), size_t(text.size())), file, line);
    if (!parsed)
        return parsed.error();
    if (!parsed->is_object())
        return makeError(tr("each line must hold one JSON object"), file, line);
    return recordOf(line, *parsed);
}

bool RecordSource::lookup(const QVariantMap &fields, const QString &field, QVariant *value)
{
    auto exact = fields.constFind(field);
    if (exact != fields.constEnd()) {
        *value = exact.value();
        return true;
    }
    const QStringList parts = field.split(QLatin1Char('.'));
    if (parts.size() < 2)
        return false;
    QVariant cur = QVariant(fields);
    for (const QString &part : parts) {
        if (cur.typeId() != QMetaType::QVariantMap)
            return false;
        const QVariantMap m = cur.toMap();
        auto it = m.constFind(part);
        if (it == m.constEnd())
            return false;
        cur = it.value();
    }
    *value = cur;
    return true;
}

QVariantMap RecordSource::flatten(const QVariantMap &fields)
{
    QVariantMap out;
    flattenInto(fields, {}, &out);
    return out;
}

} // namespace rubric
