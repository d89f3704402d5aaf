#include "Rescore.h"

#include "runs/RunContext.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QCoreApplication>

#include <cmath>
#include <vector>

namespace rubric::rescore {

Alignment alignment(RunContext &ctx)
{
    Alignment a;
    const QHash<QString, double> judged = ctx.project()->judgeScores(ctx.spec().judge, ctx.spec().aspect);
    std::vector<double> x, y;
    for (const Item &it : ctx.targetItems()) {
        const double h = ctx.human(it.id);
        const auto j = judged.constFind(it.id);
        if (std::isnan(h) || j == judged.constEnd() || std::isnan(*j))
            continue;
        x.push_back(*j);
        y.push_back(h);
    }
    a.n = int(x.size());
    if (a.n >= 3)
        a.pearson = stats::pearson(x, y);
    QString split;
    switch (ctx.spec().items) {
    case SplitFilter::Test:
        split = QCoreApplication::translate("Rescore", "the test split");
        break;
    case SplitFilter::Train:
        split = QCoreApplication::translate("Rescore", "the train split");
        break;
    case SplitFilter::All:
        split = QCoreApplication::translate("Rescore", "all items");
        break;
    }
    a.basis = QCoreApplication::translate("Rescore",
                                          "alignment: Pearson of the judge score with the human scores on %1, n = %2")
                      .arg(split)
                      .arg(a.n);
    return a;
}

Result<void> recordAlignment(RunContext &ctx, int version)
{
    for (const RubricVersionInfo &v : ctx.store().versions(ctx.spec().judge))
        if (v.version == version && v.alignment)
            return {};
    const Alignment a = alignment(ctx);
    if (std::isnan(a.pearson))
        return {};
    return ctx.store().setAlignment(ctx.spec().judge, version, a.pearson, a.basis);
}

} // namespace rubric::rescore
