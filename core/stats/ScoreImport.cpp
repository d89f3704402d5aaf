#include "ScoreImport.h"

#include "store/Project.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <cmath>
#include <limits>

namespace rubric::stats {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::stats::ScoreImport", text);
}

// RFC 4180 records: quoted fields may hold delimiters, doubled quotes and newlines.
Result<QVector<ScoreRecord>> readDelimited(const QString &file, const QString &text, QChar delimiter)
{
    QVector<QPair<int, QStringList>> rows;
    QStringList row;
    QString field;
    bool quoted = false, fieldStarted = false, afterQuote = false;
    int line = 1, rowLine = 1;
    const auto endField = [&] {
        row.append(field);
        field.clear();
        fieldStarted = afterQuote = false;
    };
    const auto endRow = [&] {
        endField();
        if (!(row.size() == 1 && row.front().isEmpty()))
            rows.append({rowLine, row});
        row.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
                    field.append(c);
                    ++i;
                } else {
                    quoted = false;
                    afterQuote = true;
                }
            } else {
                if (c == QLatin1Char('\n'))
                    ++line;
                field.append(c);
            }
            continue;
        }
        if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = fieldStarted = true;
        } else if (c == delimiter) {
            endField();
        } else if (c == QLatin1Char('\r')) {
            continue;
        } else if (c == QLatin1Char('\n')) {
            endRow();
            ++line;
            rowLine = line;
        } else {
            if (afterQuote)
                return makeError(tr("text after a closing quote"), file, line);
            field.append(c);
            fieldStarted = true;
        }
    }
    if (quoted)
        return makeError(tr("unterminated quoted field"), file, rowLine);
    endRow();
    if (rows.isEmpty())
        return makeError(tr("no header row"), file, 1);
    const QStringList header = rows.front().second;
    QVector<ScoreRecord> out;
    for (qsizetype r = 1; r < rows.size(); ++r) {
        const auto &[at, cells] = rows.at(r);
        if (cells.size() != header.size())
            return makeError(tr("%1 fields where the header has %2").arg(cells.size()).arg(header.size()), file, at);
        ScoreRecord rec;
        rec.line = at;
        for (qsizetype c = 0; c < header.size(); ++c)
            rec.fields.insert(header.at(c).trimmed(), cells.at(c));
        out.append(rec);
    }
    return out;
}

// Lines on which the top-level array's elements start (strings and nesting skipped).
QVector<int> elementLines(const QString &text)
{
    QVector<int> lines;
    int depth = 0, line = 1;
    bool inString = false, expectValue = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\n'))
            ++line;
        if (inString) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == QLatin1Char('"'))
                inString = false;
            continue;
        }
        if (c.isSpace())
            continue;
        if (depth == 1 && expectValue && c != QLatin1Char(']')) {
            lines.append(line);
            expectValue = false;
        }
        if (c == QLatin1Char('"')) {
            inString = true;
        } else if (c == QLatin1Char('[') || c == QLatin1Char('{')) {
            ++depth;
            if (depth == 1 && c == QLatin1Char('['))
                expectValue = true;
        } else if (c == QLatin1Char(']') || c == QLatin1Char('}')) {
            --depth;
        } else if (c == QLatin1Char(',') && depth == 1) {
            expectValue = true;
        }
    }
    return lines;
}

Result<QVector<ScoreRecord>> readJson(const QString &file, const QString &text)
{
    QString error;
    const QVariant doc = json::parse(text, &error);
    if (!doc.isValid())
        return makeError(tr("invalid JSON: %1").arg(error), file);
    if (doc.typeId() != QMetaType::QVariantList)
        return makeError(tr("expected a JSON list of objects"), file, 1);
    const QVariantList list = doc.toList();
    const QVector<int> lines = elementLines(text);
    QVector<ScoreRecord> out;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const int line = i < lines.size() ? lines.at(i) : 0;
        if (list.at(i).typeId() != QMetaType::QVariantMap)
            return makeError(tr("record %1 is not an object").arg(i), file, line);
        out.append({line, list.at(i).toMap()});
    }
    return out;
}

Result<QVector<ScoreRecord>> readJsonl(const QString &file, const QString &text)
{
    QVector<ScoreRecord> out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString l = lines.at(i).trimmed();
        if (l.isEmpty())
            continue;
        QString error;
        const QVariant v = json::parse(l, &error);
        if (!v.isValid())
            return makeError(tr("invalid JSON: %1").arg(error), file, int(i + 1));
        if (v.typeId() != QMetaType::QVariantMap)
            return makeError(tr("expected a JSON object"), file, int(i + 1));
        out.append({int(i + 1), v.toMap()});
    }
    return out;
}

QString idText(const QVariant &v)
{
    if (v.typeId() == QMetaType::Double) {
        const double d = v.toDouble();
        if (std::floor(d) == d && std::abs(d) < 9e15)
            return QString::number(qint64(d));
    }
    return v.toString().trimmed();
}

} // namespace

Result<QVector<ScoreRecord>> readScoreRecords(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(tr("cannot open: %1").arg(f.errorString()), file);
    QString text = QString::fromUtf8(f.readAll());
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    const QString ext = QFileInfo(file).suffix().toLower();
    if (ext == QLatin1String("csv"))
        return readDelimited(file, text, QLatin1Char(','));
    if (ext == QLatin1String("tsv") || ext == QLatin1String("tab"))
        return readDelimited(file, text, QLatin1Char('\t'));
    if (ext == QLatin1String("json"))
        return readJson(file, text);
    if (ext == QLatin1String("jsonl") || ext == QLatin1String("ndjson"))
        return readJsonl(file, text);
    return makeError(tr("unknown format '.%1' (expected .csv, .tsv, .json or .jsonl)").arg(ext), file);
}

QVariant recordField(const QVariantMap &fields, const QString &field)
{
    const auto direct = fields.constFind(field);
    if (direct != fields.constEnd())
        return *direct;
    QVariant cur = QVariant(fields);
    for (const QString &part : field.split(QLatin1Char('.'))) {
        if (cur.typeId() != QMetaType::QVariantMap)
            return {};
        const QVariantMap m = cur.toMap();
        const auto it = m.constFind(part);
        if (it == m.constEnd())
            return {};
        cur = *it;
    }
    return cur;
}

Result<ScoreImportSummary> importJudgeScores(Project &project, const ScoreImportSpec &spec)
{
    if (spec.judge.trimmed().isEmpty())
        return makeError(tr("a judge needs a name"), spec.file, 0, QStringLiteral("judge"));
    if (spec.scores.isEmpty())
        return makeError(tr("no --score ASPECT=FIELD given"), spec.file);
    for (const auto &[aspect, field] : spec.scores) {
        const auto known = project.readAspect(aspect);
        if (!known)
            return known.error();
        if (!*known)
            return makeError(tr("no aspect named '%1' in the project").arg(aspect), spec.file, 0, field);
    }
    const auto existing = project.readJudge(spec.judge);
    if (!existing)
        return existing.error();
    if (*existing && (*existing)->method != QLatin1String("imported"))
        return makeError(tr("judge '%1' exists with method '%2'; imported scores need another name")
                                 .arg(spec.judge, (*existing)->method),
                         spec.file, 0, QStringLiteral("judge"));

    const auto records = readScoreRecords(spec.file);
    if (!records)
        return records.error();
    const auto ids = project.readItemIds();
    if (!ids)
        return ids.error();
    const QSet<QString> known(ids->begin(), ids->end());
    QHash<QString, int> seen;
    QVector<QHash<QString, double>> perAspect(spec.scores.size());
    ScoreImportSummary summary;
    for (qsizetype k = 0; k < records->size(); ++k) {
        const ScoreRecord &rec = records->at(k);
        QString id;
        if (spec.idField.isEmpty()) {
            id = QString::number(k);
        } else {
            const QVariant v = recordField(rec.fields, spec.idField);
            if (!v.isValid() || v.isNull() || idText(v).isEmpty())
                return makeError(tr("missing item id"), spec.file, rec.line, spec.idField);
            id = idText(v);
        }
        if (!known.contains(id))
            return makeError(tr("no item with id '%1' in the project").arg(id), spec.file, rec.line,
                             spec.idField.isEmpty() ? QStringLiteral("(row %1)").arg(k) : spec.idField);
        if (const auto prior = seen.constFind(id); prior != seen.constEnd())
            return makeError(tr("item '%1' already scored on line %2").arg(id).arg(*prior), spec.file, rec.line,
                             spec.idField);
        seen.insert(id, rec.line);
        for (qsizetype a = 0; a < spec.scores.size(); ++a) {
            const QString &field = spec.scores.at(a).second;
            const QVariant v = recordField(rec.fields, field);
            if (!v.isValid())
                return makeError(tr("field not found"), spec.file, rec.line, field);
            double score = std::numeric_limits<double>::quiet_NaN();
            const int type = v.typeId();
            if (v.isNull() || (type == QMetaType::QString && v.toString().trimmed().isEmpty())) {
                ++summary.missing;
            } else if (type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong
                       || type == QMetaType::UInt || type == QMetaType::ULongLong) {
                score = v.toDouble();
            } else if (type == QMetaType::QString) {
                bool ok = false;
                score = v.toString().trimmed().toDouble(&ok);
                if (!ok || !std::isfinite(score))
                    return makeError(tr("not a number: '%1'").arg(v.toString()), spec.file, rec.line, field);
            } else {
                return makeError(tr("not a number"), spec.file, rec.line, field);
            }
            if (!std::isnan(score))
                ++summary.scores;
            perAspect[a].insert(id, score);
        }
    }
    summary.records = int(records->size());

    // Everything is valid: write. A store failure part-way removes a judge this import created.
    const bool existed = existing->has_value();
    if (auto r = project.ensureJudge(spec.judge, QStringLiteral("imported")); !r)
        return r.error();
    for (qsizetype a = 0; a < spec.scores.size(); ++a) {
        if (auto r = project.setJudgeScores(spec.judge, spec.scores.at(a).first, perAspect.at(a)); !r) {
            if (!existed)
                (void)project.removeJudge(spec.judge);
            return makeError(r.error().message, spec.file, 0, spec.scores.at(a).second);
        }
        summary.aspects.append(spec.scores.at(a).first);
    }
    (void)project.setJudgeStatus(spec.judge, QStringLiteral("done"));
    return summary;
}

} // namespace rubric::stats
