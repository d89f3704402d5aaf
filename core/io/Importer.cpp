#include "Importer.h"

#include "ImportRules.h"
#include "RecordSource.h"
#include "RecordStream.h"
#include "store/ImportStore.h"
#include "store/Project.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric {
namespace importrules {

QString tr(const char *text)
{
    return QCoreApplication::translate("Importer", text);
}

QString fmt(double v)
{
    return QString::number(v, 'g', 10);
}

/// A field value as item text: strings as they are, numbers printed, null empty, structures as JSON.
QString textOf(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        return {};
    case QMetaType::QVariantMap:
    case QMetaType::QVariantList:
        return json::stringify(v);
    case QMetaType::Double:
        return fmt(v.toDouble());
    default:
        return v.toString();
    }
}

/// One score value: a number, or text holding a number. `empty` is set for "not rated".
Result<double> scoreOf(const QVariant &v, bool *empty)
{
    *empty = false;
    switch (v.typeId()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        *empty = true;
        return 0.0;
    case QMetaType::Double:
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong: {
        const double d = v.toDouble();
        if (!std::isfinite(d))
            return makeError(tr("the score is not a finite number"));
        return d;
    }
    case QMetaType::QString: {
        const QString s = v.toString().trimmed();
        if (s.isEmpty()) {
            *empty = true;
            return 0.0;
        }
        bool ok = false;
        const double d = s.toDouble(&ok);
        if (!ok || !std::isfinite(d))
            return makeError(tr("'%1' is not a number").arg(s.left(40)));
        return d;
    }
    default:
        return makeError(tr("'%1' is not a number").arg(textOf(v).left(40)));
    }
}

/// All scores a human field holds: one for a scalar, one per rater for a list (nullopt = not rated).
Result<QVector<std::optional<double>>> scoresOf(const QVariant &v)
{
    QVariant value = v;
    if (value.typeId() == QMetaType::QString && value.toString().trimmed().startsWith(QLatin1Char('['))) {
        QString err;
        value = json::parse(value.toString(), &err);
        if (!err.isEmpty() || value.typeId() != QMetaType::QVariantList)
            return makeError(tr("'%1' is not a list of numbers").arg(v.toString().left(40)));
    }
    QVector<std::optional<double>> out;
    const QVariantList list = value.typeId() == QMetaType::QVariantList ? value.toList() : QVariantList{value};
    for (const QVariant &e : list) {
        bool empty = false;
        auto s = scoreOf(e, &empty);
        if (!s)
            return s.error();
        out.append(empty ? std::nullopt : std::optional<double>(*s));
    }
    return out;
}

Error located(Error e, const QString &file, int line, const QString &field)
{
    e.file = file;
    e.line = line;
    if (e.field.isEmpty())
        e.field = field;
    return e;
}

/// The import's aspects: scale from the mapping, else the project's, else inferred from the data.
Result<void> importAspects(Project &project, const ImportSpec &spec, QVector<Aspect> *aspects,
                           QVector<ScaleOrigin> *origins)
{
    const FieldMapping &m = spec.mapping;
    const QString &file = spec.file;
    if (m.output.isEmpty())
        return makeError(tr("no field is mapped to the output (the text to judge)"), file, 0, QStringLiteral("output"));
    for (const auto &[name, field] : m.human) {
        if (name.trimmed().isEmpty())
            return makeError(tr("a human score mapping needs an aspect name"), file, 0, field);
        Aspect a;
        a.name = name.trimmed();
        ScaleOrigin origin = ScaleOrigin::Inferred;
        const auto existing = project.readAspect(a.name);
        if (!existing)
            return existing.error();
        if (*existing) {
            a = **existing;
            origin = ScaleOrigin::Project;
        }
        if (m.scales.contains(a.name)) {
            a.min = m.scales.value(a.name).first;
            a.max = m.scales.value(a.name).second;
            origin = ScaleOrigin::Given;
        }
        if (m.definitions.contains(a.name))
            a.definition = m.definitions.value(a.name);
        if (origin != ScaleOrigin::Inferred && !(a.min < a.max))
            return makeError(tr("the scale of '%1' must have its minimum below its maximum").arg(a.name), file, 0,
                             QStringLiteral("scale"));
        aspects->append(a);
        origins->append(origin);
    }
    return {};
}

/// Infers the scales still open from the scores' range.
void inferScales(QVector<Aspect> &aspects, const QVector<ScaleOrigin> &origins, const QVector<double> &lowest,
                 const QVector<double> &highest)
{
    for (qsizetype a = 0; a < aspects.size(); ++a) {
        if (origins.at(a) != ScaleOrigin::Inferred)
            continue;
        const auto scale = lowest.at(a) <= highest.at(a) ? Importer::inferScale(lowest.at(a), highest.at(a))
                                                         : QPair<double, double>(1.0, 5.0);
        aspects[a].min = scale.first;
        aspects[a].max = scale.second;
    }
}

/// The error for a score outside its aspect's given or kept scale, at `line`; none when it fits.
std::optional<Error> outsideScale(const ImportedScore &p, const QVector<Aspect> &aspects,
                                  const QVector<ScaleOrigin> &origins, const QVector<double> &lowest,
                                  const QVector<double> &highest, const ImportSpec &spec, int line)
{
    const Aspect &asp = aspects.at(p.aspect);
    if (p.score >= asp.min && p.score <= asp.max)
        return std::nullopt;
    const QString &fieldName = spec.mapping.human.at(p.aspect).second;
    if (origins.at(p.aspect) == ScaleOrigin::Given) {
        const auto fit = Importer::inferScale(lowest.at(p.aspect), highest.at(p.aspect));
        return makeError(tr("the score %1 is outside the scale %2 given for '%3': use --scale %3=%4:%5 or "
                            "leave --scale out to infer it from the data")
                                 .arg(fmt(p.score), Importer::scaleText(asp.min, asp.max), asp.name, fmt(fit.first),
                                      fmt(fit.second)),
                         spec.file, line, fieldName);
    }
    const auto fit
            = Importer::inferScale(std::min(lowest.at(p.aspect), asp.min), std::max(highest.at(p.aspect), asp.max));
    return makeError(tr("the score %1 is outside the scale %2 that '%3' has in this project: use --scale "
                        "%3=%4:%5 to widen it")
                             .arg(fmt(p.score), Importer::scaleText(asp.min, asp.max), asp.name, fmt(fit.first),
                                  fmt(fit.second)),
                     spec.file, line, fieldName);
}

Error alreadyInProject(const ImportSpec &spec, const QString &id, int line)
{
    const FieldMapping &m = spec.mapping;
    return makeError(m.id.isEmpty() ? tr("an item with the id '%1' is already in the project (ids are "
                                         "positions in the file when no id field is mapped)")
                                              .arg(id)
                                    : tr("an item with the id '%1' is already in the project").arg(id),
                     spec.file, line, m.id.isEmpty() ? QStringLiteral("id") : m.id);
}

} // namespace importrules

using namespace importrules;

ImportFormat Importer::formatFor(const QString &file, ImportFormat requested)
{
    if (requested != ImportFormat::Auto)
        return requested;
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (suffix == QLatin1String("jsonl") || suffix == QLatin1String("ndjson"))
        return ImportFormat::Jsonl;
    if (suffix == QLatin1String("csv"))
        return ImportFormat::Csv;
    if (suffix == QLatin1String("tsv") || suffix == QLatin1String("tab"))
        return ImportFormat::Tsv;
    if (suffix == QLatin1String("json")) {
        QFile f(file);
        if (f.open(QIODevice::ReadOnly)) {
            const QByteArray head = f.read(4096).trimmed();
            const QByteArray body = head.startsWith("\xEF\xBB\xBF") ? head.mid(3).trimmed() : head;
            if (body.startsWith('{'))
                return ImportFormat::Jsonl;
        }
        return ImportFormat::Json;
    }
    return ImportFormat::Auto;
}

Result<ImportFormat> Importer::parseFormat(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n.isEmpty() || n == QLatin1String("auto"))
        return ImportFormat::Auto;
    if (n == QLatin1String("json"))
        return ImportFormat::Json;
    if (n == QLatin1String("jsonl") || n == QLatin1String("ndjson"))
        return ImportFormat::Jsonl;
    if (n == QLatin1String("csv"))
        return ImportFormat::Csv;
    if (n == QLatin1String("tsv"))
        return ImportFormat::Tsv;
    return makeError(tr("unknown format '%1' (json, jsonl, csv or tsv)").arg(name), {}, 0, QStringLiteral("format"));
}

Result<ImportPreview> Importer::preview(const QString &file, ImportFormat format, int maxRows)
{
    ImportPreview p;
    p.format = formatFor(file, format);
    // Streamed: a preview of a file of gigabytes reads its first records only.
    auto read = RecordStream::forEach(file, p.format, [&](const RecordView &view, qint64) -> Result<bool> {
        const Record r = view.toRecord();
        for (const QString &column : r.columns)
            if (!p.fields.contains(column))
                p.fields.append(column);
        p.rows.append(RecordSource::flatten(r.fields));
        return p.rows.size() < std::max(1, maxRows);
    });
    if (!read)
        return read.error();
    return p;
}

QPair<double, double> Importer::inferScale(double lo, double hi)
{
    for (const auto &usual : {QPair<double, double>(0, 1), QPair<double, double>(1, 3), QPair<double, double>(1, 5),
                              QPair<double, double>(1, 10)})
        if (lo >= usual.first && hi <= usual.second)
            return usual;
    return lo < hi ? QPair<double, double>(lo, hi) : QPair<double, double>(lo, lo + 1);
}

QString Importer::scaleText(double min, double max)
{
    return fmt(min) + QStringLiteral("–") + fmt(max);
}

QString ImportProgress::text() const
{
    const QLocale locale;
    QString out = QCoreApplication::translate("Importer", "%1 items").arg(locale.toString(items));
    if (seconds > 0.2) {
        out += QStringLiteral(" · ")
               + QCoreApplication::translate("Importer", "%1 items/s, %2 MB/s")
                         .arg(locale.toString(qRound64(items / seconds)))
                         .arg(locale.toString(double(bytesRead) / 1e6 / seconds, 'f', 1));
        if (bytesTotal > 0 && bytesRead > 0 && bytesRead < bytesTotal) {
            const double left = seconds * double(bytesTotal - bytesRead) / double(bytesRead);
            out += QStringLiteral(" · ")
                   + QCoreApplication::translate("Importer", "%1% · about %2 s left")
                             .arg(qRound(100.0 * double(bytesRead) / double(bytesTotal)))
                             .arg(qRound(left));
        }
    }
    return out;
}

Result<ImportSummary> Importer::runAnnotations(Project &project, const QString &file, ImportFormat format)
{
    // Streamed: each row is checked and written before the next is read, in one transaction that
    // any error rolls back; memory stays that of one row whatever the file's size.
    QHash<QString, Aspect> known;
    const auto aspects = project.readAspects();
    if (!aspects)
        return aspects.error();
    for (const Aspect &a : *aspects)
        known.insert(a.name, a);

    static const char *const names[4] = {"item_id", "annotator", "aspect", "score"};
    std::array<FieldPath, 4> paths;
    for (size_t i = 0; i < paths.size(); ++i)
        paths[i] = FieldPath(QString::fromLatin1(names[i]));
    const FieldPath notePath(QStringLiteral("note"));
    QStringList newAspects, touchedAspects;
    int annotations = 0;
    auto written = ImportStore(&project).streamAnnotations([&](AnnotationSink &sink) -> Result<void> {
        return RecordStream::forEach(file, formatFor(file, format), [&](const RecordView &r, qint64) -> Result<bool> {
            FieldValue v;
            QString values[4];
            QVariant scoreValue;
            for (size_t i = 0; i < paths.size(); ++i) {
                if (!r.field(paths[i], &v))
                    return makeError(tr("the column is missing from this record"), file, r.line, paths[i].name);
                const QVariant value = v.isText ? QVariant(QString::fromUtf8(v.text)) : v.value;
                values[i] = textOf(value).trimmed();
                if (values[i].isEmpty())
                    return makeError(tr("the value is empty"), file, r.line, paths[i].name);
                if (i == 3)
                    scoreValue = value;
            }
            const auto itemRow = sink.itemRow(values[0]);
            if (!itemRow)
                return makeError(itemRow.errorString(), file, r.line, QStringLiteral("item_id"));
            if (*itemRow < 0)
                return makeError(tr("no item with the id '%1' in the project").arg(values[0]), file, r.line,
                                 QStringLiteral("item_id"));
            const QString &aspect = values[2];
            if (!known.contains(aspect)) {
                known.insert(aspect, Aspect{aspect, {}, 1.0, 5.0});
                newAspects.append(aspect);
                if (auto a = sink.addAspect(aspect); !a)
                    return makeError(a.errorString(), file, r.line, QStringLiteral("aspect"));
            }
            if (!touchedAspects.contains(aspect))
                touchedAspects.append(aspect);
            bool empty = false;
            auto s = scoreOf(scoreValue, &empty);
            if (!s)
                return located(s.error(), file, r.line, QStringLiteral("score"));
            const Aspect &asp = known.value(aspect);
            if (*s < asp.min || *s > asp.max)
                return makeError(tr("the score %1 is outside the scale %2–%3 of '%4'")
                                         .arg(fmt(*s), fmt(asp.min), fmt(asp.max), asp.name),
                                 file, r.line, QStringLiteral("score"));
            QString note;
            if (r.field(notePath, &v))
                note = v.isText ? QString::fromUtf8(v.text) : textOf(v.value);
            if (auto w = sink.add(*itemRow, aspect, values[1], *s, note); !w)
                return makeError(w.errorString(), file, r.line, QStringLiteral("score"));
            ++annotations;
            return true;
        });
    });
    if (!written)
        return written.error();
    if (!newAspects.isEmpty())
        emit project.aspectsChanged();
    if (annotations > 0)
        emit project.annotationsReset();
    ImportSummary summary;
    summary.annotations = annotations;
    summary.aspects = touchedAspects;
    return summary;
}

} // namespace rubric
