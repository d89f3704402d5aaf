#pragma once

#include "rubric/Rubric.h"
#include "store/RubricStore.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace rubric {

class Project;

/// One judge's checklist and its stored answers (criterion scores, sample 0: 1 = meets the
/// criterion, 0 = does not — the polarity applied, as CheckEvalMethod stores them).
struct JudgeChecklist
{
    QString judge;
    Rubric rubric;
    QVector<CriterionScore> scores;
};

/// Agreement figures on a set of (item, question) units.
struct ChecklistAgreementFigures
{
    double alpha = std::numeric_limits<double>::quiet_NaN(); ///< Krippendorff's alpha, nominal
    double kappa = std::numeric_limits<double>::quiet_NaN(); ///< Fleiss' kappa
    int pairs = 0;      ///< units with answers from at least two judges (alpha's pairable units)
    int kappaUnits = 0; ///< units every judge answered (kappa's units)
};

struct SubAspectAgreement
{
    QString key;  ///< "s1"
    QString name; ///< the sub-aspect's text
    ChecklistAgreementFigures figures;
};

/// How often the judges disagree on one question.
struct QuestionDisagreement
{
    QString key;
    QString text;
    QString subAspect;   ///< the sub-aspect's name
    int items = 0;       ///< items with answers from at least two judges
    int disagreeing = 0; ///< of those, items on which the answers are not all equal
    double share = 0;    ///< disagreeing / items
};

struct ChecklistAgreement
{
    QStringList judges;
    int questions = 0;
    ChecklistAgreementFigures overall;
    QVector<SubAspectAgreement> perSubAspect; ///< in the checklist's order
    /// Every question with at least one unit, most disagreement first (ties in checklist order).
    QVector<QuestionDisagreement> disagreements;
};

/// Agreement between judges that answered one checklist (CheckEval's inter-evaluator agreement):
/// units are (item, question) pairs, coders the judges, values their 0/1 answers. Krippendorff's
/// alpha (nominal; missing answers allowed) and Fleiss' kappa (units every judge answered) via
/// core/stats/Agreement.h, overall and per sub-aspect, and the questions ranked by the share of
/// items with disagreement. Pure functions apart from fromProject, which reads the project.
class QuestionAgreement
{
    Q_DECLARE_TR_FUNCTIONS(QuestionAgreement)
public:
    /// The first judge's asked questions are the checklist; every other judge must have the same
    /// asked question keys with the same texts and the same polarity (refused with a message
    /// naming the judges and the question otherwise). Values compared: meets-criterion. `items` restricts the units to
    /// those items (empty = every item).
    static Result<ChecklistAgreement> compute(const QVector<JudgeChecklist> &judges, const QStringList &items = {});

    /// Reads each judge's latest rubric and criterion scores from the project. Every judge must
    /// exist, have a rubric with questions, and score `aspect`.
    static Result<ChecklistAgreement> fromProject(Project &project, const QString &aspect, const QStringList &judges,
                                                  const QStringList &items = {});
};

} // namespace rubric
