#include "methods/stack/StackExplain.h"

#include "learn/Aggregator.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric::stack {
namespace {

QString trc(const char *text)
{
    return QCoreApplication::translate("StackExplain", text);
}

QVariant number(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant();
}

} // namespace

QVariantMap Explanation::toMap() const
{
    QVariantList list;
    for (const CriterionPart &c : parts)
        list.append(QVariantMap{{QStringLiteral("id"), c.key},
                                {QStringLiteral("judge"), c.judge},
                                {QStringLiteral("text"), c.text},
                                {QStringLiteral("score"), number(c.score)},
                                {QStringLiteral("contribution"), number(c.contribution)}});
    return {{QStringLiteral("item"), item},
            {QStringLiteral("aspect"), aspect},
            {QStringLiteral("aggregator"), aggregator},
            {QStringLiteral("rubric_version"), version},
            {QStringLiteral("score"), number(prediction)},
            {QStringLiteral("stored_score"), number(stored)},
            {QStringLiteral("base"), number(base)},
            {QStringLiteral("contributions"), list}};
}

Result<bool> isStackJudge(Project *project, const QString &judge)
{
    auto rubric = RubricStore(project).loadLatest(judge);
    if (!rubric)
        return rubric.error();
    return rubric->has_value() && (*rubric)->method() == QLatin1String("stack");
}

Result<Explanation> explainItem(Project *project, const QString &judge, const QString &itemId)
{
    RubricStore store(project);
    auto rubric = store.load(judge);
    if (!rubric)
        return rubric.error();
    if (rubric->method() != QLatin1String("stack"))
        return makeError(trc("judge '%1' is a %2 judge, not a stacked one").arg(judge, rubric->method()), {}, 0,
                         QStringLiteral("judge"));
    const Criterion *root = nullptr;
    for (const Criterion &c : rubric->criteria())
        if (c.parentKey.isEmpty())
            root = &c;
    if (!root || !root->stats.contains(QStringLiteral("aggregator_model")))
        return makeError(trc("judge '%1' has no fitted aggregator yet (the run has not finished)").arg(judge), {}, 0,
                         QStringLiteral("judge"));
    const QVariantMap description = root->stats.value(QStringLiteral("aggregator")).toMap();
    auto aggregator = learn::Aggregator::fromJson(
            QJsonObject::fromVariantMap(root->stats.value(QStringLiteral("aggregator_model")).toMap()));
    if (!aggregator)
        return makeError(
                trc("judge '%1': the stored aggregator cannot be read: %2").arg(judge, aggregator.errorString()), {}, 0,
                QStringLiteral("aggregator_model"));
    const QStringList features = description.value(QStringLiteral("features")).toStringList();
    if (features.size() != aggregator->featureCount())
        return makeError(trc("judge '%1': the aggregator has %2 criteria, its description names %3")
                                 .arg(judge)
                                 .arg(aggregator->featureCount())
                                 .arg(features.size()),
                         {}, 0, QStringLiteral("aggregator"));
    Eigen::MatrixXd x = Eigen::MatrixXd::Constant(1, features.size(), std::numeric_limits<double>::quiet_NaN());
    int present = 0;
    const auto rows = store.readSampleScores(judge);
    if (!rows)
        return rows.error();
    for (const CriterionScore &row : *rows) {
        if (row.itemId != itemId)
            continue;
        const int j = int(features.indexOf(row.criterionKey));
        if (j >= 0) {
            ++present;
            if (std::isfinite(row.score))
                x(0, j) = row.score;
        }
    }
    if (present == 0)
        return makeError(trc("item '%1' has no stacked score under judge '%2'").arg(itemId, judge), {}, 0,
                         QStringLiteral("item"));
    auto predicted = aggregator->predict(x);
    if (!predicted)
        return predicted.error();
    auto contributions = aggregator->contributions(x, 0);
    if (!contributions)
        return contributions.error();
    Explanation e;
    e.item = itemId;
    e.aspect = rubric->aspect();
    e.aggregator = description.value(QStringLiteral("kind")).toString();
    e.version = rubric->version();
    e.prediction = (*predicted)(0, 0);
    e.base = contributions->base[0];
    const auto stored = project->readJudgeScores(judge, rubric->aspect());
    if (!stored)
        return stored.error();
    e.stored = stored->value(itemId, std::numeric_limits<double>::quiet_NaN());
    for (int j = 0; j < features.size(); ++j) {
        const Criterion *c = rubric->find(features[j]);
        e.parts.append({features[j], c ? c->origin.value(QStringLiteral("source_judge")).toString() : QString(),
                        c ? c->text : QString(), x(0, j), contributions->values(0, j)});
    }
    std::stable_sort(e.parts.begin(), e.parts.end(), [](const CriterionPart &a, const CriterionPart &b) {
        return std::abs(a.contribution) > std::abs(b.contribution);
    });
    return e;
}

} // namespace rubric::stack
