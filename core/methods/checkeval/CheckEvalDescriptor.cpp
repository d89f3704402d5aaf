#include "methods/MethodRegistry.h"
#include "methods/checkeval/CheckEvalMethod.h"
#include "methods/checkeval/CheckEvalParams.h"
#include "methods/checkeval/Checklist.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QSet>
#include <QtGlobal>

#include <cmath>

namespace rubric {
namespace {

/// The exports' notes of a checklist judge: how its stored run configuration counts a missing
/// answer (`missing`; imported answers and a judge without a run: skip, as the importer scores),
/// and per item the asked questions of the latest version answered (criterion scores of sample 0
/// parsed) and asked.
Result<std::optional<ScoreNotes>> checklistScoreNotes(Project &project, const QString &judge)
{
    RubricStore store(&project);
    const auto rubric = store.loadLatest(judge);
    if (!rubric)
        return rubric.error();
    if (!*rubric)
        return std::optional<ScoreNotes>();
    const auto config = store.readRunConfig(judge);
    if (!config)
        return config.error();
    ScoreNotes notes;
    notes.missing = QStringLiteral("skip");
    if (!config->isEmpty()) {
        const auto params = CheckEvalParams::fromSettings(config->value(QStringLiteral("settings")).toMap());
        if (!params)
            return makeError(QStringLiteral("judge '%1': %2").arg(judge, params.errorString()), {}, 0,
                             QStringLiteral("settings"));
        notes.missing = params->missingIsNo ? QStringLiteral("no") : QStringLiteral("skip");
    }
    QSet<QString> asked;
    for (const Criterion &q : Checklist::askedQuestions(**rubric))
        asked.insert(q.key);
    const auto scores = store.readSampleScores(judge);
    if (!scores)
        return scores.error();
    for (const CriterionScore &s : *scores) {
        if (s.sample != 0 || !asked.contains(s.criterionKey))
            continue;
        auto &n = notes.answeredAsked[s.itemId];
        n.second = int(asked.size());
        if (s.parseStatus == QLatin1String("ok") && !std::isnan(s.score))
            ++n.first;
    }
    return std::optional<ScoreNotes>(std::move(notes));
}

} // namespace

MethodInfo checkevalDescriptor()
{
    using T = MethodParam::Type;
    MethodInfo m;
    m.name = QStringLiteral("checkeval");
    m.title = QStringLiteral("CheckEval");
    m.summary = QT_TRANSLATE_NOOP("rubric::MethodParams",
                                  "CheckEval: a checklist of yes/no questions per sub-aspect, answered per item; the "
                                  "score is the share of yes (Lee et al., 2025).");
    m.create = [](RunContext *ctx) { return std::unique_ptr<Method>(new CheckEvalMethod(ctx)); };
    m.kinds = {CriterionKind::Aspect, CriterionKind::SubAspect, CriterionKind::Question};
    m.phases = {CheckEvalMethod::kPhaseDiversify, CheckEvalMethod::kPhaseElaborate, CheckEvalMethod::kPhaseFilter,
                CheckEvalMethod::kPhaseEvaluate};
    m.criterionFlags = [](const Rubric &rubric, const Criterion &c) {
        QVariantMap f;
        if (c.kind != CriterionKind::Question)
            return f;
        const auto polarity = Checklist::negativePolarity(c.text);
        f.insert(QStringLiteral("inverted"), Checklist::isInverted(c));
        // "yes" reads as worse: the reason, null when not (or when already inverted, as the pane shows it)
        f.insert(QStringLiteral("polarity"),
                 polarity && !Checklist::isInverted(c) ? QVariant(*polarity) : QVariant::fromValue(nullptr));
        f.insert(QStringLiteral("constant"), c.stats.value(QStringLiteral("constant")));
        f.insert(QStringLiteral("near_duplicate_of"), c.stats.value(QStringLiteral("near_duplicate_of")));
        f.insert(QStringLiteral("asked"), Checklist::isAsked(rubric, c));
        return f;
    };
    m.params = {
            {QStringLiteral("checklist"),
             T::File,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Checklist"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Where the checklist comes from on the judge's first run: a file (CheckEval YAML, "
                               "or our JSON/Markdown export) or a shipped preset, e.g. "
                               "preset:summeval/coherence/elaboration. A judge that has a checklist uses its latest "
                               "version.")},
            {QStringLiteral("checklist_from"),
             T::Text,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Checklist of judge"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Instead of a file: copy the latest checklist version of another judge (to answer "
                               "one checklist with several models).")},
            {QStringLiteral("group"),
             T::Choice,
             QStringLiteral("sub-aspect"),
             0,
             0,
             0,
             {QStringLiteral("sub-aspect"), QStringLiteral("aspect"), QStringLiteral("question")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Questions per call"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "One call per item and sub-aspect (the authors' script), per item for the whole "
                               "aspect, or per item and question.")},
            {QStringLiteral("augment"),
             T::Choice,
             QStringLiteral("none"),
             0,
             0,
             0,
             {QStringLiteral("none"), QStringLiteral("diversify"), QStringLiteral("elaborate"), QStringLiteral("both")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Augmentation"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Let the generator add questions from the seeds: diversification (other "
                               "perspectives of each sub-aspect), elaboration (finer questions per seed), or both, "
                               "each from the seeds as in the paper.")},
            {QStringLiteral("filter"),
             T::Choice,
             QStringLiteral("auto"),
             0,
             0,
             0,
             {QStringLiteral("auto"), QStringLiteral("on"), QStringLiteral("off")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Filter"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The generator removes off-definition, redundant and non-yes/no questions (kept "
                               "disabled, with the reason). auto: on when augmenting, as in the paper.")},
            {QStringLiteral("elaborate_min"),
             T::Int,
             3,
             1,
             50,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Elaboration min"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Sub-sub-questions asked for per seed, at least (paper: 3).")},
            {QStringLiteral("elaborate_max"),
             T::Int,
             10,
             1,
             50,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Elaboration max"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Sub-sub-questions per seed, at most (paper: 10); more are dropped.")},
            {QStringLiteral("temperature"),
             T::Double,
             0.0,
             0,
             2,
             2,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Temperature"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Sampling temperature of the answering calls (paper: 0).")},
            {QStringLiteral("max_tokens"),
             T::Int,
             200,
             1,
             100000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Max tokens"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Largest answer of an answering call (paper: 200).")},
            {QStringLiteral("weights"),
             T::Choice,
             QStringLiteral("uniform"),
             0,
             0,
             0,
             {QStringLiteral("uniform"), QStringLiteral("regression")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Question weights"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "uniform: the share of yes (the paper's method). regression: weights from a ridge "
                               "regression of the human score on the train split's answers (the paper's appendix "
                               "C.2, which found no reliable gain).")},
            {QStringLiteral("missing"),
             T::Choice,
             QStringLiteral("skip"),
             0,
             0,
             0,
             {QStringLiteral("skip"), QStringLiteral("no")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Unanswered questions"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "skip: a question the judge left unanswered (after one re-ask) leaves the "
                               "denominator; no: the strict policy, it counts as no.")},
            {QStringLiteral("seed"),
             T::Text,
             QStringLiteral("0"),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Seed"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The random seed sent with every call (the paper fixes it, value unpublished), or "
                               "none. Endpoints whose API has no seed (Anthropic) do not get one.")},
            {QStringLiteral("benchmark"),
             T::Text,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Benchmark"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "The benchmark's name in the augmentation and filter prompts (e.g. SummEval); a "
                               "preset's dataset names it when unset.")},
    };
    m.scoreNotes = &checklistScoreNotes;
    return m;
}

} // namespace rubric
