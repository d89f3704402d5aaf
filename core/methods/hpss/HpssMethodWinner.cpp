#include "HpssMethod.h"
#include "methods/Rescore.h"
#include "methods/RunContext.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <algorithm>
#include <cmath>
#include <limits>

// The "evaluate" phase: the winner (a search's, a transfer's, a fixed prompt, the APE-style
// search's prompt text) scored on the run's items, then the rubric version and the run result.

namespace rubric {
namespace {

using namespace hpss;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// `metric`: "spearman", or "accuracy" in the pairwise setting (the record's key names it).
QVariantMap recordToVariant(const SearchRecord &r, const QString &metric)
{
    QVariantMap m{{QStringLiteral("strategy"), r.proposal.strategy.toVariant()},
                  {QStringLiteral("validation_") + metric, r.spearman},
                  {QStringLiteral("step"), r.proposal.step},
                  {QStringLiteral("move"), searchMoveName(r.proposal.move)}};
    if (r.proposal.parent)
        m.insert(QStringLiteral("parent"), r.proposal.parent->toVariant());
    if (r.proposal.changedFactor >= 0)
        m.insert(QStringLiteral("changed_factor"), factorName(factorAt(r.proposal.changedFactor)));
    return m;
}

} // namespace

using namespace hpss;

void HpssMethod::scoreWinner()
{
    const SearchRecord *best = m_transfer || m_ape ? nullptr : m_search->best();
    if (m_ape && m_ape->winner() < 0) {
        m_ctx->fail(tr("the APE-style search has no winner: %1").arg(m_ape->stopReason()));
        return;
    }
    if (!m_transfer && !m_ape && !best) {
        m_ctx->fail(tr("the HPSS search evaluated no strategy: %1").arg(m_search->stopReason()));
        return;
    }
    QVector<Item> targets;
    for (const Item &item : m_ctx->targetItems()) {
        if (m_ctx->skipsFailed(item.id))
            ++m_failed;
        else
            targets.append(item);
    }
    // APE-style: a prompt text; the origin stands in as the strategy (it needs no auxiliary text).
    const PromptStrategy winner = m_transfer ? *m_transfer : m_ape ? m_params.origin : best->proposal.strategy;
    if (m_pairwise) {
        scoreWinnerPairwise(winner, targets);
        return;
    }
    // A search's winner: its references / questions for test sources the validation split lacks
    // are asked as part of scoring it (the only calls that depend on which strategy won). A
    // transfer's are known before the run: its auxiliary phase.
    makeAux([winner, targets](const Auxiliaries &aux) { return missingAux(winner, targets, aux); }, targets,
            m_transfer ? kPhaseAuxiliary : kPhaseEvaluate,
            [this, winner, targets] {
                m_ctx->setOutlook(int(targets.size()));
                m_ctx->stream(
                        JudgeRole::Evaluator, kPhaseEvaluate, int(targets.size()),
                        [this, winner, targets](int unit) -> Result<QVector<JudgeRequest>> {
                            auto r = scoreRequest(winner, targets[unit]);
                            if (!r)
                                return r.error();
                            if (m_samples <= 1)
                                return QVector<JudgeRequest>{*r};
                            // HPSS†: the winner sampled m_samples times (paper Table 2: 20 at temperature 1).
                            QVector<JudgeRequest> out;
                            for (int k = 0; k < m_samples; ++k) {
                                JudgeRequest sample = *r;
                                sample.temperature = m_sampleTemperature;
                                sample.sampleIndex = k;
                                out.append(sample);
                            }
                            return out;
                        },
                        [this, winner, targets](int unit, const QVector<JudgeResponse> &rs) {
                            if (m_samples > 1) {
                                recordSamples(winner, targets[unit], rs);
                                return;
                            }
                            const JudgeResponse &r = rs.first();
                            const Item &item = targets[unit];
                            if (!r.ok()) {
                                m_ctx->recordScores({{item.id,
                                                      QString::fromLatin1(rootKey),
                                                      0,
                                                      kNaN,
                                                      QStringLiteral("failed"),
                                                      RunContext::failureText(r),
                                                      {},
                                                      r.cacheKey}},
                                                    {{item.id, kNaN}});
                                ++m_failed;
                                return;
                            }
                            const ScoreReading reading = readScore(r.text(), 1, winner.scaleMax());
                            const double score = reading.parsed ? reading.score : kNaN;
                            m_ctx->recordScores({{item.id,
                                                  QString::fromLatin1(rootKey),
                                                  0,
                                                  score,
                                                  reading.parsed ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                                                  r.text(),
                                                  {},
                                                  r.cacheKey}},
                                                {{item.id, score}});
                            (reading.parsed ? m_scored : m_missing)++;
                            // The test correlation: the validation items never count (they chose
                            // the winner), an unparsed answer as the policy says, as in the search.
                            const double h = m_ctx->human(item.id);
                            const double counted = reading.parsed ? reading.score : unparsedScore();
                            if (!m_validationIds.contains(item.id) && !std::isnan(h) && !std::isnan(counted)) {
                                m_testScores.append(counted);
                                m_testHuman.append(h);
                                m_testGroups.append(item.group);
                            }
                        },
                        [this] { finish(); }, [this](const JudgeResponse &r) { return readable(r); });
            });
}

void HpssMethod::recordSamples(const PromptStrategy &winner, const Item &item, const QVector<JudgeResponse> &rs)
{
    QVector<CriterionScore> rows;
    double sum = 0;
    int counted = 0, parsed = 0;
    for (int k = 0; k < rs.size(); ++k) {
        const JudgeResponse &r = rs[k];
        if (!r.ok()) {
            rows.append({item.id,
                         QString::fromLatin1(rootKey),
                         k,
                         kNaN,
                         QStringLiteral("failed"),
                         RunContext::failureText(r),
                         {},
                         r.cacheKey});
            continue;
        }
        const ScoreReading reading = readScore(r.text(), 1, winner.scaleMax());
        parsed += reading.parsed ? 1 : 0;
        rows.append({item.id,
                     QString::fromLatin1(rootKey),
                     k,
                     reading.parsed ? reading.score : kNaN,
                     reading.parsed ? QStringLiteral("ok") : QStringLiteral("unparsed"),
                     r.text(),
                     {},
                     r.cacheKey});
        // Each sample as the unparsed policy says (2.51 by default, or left out).
        if (const double v = reading.parsed ? reading.score : unparsedScore(); !std::isnan(v)) {
            sum += v;
            ++counted;
        }
    }
    // The stored score needs a read sample; the test correlation counts the policy's mean.
    const double mean = counted > 0 ? sum / counted : kNaN;
    m_ctx->recordScores(rows, {{item.id, parsed > 0 ? mean : kNaN}});
    const bool allFailed = std::all_of(
            rows.begin(), rows.end(), [](const CriterionScore &c) { return c.parseStatus == QLatin1String("failed"); });
    if (allFailed) {
        ++m_failed;
        return;
    }
    (parsed > 0 ? m_scored : m_missing)++;
    const double h = m_ctx->human(item.id);
    if (!m_validationIds.contains(item.id) && !std::isnan(h) && !std::isnan(mean)) {
        m_testScores.append(mean);
        m_testHuman.append(h);
        m_testGroups.append(item.group);
    }
}

void HpssMethod::finish()
{
    const SearchRecord *best = m_transfer || m_ape ? nullptr : m_search->best();
    const PromptStrategy winner = m_transfer ? *m_transfer : m_ape ? m_params.origin : best->proposal.strategy;
    std::optional<double> bestRho;
    if (best)
        bestRho = best->spearman;
    else if (m_ape)
        bestRho = m_ape->candidates().at(m_ape->winner()).spearman;
    const QVariant validationRho = bestRho ? QVariant(*bestRho) : QVariant();
    // The pairwise setting: accuracy (paper Eq. 10) on the test pairs, never called a Spearman.
    const QString metric = m_pairwise ? QStringLiteral("accuracy") : QStringLiteral("spearman");
    const QString validationKey = QStringLiteral("validation_") + metric, testKey = QStringLiteral("test_") + metric;
    bool constantTest = false;
    int testCounted = int(m_testScores.size());
    const double testRho
            = m_pairwise ? pairAccuracy(m_testVerdicts, m_testPairs, m_params.unparsed, &testCounted)
                         : levelSpearman(m_testScores, m_testHuman, m_testGroups, m_params.level, &constantTest);
    constantTest = constantTest || std::isnan(testRho);
    const QVariant testValue = constantTest ? QVariant() : QVariant(testRho);
    // The gap needs both correlations: a transfer has no validation one, constant test scores no test one.
    const double gap = bestRho && !constantTest ? *bestRho - testRho : 0.0;
    QString warning;
    if (bestRho && !constantTest && gap > m_gapWarning)
        warning = (m_pairwise ? tr("the winner's accuracy on the validation pairs (%1, n = %2) exceeds its accuracy "
                                   "on the test pairs (%3, n = %4) by %5 > %6: the search may have fitted the small "
                                   "validation split")
                              : tr("the winner's Spearman on the validation split (%1, n = %2) exceeds its Spearman "
                                   "on the test split (%3, n = %4) by %5 > %6: the search may have fitted the small "
                                   "validation split"))
                          .arg(*bestRho, 0, 'f', 3)
                          .arg(m_pairwise ? m_validationPairs.size() : m_validationHuman.size())
                          .arg(testRho, 0, 'f', 3)
                          .arg(testCounted)
                          .arg(gap, 0, 'f', 3)
                          .arg(m_gapWarning, 0, 'f', 2);
    QVariantList evaluated;
    int constants = 0, parseFailures = 0;
    if (!m_transfer && !m_ape)
        for (const SearchRecord &r : m_search->evaluated())
            evaluated.append(recordToVariant(r, metric));
    for (const QVariant &e : std::as_const(m_evaluations)) {
        constants += e.toMap().value(QStringLiteral("constant")).toBool() ? 1 : 0;
        parseFailures += e.toMap().value(QStringLiteral("parse_failures")).toInt();
    }

    Rubric rubric(QStringLiteral("hpss"), m_ctx->spec().aspect);
    Criterion root;
    root.key = QString::fromLatin1(rootKey);
    root.kind = CriterionKind::Aspect;
    root.text = m_ctx->aspect().name;
    root.definition = m_ctx->aspect().definition;
    root.origin
            = {{QStringLiteral("method"), QStringLiteral("hpss")}, {QStringLiteral("step"), QStringLiteral("aspect")}};
    root.stats = {{QStringLiteral("strategy"), winner.toVariant()},
                  {QStringLiteral("task"), m_taskName},
                  {QStringLiteral("metric"), metric},
                  {QStringLiteral("level"), correlationLevelName(m_params.level)},
                  {QStringLiteral("samples"), m_samples},
                  {testKey, testValue},
                  {QStringLiteral("test_n"), testCounted},
                  {QStringLiteral("gap_warning"), warning}};
    if (m_pairwise) { // pairs, not a correlation level; the verdicts themselves (no per-item scores)
        root.stats.remove(QStringLiteral("level"));
        root.stats.insert(QStringLiteral("setting"), QStringLiteral("pairwise"));
        root.stats.insert(QStringLiteral("pairwise"), pairwiseVariant());
        root.stats.insert(QStringLiteral("test_pairs"), testVerdictList());
    }
    if (m_fixed) { // a prompt text, not a strategy: the text is the judge
        root.stats.remove(QStringLiteral("strategy"));
        root.stats.insert(QStringLiteral("prompt"), m_fixed->name);
        root.stats.insert(QStringLiteral("prompt_file"), m_fixed->file);
        root.stats.insert(QStringLiteral("prompt_text"), m_fixed->text);
        root.stats.insert(QStringLiteral("prompt_examples"), m_fixed->examples);
    } else if (m_transfer) {
        root.stats.insert(QStringLiteral("transfer_from"), m_transferFrom);
    } else if (m_ape) {
        QVariantMap unused;
        apeStats(&root.stats, &unused);
    } else {
        root.stats.insert(QStringLiteral("search"),
                          QVariantMap{{QStringLiteral("algorithm"), searchAlgorithmName(m_params.algorithm)},
                                      {QStringLiteral("evaluated"), evaluated},
                                      {QStringLiteral("advantages"), m_search->advantagesVariant()},
                                      {QStringLiteral("stop_reason"), m_search->stopReason()},
                                      {QStringLiteral("params"), m_params.toVariant()}});
        if (m_params.algorithm == SearchAlgorithm::Opro) { // each iteration's proposal and what became of it
            QVariantMap search = root.stats.value(QStringLiteral("search")).toMap();
            search.insert(QStringLiteral("opro_log"), m_search->oproLog());
            root.stats.insert(QStringLiteral("search"), search);
        }
        if (m_pairwise) { // the search's own record says what its figures are
            QVariantMap search = root.stats.value(QStringLiteral("search")).toMap();
            search.insert(QStringLiteral("metric"), metric);
            root.stats.insert(QStringLiteral("search"), search);
        }
        root.stats.insert(validationKey, validationRho);
        root.stats.insert(QStringLiteral("validation_n"),
                          int(m_pairwise ? m_validationPairs.size() : m_validationHuman.size()));
    }
    rubric.add(root);
    for (int i = 0; i < (m_fixed || m_ape ? 0 : kFactorCount); ++i) {
        if (m_pairwise
            && factorAt(i) == Factor::Scale) // no factor of a pairwise prompt (its one value is kept in "strategy")
            continue;
        Criterion c;
        c.key = factorName(factorAt(i));
        c.parentKey = root.key;
        c.kind = CriterionKind::Criterion;
        c.text = factorName(factorAt(i)) + QStringLiteral(": ") + winner.valueName(factorAt(i));
        c.origin = {{QStringLiteral("method"), QStringLiteral("hpss")},
                    {QStringLiteral("factor"), factorName(factorAt(i))},
                    {QStringLiteral("value"), winner.valueName(factorAt(i))}};
        rubric.add(c);
    }
    // A resumed run of a finished search stores no second identical version.
    int version = 0;
    auto latest = m_ctx->store().loadLatest(m_ctx->spec().judge);
    if (!latest) {
        m_ctx->fail(latest.errorString());
        return;
    }
    if (*latest && (*latest)->criteria() == rubric.criteria()) {
        version = (*latest)->version();
    } else {
        auto saved = m_ctx->store().saveVersion(
                m_ctx->spec().judge, rubric,
                m_fixed ? tr("HPSS baseline prompt %1 (CloserLook analyze-rate, %2)").arg(m_fixed->name, m_fixed->file)
                : m_ape ? tr("HPSS APE-style winner after %n evaluation(s)", nullptr, m_ape->cost() + 1)
                : m_transfer ? tr("HPSS strategy transferred from %1: %2").arg(m_transferFrom, winner.format())
                             : tr("HPSS winner after %n evaluation(s): %1", nullptr, int(evaluated.size()))
                                       .arg(winner.format()));
        if (!saved) {
            m_ctx->fail(saved.errorString());
            return;
        }
        version = *saved;
    }
    // A pairwise judge stores no per-item scores: no alignment with the human scores to record.
    if (auto r = m_pairwise ? Result<void>() : rescore::recordAlignment(*m_ctx, version); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (!warning.isEmpty())
        (void)m_ctx->project()->addIssue(QStringLiteral("run"), warning, m_ctx->spec().judge);
    QVariantMap result{{QStringLiteral("rubric_version"), version},
                       {QStringLiteral("strategy"), m_fixed ? m_fixed->name : winner.format()},
                       {QStringLiteral("metric"), metric},
                       {QStringLiteral("level"), correlationLevelName(m_params.level)},
                       {QStringLiteral("samples"), m_samples},
                       {validationKey, validationRho},
                       {QStringLiteral("validation_n"),
                        m_transfer ? 0 : int(m_pairwise ? m_validationPairs.size() : m_validationHuman.size())},
                       {testKey, testValue},
                       {QStringLiteral("test_n"), testCounted},
                       {QStringLiteral("gap_warning"), warning},
                       {QStringLiteral("evaluations"), int(evaluated.size())},
                       {QStringLiteral("constant_strategies"), constants},
                       {QStringLiteral("constant_rule"), tr("a strategy with constant scores counts as Spearman 0")},
                       {QStringLiteral("validation_parse_failures"), parseFailures},
                       {QStringLiteral("aux_generations"), m_auxGenerations},
                       {QStringLiteral("stop_reason"), m_fixed      ? tr("no search: a fixed prompt")
                                                       : m_transfer ? tr("no search: a transferred strategy")
                                                                    : m_search->stopReason()},
                       {QStringLiteral("notes"), m_notes},
                       {QStringLiteral("scored"), m_scored},
                       {QStringLiteral("missing"), m_missing},
                       {QStringLiteral("failed"), m_failed}};
    if (m_pairwise) {
        result.remove(QStringLiteral("level"));
        result.remove(QStringLiteral("constant_rule"));
        result.insert(QStringLiteral("setting"), QStringLiteral("pairwise"));
    }
    if (m_fixed)
        result.insert(QStringLiteral("prompt"), m_fixed->file);
    else if (m_ape)
        apeStats(&root.stats, &result);
    else if (m_transfer)
        result.insert(QStringLiteral("transfer_from"), m_transferFrom);
    emit completed(result);
}

} // namespace rubric
