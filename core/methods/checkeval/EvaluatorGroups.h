#pragma once

#include "methods/checkeval/QuestionAgreement.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace rubric {

class Project;

/// Who answered a checklist judge's questions, for the paper's group table: the evaluator model
/// (one model answers one checklist per dimension, so several judges share it), whether the
/// answers are people's (imported) rather than an LLM's, and the model's size class and family.
/// Each field is either set by the user (stored in the project) or inferred (inferEvaluator).
struct EvaluatorProfile
{
    QString judge;
    QString aspect; ///< the dimension the judge's checklist scores
    QString model;  ///< the evaluator model; unset: the judge's run's model, else the judge's name
    bool person = false;
    QString size;   ///< "large", "medium", "small", or empty (unknown: in no size group)
    QString family; ///< "Llama", "GPT", …; empty: in no family group
    bool modelSet = false, personSet = false, sizeSet = false, familySet = false; ///< user-set fields
    QString sizeWhy; ///< how the size was decided, in words
};

/// The figures of one group on one dimension.
struct GroupCell
{
    QString aspect;
    QStringList judges;
    ChecklistAgreementFigures figures;
    QString error; ///< why there are no figures (fewer than two judges, checklists differ)
};

/// One row of the paper's Table 2 / Table 23: a group of evaluators, its figures per dimension
/// and their average over the dimensions with a figure.
struct GroupRow
{
    QString id;    ///< "all", "large", "medium", "small", "family:<name>", "top3", "people"
    QString label; ///< "All", "Large + people", …
    QStringList models;
    QVector<GroupCell> cells; ///< one per EvaluatorGroupTable::aspects, same order
    double alpha = std::numeric_limits<double>::quiet_NaN();
    double kappa = std::numeric_limits<double>::quiet_NaN();
    QStringList averaged; ///< the dimensions the average is over
};

struct EvaluatorGroupTable
{
    QStringList aspects;
    QVector<GroupRow> rows;
    /// Per LLM evaluator model: the mean over its judges (dimensions) of Spearman's rho between
    /// the judge's item scores and the mean human score, on the items of the project's default
    /// split (test when there is a split); NaN when no judge of the model has one.
    QHash<QString, double> modelRho;
    QStringList top3; ///< the three models with the highest modelRho, highest first
};

/// The paper's inter-evaluator agreement by group (section 5.2, Tables 2, 23, 25; Table 4 for
/// people): LLMs "within the same group (large, medium, small, GPT)" as coders, the figures per
/// dimension (QuestionAgreement: alpha nominal and Fleiss' kappa on (item, question) units of the
/// meets-criterion answers) and their mean over the dimensions; Top-3 are the three evaluator
/// models with the highest correlation with human judgments (appendix A.3), averaged over the
/// dimensions as Table 1 averages them. People (imported answers marked as people's) are coders
/// only when `withPeople`: then every LLM group row has them added ("Large + people", as the
/// paper's "LLMs (Large) & Humans") and a "People" row gives their agreement among themselves.
class EvaluatorGroups
{
    Q_DECLARE_TR_FUNCTIONS(EvaluatorGroups)
public:
    /// Size and family from a model name (the rule in words in sizeWhy; README "CheckEval"):
    /// the part after the last '/' lowercased; the parameter count is a number followed by "b"
    /// ("70b", "1.5b"; "8x7b" counts 56), or for the paper's two Mistral models without one
    /// their published sizes (mistral-large 123B, mistral-small 22B); large from 60B, medium from
    /// 15B, small below (the paper's bands 70–123B, 22–32B, 7–9B with the gaps split); no count
    /// (GPT, Claude, Gemini): size unknown. The family is the name's first word ("meta-"
    /// skipped), with the paper's families spelled as it does (Llama, Mistral for mistral and
    /// mixtral, Qwen, Gemma, GPT for gpt-*, o1, o3, o4).
    static EvaluatorProfile infer(const QString &model);

    /// The stored profile of `judge` (user-set fields) completed by inference; `runModel` is the
    /// model of the judge's stored run configuration (empty when it has none).
    static Result<EvaluatorProfile> read(const Project &project, const QString &judge, const QString &aspect,
                                         const QString &runModel);
    /// Stores the user-set fields of `profile` (those flagged *Set); inferred ones are not stored.
    static Result<void> write(Project &project, const EvaluatorProfile &profile);

    /// The group table over `evaluators` (every checklist judge to consider, each with its
    /// profile). Rows: All, Large, Medium, Small, one per family (sorted), Top-3, and with
    /// `withPeople` People; a row whose group has no member is left out.
    static Result<EvaluatorGroupTable> compute(Project &project, const QVector<EvaluatorProfile> &evaluators,
                                               bool withPeople);
};

} // namespace rubric
