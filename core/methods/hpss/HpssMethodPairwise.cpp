#include "HpssMethod.h"
#include "methods/RunContext.h"
#include "methods/hpss/PairwiseRender.h"

#include <QSet>

#include <cmath>
#include <limits>

// The pairwise setting of the HPSS paper (App. I; accuracy, App. E.2) on the project's pointwise
// data: the validation pairs come from the train items with human scores, the test pairs from the
// run's other items (PairwiseData.h: two outputs of one source whose human scores differ); each
// evaluation asks one request per validation pair with the pairwise template of the strategy
// (PairwisePrompt.h) and the strategy's figure is the accuracy of its verdicts. The search itself
// is HPSS's (or greedy / stepwise / mutation / random) over the pairwise space (1,728 strategies).

namespace rubric {

using namespace hpss;

namespace {

QString verdictName(Verdict v)
{
    switch (v) {
    case Verdict::A:
        return QStringLiteral("A");
    case Verdict::B:
        return QStringLiteral("B");
    case Verdict::Tie:
        return QStringLiteral("tie");
    case Verdict::Unparsed:
        break;
    }
    return QStringLiteral("unparsed");
}

/// The pairs of `items` with their human scores (no score: in no pair).
QVector<PreferencePair> pairsOfItems(const QVector<Item> &items, RunContext &ctx, const PairOptions &options)
{
    QVector<PairSourceItem> sources;
    for (const Item &item : items)
        sources.append(PairSourceItem{item.id, item.group, ctx.human(item.id)});
    return buildPairs(sources, options);
}

} // namespace

Result<bool> HpssMethod::readPairwiseSetting(const QString &key, const QString &value)
{
    if (key == QLatin1String("setting")) {
        if (value == QLatin1String("pairwise"))
            m_pairwise = true;
        else if (value == QLatin1String("pointwise"))
            m_pairwise = false;
        else
            return makeError(tr("bad value '%1' for HPSS parameter 'setting' (pointwise or pairwise)").arg(value), {},
                             0, QStringLiteral("setting"));
        return true;
    }
    if ((key == QLatin1String("pairs_per_group") || key == QLatin1String("pair_seed")) && !m_pairwise)
        return makeError(tr("HPSS parameter '%1' belongs to the pairwise setting: add --set setting=pairwise").arg(key),
                         {}, 0, key);
    if (key == QLatin1String("pairs_per_group")) {
        bool ok = false;
        const int n = value.toInt(&ok);
        if (value == QLatin1String("all"))
            m_pairOptions.perGroup = PairOptions::kAllPairs;
        else if (value == QLatin1String("size"))
            m_pairOptions.perGroup = PairOptions::kGroupSize;
        else if (ok && n >= 1)
            m_pairOptions.perGroup = n;
        else
            return makeError(tr("bad value '%1' for HPSS parameter 'pairs_per_group' (all, size or a whole number "
                                "≥ 1: the pairs drawn per source)")
                                     .arg(value),
                             {}, 0, QStringLiteral("pairs_per_group"));
        return true;
    }
    if (key == QLatin1String("pair_seed")) {
        bool ok = false;
        m_pairOptions.seed = value.toULongLong(&ok);
        if (!ok)
            return makeError(tr("bad value '%1' for HPSS parameter 'pair_seed' (a whole number ≥ 0)").arg(value), {}, 0,
                             QStringLiteral("pair_seed"));
        return true;
    }
    return false;
}

Result<void> HpssMethod::preparePairwise(const QVector<Item> &validation)
{
    const auto refuse = [](const QString &what, const QString &field) {
        return makeError(tr("the pairwise setting (setting=pairwise) cannot run %1").arg(what), {}, 0, field);
    };
    if (m_fixed || m_transfer)
        return refuse(tr("a fixed prompt or a transferred strategy ('prompt', 'strategy', 'transfer_from')"),
                      QStringLiteral("setting"));
    if (m_params.algorithm == SearchAlgorithm::Ape || m_params.algorithm == SearchAlgorithm::Opro)
        return refuse(tr("search=%1 (its prompts rate one output)").arg(searchAlgorithmName(m_params.algorithm)),
                      QStringLiteral("search"));
    if (m_samples > 1)
        return refuse(tr("samples > 1 (HPSS† averages ratings; a verdict has none)"), QStringLiteral("samples"));
    const StrategySpace pairwise = StrategySpace::pairwise();
    for (int f = 0; f < kFactorCount; ++f)
        for (int j = 0; j < factorValues(factorAt(f)).size(); ++j)
            if (m_params.space.isEnabled(factorAt(f), j) && !pairwise.isEnabled(factorAt(f), j))
                return refuse(tr("%1:%2 (the pairwise space has no such value; leave 'space' out)")
                                      .arg(factorName(factorAt(f)), factorValues(factorAt(f)).at(j)),
                              QStringLiteral("space"));
    m_validationPairs = pairsOfItems(validation, *m_ctx, m_pairOptions);
    if (m_validationPairs.size() < 3)
        return makeError(tr("the pairwise setting needs at least 3 validation pairs (two train items of the same "
                            "source with different human scores on aspect '%1'); the train split gives %2")
                                 .arg(m_ctx->aspect().name)
                                 .arg(m_validationPairs.size()),
                         {}, 0, QStringLiteral("split"));
    // An example count that some pair cannot fill with pairs sharing none of its items is no strategy here.
    int fewest = int(m_validationPairs.size());
    for (const PreferencePair &p : std::as_const(m_validationPairs))
        fewest = std::min(fewest, int(examplePairsFor(m_validationPairs, fewest, p.a, p.b, 0).size()));
    const QStringList &values = factorValues(Factor::Examples);
    for (int j = 0; j < values.size(); ++j)
        if (values[j].toInt() > fewest && m_params.space.isEnabled(Factor::Examples, j)) {
            if (auto r = m_params.space.disable(Factor::Examples, values[j]); !r)
                return r;
            m_notes.append(tr("examples:%1 disabled: a validation pair has only %2 other pairs without its items")
                                   .arg(values[j])
                                   .arg(fewest));
        }
    return {};
}

QVariantMap HpssMethod::pairwiseVariant() const
{
    if (!m_pairwise)
        return {};
    const int per = m_pairOptions.perGroup;
    return {{QStringLiteral("pairs_per_group"), per == PairOptions::kAllPairs    ? QStringLiteral("all")
                                                : per == PairOptions::kGroupSize ? QStringLiteral("size")
                                                                                 : QString::number(per)},
            {QStringLiteral("pair_seed"), QString::number(m_pairOptions.seed)},
            {QStringLiteral("validation_pairs"), int(m_validationPairs.size())},
            {QStringLiteral("metric"), QStringLiteral("accuracy")}};
}

QVector<PreferencePair> HpssMethod::testPairsOf(const QVector<Item> &targets) const
{
    QVector<Item> test;
    for (const Item &item : targets)
        if (!m_validationIds.contains(item.id))
            test.append(item);
    return pairsOfItems(test, *m_ctx, m_pairOptions);
}

Result<JudgeRequest> HpssMethod::pairRequest(const PromptStrategy &strategy, const PreferencePair &pair) const
{
    auto prompt = renderPair(strategy, pair, *m_builder, m_aux, m_validationPairs, m_params.exampleSeed,
                             [this](const QString &id) { return m_ctx->item(id); });
    if (!prompt)
        return prompt.error();
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = 0;
    r.maxTokens = m_maxTokens;
    return r; // free text: a verdict has no score shape
}

bool HpssMethod::readablePair(const JudgeResponse &r) const
{
    return m_params.unparsed != UnparsedPolicy::Reask || readVerdict(r.text()) != Verdict::Unparsed;
}

void HpssMethod::evaluatePairwise(const SearchProposal &proposal)
{
    struct Tally
    {
        QVector<Verdict> verdicts;
        int unparsed = 0, ties = 0, refused = 0;
    };
    auto tally = std::make_shared<Tally>();
    tally->verdicts.fill(Verdict::Unparsed, m_validationPairs.size());
    const PromptStrategy strategy = proposal.strategy;
    m_ctx->setOutlook(int(m_validationPairs.size()));
    m_ctx->stream(
            JudgeRole::Evaluator, kPhaseSearch, int(m_validationPairs.size()),
            [this, strategy](int unit) -> Result<QVector<JudgeRequest>> {
                auto r = pairRequest(strategy, m_validationPairs[unit]);
                if (!r)
                    return r.error();
                return QVector<JudgeRequest>{*r};
            },
            [tally](int unit, const QVector<JudgeResponse> &rs) {
                if (!rs.first().ok()) { // a refused request counts as an unparsed verdict (PairwiseData.h)
                    ++tally->refused;
                    return;
                }
                const Verdict v = readVerdict(rs.first().text());
                tally->verdicts[unit] = v;
                tally->unparsed += v == Verdict::Unparsed ? 1 : 0;
                tally->ties += v == Verdict::Tie ? 1 : 0;
            },
            [this, tally, proposal] {
                int counted = 0;
                const double accuracy = pairAccuracy(tally->verdicts, m_validationPairs, m_params.unparsed, &counted);
                // No pair counted (every answer dropped): the strategy told nothing right, 0.
                if (auto r = m_search->report(proposal.strategy, std::isnan(accuracy) ? 0.0 : accuracy); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                m_evaluations.append(QVariantMap{{QStringLiteral("step"), proposal.step},
                                                 {QStringLiteral("parse_failures"), tally->unparsed},
                                                 {QStringLiteral("ties"), tally->ties},
                                                 {QStringLiteral("refused"), tally->refused},
                                                 {QStringLiteral("counted"), counted},
                                                 {QStringLiteral("constant"), counted == 0}});
                if (auto r = persist(); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                step();
            },
            [this](const JudgeResponse &r) { return readablePair(r); });
}

void HpssMethod::scoreWinnerPairwise(const PromptStrategy &winner, const QVector<Item> &targets)
{
    m_testPairs = testPairsOf(targets);
    m_testVerdicts.fill(Verdict::Unparsed, m_testPairs.size());
    m_testAnswerKeys = QStringList(m_testPairs.size());
    QVector<Item> paired; // the auxiliary texts only for the items in a test pair
    QSet<QString> inPair;
    for (const PreferencePair &p : std::as_const(m_testPairs))
        inPair << p.a << p.b;
    for (const Item &item : targets)
        if (inPair.contains(item.id))
            paired.append(item);
    makeAux([winner, paired](const Auxiliaries &aux) { return missingAux(winner, paired, aux); }, paired,
            kPhaseEvaluate,
            [this, winner] {
                m_ctx->setOutlook(int(m_testPairs.size()));
                m_ctx->stream(
                        JudgeRole::Evaluator, kPhaseEvaluate, int(m_testPairs.size()),
                        [this, winner](int unit) -> Result<QVector<JudgeRequest>> {
                            auto r = pairRequest(winner, m_testPairs[unit]);
                            if (!r)
                                return r.error();
                            return QVector<JudgeRequest>{*r};
                        },
                        [this](int unit, const QVector<JudgeResponse> &rs) {
                            const JudgeResponse &r = rs.first();
                            m_testAnswerKeys[unit] = r.cacheKey;
                            if (!r.ok()) {
                                ++m_failed;
                                return;
                            }
                            m_testVerdicts[unit] = readVerdict(r.text());
                            (m_testVerdicts[unit] == Verdict::Unparsed ? m_missing : m_scored)++;
                        },
                        [this] { finish(); }, [this](const JudgeResponse &r) { return readablePair(r); });
            });
}

QVariantList HpssMethod::testVerdictList() const
{
    QVariantList out;
    for (qsizetype k = 0; k < m_testPairs.size(); ++k) {
        const PreferencePair &p = m_testPairs[k];
        out.append(QVariantMap{{QStringLiteral("group"), p.group},
                               {QStringLiteral("a"), p.a},
                               {QStringLiteral("b"), p.b},
                               {QStringLiteral("human"), p.humanPrefersA ? QStringLiteral("A") : QStringLiteral("B")},
                               {QStringLiteral("verdict"), verdictName(m_testVerdicts.value(k, Verdict::Unparsed))},
                               {QStringLiteral("answer_key"), m_testAnswerKeys.value(k)}});
    }
    return out;
}

Result<std::optional<double>> HpssMethod::cachedPairAccuracy(const PromptStrategy &strategy)
{
    QVector<Verdict> verdicts;
    for (const PreferencePair &pair : std::as_const(m_validationPairs)) {
        auto request = pairRequest(strategy, pair);
        if (!request)
            return std::optional<double>();
        auto answer = m_ctx->cached(JudgeRole::Evaluator, *request);
        if (!answer)
            return answer.error();
        if (!*answer)
            return std::optional<double>();
        const Verdict v = readVerdict((*answer)->text());
        if (v == Verdict::Unparsed && m_params.unparsed == UnparsedPolicy::Reask)
            return std::optional<double>(); // the run asks it again: not replayed
        verdicts.append(v);
    }
    const double accuracy = pairAccuracy(verdicts, m_validationPairs, m_params.unparsed);
    return std::optional<double>(std::isnan(accuracy) ? 0.0 : accuracy);
}

} // namespace rubric
