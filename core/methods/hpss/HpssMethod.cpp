#include "HpssMethod.h"

#include "methods/RunContext.h"
#include "methods/hpss/HpssArtefacts.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "util/Json.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rubric {
namespace {

using namespace hpss;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

HpssMethod::HpssMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

HpssMethod::~HpssMethod() = default;

Result<void> HpssMethod::readParams()
{
    m_params = SearchParams{};
    m_samples = 1;
    m_sampleTemperature = 1.0;
    m_notes.clear();
    m_transfer.reset();
    m_transferFrom.clear();
    m_fixed.reset();
    m_ape.reset();
    m_apeBase.clear();
    QString fixedName;
    m_gapWarning = gapWarning;
    QString fromJudge, fromProject;
    bool originSet = false, levelSet = false;
    const QVariantMap s = m_ctx->methodSettings();
    m_pairwise = false;
    m_pairOptions = PairOptions{};
    // The pairwise setting's space first, so that `disable` and `origin` apply inside it.
    for (auto it = s.begin(); it != s.end(); ++it)
        if (it.key() == QLatin1String("setting") || it.key() == QLatin1String("hpss.setting"))
            if (auto r = readPairwiseSetting(QStringLiteral("setting"), it.value().toString().trimmed()); !r.ok())
                return r.error();
    if (m_pairwise)
        m_params.space = StrategySpace::pairwise();
    for (auto it = s.begin(); it != s.end(); ++it) {
        const QString key = it.key().startsWith(QLatin1String("hpss.")) ? it.key().mid(5) : it.key();
        const QString value = it.value().toString().trimmed();
        if (key == QLatin1String("task")) {
            if (auto w = TaskWording::preset(value); !w)
                return makeError(w.errorString(), {}, 0, QStringLiteral("task"));
            m_taskName = value;
        } else if (key == QLatin1String("samples")) {
            bool ok = false;
            m_samples = value.toInt(&ok);
            if (!ok || m_samples < 1 || m_samples > 100)
                return makeError(tr("bad value '%1' for HPSS parameter 'samples' (1 to 100 answers per test item; 20 "
                                    "is the paper's HPSS†)")
                                         .arg(value),
                                 {}, 0, QStringLiteral("samples"));
        } else if (key == QLatin1String("sample_temperature")) {
            bool ok = false;
            m_sampleTemperature = value.toDouble(&ok);
            if (!ok || !(m_sampleTemperature >= 0) || m_sampleTemperature > 2)
                return makeError(tr("bad value '%1' for HPSS parameter 'sample_temperature' (0 to 2)").arg(value), {},
                                 0, QStringLiteral("sample_temperature"));
        } else if (key == QLatin1String("max_tokens")) {
            bool ok = false;
            m_maxTokens = value.toInt(&ok);
            if (!ok || m_maxTokens < 1)
                return makeError(tr("bad value '%1' for HPSS parameter 'max_tokens' (a positive integer)").arg(value),
                                 {}, 0, QStringLiteral("max_tokens"));
        } else if (key == QLatin1String("gap_warning")) {
            bool ok = false;
            m_gapWarning = value.toDouble(&ok);
            if (!ok || !std::isfinite(m_gapWarning) || std::abs(m_gapWarning) > 2)
                return makeError(
                        tr("bad value '%1' for HPSS parameter 'gap_warning' (a Spearman difference in [-2, 2])")
                                .arg(value),
                        {}, 0, QStringLiteral("gap_warning"));
        } else if (key == QLatin1String("strategy")) {
            auto strategy = PromptStrategy::parse(value);
            if (!strategy)
                return makeError(tr("HPSS parameter 'strategy': %1").arg(strategy.errorString()), {}, 0,
                                 QStringLiteral("strategy"));
            m_transfer = *strategy;
            m_transferFrom = QStringLiteral("strategy");
        } else if (key == QLatin1String("prompt")) {
            fixedName = value == QLatin1String("none") ? QString() : value;
        } else if (key == QLatin1String("transfer_from")) {
            fromJudge = value;
        } else if (key == QLatin1String("transfer_project")) {
            fromProject = value;
        } else if (auto pairwise = readPairwiseSetting(key, value); !pairwise.ok()) {
            return pairwise.error();
        } else if (*pairwise) {
            continue;
        } else if (key == QLatin1String("level") && value == QLatin1String("task")) {
            continue; // the task's level (below)
        } else if (auto r = m_params.set(key, value); !r) {
            return makeError(r.errorString(), {}, 0, key);
        } else if (key == QLatin1String("origin")) {
            originSet = true;
        } else if (key == QLatin1String("level")) {
            levelSet = true;
        }
    }
    // Summary-level Spearman for SummEval (paper Eq. 8, [code] correlation_summary), dataset-level
    // for the others, unless the user named a level.
    if (!levelSet)
        m_params.level = taskLevel(*TaskWording::preset(m_taskName));
    // The origin is the MT-Bench prompt on the task's own scale (the paper and [code]: 3 for
    // Topical-Chat, 5 for the others) unless the user named one.
    if (!originSet) // pairwise: the scale is no factor, its one value is 5
        m_params.origin = m_pairwise ? PromptStrategy::mtBenchOrigin(5) : taskOrigin(*TaskWording::preset(m_taskName));
    if (m_transfer && !fromJudge.isEmpty())
        return makeError(tr("HPSS parameters 'strategy' and 'transfer_from' exclude each other: give one"), {}, 0,
                         QStringLiteral("transfer_from"));
    if (!fromProject.isEmpty() && fromJudge.isEmpty())
        return makeError(tr("HPSS parameter 'transfer_project' needs 'transfer_from' (the judge in that project)"), {},
                         0, QStringLiteral("transfer_project"));
    if (!fromJudge.isEmpty())
        if (auto r = readTransfer(fromJudge, fromProject); !r)
            return r;
    // CloserLook(+ICL): a fixed prompt text scored on the test split like a transferred strategy
    // (no search); the origin stands in as the strategy, which needs no auxiliary text.
    if (!fixedName.isEmpty()) {
        if (m_transfer)
            return makeError(tr("HPSS parameter 'prompt' excludes 'strategy' and 'transfer_from': give one"), {}, 0,
                             QStringLiteral("prompt"));
        auto fixed = closerLookPrompt(fixedName, m_taskName, m_ctx->aspect().name);
        if (!fixed)
            return fixed.error();
        m_fixed = *fixed;
        m_transfer = m_params.origin;
        m_transferFrom = QStringLiteral("prompt");
    }
    QVector<Item> validation;
    QHash<QString, double> human;
    for (const Item &item : m_ctx->trainItems()) {
        const double h = m_ctx->human(item.id);
        if (std::isnan(h))
            continue;
        validation.append(item);
        human.insert(item.id, h);
    }
    if (m_transfer && m_transfer->exampleCount() > validation.size())
        return makeError(tr("the transferred strategy %1 shows %2 in-context examples, but aspect '%3' has %4 train "
                            "items with human scores to draw them from")
                                 .arg(m_transfer->format())
                                 .arg(m_transfer->exampleCount())
                                 .arg(m_ctx->aspect().name)
                                 .arg(validation.size()),
                         {}, 0, QStringLiteral("strategy"));
    if (!m_transfer && validation.size() < 3)
        return makeError(tr("HPSS needs at least 3 train items with human scores on aspect '%1' as its validation "
                            "split (found %2): set a split first (rubric split)")
                                 .arg(m_ctx->aspect().name)
                                 .arg(validation.size()),
                         {}, 0, QStringLiteral("split"));
    m_validationHuman.clear();
    m_validationGroups.clear();
    m_validationIds.clear();
    for (const Item &item : std::as_const(validation)) {
        m_validationHuman.append(human.value(item.id));
        m_validationGroups.append(item.group);
        m_validationIds.insert(item.id);
    }
    // An example count the validation split cannot fill is no strategy of this run.
    if (m_pairwise)
        if (auto r = preparePairwise(validation); !r)
            return r;
    const QStringList &exampleValues = factorValues(Factor::Examples);
    for (int j = 0; j < (m_pairwise ? 0 : exampleValues.size()); ++j)
        if (exampleValues[j].toInt() > validation.size() && m_params.space.isEnabled(Factor::Examples, j)) {
            if (auto r = m_params.space.disable(Factor::Examples, exampleValues[j]); !r)
                return r;
            m_notes.append(tr("examples:%1 disabled: the validation split has %2 items")
                                   .arg(exampleValues[j])
                                   .arg(validation.size()));
        }
    if (auto r = m_params.validate(); !r)
        return r;
    m_builder = std::make_unique<PromptBuilder>(*TaskWording::preset(m_taskName), m_ctx->aspect(), validation, human,
                                                m_params.exampleSeed);
    if (m_params.algorithm == SearchAlgorithm::Ape) {
        if (m_transfer)
            return makeError(tr("HPSS parameter 'search=ape' searches prompt texts: it excludes 'strategy', "
                                "'transfer_from' and 'prompt'"),
                             {}, 0, QStringLiteral("search"));
        // [code] ape.py: 1 to the task's scale (Topical-Chat 3, the others 5); groundedness 0 to 1.
        m_apeMin = m_builder->scaleMin();
        m_apeMax = m_apeMin == 0 && m_ctx->aspect().max <= 1 ? 1 : m_builder->task().nativeScale;
        auto base = apeBasePrompt();
        if (!base)
            return base.error();
        m_apeBase = *base;
    }
    return {};
}

Result<void> HpssMethod::check()
{
    return readParams();
}

Result<void> HpssMethod::readTransfer(const QString &fromJudge, const QString &fromProject)
{
    std::unique_ptr<Project> other;
    Project *source = m_ctx->project();
    if (!fromProject.isEmpty()) {
        auto opened = Project::open(fromProject, Project::OpenMode::OpenExisting);
        if (!opened)
            return makeError(tr("HPSS parameter 'transfer_project': %1").arg(opened.errorString()), fromProject, 0,
                             QStringLiteral("transfer_project"));
        other = std::move(opened).value();
        source = other.get();
    }
    const auto info = source->judge(fromJudge);
    if (!info || info->method != QLatin1String("hpss"))
        return makeError(tr("HPSS parameter 'transfer_from': %1 has no HPSS judge '%2'").arg(source->path(), fromJudge),
                         source->path(), 0, QStringLiteral("transfer_from"));
    auto rubric = RubricStore(source).load(fromJudge);
    const Criterion *root = rubric ? rubric->find(QString::fromLatin1(rootKey)) : nullptr;
    auto strategy = root ? PromptStrategy::fromVariant(root->stats.value(QStringLiteral("strategy")))
                         : Result<PromptStrategy>(makeError(tr("it has no finished search")));
    if (!strategy)
        return makeError(tr("HPSS parameter 'transfer_from': the winner of judge '%1' in %2 cannot be read: %3")
                                 .arg(fromJudge, source->path(), strategy.errorString()),
                         source->path(), 0, QStringLiteral("transfer_from"));
    m_transfer = *strategy;
    m_transferFrom = fromProject.isEmpty() ? tr("judge %1").arg(fromJudge)
                                           : tr("judge %1 of %2").arg(fromJudge, source->path());
    return {};
}

Result<void> HpssMethod::restore(bool starting)
{
    auto stored = state::load(*m_ctx->project(), m_ctx->spec().judge);
    if (!stored)
        return stored.error();
    // A state left by a removed judge of the same name (--replace) is no state of this one: a
    // judge's first attempt (or an estimate before the judge exists) starts afresh.
    const QString &judge = m_ctx->spec().judge;
    // Only the user's edits of its auxiliaries stay.
    const auto known = m_ctx->project()->readJudge(judge);
    if (!known)
        return known.error();
    if (!*known || (starting && m_ctx->store().runConfig(judge).value(QStringLiteral("attempts")).toInt() <= 1)) {
        const Auxiliaries edits = artefacts::editedOnly(Auxiliaries::fromVariant(stored->value(QStringLiteral("aux"))));
        stored->clear();
        if (!edits.edited.isEmpty())
            stored->insert(QStringLiteral("aux"), edits.toVariant());
    }
    m_search.reset();
    m_aux = Auxiliaries::fromVariant(stored->value(QStringLiteral("aux")));
    m_auxGenerations = stored->value(QStringLiteral("aux_generations")).toInt();
    m_evaluations.clear();
    if (m_transfer)
        return {};
    // An edited auxiliary text some evaluation used: the search starts again from the origin (the
    // prompts without the text are answered from the judge cache).
    const bool stale = !stored->value(QStringLiteral("stale_steps")).toList().isEmpty();
    // The same search: the stored parameters, read back, equal the run's.
    const auto storedParams = stored->isEmpty() ? Result<SearchParams>(makeError(QStringLiteral("none")))
                                                : SearchParams::fromVariant(stored->value(QStringLiteral("params")));
    if (!stale && storedParams && json::stringify(storedParams->toVariant()) == json::stringify(m_params.toVariant())
        && json::stringify(stored->value(QStringLiteral("pairwise")).toMap()) == json::stringify(pairwiseVariant())
        && stored->contains(QStringLiteral("search"))) {
        auto search = HpssSearch::fromVariant(stored->value(QStringLiteral("search")));
        if (!search)
            return makeError(tr("the stored HPSS search of judge '%1' cannot be read: %2")
                                     .arg(m_ctx->spec().judge, search.errorString()),
                             m_ctx->project()->path(), 0, state::metaKey(m_ctx->spec().judge));
        m_search = std::move(search).value();
        m_evaluations = stored->value(QStringLiteral("evaluations")).toList();
        return {};
    }
    if (m_params.algorithm == SearchAlgorithm::Ape) {
        // The same APE-style search: the same parameters and base prompt (an edited aspect
        // definition changes the base prompt, and so the search).
        if (!stale && storedParams
            && json::stringify(storedParams->toVariant()) == json::stringify(m_params.toVariant())
            && stored->contains(QStringLiteral("ape"))) {
            auto ape = ApeSearch::fromVariant(stored->value(QStringLiteral("ape")));
            if (!ape)
                return makeError(tr("the stored APE-style search of judge '%1' cannot be read: %2")
                                         .arg(m_ctx->spec().judge, ape.errorString()),
                                 m_ctx->project()->path(), 0, state::metaKey(m_ctx->spec().judge));
            if (ape->candidates().first().prompt == m_apeBase) {
                m_ape = std::move(ape).value();
                m_evaluations = stored->value(QStringLiteral("evaluations")).toList();
            }
        }
        // [code]: the base prompt's evaluation is free, then --budget (70) that cost: our budget
        // counts every evaluation (71). Unusable variations cost nothing; at most budget − 1 of them.
        if (!m_ape)
            m_ape = ApeSearch::create(m_apeBase, m_params.budget - 1, m_params.apeQueue, m_params.budget - 1);
    }
    // No state, or one of other search parameters: a new search (the auxiliaries stay valid).
    auto search = HpssSearch::create(m_params);
    if (!search)
        return search.error();
    m_search = std::move(search).value();
    return {};
}

Result<void> HpssMethod::persist()
{
    if (m_transfer)
        return state::save(*m_ctx->project(), m_ctx->spec().judge,
                           {{QStringLiteral("params"), m_params.toVariant()},
                            {QStringLiteral("task"), m_taskName},
                            {QStringLiteral("transfer"), m_transfer->toVariant()},
                            {QStringLiteral("transfer_from"), m_transferFrom},
                            {QStringLiteral("aux"), m_aux.toVariant()},
                            {QStringLiteral("aux_generations"), m_auxGenerations}});
    if (m_ape)
        return state::save(*m_ctx->project(), m_ctx->spec().judge,
                           {{QStringLiteral("params"), m_params.toVariant()},
                            {QStringLiteral("task"), m_taskName},
                            {QStringLiteral("ape"), m_ape->toVariant()},
                            {QStringLiteral("evaluations"), m_evaluations},
                            {QStringLiteral("aux"), m_aux.toVariant()},
                            {QStringLiteral("aux_generations"), m_auxGenerations}});
    QVariantMap searchState{
            {QStringLiteral("params"), m_params.toVariant()},  {QStringLiteral("task"), m_taskName},
            {QStringLiteral("search"), m_search->toVariant()}, {QStringLiteral("evaluations"), m_evaluations},
            {QStringLiteral("aux"), m_aux.toVariant()},        {QStringLiteral("aux_generations"), m_auxGenerations}};
    if (m_pairwise) // the metric is accuracy on these pairs (HpssJudgeView reads it)
        searchState.insert(QStringLiteral("pairwise"), pairwiseVariant());
    return state::save(*m_ctx->project(), m_ctx->spec().judge, searchState);
}

Result<JudgeRequest> HpssMethod::scoreRequest(const PromptStrategy &strategy, const Item &item) const
{
    if (m_fixed)
        return fixedRequest(item);
    if (m_ape && m_ape->winner() >= 0) // the APE-style winner on the test split
        return apeScoreRequest(m_ape->candidates().at(m_ape->winner()).prompt, item);
    auto prompt = m_builder->render(strategy, item, m_aux);
    if (!prompt)
        return makeError(tr("item '%1', strategy %2: %3").arg(item.id, strategy.format(), prompt.errorString()), {}, 0,
                         prompt.error().field);
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = 0;
    r.maxTokens = m_maxTokens;
    r.shape = AnswerShape::score(1, strategy.scaleMax());
    return r;
}

Result<JudgeRequest> HpssMethod::fixedRequest(const Item &item) const
{
    QVector<ExampleItem> examples;
    if (m_fixed->examples > 0) {
        const QVector<Item> &validation = m_builder->validation();
        for (int i : m_builder->exampleSetFor(m_fixed->examples, item.id))
            examples.append({validation[i].source, validation[i].output, m_ctx->human(validation[i].id),
                             itemFact(validation[i])});
    }
    JudgeRequest r;
    r.messages = {{QStringLiteral("system"), AssemblyOptions{}.systemPrompt},
                  {QStringLiteral("user"),
                   renderCloserLook(m_fixed->text, item.source, item.output, itemFact(item), examples)}};
    r.temperature = 0;
    r.maxTokens = m_maxTokens;
    r.shape = AnswerShape::score(m_builder->scaleMin(), int(std::ceil(m_ctx->aspect().max)));
    return r;
}

bool HpssMethod::readable(const JudgeResponse &r) const
{
    // Only the reask policy lets the runner ask an unreadable answer again; the official code asks once.
    return m_params.unparsed != UnparsedPolicy::Reask || readScore(r.text()).parsed;
}

double HpssMethod::unparsedScore() const
{
    return m_params.unparsed == UnparsedPolicy::Drop ? kNaN : kUnparsedFallback;
}

void HpssMethod::start()
{
    if (auto r = readParams(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (auto r = restore(true); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (auto r = persist(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (m_transfer) {
        scoreWinner();
        return;
    }
    if (m_ape) { // prompt texts: no auxiliary texts, no strategies
        stepApe();
        return;
    }
    if (m_search->finished()) {
        step();
        return;
    }
    // The auxiliary phase: every text an enabled factor value can need on the validation items,
    // made before the first evaluation (as [code] precomputes them), so that the search's calls
    // do not depend on its path and the estimate can be exact. Those made before (a resumed run)
    // and the user's edits are not asked again.
    makeAux([this](const Auxiliaries &aux) { return searchNeeds(aux); }, m_builder->validation(), kPhaseAuxiliary,
            [this] { step(); });
}

void HpssMethod::step()
{
    if (m_ctx->stopped())
        return;
    if (m_search->awaitingProposal()) { // OPRO-style: the evaluator names the next strategy
        askProposal();
        return;
    }
    const auto proposal = m_search->next();
    if (!proposal) {
        if (auto r = persist(); !r) { // finished: a resumed run goes straight to the test split
            m_ctx->fail(r.errorString());
            return;
        }
        scoreWinner();
        return;
    }
    if (auto r = persist(); !r) { // the proposal drew from the generator: keep it with the state
        m_ctx->fail(r.errorString());
        return;
    }
    // The auxiliary phase made what any strategy of the space needs: this finds nothing to make.
    makeAux([this,
             s = proposal->strategy](const Auxiliaries &aux) { return missingAux(s, m_builder->validation(), aux); },
            m_builder->validation(), kPhaseAuxiliary, [this, p = *proposal] { evaluate(p); });
}

void HpssMethod::tallyAnswer(ValidationTally &tally, int unit, const JudgeResponse &r, int min, int max) const
{
    if (!r.ok()) {
        ++tally.refused; // left out of the correlation
        return;
    }
    const ScoreReading reading = readScore(r.text(), min, max);
    tally.scores[unit] = reading.parsed ? reading.score : unparsedScore();
    if (!reading.parsed)
        ++tally.parseFailures;
    else if (!reading.inScale)
        ++tally.outOfScale;
}

double HpssMethod::tallySpearman(const ValidationTally &tally, bool *constant) const
{
    QVector<double> x, y;
    QStringList groups;
    for (int i = 0; i < tally.scores.size(); ++i)
        if (!std::isnan(tally.scores[i])) {
            x.append(tally.scores[i]);
            y.append(m_validationHuman[i]);
            groups.append(m_validationGroups[i]);
        }
    return levelSpearman(x, y, groups, m_params.level, constant);
}

void HpssMethod::evaluate(const SearchProposal &proposal)
{
    if (m_pairwise) {
        evaluatePairwise(proposal);
        return;
    }
    const QVector<Item> &items = m_builder->validation();
    auto tally = std::make_shared<ValidationTally>();
    tally->scores.fill(kNaN, items.size());
    const PromptStrategy strategy = proposal.strategy;
    m_ctx->setOutlook(int(items.size()));
    m_ctx->stream(
            JudgeRole::Evaluator, kPhaseSearch, int(items.size()),
            [this, strategy](int unit) -> Result<QVector<JudgeRequest>> {
                auto r = scoreRequest(strategy, m_builder->validation()[unit]);
                if (!r)
                    return r.error();
                return QVector<JudgeRequest>{*r};
            },
            [this, tally, strategy](int unit, const QVector<JudgeResponse> &rs) {
                // The unparsed policy (default [code]'s: 2.51), the same on the test split.
                tallyAnswer(*tally, unit, rs.first(), 1, strategy.scaleMax());
            },
            [this, tally, proposal] {
                bool constant = false;
                const double rho = tallySpearman(*tally, &constant);
                if (auto r = m_search->report(proposal.strategy, rho); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                m_evaluations.append(QVariantMap{{QStringLiteral("step"), proposal.step},
                                                 {QStringLiteral("parse_failures"), tally->parseFailures},
                                                 {QStringLiteral("out_of_scale"), tally->outOfScale},
                                                 {QStringLiteral("refused"), tally->refused},
                                                 {QStringLiteral("constant"), constant}});
                if (auto r = persist(); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                step();
            },
            [this](const JudgeResponse &r) { return readable(r); });
}

} // namespace rubric
