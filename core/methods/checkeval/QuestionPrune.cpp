#include "QuestionPrune.h"

#include "methods/checkeval/Checklist.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rubric {

Result<QVector<PruneCandidate>> QuestionPrune::leastDiscriminating(const Rubric &checklist, int k)
{
    if (k < 1)
        return makeError(tr("the number of questions to prune must be at least 1 (got %1)").arg(k), {}, 0,
                         QStringLiteral("k"));
    const QVector<Criterion> asked = Checklist::askedQuestions(checklist);
    QVector<PruneCandidate> candidates;
    for (const Criterion &q : asked) {
        PruneCandidate c{q.key, q.text, std::numeric_limits<double>::quiet_NaN(),
                         q.stats.value(QStringLiteral("constant")).toString()};
        const QVariant r = q.stats.value(QStringLiteral("discrimination"));
        if (r.isValid() && !r.isNull())
            c.discrimination = r.toDouble();
        if (c.constant.isEmpty() && std::isnan(c.discrimination))
            continue; // no figures: never answered, or not measured yet
        candidates.append(c);
    }
    if (k >= asked.size())
        return makeError(tr("pruning %1 of the %2 asked questions would leave none").arg(k).arg(asked.size()), {}, 0,
                         QStringLiteral("k"));
    if (candidates.size() < k)
        return makeError(tr("only %1 of the asked questions have discrimination figures (run the judge to measure "
                            "them), fewer than %2")
                                 .arg(candidates.size())
                                 .arg(k),
                         {}, 0, QStringLiteral("k"));
    std::stable_sort(candidates.begin(), candidates.end(), [](const PruneCandidate &a, const PruneCandidate &b) {
        const bool ca = !a.constant.isEmpty(), cb = !b.constant.isEmpty();
        if (ca != cb)
            return ca;
        if (ca)
            return false;
        return a.discrimination < b.discrimination;
    });
    candidates.resize(k);
    return candidates;
}

double QuestionPrune::alignment(const Rubric &checklist, const QVector<CriterionScore> &scores,
                                const QHash<QString, double> &human, const QStringList &items, int *n)
{
    QSet<QString> asked;
    for (const Criterion &q : Checklist::askedQuestions(checklist))
        asked.insert(q.key);
    const QSet<QString> allowed(items.cbegin(), items.cend());
    QHash<QString, QPair<int, int>> perItem; // met, answered
    for (const CriterionScore &s : scores) {
        if (s.sample != 0 || s.parseStatus != QLatin1String("ok") || std::isnan(s.score)
            || !asked.contains(s.criterionKey) || (!allowed.isEmpty() && !allowed.contains(s.itemId)))
            continue;
        auto &p = perItem[s.itemId];
        p.first += s.score > 0.5 ? 1 : 0;
        ++p.second;
    }
    std::vector<double> x, y;
    QStringList ids = perItem.keys();
    ids.sort();
    for (const QString &id : std::as_const(ids)) {
        const auto h = human.constFind(id);
        if (h == human.cend() || std::isnan(*h))
            continue;
        const auto &p = perItem.value(id);
        x.push_back(double(p.first) / p.second);
        y.push_back(*h);
    }
    if (n)
        *n = int(x.size());
    return stats::pearson(x, y);
}

Result<PruneAlignment> QuestionPrune::compare(Project &project, const QString &judge, const Rubric &before,
                                              const Rubric &after)
{
    const auto scores = RubricStore(&project).readSampleScores(judge);
    if (!scores)
        return scores.error();
    const auto human = project.readHumanScores(before.aspect());
    if (!human)
        return human.error();
    auto test = project.readItemIds(SplitFilter::Test);
    if (!test)
        return test.error();
    PruneAlignment out;
    out.split = test->isEmpty() ? QStringLiteral("all") : QStringLiteral("test");
    int nBefore = 0, nAfter = 0;
    out.before = alignment(before, *scores, *human, *test, &nBefore);
    out.after = alignment(after, *scores, *human, *test, &nAfter);
    out.items = std::min(nBefore, nAfter);
    return out;
}

Result<PruneAlignment> QuestionPrune::recordAlignment(Project &project, const QString &judge, const Rubric &before,
                                                      int newVersion, const Rubric &after)
{
    const auto figures = compare(project, judge, before, after);
    if (!figures)
        return figures.error();
    RubricStore store(&project);
    const auto versions = store.readVersions(judge);
    if (!versions)
        return versions.error();
    int oldVersion = 0;
    for (const RubricVersionInfo &v : *versions)
        if (v.version == newVersion)
            oldVersion = v.parentVersion;
    bool oldHasTest = false;
    for (const RubricVersionInfo &v : *versions)
        if (v.version == oldVersion)
            oldHasTest = v.testAlignment.has_value();
    const QString basis = tr("Pearson r of the share of met answers with the human score on the %1 split, n = %2, "
                             "from the stored answers (prune by discrimination; no new calls)")
                                  .arg(figures->split)
                                  .arg(figures->items);
    if (figures->split == QLatin1String("test")) {
        if (oldVersion > 0 && !oldHasTest && !std::isnan(figures->before))
            if (auto r = store.setTestAlignment(judge, oldVersion, figures->before, basis); !r)
                return r.error();
        if (!std::isnan(figures->after))
            if (auto r = store.setTestAlignment(judge, newVersion, figures->after, basis); !r)
                return r.error();
    }
    // the train figure the list shows by default, on the same footing
    const auto scores = store.readSampleScores(judge);
    if (!scores)
        return scores.error();
    const auto human = project.readHumanScores(after.aspect());
    if (!human)
        return human.error();
    const auto train = project.readItemIds(SplitFilter::Train);
    if (!train)
        return train.error();
    const bool all = train->isEmpty() && figures->split != QLatin1String("test");
    if (!train->isEmpty() || all) {
        int n = 0;
        const double r = alignment(after, *scores, *human, *train, &n);
        if (!std::isnan(r))
            if (auto w = store.setAlignment(judge, newVersion, r,
                                            tr("Pearson r of the share of met answers with the human score on the "
                                               "%1, n = %2, from the stored answers (prune by discrimination)")
                                                    .arg(all ? tr("items") : tr("train split"))
                                                    .arg(n));
                !w)
                return w.error();
    }
    return figures;
}

} // namespace rubric
