#include "ScoreImporter.h"

#include "ImportRules.h"
#include "RecordStream.h"
#include "store/ImportStore.h"
#include "store/Project.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::stats::ScoreImport", text);
}

/// An item id as text: a whole number without a fraction, anything else as written, trimmed.
QString idText(const FieldValue &v)
{
    if (v.isText)
        return QString::fromUtf8(v.text).trimmed();
    if (v.value.typeId() == QMetaType::Double) {
        const double d = v.value.toDouble();
        if (std::floor(d) == d && std::abs(d) < 9e15)
            return QString::number(qint64(d));
    }
    return v.value.toString().trimmed();
}

} // namespace

Result<ScoreImportSummary> ScoreImporter::run(Project &project, const ScoreImportSpec &spec)
{
    if (spec.judge.trimmed().isEmpty())
        return makeError(tr("a judge needs a name"), spec.file, 0, QStringLiteral("judge"));
    if (spec.scores.isEmpty())
        return makeError(tr("no --score ASPECT=FIELD given"), spec.file);
    QStringList aspects;
    std::vector<FieldPath> fields;
    for (const auto &[aspect, field] : spec.scores) {
        const auto known = project.readAspect(aspect);
        if (!known)
            return known.error();
        if (!*known)
            return makeError(tr("no aspect named '%1' in the project").arg(aspect), spec.file, 0, field);
        aspects.append(aspect);
        fields.push_back(FieldPath(field));
    }
    const auto existing = project.readJudge(spec.judge, Project::JudgeCounts::Skip);
    if (!existing)
        return existing.error();
    if (*existing && (*existing)->method != QLatin1String("imported"))
        return makeError(tr("judge '%1' exists with method '%2'; imported scores need another name")
                                 .arg(spec.judge, (*existing)->method),
                         spec.file, 0, QStringLiteral("judge"));

    const FieldPath idPath(spec.idField);
    const ImportFormat format = Importer::formatFor(spec.file, spec.format);
    ScoreImportSummary summary;
    auto written
            = ImportStore(&project).streamJudgeScores(spec.judge, aspects, [&](JudgeScoreSink &sink) -> Result<void> {
                  QVector<double> scores(fields.size());
                  qsizetype k = 0;
                  return RecordStream::forEach(spec.file, format, [&](const RecordView &rec, qint64) -> Result<bool> {
                      QString id;
                      FieldValue v;
                      if (spec.idField.isEmpty()) {
                          id = QString::number(k);
                      } else {
                          if (!rec.field(idPath, &v) || (!v.isText && v.value.isNull()) || idText(v).isEmpty())
                              return makeError(tr("missing item id"), spec.file, rec.line, spec.idField);
                          id = idText(v);
                      }
                      for (size_t a = 0; a < fields.size(); ++a) {
                          const QString &field = fields[a].name;
                          if (!rec.field(fields[a], &v))
                              return makeError(tr("field not found"), spec.file, rec.line, field);
                          double score = std::numeric_limits<double>::quiet_NaN();
                          const QVariant value = v.isText ? QVariant(QString::fromUtf8(v.text)) : v.value;
                          const int type = value.typeId();
                          if (value.isNull() || (type == QMetaType::QString && value.toString().trimmed().isEmpty())) {
                              ++summary.missing;
                          } else if (type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong
                                     || type == QMetaType::UInt || type == QMetaType::ULongLong) {
                              score = value.toDouble();
                          } else if (type == QMetaType::QString) {
                              bool ok = false;
                              score = value.toString().trimmed().toDouble(&ok);
                              if (!ok || !std::isfinite(score))
                                  return makeError(tr("not a number: '%1'").arg(value.toString()), spec.file, rec.line,
                                                   field);
                          } else {
                              return makeError(tr("not a number"), spec.file, rec.line, field);
                          }
                          if (!std::isnan(score))
                              ++summary.scores;
                          scores[qsizetype(a)] = score;
                      }
                      auto scored = sink.add(id, rec.line, scores);
                      if (!scored)
                          return makeError(scored.error().message, spec.file, rec.line, spec.idField);
                      if (scored->unknownItem)
                          return makeError(tr("no item with id '%1' in the project").arg(id), spec.file, rec.line,
                                           spec.idField.isEmpty() ? QStringLiteral("(row %1)").arg(k) : spec.idField);
                      if (scored->firstLine != 0)
                          return makeError(tr("item '%1' already scored on line %2").arg(id).arg(scored->firstLine),
                                           spec.file, rec.line, spec.idField);
                      ++k;
                      ++summary.records;
                      return true;
                  });
              });
    if (!written)
        return written.error().file.isEmpty() ? makeError(written.error().message, spec.file, 0, written.error().field)
                                              : written.error();
    summary.aspects = aspects;
    return summary;
}

} // namespace rubric
