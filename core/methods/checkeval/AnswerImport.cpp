#include "AnswerImport.h"

#include "io/RecordSource.h"
#include "methods/checkeval/Checklist.h"
#include "methods/checkeval/ChecklistAnswers.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QHash>
#include <QSet>

#include <cmath>
#include <optional>

namespace rubric {
namespace {

const QString kMethod = QStringLiteral("checkeval");

/// yes → true, no → false, empty → nullopt (unanswered); `ok` false for anything else.
std::optional<bool> readAnswer(const QString &text, bool *ok)
{
    const QString t = text.trimmed().toLower();
    *ok = true;
    if (t.isEmpty())
        return std::nullopt;
    for (const char *yes : {"yes", "y", "1", "true"})
        if (t == QLatin1String(yes))
            return true;
    for (const char *no : {"no", "n", "0", "false"})
        if (t == QLatin1String(no))
            return false;
    *ok = false;
    return std::nullopt;
}

} // namespace

Result<ImportedAnswers> AnswerImport::importCsv(Project &project, const QString &file, const QString &judge,
                                                const Rubric &checklist)
{
    auto plan = check(project, file, judge, checklist);
    if (!plan)
        return plan.error();
    return write(project, *plan, checklist);
}

Result<AnswerImportPlan> AnswerImport::check(Project &project, const QString &file, const QString &judge,
                                             const Rubric &checklist)
{
    if (judge.trimmed().isEmpty())
        return makeError(tr("a judge name is needed for the imported answers"), file, 0, QStringLiteral("judge"));
    const QVector<Criterion> asked = Checklist::askedQuestions(checklist);
    if (asked.isEmpty())
        return makeError(tr("the checklist asks no question"), file, 0, QStringLiteral("checklist"));
    QHash<QString, Criterion> byKey, byText;
    for (const Criterion &q : asked) {
        byKey.insert(q.key, q);
        byText.insert(q.text.trimmed(), q);
    }
    // The judge: new, or a checklist judge asking the same questions.
    RubricStore store(&project); // reads only
    const auto existing = project.readJudge(judge);
    if (!existing)
        return existing.error();
    if (*existing) {
        if ((*existing)->method != kMethod)
            return makeError(tr("judge '%1' exists and is not a checklist judge (%2)").arg(judge, (*existing)->method),
                             file, 0, QStringLiteral("judge"));
        const auto latest = store.loadLatest(judge);
        if (!latest)
            return latest.error();
        QSet<QString> theirs, ours;
        if (*latest)
            for (const Criterion &q : Checklist::askedQuestions(**latest))
                theirs.insert(q.key + QLatin1Char('\n') + q.text.trimmed());
        for (const Criterion &q : asked)
            ours.insert(q.key + QLatin1Char('\n') + q.text.trimmed());
        if (theirs != ours)
            return makeError(tr("judge '%1' exists with other questions than the checklist's").arg(judge), file, 0,
                             QStringLiteral("judge"));
    }
    auto records = RecordSource::read(file, ImportFormat::Csv);
    if (!records)
        return records.error();
    if (records->isEmpty())
        return makeError(tr("the file holds no answers"), file, 1, {});
    for (const char *column : {"item", "question", "answer"})
        if (!records->first().columns.contains(QLatin1String(column)))
            return makeError(
                    tr("the header has no column '%1' (needed: item, question, answer)").arg(QLatin1String(column)),
                    file, 1, QString::fromLatin1(column));
    const auto items = project.readItemIds();
    if (!items)
        return items.error();
    const QSet<QString> knownItems(items->cbegin(), items->cend());

    // Every row checked first; nothing is written unless all are good.
    AnswerImportPlan plan;
    plan.file = file;
    plan.judge = judge;
    plan.createsJudge = !*existing;
    QVector<CriterionScore> &rows = plan.rows;
    QHash<QString, int> lineOf; // "item|key" → line
    QHash<QString, QHash<QString, double>> &met = plan.met;
    ImportedAnswers &out = plan.counts;
    for (const Record &r : std::as_const(*records)) {
        const QString item = r.fields.value(QStringLiteral("item")).toString().trimmed();
        const QString question = r.fields.value(QStringLiteral("question")).toString().trimmed();
        if (!knownItems.contains(item))
            return makeError(tr("no item with id '%1' in the project").arg(item), file, r.line, QStringLiteral("item"));
        std::optional<Criterion> q;
        if (byKey.contains(question))
            q = byKey.value(question);
        else if (byText.contains(question))
            q = byText.value(question);
        if (!q)
            return makeError(tr("'%1' is neither the key nor the text of a question the checklist asks").arg(question),
                             file, r.line, QStringLiteral("question"));
        bool ok = false;
        const QString text = r.fields.value(QStringLiteral("answer")).toString();
        const std::optional<bool> yes = readAnswer(text, &ok);
        if (!ok)
            return makeError(tr("'%1' is not an answer (yes, no, 1, 0, true, false, or empty for none)").arg(text),
                             file, r.line, QStringLiteral("answer"));
        const QString unit = item + QLatin1Char('|') + q->key;
        if (lineOf.contains(unit))
            return makeError(tr("a second answer of item '%1' to question %2 (the first is on line %3)")
                                     .arg(item, q->key)
                                     .arg(lineOf.value(unit)),
                             file, r.line, QStringLiteral("question"));
        lineOf.insert(unit, r.line);
        CriterionScore s;
        s.itemId = item;
        s.criterionKey = q->key;
        s.raw = tr("imported from %1, line %2: %3").arg(file).arg(r.line).arg(text.trimmed());
        if (yes) {
            s.answer = *yes ? 1.0 : 0.0;
            s.score = checkeval::meetsCriterion(*q, *yes) ? 1.0 : 0.0;
            s.parseStatus = QStringLiteral("ok");
            ++out.answers;
        } else {
            s.parseStatus = QStringLiteral("unparsed");
            ++out.unanswered;
        }
        met[item].insert(q->key, s.score);
        rows.append(s);
        plan.lines.append(r.line);
    }
    QSet<QString> questions;
    for (const CriterionScore &s : std::as_const(rows))
        questions.insert(s.criterionKey);
    out.items = int(met.size());
    out.questions = int(questions.size());
    return plan;
}

Result<ImportedAnswers> AnswerImport::write(Project &project, const AnswerImportPlan &plan, const Rubric &checklist)
{
    const QString &judge = plan.judge;
    RubricStore store(&project);
    // Written; a judge this import created goes again when a write fails.
    const bool created = plan.createsJudge;
    const auto undo = [&](const Error &e) -> Result<ImportedAnswers> {
        if (created)
            (void)project.removeJudge(judge);
        return e;
    };
    if (auto e = project.ensureJudge(judge, kMethod); !e)
        return undo(e.error());
    if (created)
        if (auto v = store.saveVersion(judge, checklist, tr("checklist of imported answers (%1)").arg(plan.file)); !v)
            return undo(v.error());
    if (auto w = store.writeCriterionScores(judge, plan.rows); !w)
        return undo(w.error());
    QHash<QString, double> scores;
    for (auto it = plan.met.cbegin(); it != plan.met.cend(); ++it)
        scores.insert(it.key(), checkeval::scoreItem(checklist, it.value(), false).score);
    if (auto s = project.setJudgeScores(judge, checklist.aspect(), scores); !s)
        return undo(s.error());
    return plan.counts;
}

} // namespace rubric
