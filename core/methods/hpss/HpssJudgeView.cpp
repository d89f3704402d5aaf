#include "methods/hpss/HpssJudgeView.h"

#include "judge/JudgeEngine.h"
#include "methods/hpss/PairwiseRender.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QSet>

#include <cmath>
#include <limits>

namespace rubric::hpss {

Result<JudgeView> JudgeView::load(Project *project, const QString &judge, const SpecLoader &loadSpec)
{
    const auto info = project->judge(judge);
    if (!info)
        return makeError(QStringLiteral("no judge '%1' in the project").arg(judge), project->path());
    if (info->method != QLatin1String(kMethodName))
        return makeError(QStringLiteral("judge '%1' was built by %2, not hpss").arg(judge, info->method),
                         project->path());
    auto stored = state::load(*project, judge);
    if (!stored)
        return stored.error();
    if (stored->isEmpty())
        return makeError(QStringLiteral("judge '%1' has no HPSS search state yet").arg(judge), project->path(), 0,
                         state::metaKey(judge));
    auto spec = loadSpec(project, judge);
    if (!spec)
        return spec.error();
    auto search = HpssSearch::fromVariant(stored->value(QStringLiteral("search")));
    if (!search)
        return makeError(
                QStringLiteral("the HPSS search of judge '%1' cannot be read: %2").arg(judge, search.errorString()),
                project->path(), 0, state::metaKey(judge));
    const auto aspect = project->aspect(spec->aspect);
    if (!aspect)
        return makeError(
                QStringLiteral("judge '%1' names aspect '%2', which the project lacks").arg(judge, spec->aspect),
                project->path(), 0, QStringLiteral("aspect"));
    const QString taskName = stored->value(QStringLiteral("task"), QStringLiteral("summeval")).toString();
    auto task = TaskWording::preset(taskName);
    if (!task)
        return makeError(task.errorString(), project->path(), 0, state::metaKey(judge));

    JudgeView v;
    v.m_judge = judge;
    v.m_spec = *spec;
    v.m_search = std::make_shared<HpssSearch>(std::move(search).value());
    v.m_aux = Auxiliaries::fromVariant(stored->value(QStringLiteral("aux")));
    v.m_evaluations = stored->value(QStringLiteral("evaluations")).toList();
    // The pairwise setting: its options, and once finished the rubric's accuracies with their n.
    v.m_pairwise = stored->value(QStringLiteral("pairwise")).toMap();
    if (!v.m_pairwise.isEmpty())
        if (auto rubric = RubricStore(project).load(judge))
            if (const Criterion *root = rubric->find(QStringLiteral("aspect")))
                for (const QString &key : {QStringLiteral("validation_accuracy"), QStringLiteral("validation_n"),
                                           QStringLiteral("test_accuracy"), QStringLiteral("test_n")})
                    if (root->stats.contains(key))
                        v.m_pairwise.insert(key, root->stats.value(key));
    auto items = project->readItems();
    if (!items)
        return items.error();
    v.m_itemList = std::move(items).value();
    for (int i = 0; i < v.m_itemList.size(); ++i)
        v.m_items.insert(v.m_itemList[i].id, i);
    // The validation split as the run saw it: the train items with a human score, in import order.
    const QHash<QString, double> human = project->humanScores(aspect->name);
    QVector<Item> validation;
    for (const QString &id : project->itemIds(SplitFilter::Train))
        if (human.contains(id) && !std::isnan(human.value(id)) && v.m_items.contains(id))
            validation.append(v.m_itemList.at(v.m_items.value(id)));
    v.m_builder = std::make_shared<PromptBuilder>(*task, *aspect, validation, human, v.m_search->params().exampleSeed);
    if (v.isPairwise()) { // the pairs as the run built them: the train split's, then the test split's
        auto options = pairOptionsFromVariant(v.m_pairwise);
        if (!options)
            return makeError(QStringLiteral("the pairwise options of judge '%1' cannot be read: %2")
                                     .arg(judge, options.errorString()),
                             project->path(), 0, state::metaKey(judge));
        const auto pairsOf = [&](SplitFilter split) {
            QVector<PairSourceItem> sources;
            for (const QString &id : project->itemIds(split))
                if (human.contains(id) && v.m_items.contains(id))
                    sources.append({id, v.m_itemList.at(v.m_items.value(id)).group, human.value(id)});
            return buildPairs(sources, *options);
        };
        v.m_pairs = pairsOf(SplitFilter::Train);
        v.m_validationPairCount = int(v.m_pairs.size());
        v.m_pairs += pairsOf(SplitFilter::Test);
    }
    const QVariant maxTokens = spec->settings.value(QStringLiteral("max_tokens"),
                                                    spec->settings.value(QStringLiteral("hpss.max_tokens")));
    if (maxTokens.isValid())
        v.m_maxTokens = maxTokens.toInt();
    return v;
}

Result<QVariantMap> JudgeView::withoutSearch(Project *project, const QString &judge)
{
    auto stored = state::load(*project, judge);
    if (!stored)
        return stored.error();
    QVariantMap out;
    if (stored->contains(QStringLiteral("ape"))) {
        const QVariantMap ape = stored->value(QStringLiteral("ape")).toMap();
        int evaluated = 0;
        for (const QVariant &c : ape.value(QStringLiteral("candidates")).toList())
            evaluated += c.toMap().contains(QStringLiteral("validation_spearman")) ? 1 : 0;
        out = {{QStringLiteral("kind"), QStringLiteral("ape")},
               {QStringLiteral("name"), QStringLiteral("ape-style")},
               {QStringLiteral("evaluated"), evaluated},
               {QStringLiteral("cost"), ape.value(QStringLiteral("cost"))}};
    } else if (stored->contains(QStringLiteral("transfer"))) {
        const bool fixed = stored->value(QStringLiteral("transfer_from")).toString() == QLatin1String("prompt");
        out = {{QStringLiteral("kind"), fixed ? QStringLiteral("prompt") : QStringLiteral("transfer")},
               {QStringLiteral("name"), stored->value(QStringLiteral("transfer_from"))}};
        if (!fixed)
            if (auto s = PromptStrategy::fromVariant(stored->value(QStringLiteral("transfer"))))
                out.insert(QStringLiteral("strategy"), s->format());
    } else {
        return out;
    }
    // The finished run's figures (and a fixed prompt's name and file) are in its rubric.
    auto rubric = RubricStore(project).load(judge);
    if (const Criterion *root = rubric ? rubric->find(QStringLiteral("aspect")) : nullptr) {
        for (const QString &key : {QStringLiteral("validation_spearman"), QStringLiteral("test_spearman")})
            if (root->stats.value(key).isValid() && !root->stats.value(key).isNull())
                out.insert(key, root->stats.value(key));
        if (out.value(QStringLiteral("kind")) == QLatin1String("prompt")) {
            out.insert(QStringLiteral("name"), root->stats.value(QStringLiteral("prompt")));
            out.insert(QStringLiteral("file"), root->stats.value(QStringLiteral("prompt_file")));
        }
    }
    return out;
}

int JudgeView::initCount() const
{
    const SearchParams &p = m_search->params();
    if (p.algorithm != SearchAlgorithm::Hpss && p.algorithm != SearchAlgorithm::Mutation)
        return 0;
    return 1 + int(p.space.neighbours(p.origin).size());
}

double JudgeView::originSpearman() const
{
    const auto &records = m_search->evaluated();
    return records.isEmpty() ? std::numeric_limits<double>::quiet_NaN() : records.first().spearman;
}

Result<RenderedPrompt> JudgeView::render(const PromptStrategy &strategy, const QString &itemId) const
{
    if (isPairwise()) {
        for (const PreferencePair &p : m_pairs)
            if (pairKey(p) == itemId)
                return renderPair(strategy, p, *m_builder, m_aux, m_pairs.mid(0, m_validationPairCount),
                                  m_search->params().exampleSeed, [this](const QString &id) -> const Item * {
                                      const auto at = m_items.constFind(id);
                                      return at == m_items.constEnd() ? nullptr : &m_itemList.at(*at);
                                  });
        return makeError(QStringLiteral("no pair '%1' in the judge's pairs").arg(itemId), {}, 0,
                         QStringLiteral("item"));
    }
    const auto it = m_items.constFind(itemId);
    if (it == m_items.constEnd())
        return makeError(QStringLiteral("no item '%1' in the project").arg(itemId), {}, 0, QStringLiteral("item"));
    return m_builder->render(strategy, m_itemList.at(*it), m_aux);
}

Result<QHash<QString, StrategySpend>> JudgeView::spend(Project *project, const QSet<QString> &known) const
{
    if (isPairwise()) // its prompts are per pair, not the pointwise ones rendered below: not counted here
        return QHash<QString, StrategySpend>();
    CallStore calls(project);
    auto ledger = calls.ledger(m_judge);
    if (!ledger)
        return ledger.error();
    QHash<QString, StrategySpend> byKey;
    for (const LedgerEntry &e : std::as_const(*ledger)) {
        StrategySpend &s = byKey[e.key];
        ++s.calls;
        s.cost += e.cost;
    }
    JudgeEngine engine(m_spec.evaluator, nullptr);
    QHash<QString, StrategySpend> out;
    for (const SearchRecord &r : m_search->evaluated()) {
        if (known.contains(r.proposal.strategy.format()))
            continue;
        StrategySpend total;
        bool rendered = true;
        for (const Item &item : m_builder->validation()) {
            auto prompt = m_builder->render(r.proposal.strategy, item, m_aux);
            if (!prompt) {
                rendered = false;
                break;
            }
            JudgeRequest request;
            request.messages = prompt->messages;
            request.temperature = 0;
            request.maxTokens = m_maxTokens;
            request.shape = AnswerShape::score(1, r.proposal.strategy.scaleMax()); // as HpssMethod::scoreRequest
            const StrategySpend s = byKey.value(engine.cacheKey(request));
            total.calls += s.calls;
            total.cost += s.cost;
        }
        if (rendered)
            out.insert(r.proposal.strategy.format(), total);
    }
    return out;
}

Result<RunSpec> testSplitSpec(Project *project, const QString &judge, const PromptStrategy &strategy,
                              const SpecLoader &loadSpec)
{
    auto spec = loadSpec(project, judge);
    if (!spec)
        return spec.error();
    const auto judges = project->readJudges();
    if (!judges)
        return judges.error();
    QSet<QString> names;
    for (const JudgeInfo &j : *judges)
        names.insert(j.name);
    int n = 1;
    while (names.contains(QStringLiteral("%1-test-%2").arg(judge).arg(n)))
        ++n;
    spec->judge = QStringLiteral("%1-test-%2").arg(judge).arg(n);
    spec->items = SplitFilter::Test;
    spec->resume = false;
    spec->replace = false;
    spec->retryFailed = false;
    // The strategy alone: the origin of a one-evaluation random search is its winner.
    for (const QString &key : {QStringLiteral("search"), QStringLiteral("budget"), QStringLiteral("origin")}) {
        spec->settings.remove(key);
        spec->settings.remove(QStringLiteral("hpss.") + key);
    }
    spec->settings.insert(QStringLiteral("search"), QStringLiteral("random"));
    spec->settings.insert(QStringLiteral("budget"), QStringLiteral("1"));
    spec->settings.insert(QStringLiteral("origin"), strategy.format());
    return *spec;
}

} // namespace rubric::hpss
