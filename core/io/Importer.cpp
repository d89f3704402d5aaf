#include "Importer.h"

#include "RecordSource.h"
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

/// Record `k` of the file as an item and its human scores (PendingAnnotation::item = k), with the
/// range of each aspect's scores widened to hold them.
Result<void> convertRecord(const Record &r, qsizetype k, const ImportSpec &spec, Item *item,
                           QVector<PendingAnnotation> *scores, QVector<double> *lowest, QVector<double> *highest)
{
    const FieldMapping &m = spec.mapping;
    const QString &file = spec.file;
    const auto field = [&](const QString &name, QVariant *out) -> Result<void> {
        if (!RecordSource::lookup(r.fields, name, out))
            return makeError(tr("the mapped field is missing from this record"), file, r.line, name);
        return {};
    };
    const auto text = [&](const QString &name, QString *out) -> Result<void> {
        if (name.isEmpty())
            return {};
        QVariant v;
        if (auto f = field(name, &v); !f)
            return f;
        *out = textOf(v);
        return {};
    };
    Item &it = *item;
    if (m.id.isEmpty()) {
        it.id = QString::number(k);
    } else {
        if (auto f = text(m.id, &it.id); !f)
            return f;
        it.id = it.id.trimmed();
        if (it.id.isEmpty())
            return makeError(tr("the item id is empty"), file, r.line, m.id);
    }
    for (auto [target, name] :
         {std::pair{&it.group, m.group}, std::pair{&it.system, m.system}, std::pair{&it.source, m.source},
          std::pair{&it.output, m.output}, std::pair{&it.reference, m.reference}}) {
        if (auto f = text(name, target); !f)
            return f;
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
        if (auto f = text(fieldName, &value); !f)
            return f;
        it.context.insert(name, value);
    }
    for (qsizetype a = 0; a < m.human.size(); ++a) {
        const QString &fieldName = m.human.at(a).second;
        QVariant v;
        if (auto f = field(fieldName, &v); !f)
            return f;
        auto values = scoresOf(v);
        if (!values)
            return located(values.error(), file, r.line, fieldName);
        const bool list = values->size() != 1 || v.typeId() == QMetaType::QVariantList
                          || (v.typeId() == QMetaType::QString && v.toString().trimmed().startsWith(QLatin1Char('[')));
        for (qsizetype s = 0; s < values->size(); ++s) {
            if (!values->at(s))
                continue;
            const double score = *values->at(s);
            (*lowest)[a] = std::min(lowest->at(a), score);
            (*highest)[a] = std::max(highest->at(a), score);
            scores->append({int(k), int(a),
                            list ? Importer::raterName(int(s)) : QString::fromLatin1(Importer::scalarAnnotator),
                            score});
        }
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
std::optional<Error> outsideScale(const PendingAnnotation &p, const QVector<Aspect> &aspects,
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

Result<Prepared> prepare(Project &project, const ImportSpec &spec)
{
    const FieldMapping &m = spec.mapping;
    const QString &file = spec.file;
    Prepared out;
    if (auto r = importAspects(project, spec, &out.aspects, &out.origins); !r)
        return r.error();
    auto records = RecordSource::read(file, Importer::formatFor(file, spec.format));
    if (!records)
        return records.error();
    QVector<double> lowest(out.aspects.size(), std::numeric_limits<double>::infinity());
    QVector<double> highest(out.aspects.size(), -std::numeric_limits<double>::infinity());
    QHash<QString, int> idLine;
    out.items.reserve(records->size());
    for (qsizetype k = 0; k < records->size(); ++k) {
        const Record &r = records->at(k);
        Item it;
        if (auto c = convertRecord(r, k, spec, &it, &out.pending, &lowest, &highest); !c)
            return c.error();
        if (idLine.contains(it.id))
            return makeError(tr("the id '%1' was already used on line %2").arg(it.id).arg(idLine.value(it.id)), file,
                             r.line, m.id.isEmpty() ? QStringLiteral("id") : m.id);
        idLine.insert(it.id, r.line);
        out.items.append(std::move(it));
        out.lines.append(r.line);
    }
    // Ids already in the project are refused with the line that repeats them.
    const auto existing = ImportStore(&project).itemIds();
    if (!existing)
        return existing.error();
    for (const QString &id : *existing)
        if (idLine.contains(id))
            return alreadyInProject(spec, id, idLine.value(id));
    inferScales(out.aspects, out.origins, lowest, highest);
    for (const PendingAnnotation &p : std::as_const(out.pending))
        if (auto e = outsideScale(p, out.aspects, out.origins, lowest, highest, spec, out.lines.at(p.item)))
            return *e;
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
    // Streamed: each record is checked and written before the next is read, all in one
    // transaction that any error rolls back; memory stays that of one record (JSONL) and the
    // line of each item (to name the first of a repeated id).
    const FieldMapping &m = spec.mapping;
    const QString &file = spec.file;
    QVector<Aspect> aspects;
    QVector<ScaleOrigin> origins;
    if (auto r = importAspects(project, spec, &aspects, &origins); !r)
        return r.error();
    const ImportFormat format = formatFor(file, spec.format);
    const qint64 total = QFileInfo(file).size();
    QVector<double> lowest(aspects.size(), std::numeric_limits<double>::infinity());
    QVector<double> highest(aspects.size(), -std::numeric_limits<double>::infinity());
    QVector<int> lines;
    int annotations = 0;
    QElapsedTimer clock;
    clock.start();
    qint64 lastReport = -1;
    bool cancelled = false;
    // Inferred scales are provisional until every score was seen: wide open meanwhile.
    QVector<Aspect> provisional = aspects;
    for (qsizetype a = 0; a < provisional.size(); ++a)
        if (origins.at(a) == ScaleOrigin::Inferred) {
            provisional[a].min = 1;
            provisional[a].max = 5;
        }
    auto written
            = ImportStore(&project).streamItems(provisional, m.task, [&](ItemSink &sink) -> Result<QVector<Aspect>> {
                  QVector<PendingAnnotation> scores;
                  qsizetype k = 0;
                  auto read = RecordSource::forEach(file, format, [&](const Record &r, qint64 bytes) -> Result<bool> {
                      Item it;
                      scores.clear();
                      if (auto c = convertRecord(r, k, spec, &it, &scores, &lowest, &highest); !c)
                          return c.error();
                      auto added = sink.addItem(it);
                      if (!added)
                          return makeError(added.errorString(), file, r.line,
                                           m.id.isEmpty() ? QStringLiteral("id") : m.id);
                      if (added->row < 0) {
                          if (added->clashIndex < 0)
                              return alreadyInProject(spec, it.id, r.line);
                          return makeError(tr("the id '%1' was already used on line %2")
                                                   .arg(it.id)
                                                   .arg(lines.value(added->clashIndex)),
                                           file, r.line, m.id.isEmpty() ? QStringLiteral("id") : m.id);
                      }
                      lines.append(r.line);
                      for (const PendingAnnotation &p : std::as_const(scores)) {
                          if (origins.at(p.aspect) != ScaleOrigin::Inferred)
                              if (auto e = outsideScale(p, aspects, origins, lowest, highest, spec, r.line))
                                  return *e;
                          if (auto w = sink.addScore(added->row, p.aspect, p.annotator, p.score); !w)
                              return makeError(w.errorString(), file, r.line, m.human.at(p.aspect).second);
                          ++annotations;
                      }
                      ++k;
                      const qint64 ms = clock.elapsed();
                      if (spec.progress && ms - lastReport >= 250) {
                          lastReport = ms;
                          if (!spec.progress({bytes, total, int(k), double(ms) / 1000.0})) {
                              cancelled = true;
                              return makeError(tr("the import was cancelled; nothing was written"), file, r.line);
                          }
                      }
                      return true;
                  });
                  if (!read)
                      return read.error();
                  inferScales(aspects, origins, lowest, highest);
                  return aspects;
              });
    if (!written)
        return written.error();
    if (spec.progress && !cancelled)
        spec.progress({total, total, int(lines.size()), double(clock.elapsed()) / 1000.0});

    if (!aspects.isEmpty())
        emit project.aspectsChanged();
    emit project.itemsChanged();
    emit project.annotationsReset();

    ImportSummary summary;
    summary.items = int(lines.size());
    summary.annotations = annotations;
    for (qsizetype a = 0; a < aspects.size(); ++a) {
        summary.aspects.append(aspects.at(a).name);
        summary.scales.append({aspects.at(a).name, aspects.at(a).min, aspects.at(a).max, origins.at(a)});
    }
    return summary;
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
