#include "methods/MethodRegistry.h"
#include "methods/hypoeval/HypoEvalMethod.h"
#include "methods/hypoeval/HypoEvalParams.h"

#include <QtGlobal>

namespace rubric {

MethodInfo hypoevalDescriptor()
{
    using T = MethodParam::Type;
    const QVariantMap d = HypoEvalParams{}.toMap();
    MethodInfo m;
    m.name = QStringLiteral("hypoeval");
    m.title = QStringLiteral("HypoEval");
    m.summary = QT_TRANSLATE_NOOP("rubric::MethodParams",
                                  "HypoEval: hypotheses learned from about 30 annotated train items, then one call "
                                  "per item and hypothesis (Li et al., 2025).");
    m.create = [](RunContext *ctx) { return std::unique_ptr<Method>(new HypoEvalMethod(ctx)); };
    m.kinds = {CriterionKind::Aspect, CriterionKind::Hypothesis};
    m.phases = {QStringLiteral("literature-summary"),
                QStringLiteral("init"),
                QStringLiteral("init-score"),
                QStringLiteral("update"),
                QStringLiteral("wrong-generate"),
                QStringLiteral("refine"),
                QStringLiteral("wrong-score"),
                QStringLiteral("literature-only"),
                QStringLiteral("redundancy"),
                QStringLiteral("selection"),
                QStringLiteral("evaluate")};
    // specs/hypoeval.md §2.8; defaults from HypoEvalParams.
    m.params = {
            {QStringLiteral("init_samples"),
             T::Int,
             d.value(QStringLiteral("init_samples")),
             1,
             1000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "|S_init|"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Annotated train samples shown to the generator to propose the first hypotheses "
                               "(paper: 5).")},
            {QStringLiteral("init_hypotheses"),
             T::Int,
             d.value(QStringLiteral("init_hypotheses")),
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "|H_init|"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Hypotheses proposed from the initial samples (paper: 5).")},
            {QStringLiteral("per_call"),
             T::Int,
             d.value(QStringLiteral("per_call")),
             1,
             50,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Hypotheses per call"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Hypotheses asked for in one generation or refinement call (inferred from the "
                               "upstream prompts: 5).")},
            {QStringLiteral("k"),
             T::Int,
             d.value(QStringLiteral("k")),
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "k"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Top-k hypotheses by UCB reward that score each train sample during the update "
                               "(paper: 10).")},
            {QStringLiteral("theta"),
             T::Double,
             d.value(QStringLiteral("theta")),
             0,
             10,
             3,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "θ"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Wrong-prediction threshold: a hypothesis's score counts as wrong when it is "
                               "further than θ from the human score (paper: 0.5). Given on the paper's 1–5 scale; "
                               "the run scales it to the aspect's scale (θ·R/4 for a range R).")},
            {QStringLiteral("alpha"),
             T::Double,
             d.value(QStringLiteral("alpha")),
             0,
             10,
             3,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "α"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "UCB exploration coefficient: larger values try rarely used hypotheses more "
                               "(paper: 0.5).")},
            {QStringLiteral("a"),
             T::Double,
             d.value(QStringLiteral("a")),
             -100,
             100,
             3,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "a"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Reward of a prediction is a − b·error² (paper: a = 1).")},
            {QStringLiteral("b"),
             T::Double,
             d.value(QStringLiteral("b")),
             0,
             100,
             4,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "b"),
             QT_TRANSLATE_NOOP(
                     "rubric::MethodParams",
                     "Reward of a prediction is a − b·error² (paper: b = 1/16). Given on the paper's 1–5 scale; "
                     "the run scales it to the aspect's scale (b·16/R² for a range R).")},
            {QStringLiteral("w_hyp"),
             T::Int,
             d.value(QStringLiteral("w_hyp")),
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "w_hyp"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Wrong top-k predictions after which a sample goes to the wrong-sample bank "
                               "(not in the paper; inferred: 3).")},
            {QStringLiteral("w_max"),
             T::Int,
             d.value(QStringLiteral("w_max")),
             1,
             1000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "w_max"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Size of the wrong-sample bank that triggers generating new hypotheses from it "
                               "(paper: 10).")},
            {QStringLiteral("refine_rounds"),
             T::Int,
             d.value(QStringLiteral("refine_rounds")),
             0,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "N_refine"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Refinement rounds; odd rounds refine from data, even rounds from the literature "
                               "(paper: 6).")},
            {QStringLiteral("h_max"),
             T::Int,
             d.value(QStringLiteral("h_max")),
             2,
             1000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "H_max"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Largest hypothesis bank kept during training (paper: 20).")},
            {QStringLiteral("h_ev"),
             T::Int,
             d.value(QStringLiteral("h_ev")),
             1,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "H_ev"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Hypotheses (the best by train correlation) used to score the test items "
                               "(paper: 5).")},
            {QStringLiteral("min_parsed"),
             T::Int,
             d.value(QStringLiteral("min_parsed")),
             0,
             100000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Min. parsed"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Training items a hypothesis must have a parsed score on to be selected, so that a "
                               "correlation on two points cannot win (not in the paper). 0: automatic, the larger of 5 "
                               "and half the training items.")},
            {QStringLiteral("min_hypotheses"),
             T::Int,
             d.value(QStringLiteral("min_hypotheses")),
             0,
             100,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Min. hypotheses"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Hypotheses whose answer on an item must give a score for the item to be scored "
                               "(the mean of those); fewer leaves the item unscored (not in the paper). 0: "
                               "automatic, a majority of the hypotheses used (3 of 5).")},
            {QStringLiteral("seed"),
             T::Int,
             d.value(QStringLiteral("seed")),
             0,
             2147483647,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Seed"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Seed of the random draws (initial samples, update order); the same seed "
                               "repeats the run.")},
            {QStringLiteral("temperature"),
             T::Double,
             d.value(QStringLiteral("temperature")),
             0,
             2,
             5,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Temperature"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Sampling temperature of every call (upstream code: 1e-5).")},
            {QStringLiteral("max_tokens"),
             T::Int,
             d.value(QStringLiteral("max_tokens")),
             1,
             100000,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Max tokens"),
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Largest answer of one call (upstream code: 4000).")},
            {QStringLiteral("merge"),
             T::Choice,
             d.value(QStringLiteral("merge")),
             0,
             0,
             0,
             {QStringLiteral("top"), QStringLiteral("all")},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Merge"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "How new hypotheses join the bank: top keeps the H_max best of the top-k and the "
                               "new ones (paper); all merges the whole bank with the new ones.")},
            {QStringLiteral("literature"),
             T::Folder,
             QString(),
             0,
             0,
             0,
             {},
             QT_TRANSLATE_NOOP("rubric::MethodParams", "Literature"),
             QT_TRANSLATE_NOOP("rubric::MethodParams",
                               "Literature folder for the literature-based hypotheses and refinements: papers as "
                               "text (*.txt, *.md), which the generator summarises first, and summaries you wrote "
                               "or edited (NAME.summary.txt, NAME.summary.md), used as written; empty: data "
                               "only.")},
    };
    // Once a RunSpec field of its own: runs.config keeps the folder at its top level.
    for (MethodParam &p : m.params)
        p.topLevel = p.key == QLatin1String("literature");
    m.runOptions = {{QStringLiteral("literature"), QStringLiteral("literature"),
                     "HypoEval: literature folder: papers as text (*.txt, *.md), which the generator summarises "
                     "first, and summaries (*.summary.txt, *.summary.md), used as written.",
                     "DIR"}};
    return m;
}

} // namespace rubric
