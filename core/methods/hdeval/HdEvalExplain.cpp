#include "HdEvalExplain.h"

#include "HdEvalTree.h"
#include "learn/Aggregator.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric::hdeval {
namespace {

QString trc(const char *text)
{
    return QCoreApplication::translate("HdEvalExplain", text);
}

QVariant number(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant();
}

} // namespace

QVariantMap Explanation::toMap() const
{
    QVariantList list;
    for (const NodeContribution &n : nodes)
        list.append(QVariantMap{{QStringLiteral("id"), n.key},
                                {QStringLiteral("text"), n.text},
                                {QStringLiteral("layer"), n.layer},
                                {QStringLiteral("score"), number(n.score)},
                                {QStringLiteral("contribution"), number(n.contribution)}});
    return {{QStringLiteral("item"), item},
            {QStringLiteral("aspect"), aspect},
            {QStringLiteral("aggregator"), aggregator},
            {QStringLiteral("rubric_version"), version},
            {QStringLiteral("score"), number(prediction)},
            {QStringLiteral("stored_score"), number(stored)},
            {QStringLiteral("base"), number(base)},
            {QStringLiteral("contributions"), list}};
}

Result<Explanation> explainItem(Project *project, const QString &judge, const QString &itemId, const QString &aspect)
{
    RubricStore store(project);
    auto rubric = store.load(judge);
    if (!rubric)
        return rubric.error();
    if (rubric->method() != QLatin1String("hdeval"))
        return makeError(trc("judge '%1' is a %2 judge: explain reads HD-Eval judges").arg(judge, rubric->method()), {},
                         0, QStringLiteral("judge"));
    const QString wanted = aspect.isEmpty() ? rubric->aspect() : aspect;
    const QVector<Criterion> roots = rubric->children(QString());
    const Criterion *root = nullptr;
    QStringList known;
    for (const Criterion &r : roots) {
        const QString a
                = r.stats.value(QStringLiteral("aspect"), roots.size() == 1 ? rubric->aspect() : r.text).toString();
        known << a;
        if (a == wanted && !root)
            root = &r;
    }
    if (!root)
        return makeError(trc("judge '%1' has no layer-1 node for aspect '%2' (it has %3)")
                                 .arg(judge, wanted, known.join(QStringLiteral(", "))),
                         {}, 0, QStringLiteral("aspect"));
    if (!root->stats.contains(QStringLiteral("aggregator_model")))
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
        return makeError(trc("judge '%1': the aggregator has %2 features, its description names %3")
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
        if (j >= 0 && std::isfinite(row.score)) {
            x(0, j) = row.score;
            ++present;
        }
    }
    if (present == 0)
        return makeError(trc("item '%1' has no node score under judge '%2'").arg(itemId, judge), {}, 0,
                         QStringLiteral("item"));
    auto predicted = aggregator->predict(x);
    if (!predicted)
        return predicted.error();
    auto parts = aggregator->contributions(x, 0);
    if (!parts)
        return parts.error();
    Explanation e;
    e.item = itemId;
    e.aspect = wanted;
    e.aggregator = description.value(QStringLiteral("kind")).toString();
    e.version = rubric->version();
    e.prediction = (*predicted)(0, 0);
    e.base = parts->base[0];
    const auto stored = project->readJudgeScores(judge, wanted);
    if (!stored)
        return stored.error();
    e.stored = stored->value(itemId, std::numeric_limits<double>::quiet_NaN());
    for (int j = 0; j < features.size(); ++j) {
        const Criterion *c = rubric->find(features[j]);
        e.nodes.append(
                {features[j], c ? c->text : QString(), c ? layerOf(*rubric, *c) : 0, x(0, j), parts->values(0, j)});
    }
    std::stable_sort(e.nodes.begin(), e.nodes.end(), [](const NodeContribution &a, const NodeContribution &b) {
        return std::abs(a.contribution) > std::abs(b.contribution);
    });
    return e;
}

} // namespace rubric::hdeval
