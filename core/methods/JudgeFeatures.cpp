#include "methods/JudgeFeatures.h"

#include "store/BrowseStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "store/ScoreGridStore.h"

#include <QCoreApplication>
#include <QSet>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

QString JudgeFeature::name() const
{
    return judge + QLatin1Char('/') + (criterionKey.isEmpty() ? QStringLiteral("score") : criterionKey);
}

bool JudgeFeature::parseName(const QString &name, QString *judge, QString *criterionKey)
{
    const qsizetype slash = name.indexOf(QLatin1Char('/'));
    if (slash <= 0)
        return false;
    *judge = name.left(slash);
    const QString key = name.mid(slash + 1);
    *criterionKey = key == QLatin1String("score") ? QString() : key;
    return true;
}

Result<QVector<JudgeFeature>> availableJudgeFeatures(Project *project, const QString &aspect,
                                                     const QStringList &exclude)
{
    auto judges = project->readJudges(Project::JudgeCounts::Skip);
    if (!judges)
        return judges.error();
    RubricStore store(project);
    QVector<JudgeFeature> out;
    for (const JudgeInfo &j : std::as_const(*judges)) {
        if (exclude.contains(j.name))
            continue;
        auto rubric = store.loadLatest(j.name);
        if (!rubric)
            return rubric.error();
        const bool onAspect = rubric->has_value() && (*rubric)->aspect() == aspect;
        if (onAspect) {
            auto scores = store.readCriterionScores(j.name);
            if (!scores)
                return scores.error();
            QSet<QString> scored;
            for (const ItemCriterionScores &s : std::as_const(*scores))
                if (std::isfinite(s.mean))
                    scored.insert(s.criterionKey);
            for (const Criterion &c : (*rubric)->criteria())
                if (c.enabled && scored.contains(c.key) && !c.origin.contains(QStringLiteral("source_judge")))
                    out.append({j.name, j.method, c.key, c.text, c.definition});
        }
        if (j.aspects.contains(aspect) || onAspect) {
            auto own = BrowseStore(project).hasJudgeScore(j.name, aspect); // not a table of every score
            if (!own.ok())
                return own.error();
            bool fitted = false;
            if (onAspect)
                for (const Criterion &c : (*rubric)->criteria())
                    fitted = fitted || c.stats.contains(QStringLiteral("aggregator_model"));
            if (*own)
                out.append({j.name, j.method, QString(),
                            QCoreApplication::translate("rubric::JudgeFeatures", "judge score"), QString(), fitted});
        }
    }
    return out;
}

Result<JudgeFeatureTable> readJudgeFeatures(Project *project, const QString &aspect,
                                            const QVector<JudgeFeature> &features, const QStringList &items)
{
    JudgeFeatureTable t;
    t.features = features;
    t.items = items;
    const int n = int(items.size()), p = int(features.size());
    t.x = Eigen::MatrixXd::Constant(n, p, kNaN);
    t.asked = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>::Constant(n, p, false);
    QHash<QString, int> row;
    for (int r = 0; r < n; ++r)
        row.insert(items[r], r);
    RubricStore store(project);
    QHash<QString, QVector<ItemCriterionScores>> byJudge;
    QHash<QString, QHash<QString, double>> ownScores;
    for (int c = 0; c < p; ++c) {
        const JudgeFeature &f = features[c];
        if (f.isJudgeScore()) {
            if (!ownScores.contains(f.judge)) {
                auto s = project->readJudgeScores(f.judge, aspect);
                if (!s)
                    return s.error();
                ownScores.insert(f.judge, *s);
            }
            const QHash<QString, double> &s = ownScores[f.judge];
            for (auto it = s.begin(); it != s.end(); ++it)
                if (const auto r = row.constFind(it.key()); r != row.cend()) {
                    t.x(*r, c) = it.value();
                    t.asked(*r, c) = true;
                }
            continue;
        }
        if (!byJudge.contains(f.judge)) {
            auto s = store.readCriterionScores(f.judge);
            if (!s)
                return s.error();
            byJudge.insert(f.judge, *s);
        }
        for (const ItemCriterionScores &s : std::as_const(byJudge[f.judge]))
            if (s.criterionKey == f.criterionKey)
                if (const auto r = row.constFind(s.itemId); r != row.cend()) {
                    t.x(*r, c) = s.mean;
                    t.asked(*r, c) = true;
                }
    }
    return t;
}

} // namespace rubric
