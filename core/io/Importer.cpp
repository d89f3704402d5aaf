#include "Importer.h"

#include "RecordSource.h"
#include "store/ImportStore.h"
#include "store/Project.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric {
namespace {

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

using PendingAnnotation = ImportedScore;

Error located(Error e, const QString &file, int line, const QString &field)
{
    e.file = file;
    e.line = line;
    if (e.field.isEmpty())
        e.field = field;
    return e;
}

} // namespace

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
    auto records = RecordSource::read(file, p.format, std::max(1, maxRows));
    if (!records)
        return records.error();
    for (const Record &r : *records) {
        for (const QString &column : r.columns)
            if (!p.fields.contains(column))
                p.fields.append(column);
        p.rows.append(RecordSource::flatten(r.fields));
    }
    return p;
}

namespace {

/// An import checked and built in memory: nothing touches the project until all records are good.
struct Prepared
{
    QVector<Aspect> aspects;
    QVector<ScaleOrigin> origins;
    QVector<Item> items;
    QVector<int> lines;
    QVector<PendingAnnotation> pending;
};

Result<Prepared> prepare(Project &project, const ImportSpec &spec)
{
    const FieldMapping &m = spec.mapping;
    const QString &file = spec.file;
    if (m.output.isEmpty())
        return makeError(tr("no field is mapped to the output (the text to judge)"), file, 0, QStringLiteral("output"));

    auto records = RecordSource::read(file, Importer::formatFor(file, spec.format));
    if (!records)
        return records.error();

    Prepared out;
    QVector<Aspect> &aspects = out.aspects;
    // Aspects: scale from the mapping, else the project's, else inferred from the data below.
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
        aspects.append(a);
        out.origins.append(origin);
    }
    QVector<double> lowest(aspects.size(), std::numeric_limits<double>::infinity());
    QVector<double> highest(aspects.size(), -std::numeric_limits<double>::infinity());

    QVector<Item> &items = out.items;
    QVector<int> &lines = out.lines;
    QVector<PendingAnnotation> &pending = out.pending;
    QHash<QString, int> idLine;
    items.reserve(records->size());
    const auto field = [&](const Record &r, const QString &name, QVariant *out) -> Result<void> {
        if (!RecordSource::lookup(r.fields, name, out))
            return makeError(tr("the mapped field is missing from this record"), file, r.line, name);
        return {};
    };
    const auto text = [&](const Record &r, const QString &name, QString *out) -> Result<void> {
        if (name.isEmpty())
            return {};
        QVariant v;
        if (auto f = field(r, name, &v); !f)
            return f;
        *out = textOf(v);
        return {};
    };
    for (qsizetype k = 0; k < records->size(); ++k) {
        const Record &r = records->at(k);
        Item it;
        if (m.id.isEmpty()) {
            it.id = QString::number(k);
        } else {
            if (auto f = text(r, m.id, &it.id); !f)
                return f.error();
            it.id = it.id.trimmed();
            if (it.id.isEmpty())
                return makeError(tr("the item id is empty"), file, r.line, m.id);
        }
        if (idLine.contains(it.id))
            return makeError(tr("the id '%1' was already used on line %2").arg(it.id).arg(idLine.value(it.id)), file,
                             r.line, m.id.isEmpty() ? QStringLiteral("id") : m.id);
        idLine.insert(it.id, r.line);
        for (auto [target, name] :
             {std::pair{&it.group, m.group}, std::pair{&it.system, m.system}, std::pair{&it.source, m.source},
              std::pair{&it.output, m.output}, std::pair{&it.reference, m.reference}}) {
            if (auto f = text(r, name, target); !f)
                return f.error();
        }
        if (m.system.isEmpty() && m.systemFromIdBlock > 0) {
            bool ok = false;
            const qlonglong n = it.id.toLongLong(&ok);
            const qlonglong block = ok && n >= 0 ? n / m.systemFromIdBlock : -1;
            if (block < 0 || block >= m.systemFromIdNames.size())
                return makeError(tr("cannot derive the system from the id '%1' (expected a number from 0 to %2)")
                                         .arg(it.id)
                                         .arg(qlonglong(m.systemFromIdNames.size()) * m.systemFromIdBlock - 1),
                                 file, r.line, m.id);
            it.system = m.systemFromIdNames.at(block);
        }
        for (const auto &[name, fieldName] : m.context) {
            QString value;
            if (auto f = text(r, fieldName, &value); !f)
                return f.error();
            it.context.insert(name, value);
        }
        for (qsizetype a = 0; a < m.human.size(); ++a) {
            const QString &fieldName = m.human.at(a).second;
            QVariant v;
            if (auto f = field(r, fieldName, &v); !f)
                return f.error();
            auto scores = scoresOf(v);
            if (!scores)
                return located(scores.error(), file, r.line, fieldName);
            const bool list
                    = scores->size() != 1 || v.typeId() == QMetaType::QVariantList
                      || (v.typeId() == QMetaType::QString && v.toString().trimmed().startsWith(QLatin1Char('[')));
            for (qsizetype s = 0; s < scores->size(); ++s) {
                if (!scores->at(s))
                    continue;
                const double score = *scores->at(s);
                lowest[a] = std::min(lowest.at(a), score);
                highest[a] = std::max(highest.at(a), score);
                pending.append({int(k), int(a),
                                list ? Importer::raterName(int(s)) : QString::fromLatin1(Importer::scalarAnnotator),
                                score});
            }
        }
        items.append(std::move(it));
        lines.append(r.line);
    }

    // Ids already in the project are refused with the line that repeats them.
    {
        const auto existing = ImportStore(&project).itemIds();
        if (!existing)
            return existing.error();
        for (const QString &id : *existing) {
            if (idLine.contains(id))
                return makeError(m.id.isEmpty() ? tr("an item with the id '%1' is already in the project (ids are "
                                                     "positions in the file when no id field is mapped)")
                                                          .arg(id)
                                                : tr("an item with the id '%1' is already in the project").arg(id),
                                 file, idLine.value(id), m.id.isEmpty() ? QStringLiteral("id") : m.id);
        }
    }

    // Scales: infer the missing ones; refuse the first score (in file order) outside a given or kept one.
    for (qsizetype a = 0; a < aspects.size(); ++a) {
        if (out.origins.at(a) != ScaleOrigin::Inferred)
            continue;
        const auto scale = lowest.at(a) <= highest.at(a) ? Importer::inferScale(lowest.at(a), highest.at(a))
                                                         : QPair<double, double>(1.0, 5.0);
        aspects[a].min = scale.first;
        aspects[a].max = scale.second;
    }
    for (const PendingAnnotation &p : std::as_const(pending)) {
        const Aspect &asp = aspects.at(p.aspect);
        if (p.score >= asp.min && p.score <= asp.max)
            continue;
        const QString &fieldName = m.human.at(p.aspect).second;
        if (out.origins.at(p.aspect) == ScaleOrigin::Given) {
            const auto fit = Importer::inferScale(lowest.at(p.aspect), highest.at(p.aspect));
            return makeError(tr("the score %1 is outside the scale %2 given for '%3': use --scale %3=%4:%5 or "
                                "leave --scale out to infer it from the data")
                                     .arg(fmt(p.score), Importer::scaleText(asp.min, asp.max), asp.name, fmt(fit.first),
                                          fmt(fit.second)),
                             file, lines.at(p.item), fieldName);
        }
        const auto fit
                = Importer::inferScale(std::min(lowest.at(p.aspect), asp.min), std::max(highest.at(p.aspect), asp.max));
        return makeError(tr("the score %1 is outside the scale %2 that '%3' has in this project: use --scale "
                            "%3=%4:%5 to widen it")
                                 .arg(fmt(p.score), Importer::scaleText(asp.min, asp.max), asp.name, fmt(fit.first),
                                      fmt(fit.second)),
                         file, lines.at(p.item), fieldName);
    }
    return out;
}

ImportSummary summaryOf(const Prepared &prepared)
{
    ImportSummary summary;
    summary.items = int(prepared.items.size());
    summary.annotations = int(prepared.pending.size());
    for (qsizetype a = 0; a < prepared.aspects.size(); ++a) {
        const Aspect &asp = prepared.aspects.at(a);
        summary.aspects.append(asp.name);
        summary.scales.append({asp.name, asp.min, asp.max, prepared.origins.at(a)});
    }
    return summary;
}

} // namespace

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

Result<ImportSummary> Importer::check(Project &project, const ImportSpec &spec)
{
    auto prepared = prepare(project, spec);
    if (!prepared)
        return prepared.error();
    return summaryOf(*prepared);
}

Result<ImportSummary> Importer::run(Project &project, const ImportSpec &spec)
{
    auto prepared = prepare(project, spec);
    if (!prepared)
        return prepared.error();
    const FieldMapping &m = spec.mapping;
    const QString &file = spec.file;
    const QVector<Aspect> &aspects = prepared->aspects;
    const QVector<Item> &items = prepared->items;
    const QVector<int> &lines = prepared->lines;
    const QVector<PendingAnnotation> &pending = prepared->pending;

    ItemImport import;
    import.aspects = aspects;
    import.items = items;
    import.scores = pending;
    import.task = m.task;
    import.itemFailed = [&](const QString &message, int i) {
        return makeError(message, file, lines.at(i), m.id.isEmpty() ? QStringLiteral("id") : m.id);
};
import.scoreFailed = [&](const QString &message, int s) { const PendingAnnotation &p = pending.at(s);
return makeError(message, file, lines.at(p.item), m.human.at(p.aspect).second);
}; // namespace rubric
auto written = ImportStore(&project).writeItems(import);
if (!written)
    return written.error();

if (!aspects.isEmpty())
    emit project.aspectsChanged();
emit project.itemsChanged();
emit project.annotationsReset();

return summaryOf(*prepared);
}

Result<ImportSummary> Importer::runAnnotations(Project &project, const QString &file, ImportFormat format)
{
    auto records = RecordSource::read(file, formatFor(file, format));
    if (!records)
        return records.error();

    auto rowsOfItems = ImportStore(&project).itemRows();
    if (!rowsOfItems)
        return rowsOfItems.error();
    const QHash<QString, qint64> itemRows = std::move(rowsOfItems).value();
    QHash<QString, Aspect> known;
    const auto aspects = project.readAspects();
    if (!aspects)
        return aspects.error();
    for (const Aspect &a : *aspects)
        known.insert(a.name, a);

    using Row = ImportedAnnotation;
    QVector<Row> rows;
    QStringList newAspects, touchedAspects;
    for (const Record &r : std::as_const(*records)) {
        QVariant v;
        QString values[4];
        const char *names[4] = {"item_id", "annotator", "aspect", "score"};
        for (int i = 0; i < 4; ++i) {
            const QString name = QString::fromLatin1(names[i]);
            if (!RecordSource::lookup(r.fields, name, &v))
                return makeError(tr("the column is missing from this record"), file, r.line, name);
            values[i] = textOf(v).trimmed();
            if (values[i].isEmpty())
                return makeError(tr("the value is empty"), file, r.line, name);
        }
        Row row;
        if (!itemRows.contains(values[0]))
            return makeError(tr("no item with the id '%1' in the project").arg(values[0]), file, r.line,
                             QStringLiteral("item_id"));
        row.itemRow = itemRows.value(values[0]);
        row.annotator = values[1];
        row.aspect = values[2];
        if (!known.contains(row.aspect)) {
            known.insert(row.aspect, Aspect{row.aspect, {}, 1.0, 5.0});
            newAspects.append(row.aspect);
        }
        if (!touchedAspects.contains(row.aspect))
            touchedAspects.append(row.aspect);
        RecordSource::lookup(r.fields, QStringLiteral("score"), &v);
        bool empty = false;
        auto s = scoreOf(v, &empty);
        if (!s)
            return located(s.error(), file, r.line, QStringLiteral("score"));
        const Aspect &asp = known.value(row.aspect);
        if (*s < asp.min || *s > asp.max)
            return makeError(tr("the score %1 is outside the scale %2–%3 of '%4'")
                                     .arg(fmt(*s), fmt(asp.min), fmt(asp.max), asp.name),
                             file, r.line, QStringLiteral("score"));
        row.score = *s;
        if (RecordSource::lookup(r.fields, QStringLiteral("note"), &v))
            row.note = textOf(v);
        rows.append(row);
    }

    auto written = ImportStore(&project).writeAnnotations(newAspects, touchedAspects, rows, file);
    if (!written)
        return written.error();
    if (!newAspects.isEmpty())
        emit project.aspectsChanged();
    if (!rows.isEmpty())
        emit project.annotationsReset();
    ImportSummary summary;
    summary.annotations = int(rows.size());
    summary.aspects = touchedAspects;
    return summary;
}

} // namespace rubric
