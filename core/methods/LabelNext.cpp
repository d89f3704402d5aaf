#include "methods/LabelNext.h"

#include "learn/CrossValidation.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QSet>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString trc(const char *text)
{
    return QCoreApplication::translate("rubric::LabelNext", text);
}

} // namespace

QVector<JudgeFeature> usableFeatures(const JudgeFeatureTable &table, const QVector<int> &labelledRows)
{
    QVector<JudgeFeature> out;
    for (int c = 0; c < table.features.size(); ++c) {
        int have = 0;
        for (int r : labelledRows)
            have += std::isfinite(table.x(r, c)) ? 1 : 0;
        if (have >= 3)
            out.append(table.features[c]);
    }
    return out;
}

Result<LabelNextState> labelNextByExpectedGain(Project *project, const QString &aspect,
                                               const learn::AcquisitionSettings &settings)
{
    auto features = availableJudgeFeatures(project, aspect);
    if (!features)
        return features.error();
    features->removeIf([](const JudgeFeature &f) { return f.fitted; }); // in-sample on the labelled items
    if (features->isEmpty())
        return makeError(trc("no judge has scored '%1' yet: run one to rank the items by expected gain").arg(aspect));
    // Ids only: the texts of a million items are gigabytes (the Annotate pane asks this on open).
    auto items = project->readItemRows();
    if (!items)
        return items.error();
    auto split = project->readSplit();
    if (!split)
        return split.error();
    auto human = project->readHumanScores(aspect);
    if (!human)
        return human.error();
    QStringList ids;
    for (const ItemRow &it : std::as_const(*items))
        if (split->value(it.id) != SplitRole::Test)
            ids << it.id;
    auto table = readJudgeFeatures(project, aspect, *features, ids);
    if (!table)
        return table.error();
    QVector<int> labelled;
    Eigen::VectorXd y(ids.size());
    for (int r = 0; r < ids.size(); ++r) {
        y[r] = human->value(ids[r], kNaN);
        if (std::isfinite(y[r]))
            labelled.append(r);
    }
    const QVector<JudgeFeature> usable = usableFeatures(*table, labelled);
    if (usable.isEmpty() || labelled.size() < 3)
        return makeError(trc("at least 3 labelled items with judge scores are needed to rank the others (%1 labelled)")
                                 .arg(labelled.size()));
    Eigen::MatrixXd x(ids.size(), usable.size());
    QSet<QString> judges;
    for (int c = 0; c < usable.size(); ++c) {
        x.col(c) = table->x.col(int(table->features.indexOf(usable[c])));
        judges.insert(usable[c].judge);
    }
    // An item no judge scored has nothing to rank it by.
    QVector<bool> scoredAny(ids.size(), false);
    for (int r = 0; r < ids.size(); ++r)
        scoredAny[r] = x.row(r).array().isFinite().any();

    LabelNextState state;
    state.labelled = int(labelled.size());
    state.features = int(usable.size());
    state.judges = int(judges.size());
    Eigen::MatrixXd xl(labelled.size(), usable.size()), yl(labelled.size(), 1);
    for (int i = 0; i < labelled.size(); ++i) {
        xl.row(i) = x.row(labelled[i]);
        yl(i, 0) = y[labelled[i]];
    }
    learn::CvSettings cv;
    cv.folds = std::min(5, int(labelled.size()));
    cv.seed = settings.seed;
    state.cv = QStringLiteral("%1-fold").arg(cv.folds);
    state.cvR = kNaN;
    if (auto validated = learn::crossValidate(settings.aggregator, xl, yl, cv); validated)
        state.cvR = validated->cvR.value(0, kNaN);

    Eigen::MatrixXd xr(0, usable.size());
    QVector<int> rows;
    for (int r = 0; r < ids.size(); ++r)
        if (std::isfinite(y[r]) || scoredAny[r])
            rows.append(r);
    xr.resize(rows.size(), usable.size());
    Eigen::VectorXd yr(rows.size());
    for (int i = 0; i < rows.size(); ++i) {
        xr.row(i) = x.row(rows[i]);
        yr[i] = y[rows[i]];
    }
    auto ranked = learn::rankByExpectedGain(xr, yr, settings);
    if (!ranked)
        return ranked.error();
    for (const learn::AcquisitionScore &s : std::as_const(*ranked))
        state.next.ranked << ids[rows[s.row]];
    if (!ranked->isEmpty()) {
        const learn::AcquisitionScore &top = ranked->first();
        state.next.item = ids[rows[top.row]];
        state.next.spread = top.spread;
        state.next.density = top.density;
        state.next.reason
                = trc("%1 %7 fits on bootstrap draws of the %2 labelled items, over %3 criteria of %4 judges, "
                      "disagree most here (sd %5) among items like many others (density %6 of 1): a label is "
                      "expected to move the judge's fit most")
                          .arg(settings.committee)
                          .arg(labelled.size())
                          .arg(usable.size())
                          .arg(judges.size())
                          .arg(top.spread, 0, 'f', 2)
                          .arg(top.density, 0, 'f', 2)
                          .arg(learn::aggregatorKindName(settings.aggregator.kind));
    }
    return state;
}

} // namespace rubric
