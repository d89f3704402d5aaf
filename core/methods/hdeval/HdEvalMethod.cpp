#include "HdEvalMethod.h"

#include "HdEvalTree.h"
#include "runs/RunContext.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <cmath>
#include <limits>
#include <memory>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString rootKeyFor(const QString &aspect)
{
    QString key = aspect.toLower();
    key.replace(QRegularExpression(QStringLiteral("[^a-z0-9_-]+")), QStringLiteral("_"));
    return key.isEmpty() ? QStringLiteral("aspect") : key;
}

QString phaseOf(const char *what, int layer)
{
    return QStringLiteral("%1-%2").arg(QLatin1String(what)).arg(layer);
}

} // namespace

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
    // The items scored: the target items (the test split by default) and the annotated train items
    // the aggregator learns from; items the endpoint refused before are skipped unless asked again.
    m_items.clear();
    m_trainIds.clear();
    m_failed = 0;
    QSet<QString> seen;
    auto take = [&](const Item &it) {
        if (seen.contains(it.id))
            return;
        seen.insert(it.id);
        if (!m_ctx->spec().retryFailed && m_ctx->failedBefore().contains(it.id)) {
            ++m_failed;
            return;
        }
        m_items.append(it);
    };
    for (const Item &it : m_ctx->targetItems())
        take(it);
    for (const Item &it : m_ctx->trainItems()) {
        m_trainIds.insert(it.id);
        take(it);
    }
    return {};
}

Result<Rubric> HdEvalMethod::initialTree(bool save)
{
    const QString judge = m_ctx->spec().judge;
    if (auto own = m_ctx->store().load(judge); own && !own->criteria().isEmpty()) {
        if (own->method() != QLatin1String("hdeval"))
            return makeError(tr("judge '%1' holds a %2 rubric, not an HD-Eval criteria tree").arg(judge, own->method()),
                             {}, 0, QStringLiteral("judge"));
        return *own;
    }
    Rubric tree(QStringLiteral("hdeval"), m_ctx->spec().aspect);
    QString note;
    if (!m_params.treeFrom.isEmpty()) {
        auto other = m_ctx->store().load(m_params.treeFrom);
        if (!other)
            return makeError(tr("tree_from: judge '%1' has no rubric: %2").arg(m_params.treeFrom, other.errorString()),
                             {}, 0, QStringLiteral("tree_from"));
        if (other->method() != QLatin1String("hdeval") || other->aspect() != m_ctx->spec().aspect)
            return makeError(tr("tree_from: judge '%1' holds a %2 rubric for '%3', not an HD-Eval tree for '%4'")
                                     .arg(m_params.treeFrom, other->method(), other->aspect(), m_ctx->spec().aspect),
                             {}, 0, QStringLiteral("tree_from"));
        for (Criterion c : other->criteria()) {
            c.stats.remove(QStringLiteral("aggregator"));
            c.stats.remove(QStringLiteral("aggregator_model"));
            c.stats.remove(QStringLiteral("importance"));
            c.origin.insert(QStringLiteral("copied_from"), m_params.treeFrom);
            tree.add(c);
        }
        note = tr("HD-Eval: the criteria tree of judge '%1' (version %2)").arg(m_params.treeFrom).arg(other->version());
    } else {
        Criterion root;
        root.key = rootKeyFor(m_ctx->spec().aspect);
        root.kind = CriterionKind::Aspect;
        root.text = m_ctx->aspect().name;
        root.definition = m_ctx->aspect().definition;
        root.stats = {{QStringLiteral("layer"), 1}};
        root.origin = {{QStringLiteral("method"), QStringLiteral("hdeval")},
                       {QStringLiteral("parent"), QString()},
                       {QStringLiteral("step"), QStringLiteral("aspect")}};
        tree.add(root);
        note = tr("HD-Eval layer 1: the aspect");
    }
    if (save) {
        auto v = m_ctx->store().saveVersion(judge, tree, note);
        if (!v)
            return v.error();
        tree.setVersion(*v);
    }
    return tree;
}

void HdEvalMethod::loadStoredScores()
{
    m_scores.clear();
    for (const CriterionScore &row : m_ctx->store().sampleScores(m_ctx->spec().judge)) {
        if (row.parseStatus == QLatin1String("failed") && m_ctx->spec().retryFailed)
            continue; // asked again
        m_scores[row.itemId].insert(row.criterionKey, row.score);
    }
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
    loadStoredScores();
    advance();
}

void HdEvalMethod::advance()
{
    if (m_ctx->stopped())
        return;
    const int layers = m_params.layers;
    // 1. Layer 2: every layer-1 node is decomposed (App. C.2: no pruning of the human aspects).
    if (layers >= 2 && hdeval::layerNodes(m_rubric, 2).isEmpty()) {
        decompose(hdeval::layerNodes(m_rubric, 1), 2);
        return;
    }
    // 2. Every node of the layers so far scored on every item, layer by layer.
    for (int layer = 1; layer <= layers; ++layer) {
        if (hdeval::layerNodes(m_rubric, layer).isEmpty())
            break;
        if (!missingPairs(m_rubric, layer).isEmpty()) {
            scoreLayer(layer);
            return;
        }
    }
    // 3. Layer 3 under the nodes attribution pruning selects.
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
        auto prompt = m_ctx->prompts().render(QStringLiteral("hdeval_decompose"), c);
        if (!prompt)
            return prompt.error();
        m_ctx->noteTemplate(*prompt);
        JudgeRequest r;
        r.messages = prompt->messages;
        r.temperature = m_params.decomposeTemperature;
        r.maxTokens = m_params.decomposeMaxTokens;
        out.append(r);
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
    auto prompt = m_ctx->prompts().render(QStringLiteral("hdeval_score"), c);
    if (!prompt)
        return prompt.error();
    m_ctx->noteTemplate(*prompt);
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = m_params.temperature;
    r.maxTokens = m_params.maxTokens;
    r.tag = QStringLiteral("item:%1/criterion:%2").arg(item.id, node.key);
    return r;
}

QVector<HdEvalMethod::Pair> HdEvalMethod::missingPairs(const Rubric &tree, int layer) const
{
    QVector<Pair> out;
    const QVector<Criterion> nodes = hdeval::layerNodes(tree, layer);
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
