#include "methods/LabelNext.h"

#include "learn/CrossValidation.h"
#include "store/BrowseStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// The most unlabelled items the ranking takes (its density matrix: 8 bytes a pair, 200 MB here).
constexpr qsizetype kMaxUnlabelled = 5000;

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

Result<GainColumns> readGainColumns(Project *project, const QString &aspect, const QVector<JudgeFeature> &features)
{
    const BrowseStore store(project);
    const auto failed = [project](const Error &e) {
        return makeError(trc("cannot read the scores from the project: %1").arg(e.message), project->path());
    };
    auto items = store.nonTestItems(aspect);
    if (!items)
        return failed(items.error());
    GainColumns out;
    const int n = int(items->keys.size());
    out.ids = std::move(items->ids);
    out.y.resize(n);
    for (int r = 0; r < n; ++r)
        out.y[r] = items->human[r];
    out.x = Eigen::MatrixXd::Constant(n, features.size(), kNaN);
    // Row key → row (the keys are the items' dense row ids).
    qint64 top = 0;
    for (qint64 k : std::as_const(items->keys))
        top = std::max(top, k);
    std::vector<int> rowOfKey(size_t(top) + 1, -1);
    for (int r = 0; r < n; ++r)
        rowOfKey[size_t(items->keys[r])] = r;
    QHash<QString, QVector<ItemCriterionScores>> criteria;
    QHash<QString, int> rowOfId; // only when a criterion is asked for
    for (int c = 0; c < features.size(); ++c) {
        const JudgeFeature &f = features[c];
        if (f.isJudgeScore()) {
            auto scores = store.judgeScoresByKey(f.judge, aspect);
            if (!scores)
                return failed(scores.error());
            for (const auto &[key, score] : std::as_const(*scores))
                if (key >= 0 && key <= top && rowOfKey[size_t(key)] >= 0)
                    out.x(rowOfKey[size_t(key)], c) = score;
            continue;
        }
        if (rowOfId.isEmpty())
            for (int r = 0; r < n; ++r)
                rowOfId.insert(out.ids[r], r);
        if (!criteria.contains(f.judge)) {
            auto s = RubricStore(project).readCriterionScores(f.judge);
            if (!s)
                return s.error();
            criteria.insert(f.judge, std::move(s).value());
        }
        for (const ItemCriterionScores &s : std::as_const(criteria[f.judge]))
            if (s.criterionKey == f.criterionKey)
                if (const auto r = rowOfId.constFind(s.itemId); r != rowOfId.cend())
                    out.x(*r, c) = s.mean;
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
    // Columns only (ids, the aspect's human means, the judges' scores of the items outside the
    // test split): neither texts nor a string-keyed table per judge, so that a million items fit.
    auto columns = readGainColumns(project, aspect, *features);
    if (!columns)
        return columns.error();
    const QStringList &ids = columns->ids;
    JudgeFeatureTable table;
    table.features = *features;
    table.x = std::move(columns->x);
    const Eigen::VectorXd &y = columns->y;
    QVector<int> labelled;
    for (int r = 0; r < ids.size(); ++r)
        if (std::isfinite(y[r]))
            labelled.append(r);
    const QVector<JudgeFeature> usable = usableFeatures(table, labelled);
    if (usable.isEmpty() || labelled.size() < 3)
        return makeError(trc("at least 3 labelled items with judge scores are needed to rank the others (%1 labelled)")
                                 .arg(labelled.size()));
    Eigen::MatrixXd x(ids.size(), usable.size());
    QSet<QString> judges;
    for (int c = 0; c < usable.size(); ++c) {
        x.col(c) = table.x.col(int(table.features.indexOf(usable[c])));
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
    // The density compares every pair of unlabelled items (an m × m matrix): past a few thousand
    // that is gigabytes. Said, not attempted (it ended the studio before).
    if (const qsizetype open = rows.size() - labelled.size(); open > kMaxUnlabelled)
        return makeError(trc("%1 unlabelled items to rank: the expected gain compares every pair of them, which needs "
                             "more memory than there is past %2; label from the suggestions, or make a smaller train "
                             "split")
                                 .arg(open)
                                 .arg(kMaxUnlabelled));
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
