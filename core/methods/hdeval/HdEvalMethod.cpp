#include "HdEvalMethod.h"

#include "HdEvalAggregate.h"
#include "HdEvalTree.h"
#include "methods/RunContext.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString phaseOf(const char *what, int layer)
{
    return QStringLiteral("%1-%2").arg(QLatin1String(what)).arg(layer);
}

} // namespace

QString HdEvalMethod::rootKeyFor(const QString &aspect)
{
    QString key = aspect.toLower();
    key.replace(QRegularExpression(QStringLiteral("[^a-z0-9_-]+")), QStringLiteral("_"));
    return key.isEmpty() ? QStringLiteral("aspect") : key;
}

HdEvalMethod::HdEvalMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

QStringList HdEvalMethod::phaseNames()
{
    return {QStringLiteral("decompose-2"), QStringLiteral("score-1"),     QStringLiteral("score-2"),
            QStringLiteral("fit"),         QStringLiteral("decompose-3"), QStringLiteral("score-3")};
}

Result<void> HdEvalMethod::readParams()
{
    auto p = HdEvalParams::fromSettings(m_ctx->methodSettings());
    if (!p)
        return p.error();
    m_params = *p;
    if (!m_params.applyFrom.isEmpty())
        m_params.layers = 3; // apply_from scores the nodes the stored aggregator reads, of any layer
    // Layer 1: the run's aspect first, then the others named (each must exist), with their human
    // scores and scales.
    const QString own = m_ctx->spec().aspect;
    m_aspects = QStringList{own};
    for (const QString &a : std::as_const(m_params.aspects))
        if (!m_aspects.contains(a))
            m_aspects.append(a);
    m_human.clear();
    m_scales.clear();
    for (const QString &a : std::as_const(m_aspects)) {
        const auto aspect = m_ctx->project()->aspect(a);
        if (!aspect)
            return makeError(tr("HD-Eval parameter aspects: no aspect named '%1' in the project").arg(a), {}, 0,
                             QStringLiteral("aspects"));
        m_scales.insert(a, {aspect->min, aspect->max});
        auto human = m_ctx->project()->readHumanScores(a);
        if (!human)
            return human.error();
        m_human.insert(a, *human);
    }
    // The items scored: the target items (the test split by default) and the annotated train items
    // the aggregator learns from (annotated on any of the aspects); items the endpoint refused
    // before are skipped unless asked again. apply_from scores the target items alone.
    m_items.clear();
    m_trainIds.clear();
    m_failed = 0;
    QSet<QString> seen;
    auto take = [&](const Item &it) {
        if (seen.contains(it.id))
            return;
        seen.insert(it.id);
        if (m_ctx->skipsFailed(it.id)) {
            ++m_failed;
            return;
        }
        m_items.append(it);
    };
    for (const Item &it : m_ctx->targetItems())
        take(it);
    if (!m_params.applyFrom.isEmpty())
        return {};
    auto trainIds = m_ctx->project()->readItemIds(SplitFilter::Train);
    if (!trainIds)
        return trainIds.error();
    for (const QString &id : std::as_const(*trainIds)) {
        bool annotated = false;
        for (const QString &a : std::as_const(m_aspects))
            annotated = annotated || m_human.value(a).contains(id);
        const Item *it = m_ctx->item(id);
        if (!annotated || !it)
            continue;
        m_trainIds.insert(id);
        take(*it);
    }
    return {};
}

Result<Rubric> HdEvalMethod::initialTree(bool save)
{
    const QString judge = m_ctx->spec().judge;
    auto own = m_ctx->store().loadLatest(judge);
    if (!own)
        return own.error(); // an unreadable tree must not look like none (it would be decomposed again)
    if (*own && !(*own)->criteria().isEmpty()) {
        if ((*own)->method() != QLatin1String("hdeval"))
            return makeError(
                    tr("judge '%1' holds a %2 rubric, not an HD-Eval criteria tree").arg(judge, (*own)->method()), {},
                    0, QStringLiteral("judge"));
        return **own;
    }
    Rubric tree(QStringLiteral("hdeval"), m_ctx->spec().aspect);
    QString note;
    const QString from = m_params.applyFrom.isEmpty() ? m_params.treeFrom : m_params.applyFrom;
    const QString fromKey = m_params.applyFrom.isEmpty() ? QStringLiteral("tree_from") : QStringLiteral("apply_from");
    if (!from.isEmpty()) {
        auto other = m_ctx->store().load(from);
        if (!other)
            return makeError(tr("%1: judge '%2' has no rubric: %3").arg(fromKey, from, other.errorString()), {}, 0,
                             fromKey);
        if (other->method() != QLatin1String("hdeval") || other->aspect() != m_ctx->spec().aspect)
            return makeError(tr("%1: judge '%2' holds a %3 rubric for '%4', not an HD-Eval tree for '%5'")
                                     .arg(fromKey, from, other->method(), other->aspect(), m_ctx->spec().aspect),
                             {}, 0, fromKey);
        QStringList roots;
        for (const Criterion &c : other->children(QString()))
            roots << hdeval::rootAspect(*other, c);
        for (const QString &a : std::as_const(m_aspects))
            if (!roots.contains(a))
                return makeError(tr("%1: the tree of judge '%2' has no layer-1 node for aspect '%3' (it has %4)")
                                         .arg(fromKey, from, a, roots.join(QStringLiteral(", "))),
                                 {}, 0, fromKey);
        const bool apply = !m_params.applyFrom.isEmpty();
        if (apply && !other->children(QString()).first().stats.contains(QStringLiteral("aggregator_model")))
            return makeError(tr("apply_from: judge '%1' has no fitted aggregator (its run has not finished)").arg(from),
                             {}, 0, fromKey);
        for (Criterion c : other->criteria()) {
            if (!apply) {
                c.stats.remove(QStringLiteral("aggregator"));
                c.stats.remove(QStringLiteral("aggregator_model"));
                c.stats.remove(QStringLiteral("importance"));
            }
            c.origin.insert(apply ? QStringLiteral("applied_from") : QStringLiteral("copied_from"), from);
            tree.add(c);
        }
        note = (apply ? tr("HD-Eval: the finished tree and aggregator of judge '%1' (version %2), applied")
                      : tr("HD-Eval: the criteria tree of judge '%1' (version %2)"))
                       .arg(from)
                       .arg(other->version());
    } else {
        int position = 0;
        for (const QString &a : std::as_const(m_aspects)) {
            const auto aspect = m_ctx->project()->aspect(a);
            Criterion root;
            root.key = rootKeyFor(a);
            root.kind = CriterionKind::Aspect;
            root.text = aspect->name;
            root.definition = aspect->definition;
            root.position = position++;
            root.stats = {{QStringLiteral("layer"), 1}, {QStringLiteral("aspect"), a}};
            root.origin = {{QStringLiteral("method"), QStringLiteral("hdeval")},
                           {QStringLiteral("parent"), QString()},
                           {QStringLiteral("step"), QStringLiteral("aspect")}};
            tree.add(root);
        }
        note = m_aspects.size() == 1 ? tr("HD-Eval layer 1: the aspect")
                                     : tr("HD-Eval layer 1: the aspects %1").arg(m_aspects.join(QStringLiteral(", ")));
    }
    if (save) {
        auto v = m_ctx->store().saveVersion(judge, tree, note);
        if (!v)
            return v.error();
        tree.setVersion(*v);
    }
    return tree;
}

Result<void> HdEvalMethod::loadStoredScores()
{
    m_scores.clear();
    const auto rows = m_ctx->store().readSampleScores(m_ctx->spec().judge);
    if (!rows)
        return rows.error();
    for (const CriterionScore &row : *rows) {
        if (row.parseStatus == QLatin1String("failed") && m_ctx->spec().retryFailed)
            continue; // asked again
        m_scores[row.itemId].insert(row.criterionKey, row.score);
    }
    return {};
}

void HdEvalMethod::start()
{
    if (auto r = readParams(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    auto tree = initialTree(true);
    if (!tree) {
        m_ctx->fail(tree.errorString());
        return;
    }
    m_rubric = *tree;
    if (auto r = loadStoredScores(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    advance();
}

void HdEvalMethod::advance()
{
    if (m_ctx->stopped())
        return;
    const bool apply = !m_params.applyFrom.isEmpty();
    const int layers = apply ? 3 : m_params.layers;
    // 1. Layer 2: every layer-1 node is decomposed (App. C.2: no pruning of the human aspects).
    if (!apply && layers >= 2 && hdeval::layerNodes(m_rubric, 2).isEmpty()) {
        decompose(hdeval::layerNodes(m_rubric, 1), 2);
        return;
    }
    // 2. Every node of the layers so far scored on every item, layer by layer (apply_from: the
    // aggregator's nodes).
    for (int layer = 1; layer <= layers; ++layer) {
        if (hdeval::layerNodes(m_rubric, layer).isEmpty())
            break;
        if (!missingPairs(m_rubric, layer).isEmpty()) {
            scoreLayer(layer);
            return;
        }
    }
    if (apply) {
        finishApply();
        return;
    }
    // 3. Layer 3 under the nodes attribution pruning (or the setting "select") selects.
    if (layers >= 3 && hdeval::layerNodes(m_rubric, 3).isEmpty()) {
        auto selected = selectForExpansion(m_rubric);
        if (!selected) {
            m_ctx->fail(selected.errorString());
            return;
        }
        decompose(*selected, 3);
        return;
    }
    finish();
}

Result<QVector<JudgeRequest>> HdEvalMethod::decomposeRequests(const QVector<Criterion> &parents) const
{
    QVector<QVector<Criterion>> calls;
    if (m_params.batched)
        calls.append(parents);
    else
        for (const Criterion &p : parents)
            calls.append({p});
    QVector<JudgeRequest> out;
    for (const QVector<Criterion> &group : std::as_const(calls)) {
        QVariantMap c = m_ctx->baseContext();
        QVariantList list;
        for (const Criterion &p : group)
            list.append(QVariantMap{{QStringLiteral("name"), p.text},
                                    {QStringLiteral("definition"), p.definition.isEmpty() ? p.text : p.definition}});
        c.insert(QStringLiteral("parents"), list);
        c.insert(QStringLiteral("children"), m_params.children);
        c.insert(QStringLiteral("batched"), group.size() > 1);
        auto r = m_ctx->templateRequest(QStringLiteral("hdeval_decompose"), c, m_params.decomposeTemperature,
                                        m_params.decomposeMaxTokens);
        if (!r)
            return r.error();
        out.append(*r);
    }
    return out;
}

Result<int> HdEvalMethod::addChildren(Rubric &tree, const QVector<Criterion> &parents, int layer,
                                      const QVector<JudgeResponse> &responses) const
{
    QSet<QString> taken;
    for (const Criterion &c : tree.criteria())
        taken.insert(c.key);
    const QVariantMap templ = m_ctx->templatesUsed().value(QStringLiteral("hdeval_decompose")).toMap();
    int added = 0;
    auto addUnder
            = [&](const Criterion &parent, const QVector<hdeval::ProposedChild> &children, const QString &callKey) {
                  int position = 0;
                  for (const hdeval::ProposedChild &p : children) {
                      if (position >= m_params.children)
                          break; // "a maximum of 4 children" (the setting): the rest of a long answer is dropped
                      Criterion c;
                      c.key = hdeval::makeKey(p, taken);
                      taken.insert(c.key);
                      c.parentKey = parent.key;
                      c.kind = CriterionKind::Criterion;
                      c.text = p.name;
                      c.definition = p.definition;
                      c.position = position++;
                      c.stats = {{QStringLiteral("layer"), layer}};
                      c.origin = {{QStringLiteral("method"), QStringLiteral("hdeval")},
                                  {QStringLiteral("parent"), parent.key},
                                  {QStringLiteral("generator"), m_ctx->spec().generator.model},
                                  {QStringLiteral("prompt"), QStringLiteral("hdeval_decompose")},
                                  {QStringLiteral("template_hash"), templ.value(QStringLiteral("hash"))},
                                  {QStringLiteral("call_key"), callKey}};
                      tree.add(c);
                      ++added;
                  }
              };
    const auto failText = [](const JudgeResponse &r) { return r.text().left(300); };
    if (!m_params.batched || parents.size() == 1) {
        for (int i = 0; i < parents.size(); ++i) {
            const JudgeResponse &r = responses.value(i);
            QVector<hdeval::ProposedChild> children;
            for (const hdeval::ProposedGroup &g : hdeval::parseDecomposition(r.text()))
                children += g.children;
            if (children.isEmpty())
                return makeError(tr("the generator's decomposition of '%1' held no criterion in the form "
                                    "'Name: definition': %2")
                                         .arg(parents[i].text, failText(r)),
                                 {}, 0, phaseOf("decompose", layer));
            addUnder(parents[i], children, r.cacheKey);
        }
        return added;
    }
    // Batched: the answer groups the children under "## <parent name>" headers.
    const JudgeResponse &r = responses.value(0);
    const QVector<hdeval::ProposedGroup> groups = hdeval::parseDecomposition(r.text());
    QSet<QString> matched;
    for (const hdeval::ProposedGroup &g : groups) {
        const QString header = g.header.toLower().trimmed();
        const Criterion *parent = nullptr;
        for (const Criterion &p : parents) {
            const QString name = p.text.toLower().trimmed();
            if (!header.isEmpty() && (header == name || header == p.key || header.contains(name)))
                parent = &p;
        }
        if (!parent)
            return makeError(tr("the generator's batched decomposition has a group '%1' that names none of the "
                                "criteria decomposed (%2): %3")
                                     .arg(
                                             g.header,
                                             [&] {
                                                 QStringList names;
                                                 for (const Criterion &p : parents)
                                                     names << p.text;
                                                 return names.join(QStringLiteral(", "));
                                             }(),
                                             failText(r)),
                             {}, 0, phaseOf("decompose", layer));
        if (matched.contains(parent->key))
            continue;
        matched.insert(parent->key);
        addUnder(*parent, g.children, r.cacheKey);
    }
    for (const Criterion &p : parents)
        if (!matched.contains(p.key))
            return makeError(
                    tr("the generator's batched decomposition has no criteria for '%1': %2").arg(p.text, failText(r)),
                    {}, 0, phaseOf("decompose", layer));
    return added;
}

void HdEvalMethod::decompose(const QVector<Criterion> &parents, int layer)
{
    if (parents.isEmpty()) {
        m_ctx->fail(tr("nothing to decompose into layer %1").arg(layer));
        return;
    }
    auto requests = decomposeRequests(parents);
    if (!requests) {
        m_ctx->fail(requests.errorString());
        return;
    }
    m_ctx->setOutlook(int(requests->size()));
    m_ctx->submit(
            JudgeRole::Generator, phaseOf("decompose", layer), *requests,
            [this, parents, layer](const QVector<JudgeResponse> &rs) {
                for (const JudgeResponse &r : rs)
                    if (!r.ok()) {
                        m_ctx->fail(RunContext::failureText(r));
                        return;
                    }
                Rubric tree = m_rubric;
                auto added = addChildren(tree, parents, layer, rs);
                if (!added) {
                    m_ctx->fail(added.errorString());
                    return;
                }
                QStringList names;
                for (const Criterion &p : parents)
                    names << p.key;
                auto saved = m_ctx->store().saveVersion(m_ctx->spec().judge, tree,
                                                        tr("HD-Eval layer %1: %2 criteria under %3")
                                                                .arg(layer)
                                                                .arg(*added)
                                                                .arg(names.join(QStringLiteral(", "))));
                if (!saved) {
                    m_ctx->fail(saved.errorString());
                    return;
                }
                tree.setVersion(*saved);
                m_rubric = tree;
                advance();
            },
            [](const JudgeResponse &r) { return !hdeval::parseDecomposition(r.text()).isEmpty(); });
}

Result<JudgeRequest> HdEvalMethod::scoreRequest(const Rubric &tree, const Criterion &node, const Item &item) const
{
    QVariantMap c = m_ctx->baseContext();
    const Criterion *parent = node.parentKey.isEmpty() ? nullptr : tree.find(node.parentKey);
    // Layer 1's parent is the task itself (spec §4: the layer-1 prompt is not printed; inferred).
    c.insert(QStringLiteral("parent_name"), parent ? parent->text : tr("overall quality"));
    c.insert(QStringLiteral("node_name"), node.text);
    c.insert(QStringLiteral("node_definition"), node.definition.isEmpty() ? node.text : node.definition);
    c.insert(QStringLiteral("source"), item.source);
    c.insert(QStringLiteral("output"), item.output);
    auto r = m_ctx->templateRequest(QStringLiteral("hdeval_score"), c, m_params.temperature, m_params.maxTokens);
    if (!r)
        return r.error();
    r->shape = AnswerShape::score(1, 5); // the scale hdeval::firstScore reads
    r->tag = QStringLiteral("item:%1/criterion:%2").arg(item.id, node.key);
    return r;
}

QVector<HdEvalMethod::Pair> HdEvalMethod::missingPairs(const Rubric &tree, int layer) const
{
    QVector<Pair> out;
    QVector<Criterion> nodes = hdeval::layerNodes(tree, layer);
    if (!m_params.applyFrom.isEmpty()) {
        // apply_from: only the nodes the stored aggregator reads
        const QStringList features = tree.children(QString())
                                             .first()
                                             .stats.value(QStringLiteral("aggregator"))
                                             .toMap()
                                             .value(QStringLiteral("features"))
                                             .toStringList();
        nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                                   [&](const Criterion &c) { return !features.contains(c.key); }),
                    nodes.end());
    }
    for (int i = 0; i < m_items.size(); ++i) {
        const auto have = m_scores.constFind(m_items[i].id);
        for (const Criterion &n : nodes)
            if (have == m_scores.constEnd() || !have->contains(n.key))
                out.append({i, n.key});
    }
    return out;
}

void HdEvalMethod::scoreLayer(int layer)
{
    auto pairs = std::make_shared<QVector<Pair>>(missingPairs(m_rubric, layer));
    m_ctx->setOutlook(int(pairs->size()));
    m_ctx->stream(
            JudgeRole::Evaluator, phaseOf("score", layer), int(pairs->size()),
            [this, pairs](int unit) -> Result<QVector<JudgeRequest>> {
                const Pair &p = (*pairs)[unit];
                const Criterion *node = m_rubric.find(p.key);
                if (!node)
                    return makeError(tr("node '%1' is not in the criteria tree").arg(p.key));
                auto r = scoreRequest(m_rubric, *node, m_items[p.item]);
                if (!r)
                    return r.error();
                return QVector<JudgeRequest>{*r};
            },
            [this, pairs](int unit, const QVector<JudgeResponse> &rs) {
                const Pair &p = (*pairs)[unit];
                const Item &item = m_items[p.item];
                const JudgeResponse &r = rs.first();
                CriterionScore row{item.id, p.key, 0, kNaN, QStringLiteral("failed"), {}, {}, r.cacheKey};
                if (r.status == JudgeStatus::Failed) {
                    row.raw = RunContext::failureText(r);
                    ++m_failed;
                } else if (const auto s = hdeval::firstScore(r.text())) {
                    row.score = *s;
                    row.parseStatus = QStringLiteral("ok");
                    row.raw = r.text();
                    ++m_scored;
                } else {
                    // Asked once more already (RunContext's Readable check): recorded missing, never 0.
                    row.parseStatus = QStringLiteral("unparsed");
                    row.raw = r.text();
                    ++m_missing;
                }
                m_scores[item.id].insert(p.key, row.score);
                m_ctx->recordScores({row}, {});
            },
            [this] { advance(); }, [](const JudgeResponse &r) { return hdeval::firstScore(r.text()).has_value(); });
}

} // namespace rubric
