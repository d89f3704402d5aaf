#include "ValidatedFit.h"

#include <algorithm>

namespace rubric::learn {

CvSettings cvSettings(const ValidationSettings &settings, int rows)
{
    CvSettings cv;
    cv.seed = settings.seed;
    cv.leaveOneOut = settings.folds == 0;
    cv.folds = std::min(settings.folds, rows);
    if (!cv.leaveOneOut && !settings.groups.isEmpty()) {
        cv.groups = settings.groups;
        cv.folds = std::min(cv.folds, groupCount(settings.groups));
    }
    return cv;
}

QString cvLabel(const CvSettings &cv)
{
    if (cv.leaveOneOut)
        return QStringLiteral("leave-one-out");
    return cv.groups.isEmpty() ? QStringLiteral("%1-fold").arg(cv.folds)
                               : QStringLiteral("%1-fold by group").arg(cv.folds);
}

Result<ValidatedFit> fitValidated(const Eigen::MatrixXd &x, const Eigen::MatrixXd &y,
                                  const ValidationSettings &settings)
{
    ValidatedFit out{Aggregator(settings.aggregator), {}, {}, {}, false};
    if (auto f = out.aggregator.fit(x, y, settings.seed); !f)
        return makeError(f.errorString(), {}, 0, QStringLiteral("fit"));
    const CvSettings cv = cvSettings(settings, int(x.rows()));
    out.cvLabel = cvLabel(cv);
    out.byGroup = !cv.groups.isEmpty() && !cv.leaveOneOut;
    auto validated = crossValidate(settings.aggregator, x, y, cv);
    if (!validated)
        return makeError(validated.errorString(), {}, 0, QStringLiteral("cross-validation"));
    out.cv = *validated;
    ImportanceSettings is;
    is.repeats = settings.importanceRepeats;
    is.seed = settings.seed;
    auto importance = permutationImportance(out.aggregator, x, y, is);
    if (!importance)
        return makeError(importance.errorString(), {}, 0, QStringLiteral("importance"));
    out.importance = *importance;
    return out;
}

} // namespace rubric::learn
