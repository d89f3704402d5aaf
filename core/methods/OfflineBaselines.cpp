#include "OfflineBaselines.h"

#include "Rouge.h"
#include "store/Project.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace rubric {

QStringList OfflineBaselines::variants()
{
    return {QStringLiteral("rouge-1"), QStringLiteral("rouge-2"), QStringLiteral("rouge-l"), QStringLiteral("length")};
}

double OfflineBaselines::score(const QString &variant, const QString &output, const QString &reference)
{
    const QStringList out = rouge::tokenize(output);
    if (variant == QLatin1String("length"))
        return double(out.size());
    if (reference.trimmed().isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    const QStringList ref = rouge::tokenize(reference);
    if (variant == QLatin1String("rouge-1"))
        return rouge::rougeN(out, ref, 1).f1;
    if (variant == QLatin1String("rouge-2"))
        return rouge::rougeN(out, ref, 2).f1;
    if (variant == QLatin1String("rouge-l"))
        return rouge::rougeL(out, ref).f1;
    return std::numeric_limits<double>::quiet_NaN();
}

Result<QStringList> OfflineBaselines::computeAndStore(Project *project, const QStringList &aspects)
{
    if (aspects.isEmpty())
        return makeError(QCoreApplication::translate("OfflineBaselines", "no aspect to store the baselines for"), {}, 0,
                         QStringLiteral("aspect"));
    const auto readItems = project->readItems();
    if (!readItems)
        return readItems.error();
    const QVector<Item> &items = *readItems;
    QStringList written;
    for (const QString &variant : variants()) {
        QHash<QString, double> scores;
        for (const Item &it : items)
            scores.insert(it.id, score(variant, it.output, it.reference));
        auto judge = project->ensureJudge(variant, variant, QStringLiteral("{\"offline\":true}"));
        if (!judge)
            return judge.error();
        for (const QString &aspect : aspects)
            if (auto r = project->setJudgeScores(variant, aspect, scores); !r)
                return r.error();
        if (auto r = project->setJudgeStatus(variant, QStringLiteral("done")); !r)
            return r.error();
        written.append(variant);
    }
    return written;
}

} // namespace rubric
