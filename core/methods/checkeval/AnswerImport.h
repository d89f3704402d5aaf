#pragma once

#include "rubric/Rubric.h"
#include "store/RubricStore.h"
#include "util/Result.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>
#include <QVector>

namespace rubric {

class Project;

/// What an import stored.
struct ImportedAnswers
{
    int answers = 0;    ///< rows with a yes or no
    int unanswered = 0; ///< rows with an empty answer (stored unanswered, never as "no")
    int items = 0;
    int questions = 0;
};

/// A checked file, ready to be written (AnswerImport::check): the rows as they will be stored.
struct AnswerImportPlan
{
    QString file;
    QString judge;
    bool createsJudge = false;                  ///< the judge does not exist yet (made with the checklist as version 1)
    QVector<CriterionScore> rows;               ///< one per CSV row, in file order (raw: the answer as written)
    QVector<int> lines;                         ///< each row's line in the file
    QHash<QString, QHash<QString, double>> met; ///< item → question key → meets the criterion (NaN: none)
    ImportedAnswers counts;
};

/// Per-question answers made elsewhere — another tool's LLM answers, or people's — stored as the
/// answers of a checklist judge, exactly as a CheckEval run stores its own (the literal answer,
/// and whether it meets the question's criterion), so that agreement between judges, the answer
/// grid and the question analytics take them like any run's.
///
/// The file is CSV (RFC 4180, a header row) with the columns `item` (an item id of the project),
/// `question` (a question's key, q3, or its exact text) and `answer` (yes / no, y / n, 1 / 0,
/// true / false, any case; empty = unanswered). Every row is checked before anything is written:
/// an unknown item or question, a bad answer, or a second answer to the same (item, question)
/// refuses the whole file with the file, the line and the field named.
class AnswerImport
{
    Q_DECLARE_TR_FUNCTIONS(AnswerImport)
public:
    /// Stores the answers of `file` as judge `judge` on `checklist` (its asked questions): a
    /// judge that does not exist yet is created with the checklist as its version 1; an existing
    /// one must be a checklist judge whose latest version asks the same questions. The item
    /// scores are the share of met answers (CheckEval's uniform score).
    static Result<ImportedAnswers> importCsv(Project &project, const QString &file, const QString &judge,
                                             const Rubric &checklist);
    /// Reads and checks every row of `file` as importCsv does and writes nothing (the studio's
    /// preview); the first bad row is the error, naming the file, its line and the field.
    static Result<AnswerImportPlan> check(Project &project, const QString &file, const QString &judge,
                                          const Rubric &checklist);
    /// Writes a plan check() made (all or nothing: a judge it created goes again when a write fails).
    static Result<ImportedAnswers> write(Project &project, const AnswerImportPlan &plan, const Rubric &checklist);
};

} // namespace rubric
