#pragma once

// Internal to core/io: the rules an item import applies to each record (Importer.cpp), shared
// with the streamed import's pipeline (ImportPipeline.cpp).

#include "io/Importer.h"
#include "store/ImportStore.h"
#include "util/Result.h"

#include <QVariant>
#include <QVector>

#include <optional>

namespace rubric {
class Project;
}

namespace rubric::importrules {

QString tr(const char *text);
/// A number as the summaries and messages print it.
QString fmt(double v);
/// A field value as item text: strings as they are, numbers printed, null empty, structures as JSON.
QString textOf(const QVariant &v);
/// One score value: a number, or text holding a number. `empty` is set for "not rated".
Result<double> scoreOf(const QVariant &v, bool *empty);
/// All scores a human field holds: one for a scalar, one per rater for a list (nullopt = not rated).
Result<QVector<std::optional<double>>> scoresOf(const QVariant &v);
/// `e` placed at `file`, `line` and (unless it names one) `field`.
Error located(Error e, const QString &file, int line, const QString &field);

/// The import's aspects: scale from the mapping, else the project's, else inferred from the data.
Result<void> importAspects(Project &project, const ImportSpec &spec, QVector<Aspect> *aspects,
                           QVector<ScaleOrigin> *origins);
/// Infers the scales still open from the scores' range.
void inferScales(QVector<Aspect> &aspects, const QVector<ScaleOrigin> &origins, const QVector<double> &lowest,
                 const QVector<double> &highest);
/// The error for a score outside its aspect's given or kept scale, at `line`; none when it fits.
std::optional<Error> outsideScale(const ImportedScore &p, const QVector<Aspect> &aspects,
                                  const QVector<ScaleOrigin> &origins, const QVector<double> &lowest,
                                  const QVector<double> &highest, const ImportSpec &spec, int line);
/// The error for an id the project had before the import.
Error alreadyInProject(const ImportSpec &spec, const QString &id, int line);

} // namespace rubric::importrules
