#include "Rescore.h"

#include "methods/RunContext.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QCoreApplication>

#include <cmath>
#include <vector>

namespace rubric::rescore {

Result<Alignment> alignment(RunContext &ctx, SplitFilter split)
{
    Alignment a;
    const auto judged = ctx.project()->readJudgeScores(ctx.spec().judge, ctx.spec().aspect);
    if (!judged)
        return judged.error();
    const auto ids = ctx.project()->readItemIds(split);
    if (!ids)
        return ids.error();
    std::vector<double> x, y;
    for (const QString &id : *ids) {
        const double h = ctx.human(id);
        const auto j = judged->constFind(id);
        if (std::isnan(h) || j == judged->constEnd() || std::isnan(*j))
            continue;
        x.push_back(*j);
        y.push_back(h);
    }
    a.n = int(x.size());
    if (a.n >= 3)
        a.pearson = stats::pearson(x, y);
    const QString where = split == SplitFilter::Train  ? QCoreApplication::translate("Rescore", "the train split")
                          : split == SplitFilter::Test ? QCoreApplication::translate("Rescore", "the test split")
                                                       : QCoreApplication::translate("Rescore", "all items");
    a.basis = QCoreApplication::translate("Rescore",
                                          "alignment: Pearson of the judge score with the human scores on %1, n = %2")
                      .arg(where)
                      .arg(a.n);
    return a;
}

Result<void> recordAlignment(RunContext &ctx, int version)
{
    if (version < 1)
        return {};
    const QString &judge = ctx.spec().judge;
    bool hasTrain = false;
    const auto versions = ctx.store().readVersions(judge);
    if (!versions)
        return versions.error();
    for (const RubricVersionInfo &v : *versions)
        if (v.version == version && v.alignment)
            hasTrain = true;
    if (!hasTrain) {
        const auto train = alignment(ctx, SplitFilter::Train);
        if (!train)
            return train.error();
        if (!std::isnan(train->pearson))
            if (auto r = ctx.store().setAlignment(judge, version, train->pearson, train->basis); !r)
                return r;
    }
    const auto test = alignment(ctx, SplitFilter::Test);
    if (!test)
        return test.error();
    if (!std::isnan(test->pearson))
        return ctx.store().setTestAlignment(judge, version, test->pearson, test->basis);
    return {};
}

} // namespace rubric::rescore
