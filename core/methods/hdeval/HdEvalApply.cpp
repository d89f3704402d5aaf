// apply_from: a finished HD-Eval tree and aggregator scoring new items, with no training data.
#include "HdEvalAggregate.h"
#include "HdEvalMethod.h"
#include "HdEvalTree.h"
#include "learn/Aggregator.h"
#include "methods/RunContext.h"
#include "store/Project.h"

#include <QJsonObject>
#include <QSet>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QVariant jsonNumber(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant();
}

} // namespace

void HdEvalMethod::finishApply()
{
    if (auto f = m_ctx->flushScores(); !f) {
        m_ctx->fail(f.errorString());
        return;
    }
    const QString primary = m_ctx->spec().aspect, judge = m_ctx->spec().judge;
    QVector<int> all;
    for (int i = 0; i < m_items.size(); ++i)
        all.append(i);
    // The alignment is measured on the target project's test split alone: its train items may be
    // the very items the applied aggregator learnt from (the source judge in the same project).
    auto trainIds = m_ctx->project()->readItemIds(SplitFilter::Train);
    if (!trainIds) {
        m_ctx->fail(trainIds.errorString());
        return;
    }
    const QSet<QString> train(trainIds->cbegin(), trainIds->cend());
    QVariantMap byAspect;
    int unscored = 0, nTest = 0;
    double ownR = kNaN;
    for (const Criterion &root : m_rubric.children(QString())) {
        const QString aspect = hdeval::rootAspect(m_rubric, root);
        if (!m_aspects.contains(aspect))
            continue; // a layer-1 node of an aspect this run does not judge
        const QStringList names = root.stats.value(QStringLiteral("aggregator"))
                                          .toMap()
                                          .value(QStringLiteral("features"))
                                          .toStringList();
        auto aggregator = learn::Aggregator::fromJson(
                QJsonObject::fromVariantMap(root.stats.value(QStringLiteral("aggregator_model")).toMap()));
        if (!aggregator) {
            m_ctx->fail(tr("apply_from: the stored aggregator of aspect '%1' cannot be read: %2")
                                .arg(aspect, aggregator.errorString()));
            return;
        }
        QVector<Criterion> nodes;
        for (const QString &key : names) {
            const Criterion *c = m_rubric.find(key);
            if (!c) {
                m_ctx->fail(tr("apply_from: the aggregator reads node '%1', which is not in the tree").arg(key));
                return;
            }
            nodes.append(*c);
        }
        const Eigen::MatrixXd x = features(nodes, all);
        auto predicted = aggregator->predict(x);
        if (!predicted) {
            m_ctx->fail(tr("apply_from: aspect '%1': %2").arg(aspect, predicted.errorString()));
            return;
        }
        QHash<QString, double> itemScores;
        Eigen::VectorXd pred(all.size()), human(all.size());
        unscored = 0;
        for (int i = 0; i < m_items.size(); ++i) {
            bool any = false;
            for (int c = 0; c < nodes.size(); ++c)
                any = any || std::isfinite(x(i, c));
            unscored += any ? 0 : 1;
            pred[i] = any ? (*predicted)(i, 0) : kNaN;
            human[i] = train.contains(m_items[i].id) ? kNaN : humanOf(aspect, i);
            itemScores.insert(m_items[i].id, pred[i]);
        }
        const double r = learn::pearsonPresent(pred, human);
        int n = 0;
        for (int i = 0; i < m_items.size(); ++i)
            n += std::isfinite(pred[i]) && std::isfinite(human[i]) ? 1 : 0;
        if (aspect == primary)
            nTest = n;
        if (aspect == primary) {
            ownR = r;
            m_ctx->recordScores({}, itemScores);
            if (auto f = m_ctx->flushScores(); !f) {
                m_ctx->fail(f.errorString());
                return;
            }
        } else if (auto w = m_ctx->project()->setJudgeScores(judge, aspect, itemScores); !w) {
            m_ctx->fail(w.errorString());
            return;
        }
        byAspect.insert(aspect,
                        QVariantMap{{QStringLiteral("test_r"), jsonNumber(r)}, {QStringLiteral("n_test_scored"), n}});
    }
    if (std::isfinite(ownR))
        if (auto a = m_ctx->store().setTestAlignment(
                    judge, m_rubric.version(), ownR,
                    tr("Pearson with the human scores of the target's test items the applied aggregator scored "
                       "(%1 of them)")
                            .arg(nTest));
            !a) {
            m_ctx->fail(a.errorString());
            return;
        }
    emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                    {QStringLiteral("applied_from"), m_params.applyFrom},
                    {QStringLiteral("aggregator"), m_rubric.children(QString())
                                                           .first()
                                                           .stats.value(QStringLiteral("aggregator"))
                                                           .toMap()
                                                           .value(QStringLiteral("kind"))},
                    {QStringLiteral("test_r"), jsonNumber(ownR)},
                    {QStringLiteral("n_test_scored"), nTest},
                    {QStringLiteral("aspects"), byAspect},
                    {QStringLiteral("node_scores"), m_scored},
                    {QStringLiteral("node_scores_missing"), m_missing},
                    {QStringLiteral("scored"), int(m_items.size()) - unscored},
                    {QStringLiteral("missing"), unscored},
                    {QStringLiteral("failed"), m_failed}});
}

} // namespace rubric
